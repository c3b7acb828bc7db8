/* test-timeline.c — the timeline widget, its overview strip and HLO table,
 * rendered for real under Xvfb; in a window over the tour fixture, the
 * legend's toggles, range figures, picking under the pointer, the y
 * scale, and the PNG and SVG exports with every overlay
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pictures are rendered with the cairo renderer into a texture and read back
 * pixel by pixel: the tests look for the heap's top line (full-strength
 * orange) where the data puts it.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <gtk/gtk.h>

#include "tm-breakdown-view.h"
#include "tm-chart-export.h"
#include "tm-hlo-view.h"
#include "tm-overview.h"
#include "tm-palette.h"
#include "tm-scope-series-query.h"
#include "tm-session.h"
#include "tm-test-time.h"
#include "tm-test-util.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

#define WIDTH  720
#define HEIGHT 320
#define MIB    (G_GINT64_CONSTANT (1) << 20)
#define GIB    (G_GINT64_CONSTANT (1) << 30)
#define MS     G_GINT64_CONSTANT (1000000000)

static char *fixture_dir;
static char *tour_path;   /* tm_fixture_space_new_tour () */

static void
pixel_at (const TmTestPicture *p,
          int                  x,
          int                  y,
          guint               *r,
          guint               *g,
          guint               *b)
{
  const guchar *px = p->data + (gsize) y * p->stride + (gsize) x * 4;

  *b = px[0];
  *g = px[1];
  *r = px[2];
}

/* The heap's full-strength line colour, light style (#ff7800). */
static gboolean
is_heap_line (const TmTestPicture *p,
              int                  x,
              int                  y)
{
  guint r, g, b;

  pixel_at (p, x, y, &r, &g, &b);
  return r > 230 && g > 95 && g < 150 && b < 50;
}

/* The topmost heap line pixel of the plot in column x, or -1. */
static int
heap_top (const TmTestPicture    *p,
          const TmTimelineLayout *layout,
          int                     x)
{
  for (int y = (int) layout->plot.origin.y; y < (int) (layout->plot.origin.y + layout->plot.size.height); y++)
    if (is_heap_line (p, x, y))
      return y;
  return -1;
}

static TmTestPicture *
render (TmTimeline *timeline)
{
  int width = gtk_widget_get_width (GTK_WIDGET (timeline));
  int height = gtk_widget_get_height (GTK_WIDGET (timeline));

  return tm_test_render_node (tm_timeline_render_node (timeline, width, height), width, height);
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                            */

static void
add_memory_event (TmFixtureLine *line,
                  gboolean       allocation,
                  gint64         time_ps,
                  gint64         heap,
                  gint64         free_bytes,
                  double         fragmentation,
                  gint64         size,
                  guint64        addr,
                  const char    *op)
{
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_reserved = 0,
    .bytes_allocated = heap,
    .bytes_available = free_bytes,
    .fragmentation = fragmentation,
    .peak_bytes_in_use = heap,
    .requested_bytes = size,
    .allocation_bytes = size,
    .addr = addr,
    .tf_op = op,
    .has_group_id = TRUE,
    .group_id = 7,
    .region_type = "output",
    .data_type = 1,
    .shape = "[16, 1024]",
  };

  tm_fixture_line_add_memory_event (line, allocation, time_ps, &m);
}

#define FLAT_HEAP   (G_GINT64_CONSTANT (1) << 20)
#define SPIKE_HEAP  (G_GINT64_CONSTANT (64) << 20)
#define N_FLAT      3000
#define SPIKE_INDEX 1234
#define STEP_PS     G_GINT64_CONSTANT (1000000)   /* 1 µs between events */

/* N_FLAT events at 1 MiB of heap, no free data, except one allocation of
 * 63 MiB freed by the next event: a one-sample spike. */
