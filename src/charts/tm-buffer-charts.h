/* tm-buffer-charts.h — the Memory Viewer page's three charts of one module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Made from one computed module and memory space (tm-buffer-assignment,
 * docs/buffer-assignment.md), whose figures it copies (the result may go
 * when this is made):
 *   TM_BUFFER_CHART_HEAP     the heap with and without padding over the
 *                            program points (TmProgramAxesLayer, TmHeapLayer,
 *                            the peak's TmMarkLayer);
 *   TM_BUFFER_CHART_BARS     the objects live at the peak in program order,
 *                            by size and by padding (TmHeapBarsLayer);
 *   TM_BUFFER_CHART_OFFSETS  the allocation chart, program point × offset:
 *                            every block drawn by the memory map's painter
 *                            (TmRectMapLayer over TmRasterRect).
 * The program axis is the same in the heap and the offset charts: point p
 * is drawn over [p, p + 1); a logical buffer allocated by event s and
 * freed by event e is in the heap at points s + 1 to e, and drawn there.
 * A plain object, no GTK: the page draws it on screen, the benchmark into
 * an image.
 */
#pragma once

#include "tm-buffer-assignment.h"
#include "tm-chart.h"

G_BEGIN_DECLS

typedef enum
{
  TM_BUFFER_CHART_HEAP,
  TM_BUFFER_CHART_BARS,
  TM_BUFFER_CHART_OFFSETS,
  TM_BUFFER_N_CHARTS
} TmBufferChartKind;

#define TM_TYPE_BUFFER_CHARTS (tm_buffer_charts_get_type ())

G_DECLARE_FINAL_TYPE (TmBufferCharts, tm_buffer_charts, TM, BUFFER_CHARTS, GObject)

TmBufferCharts *tm_buffer_charts_new           (const TmBufferAssignment *assignment);

/* Whether the module has a heap simulator trace (else the heap and the
 * offset charts are empty), and objects at the peak. */
gboolean        tm_buffer_charts_has_trace     (TmBufferCharts           *self);
gboolean        tm_buffer_charts_has_objects   (TmBufferCharts           *self);
/* The program points of the x axis (heap sizes' length). */
guint           tm_buffer_charts_get_n_points  (TmBufferCharts           *self);

/* The height the bars need with canvas's font. */
int             tm_buffer_charts_get_bars_height (TmBufferCharts         *self,
                                                  TmChartCanvas          *canvas);
/* Lays chart kind out for width × height pixels (once per size). */
void            tm_buffer_charts_set_size      (TmBufferCharts           *self,
                                                TmBufferChartKind         kind,
                                                int                       width,
                                                int                       height);
TmChart        *tm_buffer_charts_get_chart     (TmBufferCharts           *self,
                                                TmBufferChartKind         kind);
void            tm_buffer_charts_draw          (TmBufferCharts           *self,
                                                TmBufferChartKind         kind,
                                                TmChartCanvas            *canvas);

/* The program point at x on the heap or the offset chart (G_MAXUINT:
 * outside the plot), and the left edge of a point. */
guint           tm_buffer_charts_point_at      (TmBufferCharts           *self,
                                                TmBufferChartKind         kind,
                                                double                    x);
double          tm_buffer_charts_point_to_x    (TmBufferCharts           *self,
                                                TmBufferChartKind         kind,
                                                guint                     point);
/* The object at the peak at (x, y) of the bars (an index into the
 * result's max_heap; G_MAXUINT: none). */
guint           tm_buffer_charts_object_at     (TmBufferCharts           *self,
                                                TmChartCanvas            *canvas,
                                                double                    x,
                                                double                    y);
/* The block at (x, y) of the offset chart (an index into the result's
 * blocks, never a container; G_MAXUINT: none). */
guint           tm_buffer_charts_block_at      (TmBufferCharts           *self,
                                                double                    x,
                                                double                    y);

/* Outlines the logical buffer's object and block (-1 and others: none). */
void            tm_buffer_charts_select        (TmBufferCharts           *self,
                                                gint64                    logical_buffer_id);
/* Fades every object and block but those of these logical buffers
 * (gint64, sorted ascending); NULL: none faded. */
void            tm_buffer_charts_set_lit       (TmBufferCharts           *self,
                                                GArray                   *logical_buffer_ids);

G_END_DECLS
