/* test-viewport.c — zoom and pan maths of the timeline, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "tm-viewport.h"

#define DATA_START G_GINT64_CONSTANT (1000000)
#define DATA_END   G_GINT64_CONSTANT (9001000000)   /* 9 ms of data */

static TmViewport *
viewport_new (void)
{
  TmViewport *vp = tm_viewport_new ();

  tm_viewport_set_limits (vp, DATA_START, DATA_END);
  return vp;
}

static void
assert_inside (TmViewport *vp)
{
  g_assert_cmpint (tm_viewport_get_start (vp), >=, tm_viewport_get_data_start (vp));
  g_assert_cmpint (tm_viewport_get_end (vp), <=, tm_viewport_get_data_end (vp));
  g_assert_cmpint (tm_viewport_get_end (vp), >, tm_viewport_get_start (vp));
  g_assert_cmpint (tm_viewport_get_span (vp), >=,
                   MIN (tm_viewport_get_min_span (vp),
                        tm_viewport_get_data_end (vp) - tm_viewport_get_data_start (vp)));
}

static void
test_viewport_limits_reset (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();

  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);
  g_assert_false (tm_viewport_is_zoomed (vp));
  g_assert_cmpfloat (tm_viewport_get_zoom (vp), ==, 1.0);
  g_assert_false (tm_viewport_can_zoom_out (vp));
  g_assert_true (tm_viewport_can_zoom_in (vp));

  tm_viewport_set_range (vp, 2000000000, 3000000000);
  g_assert_true (tm_viewport_is_zoomed (vp));
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 2000000000);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 3000000000);
  g_assert_cmpfloat_with_epsilon (tm_viewport_get_zoom (vp), 9.0, 1e-9);

  tm_viewport_reset (vp);
  g_assert_false (tm_viewport_is_zoomed (vp));
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);

  /* New limits show all of the new data. */
  tm_viewport_set_range (vp, 2000000000, 3000000000);
  tm_viewport_set_limits (vp, 0, 500);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 0);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 500);

  /* A single instant becomes 1 ps; inverted limits are swapped. */
  tm_viewport_set_limits (vp, 42, 42);
  g_assert_cmpint (tm_viewport_get_data_start (vp), ==, 42);
  g_assert_cmpint (tm_viewport_get_data_end (vp), ==, 43);
  tm_viewport_zoom (vp, 1000.0, 42);
  assert_inside (vp);
  tm_viewport_set_limits (vp, 900, 100);
  g_assert_cmpint (tm_viewport_get_data_start (vp), ==, 100);
  g_assert_cmpint (tm_viewport_get_data_end (vp), ==, 900);
}

/* Zooming at a point keeps that point at the same place on screen. */
static void
test_viewport_zoom_keeps_anchor (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();
  const double width = 1920.0;
  const double xs[] = { 100.0, 960.0, 1500.5, 1919.0, 3.0 };

  for (guint i = 0; i < G_N_ELEMENTS (xs); i++)
    {
      double x = xs[i];

      for (guint step = 0; step < 12; step++)
        {
          gint64 anchor = tm_viewport_x_to_time (vp, x, width);
          double factor = step < 8 ? 1.6 : 1.0 / 1.3;

          tm_viewport_zoom (vp, factor, anchor);
          assert_inside (vp);
          /* Within a pixel's rounding: the time under x is still anchor. */
          g_assert_cmpfloat_with_epsilon (tm_viewport_time_to_x (vp, anchor, width), x, 0.01);
        }
      tm_viewport_reset (vp);
    }

  /* Fraction form: zooming at the centre keeps the centre. */
  tm_viewport_set_range (vp, 3000000000, 5000000000);
  tm_viewport_zoom_at_fraction (vp, 2.0, 0.5);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 3500000000);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 4500000000);
  tm_viewport_zoom_at_fraction (vp, 0.5, 0.0);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 3500000000);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 5500000000);
}