static TmProfile *
load_spike_profile (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  TmFixtureLine *line;
  TmProfile *profile;

  line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  for (guint i = 0; i < N_FLAT; i++)
    {
      gboolean spike = i == SPIKE_INDEX;
      gboolean after = i == SPIKE_INDEX + 1;

      add_memory_event (line, !after, (gint64) i * STEP_PS,
                        spike ? SPIKE_HEAP : FLAT_HEAP, 0, 0.25,
                        spike || after ? SPIKE_HEAP - FLAT_HEAP : 256,
                        spike || after ? 0xdead00 : 0x1000 + i * 256,
                        spike ? "spike/Conv2D" : "flat/Add");
    }

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

/* Five events at uneven times, for hit-testing. */
static const gint64 pick_times[] = { 0, 1000000, 2000000, 5000000, 9000000 };

static TmProfile *
load_pick_profile (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  TmFixtureLine *line;
  TmProfile *profile;

  line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  for (guint i = 0; i < G_N_ELEMENTS (pick_times); i++)
    add_memory_event (line, TRUE, pick_times[i], (i + 1) * FLAT_HEAP, 8 * FLAT_HEAP, 1e-5, FLAT_HEAP, 0x1000 + i,
                      i == 4 ? "pick/<Op> & more" : "pick/Op");

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

/* Memory events plus six HLO modules on two TPUs. */
static TmProfile *
load_hlo_profile (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  TmFixtureLine *line;
  TmProfile *profile;

  line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  for (guint i = 0; i < 100; i++)
    add_memory_event (line, TRUE, (gint64) i * 100 * STEP_PS, (1 + i % 7) * FLAT_HEAP, 16 * FLAT_HEAP, 0.25,
                      FLAT_HEAP, 0x1000 + i, "hlo/Op");
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *name = g_strdup_printf ("jit_step_%u", i);

      tm_fixture_space_add_hlo_module (space, i % 2, name,
                                       (gint64) i * 1600 * STEP_PS,
                                       (gint64) i * 1600 * STEP_PS + 1200 * STEP_PS);
    }

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

/* ------------------------------------------------------------------ */
/* A window to put widgets in                                          */

static void
wait_for_size (GtkWidget *widget)
{
  gint64 deadline = tm_test_deadline (10);

  while (gtk_widget_get_width (widget) <= 0 || !gtk_widget_get_mapped (widget))
    {
      g_main_context_iteration (NULL, FALSE);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static GtkWidget *
window_with (GtkWidget *child,
             int        width,
             int        height)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  wait_for_size (child);

  return window;
}

static double
layout_y (const TmTimelineLayout *layout,
          gint64                  bytes)
{
  return layout->plot.origin.y + layout->plot.size.height
         - (double) bytes / (double) layout->y_max * layout->plot.size.height;
}

static double
layout_x (TmTimeline             *timeline,
          const TmTimelineLayout *layout,
          gint64                  time_ps)
{
  TmViewport *viewport = tm_session_get_viewport (tm_view_get_session (TM_VIEW (timeline)));

  return layout->plot.origin.x + tm_viewport_time_to_x (viewport, time_ps, layout->plot.size.width);
}

/* A session showing store of profile. */
static TmSession *
session_new_for (TmProfile     *profile,
                 TmMemoryStore *store)
{
  TmSession *session = tm_session_new ();

  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, store);
  return session;
}

/* ------------------------------------------------------------------ */
/* Tests                                                               */

/* A single-sample spike among 3000 flat events shows at full height in its
 * pixel column, zoomed out, where 10 events share a column. */
static void
test_timeline_spike (void)
{
  g_autoptr(TmProfile) profile = load_spike_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = tm_session_new ();
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  GtkWidget *window = window_with (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  g_autoptr(TmTestPicture) picture = NULL;
  TmTimelineLayout layout;
  gint64 spike_time;
  int spike_x, y_spike, y_flat, hits = 0;

  g_assert_nonnull (store);
  g_assert_false (tm_memory_store_has_free_data (store));
  g_assert_true (tm_view_get_session (TM_VIEW (timeline)) == session);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, store);
  g_assert_false (tm_viewport_is_zoomed (tm_session_get_viewport (session)));

  picture = render (timeline);
  tm_timeline_get_layout (timeline, &layout);
  g_assert_cmpint (layout.y_max, >=, SPIKE_HEAP);
  g_assert_cmpint (layout.y_max, <, 2 * SPIKE_HEAP);
  g_assert_cmpfloat (layout.plot.size.width, <, N_FLAT / 4);   /* several events per column */

  spike_time = tm_memory_store_get_times (store)[SPIKE_INDEX];
  g_assert_cmpint (spike_time, ==, SPIKE_INDEX * STEP_PS);
  spike_x = (int) floor (layout_x (timeline, &layout, spike_time));
  y_spike = (int) round (layout_y (&layout, SPIKE_HEAP));
  y_flat = (int) round (layout_y (&layout, FLAT_HEAP));

  /* The spike's column reaches the spike's height (its line is 2 px). */
  g_assert_cmpint (abs (heap_top (picture, &layout, spike_x) - y_spike), <=, 2);

  /* Every other column of the plot shows the flat heap line, and only the
   * spike's column (and at most its neighbour, for rounding) goes higher. */
  for (int x = (int) layout.plot.origin.x + 1; x < (int) (layout.plot.origin.x + layout.plot.size.width) - 1; x++)
    {
      int top = heap_top (picture, &layout, x);

      g_assert_cmpint (top, >=, 0);
      if (top < y_flat - 3)
        {
          hits++;
          g_assert_cmpint (abs (x - spike_x), <=, 1);
        }
      else
        g_assert_cmpint (abs (top - y_flat), <=, 2);
    }
  g_assert_cmpint (hits, >=, 1);
  g_assert_cmpint (hits, <=, 2);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The real GPU profile: the picture is not blank and the peak column is
 * drawn at the peak's height. */
static void
test_timeline_real_gpu (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTestPicture) picture = NULL;
  g_autoptr(TmSession) session = NULL;
  TmMemoryStore *store;
  TmTimeline *timeline;
  GtkWidget *window;
  TmTimelineLayout layout;
  const TmSummary *summary;
  guint coloured = 0, total = 0;
  int peak_x, peak_y, best = G_MAXINT;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  store = tm_profile_lookup_memory_store (profile, "GPU_6_bfc");
  g_assert_nonnull (store);
  summary = tm_memory_store_get_summary (store);
  g_assert_cmpint (summary->peak_bytes_in_use, >, G_GINT64_CONSTANT (5) << 30);

  session = session_new_for (profile, store);
  timeline = TM_TIMELINE (tm_timeline_new (session));
  window = window_with (GTK_WIDGET (timeline), 1000, 360);
  picture = render (timeline);
  tm_timeline_get_layout (timeline, &layout);

  /* Not blank: most of the plot is coloured (heap and free areas). */
  for (int y = (int) layout.plot.origin.y + 2; y < (int) (layout.plot.origin.y + layout.plot.size.height) - 2; y += 3)
    for (int x = (int) layout.plot.origin.x + 2; x < (int) (layout.plot.origin.x + layout.plot.size.width) - 2; x += 3)
      {
        guint r, g, b;

        pixel_at (picture, x, y, &r, &g, &b);
        total++;
        if (r < 245 || g < 245 || b < 245)
          coloured++;
      }
  g_assert_cmpuint (coloured, >, total / 2);

  /* The peak column: the heap line reaches the peak's height there (inside
   * the peak marker's ring). */
  peak_x = (int) floor (layout_x (timeline, &layout, summary->peak_time_ps));
  peak_y = (int) round (layout_y (&layout, summary->peak_bytes_in_use));
  for (int x = peak_x - 1; x <= peak_x + 1; x++)
    {
      int top = heap_top (picture, &layout, x);

      if (top >= 0)
        best = MIN (best, abs (top - peak_y));
    }
  g_assert_cmpint (best, <=, 2);

  /* Nothing in the plot is higher than the peak. */
  for (int x = (int) layout.plot.origin.x + 1; x < (int) (layout.plot.origin.x + layout.plot.size.width) - 1; x++)
    {
      int top = heap_top (picture, &layout, x);

      if (top >= 0)
        g_assert_cmpint (top, >=, peak_y - 2);
    }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Hit-testing picks the snapshot nearest in time to the pointer. */
static void
test_timeline_pick (void)
{
  g_autoptr(TmProfile) profile = load_pick_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = session_new_for (profile, store);
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  GtkWidget *window = window_with (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  TmTimelineLayout layout;
  g_autofree char *markup = NULL;
  guint index = 0;

  tm_timeline_get_layout (timeline, &layout);

  for (guint i = 0; i < G_N_ELEMENTS (pick_times); i++)
    {
      g_assert_true (tm_timeline_pick (timeline, layout_x (timeline, &layout, pick_times[i]), &index));
      g_assert_cmpuint (index, ==, i);
    }

  /* Between 2 ms… 5 ms (µs here): the state after the event at 2, on
   * either side of the middle; the event at 5 comes only at 5. */
  g_assert_true (tm_timeline_pick (timeline, layout_x (timeline, &layout, 3400000), &index));
  g_assert_cmpuint (index, ==, 2);
  g_assert_true (tm_timeline_pick (timeline, layout_x (timeline, &layout, 4900000), &index));
  g_assert_cmpuint (index, ==, 2);

  /* Outside the plot: nothing. */
  g_assert_false (tm_timeline_pick (timeline, layout.plot.origin.x - 5, &index));
  g_assert_false (tm_timeline_pick (timeline, layout.plot.origin.x + layout.plot.size.width + 5, &index));

  /* Zoomed in on the last two, the same holds. */
  tm_viewport_set_range (tm_session_get_viewport (session), 4000000, 9000000);
  tm_timeline_get_layout (timeline, &layout);
  g_assert_true (tm_timeline_pick (timeline, layout_x (timeline, &layout, 6900000), &index));
  g_assert_cmpuint (index, ==, 3);
  g_assert_true (tm_timeline_pick (timeline, layout_x (timeline, &layout, 8900000), &index));
  g_assert_cmpuint (index, ==, 3);
  g_assert_true (tm_timeline_pick (timeline, layout_x (timeline, &layout, 9000000), &index));
  g_assert_cmpuint (index, ==, 4);

  /* The tooltip's text describes that snapshot, as valid markup (the op
   * name and "< 0.01 %" escaped). */
  markup = tm_timeline_describe_snapshot (timeline, 4);
  g_assert_true (pango_parse_markup (markup, -1, 0, NULL, NULL, NULL, NULL));
  g_assert_nonnull (strstr (markup, "Allocation"));
  g_assert_nonnull (strstr (markup, "pick/\u200b&lt;Op&gt; &amp; more"));
  g_assert_nonnull (strstr (markup, "&lt; 0.01 %"));
  g_assert_nonnull (strstr (markup, "[16, 1024]"));
  g_assert_nonnull (strstr (markup, "5.00 MiB"));   /* in use: 5 × 1 MiB */
  g_assert_nonnull (strstr (markup, "Step 7"));
  g_assert_nonnull (strstr (markup, "0.009 ms"));

  /* No store: nothing to pick. */
  tm_session_set_memory_store (session, NULL);
  g_assert_false (tm_timeline_pick (timeline, layout.plot.origin.x + 10, &index));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

/* Whether the picture shows the selection's accent line at x. */
static gboolean
shows_selection_at (const TmTestPicture    *picture,
                    const TmTimelineLayout *layout,
                    double                  x)
{
  guint r, g, b;

  pixel_at (picture, (int) round (x), (int) (layout->plot.origin.y + layout->plot.size.height / 3), &r, &g, &b);
  return b > 200 && r < 100;
}

/* Keyboard actions drive the session's viewport; the timeline draws the
 * session's selected time. */
static void
test_timeline_actions_selection (void)
{
  g_autoptr(TmProfile) profile = load_spike_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = session_new_for (profile, store);
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  GtkWidget *window = window_with (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  TmViewport *viewport = tm_session_get_viewport (session);
  gint64 data_span, selected = SPIKE_INDEX * STEP_PS;
  guint notified = 0;
  TmTimelineLayout layout;
  double x_before;

  data_span = tm_viewport_get_span (viewport);
  g_assert_cmpint (data_span, ==, (N_FLAT - 1) * STEP_PS);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-in", NULL));
  g_assert_cmpint (llabs (tm_viewport_get_span (viewport) - (gint64) (data_span / 1.5)), <=, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.pan-right", NULL));
  g_assert_cmpint (tm_viewport_get_end (viewport), >, tm_viewport_get_data_start (viewport) + (gint64) (data_span / 1.5));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-out", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.reset", NULL));
  g_assert_false (tm_viewport_is_zoomed (viewport));

  /* Selecting notifies; zooming in keeps the selected time in place. */
  g_signal_connect (session, "notify::selected-time", G_CALLBACK (count_notify_cb), &notified);
  tm_session_select_time (session, selected);
  g_assert_true (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_session_get_selected_time (session), ==, selected);
  g_assert_cmpuint (notified, ==, 1);
  tm_timeline_get_layout (timeline, &layout);
  x_before = layout_x (timeline, &layout, selected);
  for (guint i = 0; i < 5; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.zoom-in", NULL));
  g_assert_cmpfloat_with_epsilon (layout_x (timeline, &layout, selected), x_before, 0.5);

  /* The selection line is drawn in the accent colour, and goes with the
   * session's selected time. */
    {
      g_autoptr(TmTestPicture) picture = render (timeline);

      g_assert_true (shows_selection_at (picture, &layout, x_before));
    }
  tm_session_clear_selected_time (session);
  g_assert_false (tm_session_get_has_selected_time (session));
    {
      g_autoptr(TmTestPicture) picture = render (timeline);

      g_assert_false (shows_selection_at (picture, &layout, x_before));
    }

  /* A new store shows everything, unselected. */
  tm_session_select_time (session, selected);
  tm_session_set_memory_store (session, NULL);
  g_assert_false (tm_session_get_has_selected_time (session));
  tm_session_set_memory_store (session, store);
  g_assert_false (tm_viewport_is_zoomed (viewport));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
wait_ms (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

/* A click is drawn at once and reaches the session once it is known not
 * to be the first half of a double-click; a double-click shows everything
 * and leaves the session's selected time as it was. */
static void
test_timeline_click (void)
{
  g_autoptr(TmProfile) profile = load_spike_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = session_new_for (profile, store);
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  GtkWidget *window = window_with (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  TmViewport *viewport = tm_session_get_viewport (session);
  GtkGestureClick *click = tm_test_find_click_gesture (GTK_WIDGET (timeline), FALSE);
  int double_click_ms = 400;
  TmTimelineLayout layout;
  gint64 first = 1000 * STEP_PS, second = 2000 * STEP_PS;
  double x;
  guint index;
  gint64 picked, pixel_ps;

  g_assert_nonnull (click);
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (timeline)), "gtk-double-click-time", &double_click_ms, NULL);
  tm_timeline_get_layout (timeline, &layout);

  /* One click: drawn at once, in the session after the double-click time. */
  x = layout_x (timeline, &layout, first);
  /* The time under the pointer, within a pixel of the snapshot there. */
  pixel_ps = (gint64) ((double) tm_viewport_get_span (viewport) / layout.plot.size.width) + 1;
  g_assert_true (tm_timeline_pick_time (timeline, x, &picked, &index));
  g_assert_cmpint (llabs (picked - first), <=, pixel_ps);
  g_assert_cmpint (tm_memory_store_get_times (store)[index], <=, picked);
  g_signal_emit_by_name (click, "pressed", 1, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "released", 1, x, layout.plot.origin.y + 20);
    {
      g_autoptr(TmTestPicture) picture = render (timeline);

      g_assert_true (shows_selection_at (picture, &layout, x));
    }
  g_assert_false (tm_session_get_has_selected_time (session));
  wait_ms (double_click_ms + 200);
  g_assert_true (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_session_get_selected_time (session), ==, picked);

  /* A double-click elsewhere while zoomed: everything shows, the session
   * keeps the first time, and the second never reaches it. */
  tm_viewport_set_range (viewport, 1500 * STEP_PS, 2500 * STEP_PS);
  tm_timeline_get_layout (timeline, &layout);
  x = layout_x (timeline, &layout, second);
  g_signal_emit_by_name (click, "pressed", 1, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "released", 1, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "pressed", 2, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "released", 2, x, layout.plot.origin.y + 20);
  g_assert_false (tm_viewport_is_zoomed (viewport));
  wait_ms (double_click_ms + 200);
  g_assert_true (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_session_get_selected_time (session), ==, picked);

  /* A click overtaken by a selection from elsewhere never lands. */
  g_signal_emit_by_name (click, "pressed", 1, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "released", 1, x, layout.plot.origin.y + 20);
  tm_session_clear_selected_time (session);
  wait_ms (double_click_ms + 200);
  g_assert_false (tm_session_get_has_selected_time (session));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The HLO table zooms the session's viewport to a module; the timeline
 * draws the modules as a band; the table hides itself with no modules. */
static void
test_timeline_hlo (void)
{
  g_autoptr(TmProfile) profile = load_hlo_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  GArray *modules = tm_profile_get_hlo_modules (profile);
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  TmHloView *view = TM_HLO_VIEW (tm_hlo_view_new (session));
  GtkWidget *window;
  TmViewport *viewport = tm_session_get_viewport (session);
  const TmHloModule *module;
  TmTimelineLayout layout;
  g_autoptr(TmTestPicture) picture = NULL;
  guint band_pixels = 0;

  g_assert_nonnull (modules);
  g_assert_cmpuint (modules->len, ==, 6);
  g_assert_true (tm_view_get_session (TM_VIEW (view)) == session);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (timeline));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (view));
  window = window_with (box, WIDTH, 600);

  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, store);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (tm_hlo_view_get_n_modules (view), ==, 6);
  wait_for_size (GTK_WIDGET (timeline));

  /* The data range covers the modules too. */
  module = &g_array_index (modules, TmHloModule, 5);
  g_assert_cmpint (tm_viewport_get_data_end (viewport), >=, module->end_ps);

  /* The band: HLO purple pixels under the plot. */
  tm_timeline_get_layout (timeline, &layout);
  g_assert_cmpfloat (layout.hlo_band.size.height, >, 0);
  picture = render (timeline);
  for (int x = (int) layout.hlo_band.origin.x; x < (int) (layout.hlo_band.origin.x + layout.hlo_band.size.width); x++)
    {
      guint r, g, b;

      pixel_at (picture, x, (int) (layout.hlo_band.origin.y + layout.hlo_band.size.height / 2), &r, &g, &b);
      if (r > 100 && b > 120 && g < 110)
        band_pixels++;
    }
  /* Six modules of 1.2 ms every 1.6 ms: about three quarters of the band. */
  g_assert_cmpuint (band_pixels, >, layout.hlo_band.size.width / 2);

  /* Selecting module 2 zooms to it (with a small margin). */
  module = &g_array_index (modules, TmHloModule, 2);
  tm_hlo_view_select_module (view, 2);
  g_assert_cmpint (tm_viewport_get_start (viewport), <=, module->start_ps);
  g_assert_cmpint (tm_viewport_get_end (viewport), >=, module->end_ps);
  g_assert_cmpint (tm_viewport_get_span (viewport), <, (module->end_ps - module->start_ps) * 12 / 10);

  /* No profile, no modules: hidden, no band. */
  tm_session_set_profile (session, NULL);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (tm_hlo_view_get_n_modules (view), ==, 0);
  tm_timeline_get_layout (timeline, &layout);
  g_assert_cmpfloat (layout.hlo_band.size.height, ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The overview strip marks the visible range and moves with it. */
static void
test_timeline_overview (void)
{
  g_autoptr(TmProfile) profile = load_spike_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = tm_session_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  TmOverview *overview = TM_OVERVIEW (tm_overview_new (NULL));
  TmViewport *viewport = tm_session_get_viewport (session);
  GtkWidget *window;
  TmTimelineLayout layout;
  double x0, x1, full_x0, full_x1;
  gint64 data_start, data_span;

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (timeline));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (overview));
  tm_view_set_session (TM_VIEW (overview), session);
  g_assert_true (tm_view_get_session (TM_VIEW (overview)) == session);
  window = window_with (box, WIDTH, HEIGHT + 60);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, store);
  wait_for_size (GTK_WIDGET (overview));

  /* Showing everything: the window spans the strip, under the plot. */
  tm_timeline_get_layout (timeline, &layout);
  tm_overview_get_window (overview, &full_x0, &full_x1);
  g_assert_cmpfloat_with_epsilon (full_x0, layout.plot.origin.x, 0.5);
  g_assert_cmpfloat_with_epsilon (full_x1, layout.plot.origin.x + layout.plot.size.width, 0.5);

  /* The second quarter of the data: the second quarter of the strip. */
  data_start = tm_viewport_get_data_start (viewport);
  data_span = tm_viewport_get_data_end (viewport) - data_start;
  tm_viewport_set_range (viewport, data_start + data_span / 4, data_start + data_span / 2);
  tm_overview_get_window (overview, &x0, &x1);
  g_assert_cmpfloat_with_epsilon (x0, full_x0 + (full_x1 - full_x0) / 4, 1.0);
  g_assert_cmpfloat_with_epsilon (x1, full_x0 + (full_x1 - full_x0) / 2, 1.0);

  /* A tiny range is still a grabbable 6 px window. */
  tm_viewport_set_range (viewport, data_start + data_span / 2, data_start + data_span / 2 + 1);
  tm_overview_get_window (overview, &x0, &x1);
  g_assert_cmpfloat (x1 - x0, >=, 6.0);

  /* Following no session is fine. */
  tm_view_set_session (TM_VIEW (overview), NULL);
  g_assert_null (tm_view_get_session (TM_VIEW (overview)));
  while (g_main_context_iteration (NULL, FALSE))
    ;

  gtk_window_destroy (GTK_WINDOW (window));
}

/* In a dark style the timeline uses the palette's lighter shades. */
static void
test_timeline_dark (void)
{
  g_autoptr(TmProfile) profile = load_spike_profile ();
  TmMemoryStore *store = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = session_new_for (profile, store);
  TmTimeline *timeline = TM_TIMELINE (tm_timeline_new (session));
  GtkWidget *window = window_with (GTK_WIDGET (timeline), WIDTH, HEIGHT);
  GtkSettings *settings = gtk_settings_get_default ();
  TmTimelineLayout layout;
  g_autoptr(TmTestPicture) picture = NULL;
  GdkRGBA dark_heap;
  guint r, g, b;
  int x, y;

  g_assert_false (tm_palette_is_dark_style (GTK_WIDGET (timeline)));

  g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_true (tm_palette_is_dark_style (GTK_WIDGET (timeline)));

  picture = render (timeline);
  tm_timeline_get_layout (timeline, &layout);
  tm_palette_get_color (TM_PALETTE_HEAP, TRUE, &dark_heap);
  x = (int) (layout.plot.origin.x + 10);
  y = (int) round (layout_y (&layout, FLAT_HEAP));
  pixel_at (picture, x, y, &r, &g, &b);
  g_assert_cmpint (abs ((int) r - (int) (dark_heap.red * 255)), <=, 3);
  g_assert_cmpint (abs ((int) g - (int) (dark_heap.green * 255)), <=, 3);
  g_assert_cmpint (abs ((int) b - (int) (dark_heap.blue * 255)), <=, 3);

  g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  gtk_window_destroy (GTK_WINDOW (window));
}

/* In the window: the timeline, the overview and the HLO table follow the
 * window's session (its memory id, the profile's modules), a selected time
 * shows what was live then, Back to Peak drops the selection. */
static void
test_timeline_in_window (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  TmWindow *window;
  TmSession *session;
  TmTimeline *timeline;
  TmHloView *hlo_view;
  TmOverview *overview;
  TmBreakdownView *breakdown;
  GtkWidget *back;
  TmFixtureLine *line;
  gint64 deadline, t;

  line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  for (guint i = 0; i < 50; i++)
    add_memory_event (line, TRUE, (gint64) i * 100 * STEP_PS, (1 + i) * FLAT_HEAP, 64 * FLAT_HEAP, 0.25,
                      FLAT_HEAP, 0x1000 + i, "window/Op");
  for (guint i = 0; i < 3; i++)
    tm_fixture_space_add_hlo_module (space, 0, "jit_step", (gint64) i * 1000 * STEP_PS, (gint64) i * 1000 * STEP_PS + 800 * STEP_PS);
  path = tm_fixture_space_write (space, NULL, "window.xplane.pb", &error);
  g_assert_no_error (error);

  window = g_object_ref_sink (tm_window_new (NULL));
  gtk_window_present (GTK_WINDOW (window));
  timeline = TM_TIMELINE (gtk_widget_get_template_child (GTK_WIDGET (window), TM_TYPE_WINDOW, "timeline"));
  overview = TM_OVERVIEW (gtk_widget_get_template_child (GTK_WIDGET (window), TM_TYPE_WINDOW, "overview"));
  hlo_view = TM_HLO_VIEW (gtk_widget_get_template_child (GTK_WIDGET (window), TM_TYPE_WINDOW, "hlo_view"));
  session = tm_window_get_session (window);
  g_assert_true (TM_IS_TIMELINE (timeline));
  g_assert_true (tm_view_get_session (TM_VIEW (timeline)) == session);
  g_assert_true (tm_view_get_session (TM_VIEW (overview)) == session);
  g_assert_true (tm_view_get_session (TM_VIEW (hlo_view)) == session);
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (timeline), GTK_WIDGET (GTK_BOX (tm_test_find_widget (window, "timeline_area")))));

  file = g_file_new_for_path (path);
  tm_window_open (window, file);
  deadline = tm_test_deadline (20);
  while (tm_window_get_state (window) == TM_WINDOW_STATE_LOADING)
    {
      g_main_context_iteration (NULL, FALSE);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
    }
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);

  g_assert_nonnull (tm_window_get_memory_store (window));
  g_assert_true (tm_session_get_memory_store (session) == tm_window_get_memory_store (window));
  g_assert_cmpuint (tm_hlo_view_get_n_modules (hlo_view), ==, 3);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (hlo_view)));

  /* A selected time (what a click gives the session) shows what was live
   * at that time. */
  breakdown = TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"));
  t = tm_memory_store_get_times (tm_window_get_memory_store (window))[10];
  tm_session_select_time (session, t);
  g_assert_false (tm_breakdown_view_get_at_peak (breakdown));
  g_assert_cmpint (tm_breakdown_view_get_time_ps (breakdown), ==, t);

  /* Back to Peak drops the selection. */
  back = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (breakdown), TM_TYPE_BREAKDOWN_VIEW, "back_to_peak_button"));
  g_assert_nonnull (back);
  g_signal_emit_by_name (back, "clicked");
  g_assert_true (tm_breakdown_view_get_at_peak (breakdown));
  g_assert_false (tm_session_get_has_selected_time (session));

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (window);
  tm_fixture_remove (path);
}

