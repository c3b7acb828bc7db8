/* tm-chart-axes.h — the numbers of a chart's axes: ticks, steps, labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The time ruler counts milliseconds from the profile start with 2–12
 * "nice" steps (1, 2, 5 × 10^k ms) for the width; the byte axis has 2–8
 * nice byte steps for the height, its top the first step at or above the
 * largest value; the fragmentation axis on the right goes 0–100 %.
 * Plain arithmetic on exact integers: the axes layer (tm-axes-layer) and
 * the window's read-outs use it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The ticks of a time ruler: first, first + step, … up to the end. */
typedef struct
{
  gint64 first_ps;
  gint64 step_ps;
  int    decimals;   /* of the labels, in ms */
} TmTimeTicks;

/* Ticks for [start_ps, end_ps] over width pixels. */
void   tm_chart_axes_time_ticks     (gint64       start_ps,
                                     gint64       end_ps,
                                     double       width,
                                     TmTimeTicks *ticks);
/* A tick label in ms with decimals decimals, digits grouped as
 * tm_format_count() groups them ("1 234.5"). */
char  *tm_chart_axes_format_tick_ms (gint64       time_ps,
                                     int          decimals);
/* The byte axis for values up to max_bytes (1 KiB when <= 0) on a plot
 * plot_height pixels high: the value at the top and the tick step. */
void   tm_chart_axes_byte_scale     (gint64       max_bytes,
                                     double       plot_height,
                                     gint64      *y_max,
                                     gint64      *y_step);
/* "2.00 GiB" → "2 GiB", "50.0 %" → "50 %", in place; returns text. */
char  *tm_chart_axes_trim_zeros     (char        *text);
/* time_ps in milliseconds with as many decimals as a view of span_ps
 * tells apart: three (microseconds) at least, six (nanoseconds) at most.
 * "1 234.567 ms", "1 234.567891 ms". */
char  *tm_chart_axes_format_time    (gint64       time_ps,
                                     gint64       span_ps);

G_END_DECLS
