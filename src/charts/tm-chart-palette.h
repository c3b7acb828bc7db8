/* tm-chart-palette.h — the colours of the memory charts, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The series colours come from the GNOME palette, with lighter shades on
 * dark styles. Every chart (the window's views, the PNG and SVG exports,
 * the command line's SVG) draws with them, so that a series has one colour
 * everywhere. src/app/tm-palette.h gives the same colours as GdkRGBA.
 */
#pragma once

#include <glib.h>

#include "tm-chart-canvas.h"

G_BEGIN_DECLS

typedef enum
{
  TM_PALETTE_STACK,
  TM_PALETTE_HEAP,
  TM_PALETTE_FREE,
  TM_PALETTE_FRAGMENTATION,
  TM_PALETTE_ACCENT,
  TM_PALETTE_HLO,
  TM_PALETTE_HLO_ALT,
  TM_PALETTE_BASELINE,   /* a comparison's baseline: apart from the series, the peak and the scopes */
  TM_PALETTE_PLAN,       /* an XLA module's planned level over its executions */
} TmPaletteColor;

/* The stacked series, top to bottom of the stack: free over heap over
 * stack. */
typedef enum
{
  TM_SERIES_FREE,
  TM_SERIES_HEAP,
  TM_SERIES_STACK,
  TM_N_SERIES
} TmSeries;

/* Everything a chart draws with. */
struct _TmChartPalette
{
  gboolean      dark;
  TmChartColor  fg;                          /* text and marks */
  TmChartColor  dim;                         /* axis labels */
  TmChartColor  grid;
  TmChartColor  background;                  /* behind labels over the data */
  TmChartColor  series[TM_N_SERIES];         /* a series' top line */
  TmChartColor  series_fill[TM_N_SERIES];    /* the area under it */
  TmChartColor  frag;
  TmChartColor  accent;
  TmChartColor  accent_fill;
  TmChartColor  peak;
  TmChartColor  hlo[2];                      /* alternate HLO modules */
};

void tm_chart_palette_get_color      (TmPaletteColor      color,
                                      gboolean            dark,
                                      TmChartColor       *out);
/* The palette for text in fg on a dark or a light style. */
void tm_chart_palette_init           (TmChartPalette     *palette,
                                      const TmChartColor *fg,
                                      gboolean            dark);
/* The light palette of an exported chart (text 80 % black), or the dark
 * one (white text). */
void tm_chart_palette_init_default   (TmChartPalette     *palette,
                                      gboolean            dark);
/* The page behind an exported chart. */
void tm_chart_palette_get_page       (gboolean            dark,
                                      TmChartColor       *out);
/* A stable colour for a name (an op, a scope, a region type ...): the same
 * name always gets the same colour, in every view and every run, from the
 * GNOME palette (lighter shades on a light style, deeper on a dark one). */
void tm_chart_palette_color_for_name (const char         *name,
                                      gboolean            dark,
                                      TmChartColor       *out);

G_END_DECLS
