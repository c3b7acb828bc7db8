/* tm-axis.h — chart axes: the time ruler, the value axes and their labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline's plot sits inside the chart margins below; the overview
 * strip and anything else drawn under the timeline use the same left and
 * right margins, so that one x means one time in all of them.
 *
 * The time ruler counts milliseconds from the profile start with 2–12
 * "nice" steps (1, 2, 5 × 10^k ms) for the width; the byte axis has 2–8
 * nice byte steps for the height, its top the first step at or above the
 * largest value; the fragmentation axis on the right goes 0–100 %.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-chart-axes.h"
#include "tm-chart-layer.h"
#include "tm-palette.h"
#include "tm-viewport.h"

G_BEGIN_DECLS

/* Ticks for [start_ps, end_ps] over width pixels. */
void            tm_axis_time_ticks          (gint64                 start_ps,
                                             gint64                 end_ps,
                                             double                 width,
                                             TmTimeTicks           *ticks);
/* A tick label in ms with decimals decimals, digits grouped as
 * tm_format_count() groups them ("1 234.5"). */
char           *tm_axis_format_tick_ms      (gint64                 time_ps,
                                             int                    decimals);

/* The byte axis for values up to max_bytes (1 KiB when <= 0) on a plot
 * plot_height pixels high: the value at the top and the tick step. */
void            tm_axis_byte_scale          (gint64                 max_bytes,
                                             double                 plot_height,
                                             gint64                *y_max,
                                             gint64                *y_step);
/* "2.00 GiB" → "2 GiB", "50.0 %" → "50 %", in place; returns text. */
char           *tm_axis_trim_zeros          (char                  *text);

/* The y of value on a plot whose top is y_max. */
static inline double
tm_axis_value_to_y (const graphene_rect_t *plot,
                    gint64                 y_max,
                    double                 value)
{
  return plot->origin.y + plot->size.height - value / (double) y_max * plot->size.height;
}

/* Small tabular-figure text for labels. */
PangoLayout    *tm_axis_create_label_layout (GtkWidget             *widget);
/* Draws text with its (xalign, yalign) point at (x, y), over a rounded
 * background when one is given; returns the text's box. */
graphene_rect_t tm_axis_draw_label          (GtkSnapshot           *snapshot,
                                             PangoLayout           *layout,
                                             const char            *text,
                                             double                 x,
                                             double                 y,
                                             double                 xalign,
                                             double                 yalign,
                                             const GdkRGBA         *color,
                                             const GdkRGBA         *background);

/* A filled rectangle: the one shape every chart layer draws most. */
void            tm_axis_append_rect         (GtkSnapshot           *snapshot,
                                             const GdkRGBA         *color,
                                             double                 x,
                                             double                 y,
                                             double                 w,
                                             double                 h);

/* The byte axis on the left of plot with its horizontal grid, the
 * fragmentation axis on the right, and the time unit ("ms") at the right
 * end of the time ruler's labels, whose top is at label_y. */
void            tm_axis_draw_value_axes     (GtkSnapshot           *snapshot,
                                             PangoLayout           *layout,
                                             const graphene_rect_t *plot,
                                             gint64                 y_max,
                                             gint64                 y_step,
                                             double                 label_y,
                                             const TmPalette       *palette);
/* The time ruler under plot for viewport's visible range, with the
 * vertical grid; its labels' top at label_y. */
void            tm_axis_draw_time_ruler     (GtkSnapshot           *snapshot,
                                             PangoLayout           *layout,
                                             TmViewport            *viewport,
                                             const graphene_rect_t *plot,
                                             double                 label_y,
                                             const TmPalette       *palette);

/* time_ps in milliseconds with as many decimals as a view of span_ps
 * tells apart: three (microseconds) at least, six (nanoseconds) at most.
 * "1 234.567 ms", "1 234.567891 ms". */
char           *tm_axis_format_time         (gint64                 time_ps,
                                             gint64                 span_ps);

G_END_DECLS
