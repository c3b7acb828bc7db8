/* tm-buffer-chart-area.h — one of the Memory Viewer's charts on screen
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A drawing helper, no session: draws one chart of a TmBufferCharts
 * (src/charts/tm-buffer-charts.h) with the widget's font and its style's
 * colours, kept as a render node until the size, the colours or the
 * charts change (tm_buffer_chart_area_redraw()). Over it: a cursor at a
 * program point (the heap and the offset charts), and a focus ring. The
 * pointer is reported with "hover" (x, y; −1, −1 when it leaves) and
 * clicks with "pressed" (x, y); keys are the owner's.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-buffer-charts.h"

G_BEGIN_DECLS

#define TM_TYPE_BUFFER_CHART_AREA (tm_buffer_chart_area_get_type ())

G_DECLARE_FINAL_TYPE (TmBufferChartArea, tm_buffer_chart_area, TM, BUFFER_CHART_AREA, GtkWidget)

GtkWidget      *tm_buffer_chart_area_new         (TmBufferChartKind  kind);
/* The charts drawn (a reference is taken; NULL: nothing). */
void            tm_buffer_chart_area_set_charts  (TmBufferChartArea *self,
                                                  TmBufferCharts    *charts);
TmBufferCharts *tm_buffer_chart_area_get_charts  (TmBufferChartArea *self);
/* A canvas with the widget's font, for hit tests (free it). */
TmChartCanvas  *tm_buffer_chart_area_new_canvas  (TmBufferChartArea *self,
                                                  cairo_t          **cr);
/* The program point marked by a line (G_MAXUINT: none). */
void            tm_buffer_chart_area_set_cursor  (TmBufferChartArea *self,
                                                  guint              point);
/* Draws the chart again (a selection or highlight changed in it). */
void            tm_buffer_chart_area_redraw      (TmBufferChartArea *self);

G_END_DECLS
