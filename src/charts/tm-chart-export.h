/* tm-chart-export.h — charts as files: a true vector SVG, or a PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline of a memory store (and the memory map of its allocation
 * index) built from the same layers the window shows, drawn into a cairo
 * SVG surface (shapes as <path> elements, every label a real <text>
 * element, no embedded image) or an image surface written as PNG. Above
 * the chart a title line names what it shows. No GTK: the command line's
 * --export=svg and the window's exports both call these.
 */
#pragma once

#include <gio/gio.h>

#include "tm-allocations.h"
#include "tm-chart.h"
#include "tm-chart-palette.h"
#include "tm-memory-store.h"
#include "tm-segments.h"

G_BEGIN_DECLS

/* The height of the title line above the chart. */
#define TM_CHART_TITLE_HEIGHT 32

/* What an exported timeline shows. */
typedef struct
{
  gint64   start_ps;        /* the time range; start = end: the whole profile */
  gint64   end_ps;
  int      width;           /* of the chart, without the title line */
  int      height;
  gboolean capacity_scale;  /* the byte axis up to the capacity, else Fit */
  guint    hidden;          /* series left out: 1 << TmSeries, 1 << 3 the fragmentation */
  gboolean has_selection;   /* a selected time, marked */
  gint64   selected_ps;
  GArray  *modules;         /* HLO modules (TmHloModule) for the band; NULL: none */
  TmSegments *segments;     /* a PyTorch snapshot's: its out-of-memory entries marked; NULL: none */
} TmTimelineChartOptions;

/* Options for the whole profile at 1200 × 400, Fit, nothing hidden. */
void     tm_timeline_chart_options_init (TmTimelineChartOptions       *options);

/* The timeline of store (finished, with snapshots) as a chart: axes,
 * series, fragmentation, the HLO band, the window peak, the selection and
 * the legend (tm-timeline-chart.h), its geometry set for the options. */
TmChart *tm_chart_new_timeline           (TmMemoryStore                *store,
                                          const TmTimelineChartOptions *options);
/* The memory map of allocations over [start_ps, end_ps] (start = end: the
 * whole profile) and the whole address axis, width × height, each
 * allocation in view a rectangle coloured by its op, open ends marked;
 * behind them a PyTorch snapshot's segments (NULL: none) and over them
 * its out-of-memory entries, as the window draws them. */
TmChart *tm_chart_new_memory_map         (TmAllocations                *allocations,
                                          TmSegments                   *segments,
                                          gint64                        start_ps,
                                          gint64                        end_ps,
                                          int                           width,
                                          int                           height);

/* Writes chart under a title line (NULL: none) as an SVG document in
 * palette's colours on its page colour. font: the labels' font (NULL:
 * Cantarell 11). */
gboolean tm_chart_write_svg              (TmChart                      *chart,
                                          const char                   *title,
                                          const TmChartPalette         *palette,
                                          const PangoFontDescription   *font,
                                          GOutputStream                *out,
                                          GCancellable                 *cancellable,
                                          GError                      **error);
/* The same as a PNG at scale device pixels per unit. */
gboolean tm_chart_write_png              (TmChart                      *chart,
                                          const char                   *title,
                                          const TmChartPalette         *palette,
                                          const PangoFontDescription   *font,
                                          int                           scale,
                                          GOutputStream                *out,
                                          GCancellable                 *cancellable,
                                          GError                      **error);

G_END_DECLS