/* ------------------------------------------------------------------ */
/* In a window, on the tour fixture                                    */

static GtkWidget *
child (TmWindow   *window,
       const char *name)
{
  return tm_test_template_child (window, TM_TYPE_WINDOW, name);
}

static void
test_legend_toggles (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  GtkGestureClick *click;
  double heap_x = -1, frag_x = -1;
  GVariant *state;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (child (window, "timeline"));

  /* The legend row: Stack, Heap, Free, Fragmentation, then the window
   * peak, which is no toggle. */
  for (double x = 0; x < 700; x += 2)
    {
      TmSeriesFlags at = tm_timeline_legend_at (timeline, x, 14);

      if (at == TM_SERIES_FLAG_HEAP && heap_x < 0)
        heap_x = x + 4;
      if (at == TM_SERIES_FLAG_FRAGMENTATION && frag_x < 0)
        frag_x = x + 4;
    }
  g_assert_cmpfloat (heap_x, >, 0);
  g_assert_cmpfloat (frag_x, >, heap_x);
  /* Not in the plot. */
  g_assert_cmpint (tm_timeline_legend_at (timeline, heap_x, 80), ==, TM_SERIES_FLAG_NONE);

  /* A click on Heap hides the heap, a second shows it. */
  click = tm_test_find_click_gesture (GTK_WIDGET (timeline), TRUE);
  g_assert_nonnull (click);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_NONE);
  g_signal_emit_by_name (click, "pressed", 1, heap_x, 14.0);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_HEAP);
  /* The click selected no time. */
  g_assert_false (tm_session_get_has_selected_time (session));
  g_signal_emit_by_name (click, "pressed", 1, frag_x, 14.0);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_HEAP | TM_SERIES_FLAG_FRAGMENTATION);

  /* The menu's check items follow, and toggle too (the keyboard's way). */
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-heap");
  g_assert_false (g_variant_get_boolean (state));
  g_variant_unref (state);
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-heap", g_variant_new_boolean (TRUE));
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_FRAGMENTATION);
  g_signal_emit_by_name (click, "pressed", 1, frag_x, 14.0);
  g_assert_cmpint (tm_timeline_get_hidden_series (timeline), ==, TM_SERIES_FLAG_NONE);

  tm_test_destroy_window (window);
}