/* Zooming in stops at the minimum span, zooming out at the data. */
static void
test_viewport_zoom_limits (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();
  gint64 anchor = 4567891234;

  for (guint i = 0; i < 200; i++)
    {
      tm_viewport_zoom (vp, 2.0, anchor);
      assert_inside (vp);
    }
  g_assert_cmpint (tm_viewport_get_span (vp), ==, TM_VIEWPORT_DEFAULT_MIN_SPAN);
  g_assert_false (tm_viewport_can_zoom_in (vp));
  g_assert_cmpint (tm_viewport_get_start (vp), <=, anchor);
  g_assert_cmpint (tm_viewport_get_end (vp), >=, anchor);

  for (guint i = 0; i < 200; i++)
    {
      tm_viewport_zoom (vp, 0.5, anchor);
      assert_inside (vp);
    }
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);
  g_assert_false (tm_viewport_can_zoom_out (vp));

  /* Zooming out near an edge shifts the range inside instead of past. */
  tm_viewport_set_range (vp, DATA_START, DATA_START + 1000000);
  tm_viewport_zoom (vp, 0.25, DATA_START + 10);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 4000000);

  /* Nonsense factors change nothing. */
  tm_viewport_zoom (vp, 0.0, DATA_START);
  tm_viewport_zoom (vp, -3.0, DATA_START);
  tm_viewport_zoom (vp, NAN, DATA_START);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 4000000);

  /* A larger minimum span widens the current range around its centre. */
  tm_viewport_set_range (vp, 5000000000, 5000020000);
  tm_viewport_set_min_span (vp, 1000000);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 1000000);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 5000010000 - 500000);

  /* Data shorter than the minimum span: the whole data, not more. */
  tm_viewport_set_limits (vp, 0, 300);
  tm_viewport_zoom (vp, 10.0, 150);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 0);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 300);
}

static void
test_viewport_set_range_clamps (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();

  /* Inverted: swapped. */
  tm_viewport_set_range (vp, 5000000000, 4000000000);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 4000000000);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 5000000000);

  /* Past the end: moved inside, span kept. */
  tm_viewport_set_range (vp, DATA_END - 100, DATA_END + 999900);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 1000000);

  /* Before the start. */
  tm_viewport_set_range (vp, DATA_START - 5000, DATA_START + 995000);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 1000000);

  /* Wider than the data: all of it. */
  tm_viewport_set_range (vp, G_MININT64 / 2, G_MAXINT64 / 2);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);

  /* Too short: widened to the minimum span around its centre. */
  tm_viewport_set_range (vp, 2000000000, 2000000002);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, TM_VIEWPORT_DEFAULT_MIN_SPAN);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 2000000001 - TM_VIEWPORT_DEFAULT_MIN_SPAN / 2);

  /* The properties go through the same clamping. */
  g_object_set (vp, "start", DATA_START - 10, NULL);
  assert_inside (vp);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
}

static void
test_viewport_pan_clamps (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();

  tm_viewport_set_range (vp, 4000000000, 5000000000);

  tm_viewport_pan (vp, 250000000);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 4250000000);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, 5250000000);

  tm_viewport_pan_fraction (vp, -0.5);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, 3750000000);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 1000000000);

  /* Far past either end: stops there, span kept. */
  tm_viewport_pan (vp, G_GINT64_CONSTANT (1) << 50);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 1000000000);
  tm_viewport_pan_fraction (vp, -1e6);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 1000000000);

  /* Zoomed out fully, panning does nothing. */
  tm_viewport_reset (vp);
  tm_viewport_pan (vp, 123456789);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, DATA_START);
  g_assert_cmpint (tm_viewport_get_end (vp), ==, DATA_END);
}

