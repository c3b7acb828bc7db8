/* tm-chart-axes.c — the numbers of a chart's axes: ticks, steps, labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-chart-axes.h"
#include "tm-format.h"

void
tm_chart_axes_time_ticks (gint64       start_ps,
                          gint64       end_ps,
                          double       width,
                          TmTimeTicks *ticks)
{
  double span_ms = (double) (end_ps - start_ps) / 1e9;
  guint max_ticks = CLAMP ((guint) (width / 110.0), 2, 12);
  double step_ms;
  int decimals;

  g_return_if_fail (ticks != NULL);

  step_ms = tm_format_nice_step (span_ms, max_ticks);
  ticks->step_ps = MAX ((gint64) llround (step_ms * 1e9), 1);
  decimals = step_ms >= 1.0 ? 0 : (int) ceil (-log10 (step_ms) - 1e-9);
  ticks->decimals = CLAMP (decimals, 0, 9);
  ticks->first_ps = (start_ps / ticks->step_ps) * ticks->step_ps;
  if (ticks->first_ps < start_ps)
    ticks->first_ps += ticks->step_ps;
}

char *
tm_chart_axes_format_tick_ms (gint64 time_ps,
                              int    decimals)
{
  g_autofree char *int_part = NULL;
  guint64 mag = time_ps < 0 ? (guint64) 0 - (guint64) time_ps : (guint64) time_ps;
  guint64 unit = 1000000000;   /* ps per ms */
  guint64 frac_unit = 1;
  guint64 scaled, ip, fp;

  g_return_val_if_fail (decimals >= 0 && decimals <= 9, NULL);

  for (int i = 0; i < decimals; i++)
    frac_unit *= 10;
  /* Round to the decimals shown. */
  scaled = (mag + unit / frac_unit / 2) / (unit / frac_unit);
  ip = scaled / frac_unit;
  fp = scaled % frac_unit;
  int_part = tm_format_count (ip);

  if (decimals == 0)
    return g_strdup_printf ("%s%s", time_ps < 0 ? "−" : "", int_part);
  return g_strdup_printf ("%s%s.%0*" G_GUINT64_FORMAT, time_ps < 0 ? "−" : "", int_part, decimals, fp);
}

void
tm_chart_axes_byte_scale (gint64  max_bytes,
                          double  plot_height,
                          gint64 *y_max,
                          gint64 *y_step)
{
  guint max_ticks = CLAMP ((guint) (plot_height / 42.0), 2, 8);
  gint64 raw = max_bytes > 0 ? max_bytes : 1024;
  gint64 step;

  step = tm_format_nice_byte_step (raw, max_ticks);
  if (y_step != NULL)
    *y_step = step;
  if (y_max != NULL)
    *y_max = ((raw + step - 1) / step) * step;
}

char *
tm_chart_axes_trim_zeros (char *text)
{
  char *dot = strchr (text, '.');
  char *end;

  if (dot == NULL)
    return text;
  end = dot + 1;
  while (*end >= '0' && *end <= '9')
    end++;
  for (char *p = dot + 1; p < end; p++)
    if (*p != '0')
      return text;
  memmove (dot, end, strlen (end) + 1);
  return text;
}

char *
tm_chart_axes_format_time (gint64 time_ps,
                           gint64 span_ps)
{
  /* About a thousandth of the span is what a pointer can point at. */
  double resolution = MAX ((double) span_ps / 1000.0, 1.0);
  int decimals = CLAMP ((int) ceil (log10 (1e9 / resolution)), 3, 6);
  guint64 unit = 1, mag, rounded;
  g_autofree char *whole = NULL;

  if (decimals == 3)
    return tm_format_time_ms (time_ps);

  for (int i = decimals; i < 9; i++)
    unit *= 10;
  mag = time_ps < 0 ? (guint64) 0 - (guint64) time_ps : (guint64) time_ps;
  rounded = mag / unit + (mag % unit >= unit / 2 ? 1 : 0);
  whole = tm_format_count (rounded / (1000000000 / unit));

  return g_strdup_printf ("%s%s.%0*" G_GUINT64_FORMAT " ms",
                          time_ps < 0 ? "−" : "", whole, decimals,
                          rounded % (1000000000 / unit));
}