static void
test_range_figures (void)
{
  TmWindow *window = tm_test_new_window ();
  TmTimeline *timeline;
  TmViewport *viewport;
  TmRangeFigures figures;
  g_autofree char *text = NULL;
  g_autofree char *zoomed_text = NULL;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  timeline = TM_TIMELINE (child (window, "timeline"));
  viewport = tm_session_get_viewport (tm_window_get_session (window));

  /* In use: 6 MiB from 2 ms, then +6, +8 … MiB each ms up to 90 MiB at
   * 9 ms. */
  g_assert_true (tm_timeline_range_figures (timeline, 2500000000, 9500000000, &figures));
  g_assert_cmpint (figures.start_bytes, ==, 6 * MIB);
  g_assert_cmpint (figures.end_bytes, ==, 90 * MIB);
  g_assert_cmpint (figures.delta_bytes, ==, 84 * MIB);
  g_assert_cmpint (figures.peak_bytes, ==, 90 * MIB);
  g_assert_cmpint (figures.peak_time_ps, ==, 9 * MS);
  /* A stretch without events: no change, the peak is the state at its
   * start. */
  g_assert_true (tm_timeline_range_figures (timeline, 20 * MS, 80 * MS, &figures));
  g_assert_cmpint (figures.delta_bytes, ==, 0);
  g_assert_cmpint (figures.peak_bytes, ==, 110 * MIB);
  g_assert_cmpint (figures.peak_time_ps, ==, 20 * MS);

  /* No read-out until a band zooms. */
  g_assert_false (tm_timeline_get_shown_range (timeline, &figures));
  tm_timeline_show_range (timeline, 2500000000, 9500000000);
  g_assert_true (tm_timeline_get_shown_range (timeline, &figures));
  g_assert_cmpint (figures.start_ps, ==, tm_viewport_get_start (viewport));
  g_assert_cmpint (figures.end_ps, ==, tm_viewport_get_end (viewport));
  g_assert_cmpint (figures.delta_bytes, ==, 84 * MIB);
  text = tm_timeline_describe_range (timeline, &figures);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "Range 2.500 ms – 9.500 ms (7.000 ms)"));
  g_assert_nonnull (strstr (text, "change +84.0 MiB"));
  g_assert_nonnull (strstr (text, "peak 90.0 MiB at 9.000 ms"));

  /* The precision follows the zoom: a band of 2 µs reads in ns. */
  tm_timeline_show_range (timeline, 9 * MS, 9 * MS + 2000000);
  g_assert_true (tm_timeline_get_shown_range (timeline, &figures));
  zoomed_text = tm_timeline_describe_range (timeline, &figures);
  g_assert_nonnull (strstr (zoomed_text, "9.000000 ms"));

  /* Any other change of the view ends it. */
  tm_viewport_reset (viewport);
  g_assert_false (tm_timeline_get_shown_range (timeline, &figures));

  tm_test_destroy_window (window);
}

