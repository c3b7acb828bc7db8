/* tm-palette.h — the colours of the memory charts, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The colours of tm-chart-palette as GdkRGBA, for the views that draw
 * with GtkSnapshot, and the palette of a widget's style.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-chart-palette.h"

G_BEGIN_DECLS

/* Everything a chart draws with. */
typedef struct
{
  gboolean dark;
  GdkRGBA  fg;                          /* text and marks */
  GdkRGBA  dim;                         /* axis labels */
  GdkRGBA  grid;
  GdkRGBA  background;                  /* behind labels over the data */
  GdkRGBA  series[TM_N_SERIES];         /* a series' top line */
  GdkRGBA  series_fill[TM_N_SERIES];    /* the area under it */
  GdkRGBA  frag;
  GdkRGBA  accent;
  GdkRGBA  accent_fill;
  GdkRGBA  peak;
  GdkRGBA  hlo[2];                      /* alternate HLO modules */
} TmPalette;

void     tm_palette_get_color       (TmPaletteColor  color,
                                     gboolean        dark,
                                     GdkRGBA        *rgba);

/* Whether widget is drawn in a dark style (light text). */
gboolean tm_palette_is_dark_style   (GtkWidget      *widget);

/* The palette for text in fg on a dark or a light style. */
void     tm_palette_init            (TmPalette      *palette,
                                     const GdkRGBA  *fg,
                                     gboolean        dark);
/* The palette for widget's style. */
void     tm_palette_init_for_widget (TmPalette      *palette,
                                     GtkWidget      *widget);

/* The same colours for the chart layers (tm-chart-layer). */
void     tm_palette_to_chart        (const TmPalette *palette,
                                     TmChartPalette  *out);

/* A stable colour for a name (an op, a scope, a region type ...): the same
 * name always gets the same colour, in every view and every run, from the
 * GNOME palette (lighter shades on a light style, deeper on a dark one).
 * Views that colour by op or scope (the scope picture, the memory map) use
 * it so that a name has one colour everywhere. */
void     tm_palette_color_for_name  (const char     *name,
                                     gboolean        dark,
                                     GdkRGBA        *out);

G_END_DECLS