static void
test_viewport_pinch (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();
  gint64 anchor = 3000000000;

  /* Span and anchor together: anchor lands at the fraction given. */
  tm_viewport_set_span_at (vp, 2000000000, anchor, 0.25);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, 2000000000);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, anchor - 500000000);

  /* Fingers moving right keep the anchor under them: the range pans. */
  tm_viewport_set_span_at (vp, 2000000000, anchor, 0.75);
  g_assert_cmpint (tm_viewport_get_start (vp), ==, anchor - 1500000000);

  /* Clamped at both limits. */
  tm_viewport_set_span_at (vp, 1, anchor, 0.5);
  g_assert_cmpint (tm_viewport_get_span (vp), ==, TM_VIEWPORT_DEFAULT_MIN_SPAN);
  tm_viewport_set_span_at (vp, G_MAXINT64, anchor, 0.5);
  g_assert_false (tm_viewport_is_zoomed (vp));
}

static void
test_viewport_conversions (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();

  tm_viewport_set_range (vp, 2000000000, 3000000000);
  g_assert_cmpfloat (tm_viewport_time_to_x (vp, 2000000000, 1000.0), ==, 0.0);
  g_assert_cmpfloat (tm_viewport_time_to_x (vp, 3000000000, 1000.0), ==, 1000.0);
  g_assert_cmpfloat (tm_viewport_time_to_x (vp, 2500000000, 1000.0), ==, 500.0);
  g_assert_cmpint (tm_viewport_x_to_time (vp, 250.0, 1000.0), ==, 2250000000);
  g_assert_cmpint (tm_viewport_x_to_time (vp, 0.0, 0.0), ==, 2000000000);

  for (double x = 0; x <= 1000.0; x += 37.5)
    g_assert_cmpfloat_with_epsilon (tm_viewport_time_to_x (vp, tm_viewport_x_to_time (vp, x, 1000.0), 1000.0),
                                    x, 1e-6);
}

static void
count_cb (TmViewport *vp,
          guint      *count)
{
  (*count)++;
}

static void
notify_cb (TmViewport *vp,
           GParamSpec *pspec,
           guint      *count)
{
  (*count)++;
}

static void
test_viewport_signals (void)
{
  g_autoptr(TmViewport) vp = viewport_new ();
  guint changed = 0, start_notified = 0, end_notified = 0;

  g_signal_connect (vp, "changed", G_CALLBACK (count_cb), &changed);
  g_signal_connect (vp, "notify::start", G_CALLBACK (notify_cb), &start_notified);
  g_signal_connect (vp, "notify::end", G_CALLBACK (notify_cb), &end_notified);

  /* Nothing changes: nothing emitted. */
  tm_viewport_reset (vp);
  tm_viewport_pan (vp, 1000);
  tm_viewport_zoom (vp, 0.5, 0);
  g_assert_cmpuint (changed, ==, 0);
  g_assert_cmpuint (start_notified, ==, 0);

  tm_viewport_zoom (vp, 2.0, DATA_START);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (start_notified, ==, 0);   /* anchored at the start */
  g_assert_cmpuint (end_notified, ==, 1);

  tm_viewport_pan (vp, 1000);
  g_assert_cmpuint (changed, ==, 2);
  g_assert_cmpuint (start_notified, ==, 1);
  g_assert_cmpuint (end_notified, ==, 2);

  tm_viewport_set_limits (vp, 0, 10);
  g_assert_cmpuint (changed, ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/viewport/limits-reset", test_viewport_limits_reset);
  g_test_add_func ("/viewport/zoom-keeps-anchor", test_viewport_zoom_keeps_anchor);
  g_test_add_func ("/viewport/zoom-limits", test_viewport_zoom_limits);
  g_test_add_func ("/viewport/set-range-clamps", test_viewport_set_range_clamps);
  g_test_add_func ("/viewport/pan-clamps", test_viewport_pan_clamps);
  g_test_add_func ("/viewport/pinch", test_viewport_pinch);
  g_test_add_func ("/viewport/conversions", test_viewport_conversions);
  g_test_add_func ("/viewport/signals", test_viewport_signals);

  return g_test_run ();
}