static gboolean
session_has_selected_time (gpointer data)
{
  return tm_session_get_has_selected_time (TM_SESSION (data));
}

static void
test_pick_under_pointer (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  TmTimelineLayout layout;
  GtkGestureClick *click;
  g_autofree char *markup = NULL;
  gint64 t = 55 * G_GINT64_CONSTANT (1000000000);   /* 55 ms: no event from 10 to 90 ms */
  gint64 pixel_ps;
  int double_click_ms = 400;
  guint index;
  double x;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, tour_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));

  /* Zoomed into the quiet stretch: no event on screen. */
  tm_viewport_set_range (tm_session_get_viewport (session),
                         40 * G_GINT64_CONSTANT (1000000000), 60 * G_GINT64_CONSTANT (1000000000));
  tm_test_wait_layout_settled (GTK_WIDGET (window));
  tm_timeline_get_layout (timeline, &layout);
  x = layout.plot.origin.x + layout.plot.size.width * 0.75;
  pixel_ps = (gint64) (20e9 / layout.plot.size.width) + 1;

  /* The state at 55 ms is the one after the event at 10 ms (index 9),
   * not the nearer event at 90 ms, which is off screen. */
  g_assert_true (tm_timeline_pick (timeline, x, &index));
  g_assert_cmpuint (index, ==, 9);
  markup = tm_timeline_describe_snapshot (timeline, index);
  g_assert_nonnull (strstr (markup, "10.000 ms"));

  /* A click selects the time under the pointer. */
  click = tm_test_find_click_gesture (GTK_WIDGET (timeline), FALSE);
  g_assert_nonnull (click);
  g_signal_emit_by_name (click, "pressed", 1, x, layout.plot.origin.y + 20);
  g_signal_emit_by_name (click, "released", 1, x, layout.plot.origin.y + 20);
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (timeline)), "gtk-double-click-time", &double_click_ms, NULL);
  /* Not before the double-click time has passed; then soon. */
  tm_test_iterate_for (double_click_ms / 2);
  g_assert_false (tm_session_get_has_selected_time (session));
  tm_test_iterate_until (session_has_selected_time, session);
  g_assert_cmpint (llabs (tm_session_get_selected_time (session) - t), <=, pixel_ps);

  /* "Live at" that time: the breakdown is the one at 55 ms, exact. */
  g_assert_false (tm_breakdown_view_get_at_peak (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))));
  g_assert_cmpint (tm_breakdown_view_get_time_ps (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))), ==,
                   tm_session_get_selected_time (session));
  g_assert_cmpuint (tm_breakdown_view_get_n_rows (TM_BREAKDOWN_VIEW (tm_test_find_widget (window, "breakdown_view"))), ==, 10);

  tm_test_destroy_window (window);
}

static void
test_y_scale (void)
{
  TmWindow *window = tm_test_new_window ();
  TmSession *session;
  TmTimeline *timeline;
  TmTimelineLayout layout;
  gint64 fit_all, fit_zoomed, capacity;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tm_test_open_and_wait (window, tour_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (tm_test_template_child (window, TM_TYPE_WINDOW, "timeline"));

  /* Fit by default: about the memory in use (210 MiB), not the 16 GiB
   * device. */
  g_assert_cmpint (tm_timeline_get_y_scale (timeline), ==, TM_Y_SCALE_FIT);
  tm_timeline_get_layout (timeline, &layout);
  fit_all = layout.y_max;
  g_assert_cmpint (fit_all, >=, 210 * MIB);
  g_assert_cmpint (fit_all, <, 512 * MIB);

  /* Zoomed into the first 3 ms it fits again (6 + 4 + 2 MiB in use). */
  tm_viewport_set_range (tm_session_get_viewport (session), 0, 3 * G_GINT64_CONSTANT (1000000000));
  tm_timeline_get_layout (timeline, &layout);
  fit_zoomed = layout.y_max;
  g_assert_cmpint (fit_zoomed, >=, 12 * MIB);
  g_assert_cmpint (fit_zoomed, <, fit_all);

  /* Capacity: the whole device, from the menu's action. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "y-scale", g_variant_new_string ("capacity"));
  g_assert_cmpint (tm_timeline_get_y_scale (timeline), ==, TM_Y_SCALE_CAPACITY);
  tm_timeline_get_layout (timeline, &layout);
  capacity = layout.y_max;
  g_assert_cmpint (capacity, >=, 16 * GIB);

  tm_test_destroy_window (window);
}

/* The event of an allocation with nothing but its sizes: no step, no
 * request, no op made up (docs/ui.md, "Values the file does not hold"). */
static void
test_timeline_unknown_values (void)
{
  TmWindow *window = tm_test_new_window ();
  TmTimeline *timeline;
  g_autofree char *event = NULL;

  tm_test_open_and_wait (window, tour_path);
  timeline = TM_TIMELINE (child (window, "timeline"));
  event = tm_timeline_describe_snapshot (timeline, 4);
  g_assert_null (strstr (event, "Step -1"));
  g_assert_null (strstr (event, "Requested 0 B"));
  g_assert_nonnull (strstr (event, "Op: unknown"));

  tm_test_destroy_window (window);
}

/* ------------------------------------------------------------------ */
/* Export                                                              */

static guint32
node_pixel_at (GskRenderNode *node,
               int            width,
               int            height,
               int            x,
               int            y)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  guint32 pixel;

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  pixel = ((guint32 *) cairo_image_surface_get_data (surface))[y * cairo_image_surface_get_stride (surface) / 4 + x];
  cairo_surface_destroy (surface);
  return pixel & 0xffffff;
}

static void
test_timeline_export (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GskRenderNode) light = NULL;
  g_autoptr(GskRenderNode) dark = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GFile) saved = g_file_new_for_path ("/tmp/tour-GPU_0_bfc-timeline.png");
  int w = 0, h = 0, dw = 0, dh = 0;

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  tm_viewport_set_range (tm_session_get_viewport (tm_window_get_session (window)), 2 * MS, 9 * MS);

  /* The title line: file, memory id, the range shown in ms. */
  title = tm_window_dup_timeline_title (window);
  g_test_message ("%s", title);
  g_assert_true (g_str_has_prefix (title, "tour.xplane.pb · GPU_0_bfc · "));
  g_assert_nonnull (strstr (title, "2.000 ms – 9.000 ms"));

  /* Light from a dark window (the default of the dialog's check box), or
   * the window's own colours; the title line on top. */
  light = tm_window_build_timeline_image (window, TRUE, &w, &h);
  dark = tm_window_build_timeline_image (window, FALSE, &dw, &dh);
  g_assert_nonnull (light);
  g_assert_cmpint (h, ==, dh);
  g_assert_cmpint (h, >=, gtk_widget_get_height (child (window, "timeline")) + 24);
  g_assert_cmphex (node_pixel_at (light, w, h, 2, 2), ==, 0xffffff);
  g_assert_cmphex (node_pixel_at (dark, dw, dh, 2, 2), ==, 0x242424);

  /* The vector export draws the same range and size with the chart
   * layers: shapes and text, no picture. */
  {
    g_autoptr(TmChart) chart = NULL;
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GError) error = NULL;
    const TmChartGeometry *g;
    TmChartPalette palette;
    const char *svg;

    chart = tm_window_build_timeline_chart (window, TRUE, &palette);
    g_assert_nonnull (chart);
    g = tm_chart_get_geometry (chart);
    g_assert_cmpint (g->start_ps, ==, 2 * MS);
    g_assert_cmpint (g->end_ps, ==, 9 * MS);
    g_assert_cmpint (g->width, ==, w);
    g_assert_cmpint (g->height + TM_CHART_TITLE_HEIGHT, ==, h);
    g_assert_false (palette.dark);
    g_assert_true (tm_chart_write_svg (chart, title, &palette, NULL, out, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
    g_assert_true (g_output_stream_close (out, NULL, NULL));
    svg = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out));
    g_assert_null (strstr (svg, "<image"));
    g_assert_nonnull (strstr (svg, "<path"));
    g_assert_nonnull (strstr (svg, "2.000 ms – 9.000 ms</text>"));
    g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "export-timeline-svg"));
  }

  /* The toast says where it went and can open it; it hides itself. */
  tm_window_show_saved (window, saved);
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (child (window, "toast_revealer"))));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (child (window, "toast_label"))), ==,
                   "Saved to tour-GPU_0_bfc-timeline.png");
  g_assert_true (gtk_widget_get_visible (child (window, "toast_open_button")));
  g_signal_emit_by_name (child (window, "toast_close_button"), "clicked");
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (child (window, "toast_revealer"))));

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  tm_test_destroy_window (window);
}

/* Whatever the timeline shows over the series is in its SVG too, drawn by
 * the same layers: the HLO band, the selected scope's line and label, a
 * comparison's baseline, the range read-out, the selected time and the
 * selected allocation's lifetime. */
static gboolean
scope_series_ready (gpointer session)
{
  return tm_scope_series_query_get_series (tm_scope_series_query_get_for_session (session)) != NULL;
}

static void
test_timeline_export_overlays (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(TmScope) scope = tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, (const char *[]) { "replica_6", NULL });
  g_autoptr(TmChart) chart = NULL;
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  TmTimeline *timeline;
  TmSession *session;
  TmChartPalette palette;
  TmChartColor band;
  g_autofree char *band_fill = NULL;
  const char *svg;

  gtk_window_set_default_size (GTK_WINDOW (window), 1175, 785);
  tm_test_open_and_wait (window, tour_path);
  session = tm_window_get_session (window);
  timeline = TM_TIMELINE (child (window, "timeline"));

  /* Compared with itself, a scope and an allocation selected, a time
   * picked, a band's range shown (after the baseline, which shows all). */
  tm_session_set_baseline (session, tm_session_get_profile (session), tm_session_get_memory_store (session));
  tm_session_set_selected_scope (session, scope);
  tm_test_iterate_until (scope_series_ready, session);
  tm_test_wait_allocations (session);
  tm_session_select_allocation (session, 3);
  tm_session_select_time (session, 5 * MS);
  tm_timeline_show_range (timeline, 2 * MS, 9 * MS);
  tm_test_iterate_for (50);

  chart = tm_window_build_timeline_chart (window, TRUE, &palette);
  g_assert_nonnull (chart);
  g_assert_cmpfloat (tm_chart_get_geometry (chart)->hlo_band.height, >, 0);
  g_assert_true (tm_chart_write_svg (chart, NULL, &palette, NULL, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  svg = g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out));

  g_assert_null (strstr (svg, "<image"));
  g_assert_nonnull (strstr (svg, ">Scope: replica_6</text>"));
  g_assert_nonnull (strstr (svg, ">Baseline GPU_0_bfc, peak "));
  g_assert_nonnull (strstr (svg, ">Range 2.000 ms – 9.000 ms (7.000 ms)"));
  g_assert_nonnull (strstr (svg, ">5.000 ms</text>"));
  /* The band's module, in its colour (cairo writes percentages). */
  band = palette.hlo[0];
  band_fill = g_strdup_printf ("fill:rgb(%.6f%%,%.6f%%,%.6f%%)", band.red * 100.0, band.green * 100.0, band.blue * 100.0);
  g_test_message ("%s", band_fill);
  g_assert_nonnull (strstr (svg, band_fill));
  /* The lifetime: the accent's tint over the plot. */
  g_assert_nonnull (strstr (svg, "fill-opacity:0.18"));

  /* The band tells which module is under a point (a click there is
   * about that module): the first runs over 1–9 ms. */
  {
    TmTimelineLayout layout;
    double y, x;

    tm_timeline_get_layout (timeline, &layout);
    y = layout.hlo_band.origin.y + layout.hlo_band.size.height / 2;
    x = layout.plot.origin.x + layout.plot.size.width * 3 / 7;   /* 5 ms of 2–9 */
    g_assert_cmpint (tm_timeline_get_module_at (timeline, x, y), ==, 0);
    g_assert_cmpint (tm_timeline_get_module_at (timeline, x, layout.plot.origin.y + 10), ==, -1);
  }

  tm_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = tm_test_gui_init (&argc, &argv);
  int status;

  tour_path = tm_test_write_tour (&fixture_dir);

  g_test_add_func ("/timeline/spike", test_timeline_spike);
  g_test_add_func ("/timeline/real-gpu", test_timeline_real_gpu);
  g_test_add_func ("/timeline/pick", test_timeline_pick);
  g_test_add_func ("/timeline/actions-selection", test_timeline_actions_selection);
  g_test_add_func ("/timeline/click", test_timeline_click);
  g_test_add_func ("/timeline/hlo", test_timeline_hlo);
  g_test_add_func ("/timeline/overview", test_timeline_overview);
  g_test_add_func ("/timeline/dark", test_timeline_dark);
  g_test_add_func ("/timeline/in-window", test_timeline_in_window);
  g_test_add_func ("/timeline/legend-toggles", test_legend_toggles);
  g_test_add_func ("/timeline/range-figures", test_range_figures);
  g_test_add_func ("/timeline/pick-under-pointer", test_pick_under_pointer);
  g_test_add_func ("/timeline/y-scale", test_y_scale);
  g_test_add_func ("/timeline/unknown-values", test_timeline_unknown_values);
  g_test_add_func ("/timeline/export", test_timeline_export);
  g_test_add_func ("/timeline/export-overlays", test_timeline_export_overlays);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  g_free (fixture_dir);
  g_free (tour_path);
  return status;
}
