/* test-memory-map.c — the memory map, rendered for real under Xvfb
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Pictures are rendered with the cairo renderer into a texture and read
 * back pixel by pixel.
 */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "tm-alloc-raster.h"
#include "tm-allocations.h"
#include "tm-allocations-query.h"
#include "tm-axis.h"
#include "tm-fit-box.h"
#include "tm-map-painter.h"
#include "tm-memory-map.h"
#include "tm-memory-map-private.h"
#include "tm-op-label.h"
#include "tm-session.h"
#include "tm-test-util.h"
#include "tm-timeline.h"
#include "tm-timeline-private.h"
#include "tm-gui-test-util.h"

#define WIDTH  (400 + TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT)
#define HEIGHT 300
#define MIB    (G_GINT64_CONSTANT (1) << 20)
#define BASE   G_GUINT64_CONSTANT (0x7f0000000000)

/* Equal up to a translucent grid line drawn over the data. */
static gboolean
near (guint32 a,
      guint32 b)
{
  for (int shift = 0; shift < 24; shift += 8)
    if (ABS ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)) > 24)
      return FALSE;
  return TRUE;
}

static void
add_event (TmFixtureLine *line,
           gboolean       allocation,
           gint64         time_ps,
           gint64         heap,
           gint64         size,
           guint64        addr,
           const char    *op)
{
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_allocated = heap,
    .bytes_available = 64 * MIB - heap,
    .peak_bytes_in_use = heap,
    .requested_bytes = size,
    .allocation_bytes = size,
    .addr = addr,
    .tf_op = op,
    .region_type = "output",
    .data_type = 1,
    .shape = "[4]",
  };

  tm_fixture_line_add_memory_event (line, allocation, time_ps, &m);
}

/* "big": 8 MiB at BASE from t = 1000 to 6000; "next": 8 MiB above it from
 * t = 4000, never freed; the profile runs from 1000 to 10000. */
static TmProfile *
load_profile (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  TmProfile *profile;

  add_event (line, TRUE, 1000, 8 * MIB, 8 * MIB, BASE, "big");
  add_event (line, TRUE, 4000, 16 * MIB, 8 * MIB, BASE + 8 * MIB, "next");
  add_event (line, FALSE, 6000, 8 * MIB, 8 * MIB, BASE, NULL);
  add_event (line, TRUE, 10000, 8 * MIB + 256, 256, BASE + 16 * MIB, "last");
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  return profile;
}

static TmSession *
session_for (TmProfile *profile)
{
  TmSession *session = tm_session_new ();

  /* The memory map reads the allocation index the query hands over. */
  tm_allocations_query_get_for_session (session);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, tm_profile_get_memory_store (profile, 0));
  tm_test_wait_allocations (session);
  return session;
}

static double
x_of (TmMemoryMap *map,
      gint64       time_ps)
{
  TmViewport *viewport = tm_session_get_viewport (tm_view_get_session (TM_VIEW (map)));

  return TM_CHART_MARGIN_LEFT + tm_viewport_time_to_x (viewport, time_ps, WIDTH - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT);
}

static double
y_of (TmMemoryMap *map,
      guint64      address)
{
  TmAllocations *allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (tm_view_get_session (TM_VIEW (map))));
  double y0, y1, plot_height = HEIGHT - 8 - TM_CHART_MARGIN_BOTTOM;

  tm_memory_map_get_address_range (map, &y0, &y1);
  return 8 + (y1 - tm_allocations_address_to_axis (allocations, address)) / (y1 - y0) * plot_height;
}

/* Each allocation is drawn at its time and address, and nothing where
 * nothing was allocated. */
static void
test_drawn_at_time_and_address (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  g_autoptr(TmSession) session = session_for (profile);
  GtkWidget *map = g_object_ref_sink (tm_memory_map_new (session));
  g_autoptr(TmTestPicture) p = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  guint32 big = tm_test_picture_pixel (p, x_of (TM_MEMORY_MAP (map), 3000), y_of (TM_MEMORY_MAP (map), BASE + 4 * MIB));
  guint32 next = tm_test_picture_pixel (p, x_of (TM_MEMORY_MAP (map), 8000), y_of (TM_MEMORY_MAP (map), BASE + 12 * MIB));

  g_assert_cmphex (big, !=, 0xffffff);
  g_assert_cmphex (next, !=, 0xffffff);
  g_assert_false (near (big, next));   /* coloured by op */
  g_assert_false (near (big, 0xffffff));
  /* Same allocation further along: same colour. */
  g_assert_true (near (tm_test_picture_pixel (p, x_of (TM_MEMORY_MAP (map), 5000), y_of (TM_MEMORY_MAP (map), BASE + 1 * MIB)), big));
  /* "next" before it was allocated, "big" after it was freed: empty. */
  g_assert_cmphex (tm_test_picture_pixel (p, x_of (TM_MEMORY_MAP (map), 2500), y_of (TM_MEMORY_MAP (map), BASE + 12 * MIB)), ==, 0xffffff);
  g_assert_cmphex (tm_test_picture_pixel (p, x_of (TM_MEMORY_MAP (map), 8000), y_of (TM_MEMORY_MAP (map), BASE + 4 * MIB)), ==, 0xffffff);

  g_object_unref (map);
}

/* Selecting an allocation marks it on the map and its lifetime on the
 * usage timeline. */
static void
test_selection_marks_both (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  g_autoptr(TmSession) session = session_for (profile);
  GtkWidget *map = g_object_ref_sink (tm_memory_map_new (session));
  GtkWidget *timeline = g_object_ref_sink (tm_timeline_new (session));
  TmAllocations *allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  g_autoptr(TmTestPicture) map_before = NULL, map_after = NULL, tl_before = NULL, tl_after = NULL;
  TmViewport *viewport = tm_session_get_viewport (session);
  guint big = tm_allocations_find_by_snapshot (allocations, 0);
  double x_edge, y_mid;
  int changed_in = 0, changed_out = 0;

  g_assert_cmpuint (big, !=, TM_ALLOCATIONS_NONE);
  map_before = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  tl_before = tm_test_render_node (tm_timeline_render_node (TM_TIMELINE (timeline), WIDTH, HEIGHT), WIDTH, HEIGHT);

  tm_session_select_allocation (session, big);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, big);
  map_after = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  tl_after = tm_test_render_node (tm_timeline_render_node (TM_TIMELINE (timeline), WIDTH, HEIGHT), WIDTH, HEIGHT);

  /* The map: the selected rectangle's left edge is outlined. */
  x_edge = x_of (TM_MEMORY_MAP (map), 1000);
  y_mid = y_of (TM_MEMORY_MAP (map), BASE + 4 * MIB);
  g_assert_cmphex (tm_test_picture_pixel (map_before, x_edge + 8, y_mid), !=, tm_test_picture_pixel (map_after, x_edge + 8, y_mid));

  /* The timeline: its top edge over the lifetime (1000 to 6000) changes,
   * and nowhere after the allocation was freed. */
  for (int x = TM_CHART_MARGIN_LEFT + 1; x < WIDTH - TM_CHART_MARGIN_RIGHT - 1; x++)
    for (int y = 0; y < HEIGHT; y++)
      {
        gint64 t = tm_viewport_get_start (viewport) +
                   (gint64) ((double) (x - TM_CHART_MARGIN_LEFT) / (WIDTH - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT) *
                             (double) tm_viewport_get_span (viewport));

        if (tm_test_picture_pixel (tl_before, x, y) == tm_test_picture_pixel (tl_after, x, y))
          continue;
        if (t > 1000 + 200 && t < 6000 - 200)
          changed_in++;
        else if (t > 6000 + 600)
          changed_out++;
      }
  g_assert_cmpint (changed_in, >, 100);
  g_assert_cmpint (changed_out, ==, 0);

  /* Another memory id, or none: the selection goes. */
  tm_session_set_memory_store (session, NULL);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, TM_ALLOCATIONS_NONE);

  g_object_unref (timeline);
  g_object_unref (map);
}

static GtkEventController *
find_motion (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (controller))
        return GTK_EVENT_CONTROLLER (controller);
    }
  return NULL;
}

/* Until the session has the allocation index (a worker builds it after
 * the memory id is shown), the map draws its time axis and says it is
 * indexing, and the pointer and clicks over it do nothing; then it fills
 * in, and a click selects. */
static void
test_pending_then_ready (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  g_autoptr(TmSession) session = tm_session_new ();
  TmAllocationsQuery *query = tm_allocations_query_get_for_session (session);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *map = tm_memory_map_new (session);
  GtkWidget *canvas = tm_memory_map_get_canvas (TM_MEMORY_MAP (map));
  GtkGestureClick *click = tm_test_find_click_gesture (canvas, FALSE);
  GtkEventController *motion = find_motion (canvas);
  TmViewport *viewport = tm_session_get_viewport (session);
  g_autoptr(TmTestPicture) pending = NULL, ready = NULL;
  TmAllocations *allocations;
  graphene_rect_t plot;
  double x, y, y0, y1;
  int ruler_pixels = 0, text_pixels = 0;
  guint big;

  g_assert_nonnull (click);
  g_assert_nonnull (motion);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT + 60);
  gtk_window_set_child (GTK_WINDOW (window), map);
  gtk_window_present (GTK_WINDOW (window));
  tm_session_set_profile (session, profile);
  tm_test_wait_layout_settled (window);

  /* Shown: pending until the main loop runs the request. */
  tm_session_set_memory_store (session, tm_profile_get_memory_store (profile, 0));
  g_assert_true (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
  g_assert_true (tm_allocations_query_get_pending (query));
  pending = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  for (int py = HEIGHT - TM_CHART_MARGIN_BOTTOM + 2; py < HEIGHT; py++)
    for (int px = TM_CHART_MARGIN_LEFT; px < WIDTH - TM_CHART_MARGIN_RIGHT; px++)
      ruler_pixels += tm_test_picture_pixel (pending, px, py) != 0xffffff;
  for (int py = HEIGHT / 2 - 20; py < HEIGHT / 2 + 10; py++)
    for (int px = WIDTH / 2 - 60; px < WIDTH / 2 + 60; px++)
      text_pixels += tm_test_picture_pixel (pending, px, py) != 0xffffff;
  g_assert_cmpint (ruler_pixels, >, 20);
  g_assert_cmpint (text_pixels, >, 20);

  tm_memory_map_get_plot (TM_MEMORY_MAP (map), &plot);
  g_assert_cmpfloat (plot.size.width, >, 100);
  x = plot.origin.x + plot.size.width / 3;
  y = plot.origin.y + plot.size.height * 3 / 4;
  g_signal_emit_by_name (motion, "motion", x, y);
  g_signal_emit_by_name (click, "pressed", 1, x, y);
  g_signal_emit_by_name (click, "released", 1, x, y);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, TM_ALLOCATIONS_NONE);
  g_assert_true (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));

  /* Ready: every allocation where the core puts it, none drawn before. */
  tm_test_wait_allocations (session);
  allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  g_assert_true (tm_allocations_query_get_allocations (query) == allocations);
  g_assert_nonnull (allocations);
  ready = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  g_assert_cmphex (tm_test_picture_pixel (ready, x_of (TM_MEMORY_MAP (map), 3000), y_of (TM_MEMORY_MAP (map), BASE + 4 * MIB)), !=, 0xffffff);
  g_assert_cmphex (tm_test_picture_pixel (pending, x_of (TM_MEMORY_MAP (map), 3000), y_of (TM_MEMORY_MAP (map), BASE + 4 * MIB)), ==, 0xffffff);
  g_assert_cmphex (tm_test_picture_pixel (ready, x_of (TM_MEMORY_MAP (map), 8000), y_of (TM_MEMORY_MAP (map), BASE + 12 * MIB)), !=, 0xffffff);
  g_assert_cmphex (tm_test_picture_pixel (pending, x_of (TM_MEMORY_MAP (map), 8000), y_of (TM_MEMORY_MAP (map), BASE + 12 * MIB)), ==, 0xffffff);

  /* A click on "big" on the canvas selects it. */
  big = tm_allocations_find_by_snapshot (allocations, 0);
  tm_memory_map_get_plot (TM_MEMORY_MAP (map), &plot);
  tm_memory_map_get_address_range (TM_MEMORY_MAP (map), &y0, &y1);
  x = plot.origin.x + tm_viewport_time_to_x (viewport, 3000, plot.size.width);
  y = plot.origin.y + (y1 - tm_allocations_address_to_axis (allocations, BASE + 4 * MIB)) / (y1 - y0) * plot.size.height;
  g_signal_emit_by_name (motion, "motion", x, y);
  g_signal_emit_by_name (click, "pressed", 1, x, y);
  g_signal_emit_by_name (click, "released", 1, x, y);
  g_assert_cmpuint (big, !=, TM_ALLOCATIONS_NONE);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, big);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Selecting a scope keeps its allocations' colours and dims the others;
 * clearing it brings every colour back. */
static void
test_scope_highlight (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  g_autoptr(TmSession) session = session_for (profile);
  GtkWidget *map = g_object_ref_sink (tm_memory_map_new (session));
  g_autoptr(TmTestPicture) before = NULL, during = NULL, after = NULL;
  g_autoptr(TmScope) scope = tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, (const char *[]) { "next", NULL });
  g_autoptr(TmScope) by_region = tm_scope_new (TM_SCOPE_GROUPING_REGION, FALSE, (const char *[]) { "temp", NULL });
  double xb = x_of (TM_MEMORY_MAP (map), 3000), yb = y_of (TM_MEMORY_MAP (map), BASE + 4 * MIB);
  double xn = x_of (TM_MEMORY_MAP (map), 8000), yn = y_of (TM_MEMORY_MAP (map), BASE + 12 * MIB);
  guint32 dimmed;

  before = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  tm_session_set_selected_scope (session, scope);
  during = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);

  /* "next" is in the scope: unchanged; "big" is not: dimmed, exactly as
   * the never-freed highlight dims it (it is freed). */
  g_assert_cmphex (tm_test_picture_pixel (during, xn, yn), ==, tm_test_picture_pixel (before, xn, yn));
  dimmed = tm_test_picture_pixel (during, xb, yb);
  g_assert_cmphex (dimmed, !=, tm_test_picture_pixel (before, xb, yb));
  {
    g_autoptr(TmSession) other = session_for (profile);
    GtkWidget *plain = g_object_ref_sink (tm_memory_map_new (other));
    g_autoptr(TmTestPicture) never_freed = NULL;

    tm_memory_map_set_highlight_never_freed (TM_MEMORY_MAP (plain), TRUE);
    never_freed = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (plain), WIDTH, HEIGHT), WIDTH, HEIGHT);
    g_assert_cmphex (tm_test_picture_pixel (never_freed, xb, yb), ==, dimmed);
    g_object_unref (plain);
  }

  /* A scope of another grouping that holds nothing here dims both. */
  tm_session_set_selected_scope (session, by_region);
  g_clear_pointer (&during, tm_test_picture_free);
  during = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  g_assert_cmphex (tm_test_picture_pixel (during, xn, yn), !=, tm_test_picture_pixel (before, xn, yn));
  g_assert_cmphex (tm_test_picture_pixel (during, xb, yb), ==, dimmed);

  tm_session_set_selected_scope (session, NULL);
  after = tm_test_render_node (tm_memory_map_render_node (TM_MEMORY_MAP (map), WIDTH, HEIGHT), WIDTH, HEIGHT);
  g_assert_cmphex (tm_test_picture_pixel (after, xb, yb), ==, tm_test_picture_pixel (before, xb, yb));
  g_assert_cmphex (tm_test_picture_pixel (after, xn, yn), ==, tm_test_picture_pixel (before, xn, yn));

  g_object_unref (map);
}

static void
collect_labels (GtkWidget *widget,
                GPtrArray *texts)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (texts, g_strdup (gtk_label_get_label (GTK_LABEL (widget))));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, texts);
}

/* Legend entries whose ops share the last component are told apart by
 * the components before it; a lone one keeps only its last; one told
 * apart far up shows that component and the last. */
static void
test_legend_names (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmSession) session = NULL;
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *map;

  add_event (line, TRUE, 1000, 4 * MIB, 4 * MIB, BASE, "model/x/Cast");
  add_event (line, TRUE, 2000, 7 * MIB, 3 * MIB, BASE + 4 * MIB, "model/y/Cast");
  add_event (line, TRUE, 3000, 9 * MIB, 2 * MIB, BASE + 7 * MIB, "model/y/MatMul");
  add_event (line, TRUE, 4000, 10 * MIB, 1 * MIB, BASE + 9 * MIB, "layer_0/attention/dropout/Cast");
  add_event (line, TRUE, 5000, 11 * MIB, 1 * MIB, BASE + 10 * MIB, "layer_1/attention/dropout/Cast");
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  session = session_for (profile);
  map = g_object_ref_sink (tm_memory_map_new (session));
  collect_labels (map, texts);
  g_assert_true (g_ptr_array_find_with_equal_func (texts, "x/Cast", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (texts, "y/Cast", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (texts, "MatMul", g_str_equal, NULL));
  g_assert_false (g_ptr_array_find_with_equal_func (texts, "Cast", g_str_equal, NULL));
  /* Told apart far up: that component and the last. */
  g_assert_true (g_ptr_array_find_with_equal_func (texts, "layer_0/…/Cast", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (texts, "layer_1/…/Cast", g_str_equal, NULL));
  g_object_unref (map);
}

/* A one-byte allocation alive for one time unit, among a million others,
 * still owns a pixel of a 400 × 270 frame: every allocation covers at
 * least one pixel. The store is made in memory (the JSON path pairs
 * allocations itself): a million 64 KiB allocations cycling through 4096
 * addresses (each ends when its address is allocated again), and the tiny
 * one 8 MiB above them (a gap too short to be cut). */
static void
test_one_pixel_among_a_million (void)
{
  g_autoptr(TmMemoryStore) store = tm_memory_store_new ("m", NULL);
  g_autoptr(TmAllocations) allocations = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint32 *cells = NULL;
  const guint n = 1000000, w = 400, h = 270;
  const guint64 tiny_address = BASE + 4096 * G_GUINT64_CONSTANT (65536) + 8 * MIB;
  guint tiny = TM_ALLOCATIONS_NONE, owned = 0;

  for (guint i = 0; i < n + 2; i++)
    {
      TmActivity act = { 0 };

      act.kind = i == n + 1 ? TM_ACTIVITY_DEALLOCATION : TM_ACTIVITY_ALLOCATION;
      act.time_ps = i < n ? i : n / 2 + (i - n);
      act.address = i < n ? BASE + (guint64) (i % 4096) * 65536 : tiny_address;
      act.allocation_bytes = i < n ? 65536 : 1;
      act.op_name = g_strdup (i < n ? "bulk" : "tiny");
      act.region_type = g_strdup ("");
      act.data_type = g_strdup ("");
      act.shape = g_strdup ("");
      tm_memory_store_add_activity (store, &act);
    }
  g_assert_true (tm_memory_store_finish (store, NULL, &error));
  allocations = tm_allocations_new (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_allocations_get_n (allocations), ==, n + 1);
  for (guint i = 0; i < tm_allocations_get_n (allocations); i++)
    if (TM_ALLOCATION_BYTES (tm_allocations_get (allocations, i)) == 1)
      tiny = i;
  g_assert_cmpuint (tiny, !=, TM_ALLOCATIONS_NONE);
  g_assert_cmpint (tm_allocations_get_end_time (allocations, tiny) - tm_allocations_get_start_time (allocations, tiny), ==, 1);

  cells = g_new (guint32, w * h);
  g_assert_cmpuint (tm_alloc_raster_render (allocations, 0, n, 0, (double) tm_allocations_get_axis_length (allocations),
                                           w, h, cells), ==, n + 1);
  for (guint p = 0; p < w * h; p++)
    owned += cells[p] == tiny;
  g_assert_cmpuint (owned, ==, 1);
}

/* The canvas point of an allocation's address at a time. */
static void
canvas_point (TmMemoryMap *map,
              gint64       time_ps,
              guint64      address,
              double      *x,
              double      *y)
{
  TmSession *session = tm_view_get_session (TM_VIEW (map));
  TmAllocations *allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  graphene_rect_t plot;
  double y0, y1;

  tm_memory_map_get_plot (map, &plot);
  tm_memory_map_get_address_range (map, &y0, &y1);
  *x = plot.origin.x + tm_viewport_time_to_x (tm_session_get_viewport (session), time_ps, plot.size.width);
  *y = plot.origin.y + (y1 - tm_allocations_address_to_axis (allocations, address)) / (y1 - y0) * plot.size.height;
}

/* The never-freed filter (what the cards' never-freed line turns on):
 * only the allocations never freed are drawn, in their own colours, and
 * picked; the freed ones leave the picture, a click where one was selects
 * nothing; the header says how many are kept, in place of the highlight
 * toggle, and Show All brings the others back (docs/ui.md, "The memory
 * map's never-freed filter"). */
static void
test_never_freed_filter (void)
{
  g_autoptr(TmProfile) profile = load_profile ();
  g_autoptr(TmSession) session = session_for (profile);
  TmAllocations *allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  GtkWidget *window = gtk_window_new ();
  GtkWidget *map = tm_memory_map_new (session);
  TmMemoryMap *m = TM_MEMORY_MAP (map);
  GtkGestureClick *click = tm_test_find_click_gesture (tm_memory_map_get_canvas (m), FALSE);
  GtkWidget *show_all = tm_test_find_button (map, "Show _All");
  GtkWidget *toggle = tm_test_find_button (map, "_Never freed");
  guint big = tm_allocations_find_by_snapshot (allocations, 0);
  guint next = tm_allocations_find_by_snapshot (allocations, 1);
  g_autoptr(TmTestPicture) all = NULL, kept = NULL, again = NULL;
  g_autoptr(GString) header = g_string_new (NULL);
  double bx, by, nx, ny;
  guint32 big_px, next_px;

  g_assert_nonnull (show_all);
  g_assert_nonnull (toggle);
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT + 60);
  gtk_window_set_child (GTK_WINDOW (window), map);
  gtk_window_present (GTK_WINDOW (window));
  tm_test_wait_layout_settled (window);

  all = tm_test_render_node (tm_memory_map_render_node (m, WIDTH, HEIGHT), WIDTH, HEIGHT);
  big_px = tm_test_picture_pixel (all, x_of (m, 3000), y_of (m, BASE + 5 * MIB));
  next_px = tm_test_picture_pixel (all, x_of (m, 8000), y_of (m, BASE + 13 * MIB));
  g_assert_cmphex (big_px, !=, 0xffffff);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (show_all)));
  g_assert_true (gtk_widget_get_visible (toggle));

  tm_memory_map_set_never_freed_only (m, TRUE);
  g_assert_true (tm_memory_map_get_never_freed_only (m));
  kept = tm_test_render_node (tm_memory_map_render_node (m, WIDTH, HEIGHT), WIDTH, HEIGHT);
  /* "big" was freed: gone; "next" was not: as it was, not dimmed. */
  g_assert_cmphex (tm_test_picture_pixel (kept, x_of (m, 3000), y_of (m, BASE + 5 * MIB)), ==, 0xffffff);
  g_assert_cmphex (tm_test_picture_pixel (kept, x_of (m, 8000), y_of (m, BASE + 13 * MIB)), ==, next_px);

  /* Picking: nothing where "big" was, "next" (the index's own number). */
  canvas_point (m, 3000, BASE + 5 * MIB, &bx, &by);
  canvas_point (m, 8000, BASE + 13 * MIB, &nx, &ny);
  g_assert_cmpuint (_tm_memory_map_pick (m, bx, by), ==, TM_ALLOCATIONS_NONE);
  g_assert_cmpuint (_tm_memory_map_pick (m, nx, ny), ==, next);
  g_signal_emit_by_name (click, "pressed", 1, bx, by);
  g_signal_emit_by_name (click, "released", 1, bx, by);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, TM_ALLOCATIONS_NONE);
  g_signal_emit_by_name (click, "pressed", 1, nx, ny);
  g_signal_emit_by_name (click, "released", 1, nx, ny);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, next);

  /* The header: how many it keeps, in place of the highlight toggle. */
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (show_all)));
  g_assert_false (gtk_widget_get_visible (toggle));
  tm_test_collect_label_text (gtk_widget_get_parent (show_all), header);
  g_test_message ("%s", header->str);
  g_assert_nonnull (strstr (header->str, "Only the 2 allocations never freed (8.00 MiB)"));

  /* Selected elsewhere (the table), a freed one is not drawn either. */
  tm_session_select_allocation (session, big);
  g_clear_pointer (&kept, tm_test_picture_free);
  kept = tm_test_render_node (tm_memory_map_render_node (m, WIDTH, HEIGHT), WIDTH, HEIGHT);
  g_assert_cmphex (tm_test_picture_pixel (kept, x_of (m, 1000) + 8, y_of (m, BASE + 5 * MIB)), ==, 0xffffff);

  /* Show All: everything again, as it was. */
  tm_session_select_allocation (session, TM_ALLOCATIONS_NONE);
  g_signal_emit_by_name (show_all, "clicked");
  g_assert_false (tm_memory_map_get_never_freed_only (m));
  g_assert_true (gtk_widget_get_visible (toggle));
  again = tm_test_render_node (tm_memory_map_render_node (m, WIDTH, HEIGHT), WIDTH, HEIGHT);
  g_assert_cmphex (tm_test_picture_pixel (again, x_of (m, 3000), y_of (m, BASE + 5 * MIB)), ==, big_px);
  g_assert_cmpuint (_tm_memory_map_pick (m, bx, by), ==, big);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* An allocation the file names nothing of (no op, region, shape or step,
 * data type 0, which XProf calls "INVALID"): the map's tooltip and the
 * timeline's say "unknown" for its op, as the table does, and
 * leave the other fields out, with no separator left by an empty one
 * (docs/ui.md, "Values the file does not hold"); a named one keeps them
 * all, in the same words in both. */
static void
test_tooltip_unknown_values (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmSession) session = NULL;
  TmAllocations *allocations;
  GtkWidget *map, *timeline;
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_allocated = 4 * MIB,
    .bytes_available = 60 * MIB,
    .peak_bytes_in_use = 4 * MIB,
    .requested_bytes = 4 * MIB,
    .allocation_bytes = 4 * MIB,
    .addr = BASE,
    .absent = TM_FIXTURE_FIELD_TF_OP | TM_FIXTURE_FIELD_GROUP_ID | TM_FIXTURE_FIELD_REGION_TYPE |
              TM_FIXTURE_FIELD_DATA_TYPE | TM_FIXTURE_FIELD_SHAPE,
  };

  tm_fixture_line_add_memory_event (line, TRUE, 1000, &m);
  m = (TmFixtureMemory) {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_allocated = 8 * MIB,
    .bytes_available = 56 * MIB,
    .peak_bytes_in_use = 8 * MIB,
    .requested_bytes = 4 * MIB,
    .allocation_bytes = 4 * MIB,
    .addr = BASE + 4 * MIB,
    .tf_op = "named/MatMul",
    .has_group_id = TRUE,
    .group_id = 3,
    .region_type = "output",
    .data_type = 1,
    .shape = "[4]",
  };
  tm_fixture_line_add_memory_event (line, TRUE, 2000, &m);
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  session = session_for (profile);
  allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  map = g_object_ref_sink (tm_memory_map_new (session));
  timeline = g_object_ref_sink (tm_timeline_new (session));

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *on_map = _tm_memory_map_describe (TM_MEMORY_MAP (map), i);
      g_autofree char *on_timeline = tm_timeline_describe_snapshot (TM_TIMELINE (timeline),
                                                                    tm_allocations_get_event (allocations, i));
      const char *texts[] = { on_map, on_timeline };

      g_test_message ("map: %s\ntimeline: %s", on_map, on_timeline);
      for (guint k = 0; k < G_N_ELEMENTS (texts); k++)
        {
          g_assert_true (pango_parse_markup (texts[k], -1, 0, NULL, NULL, NULL, NULL));
          g_assert_null (strstr (texts[k], "(no op)"));
          g_assert_null (strstr (texts[k], "INVALID"));
          g_assert_null (strstr (texts[k], "—"));
          g_assert_null (strstr (texts[k], "·  "));
          g_assert_null (strstr (texts[k], " · \n"));
          g_assert_null (strstr (texts[k], "  ·"));
          if (i == 0)
            {
              /* Its step is the analysis's (docs/analysis.md, step 3):
               * then the line ends. */
              g_assert_true (g_regex_match_simple ("\nStep [0-9]+\n", texts[k], 0, 0));
              g_assert_null (strstr (texts[k], "region"));
              g_assert_null (strstr (texts[k], "shape"));
              g_assert_null (strstr (texts[k], "data type"));
            }
          else
            g_assert_nonnull (strstr (texts[k], "Step 3 · region output · data type float · shape [4]\n"));
        }
      g_assert_true (g_str_has_prefix (on_map, i == 0 ? "<b>unknown</b>\n" : "<b>named/\u200bMatMul</b>\n"));
      g_assert_nonnull (strstr (on_timeline, i == 0 ? "Op: unknown\n" : "Op: named/\u200bMatMul\n"));
    }

  g_object_unref (timeline);
  g_object_unref (map);
}

/* Whether the tooltip's label for markup (tm_op_label_new_tooltip, what
 * the views hand GtkTooltip) asks for at most width pixels, and puts the
 * text on more than one line. */
static gboolean
wraps_within (const char *markup,
              int         width)
{
  GtkWidget *label = g_object_ref_sink (tm_op_label_new_tooltip (markup));
  int natural, height;

  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, natural, NULL, &height, NULL, NULL);
  g_object_unref (label);
  g_test_message ("a tooltip of %d × %d px", natural, height);
  return natural <= width && height > 10 * 12;
}

/* An op name of a hundred scopes (as long as a PyTorch stack): the map's
 * and the timeline's tooltips (and the tables', through the same label)
 * wrap it at its scopes rather than running past the window. */
static void
test_tooltip_long_name (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmSession) session = NULL;
  g_autoptr(GString) name = g_string_new (NULL);
  g_autofree char *on_map = NULL, *on_timeline = NULL;
  TmAllocations *allocations;
  GtkWidget *map, *timeline;
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0_bfc",
    .bytes_allocated = 4 * MIB,
    .bytes_available = 60 * MIB,
    .peak_bytes_in_use = 4 * MIB,
    .requested_bytes = 4 * MIB,
    .allocation_bytes = 4 * MIB,
    .addr = BASE,
    .region_type = "output",
    .data_type = 1,
    .shape = "[4]",
  };

  for (guint i = 0; i < 100; i++)
    g_string_append_printf (name, "%sD:\\work\\model\\layer_%u.py:%u:forward", i > 0 ? "/" : "", i, 10 + i);
  m.tf_op = name->str;
  tm_fixture_line_add_memory_event (line, TRUE, 1000, &m);
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  session = session_for (profile);
  allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  map = g_object_ref_sink (tm_memory_map_new (session));
  timeline = g_object_ref_sink (tm_timeline_new (session));

  on_map = _tm_memory_map_describe (TM_MEMORY_MAP (map), 0);
  on_timeline = tm_timeline_describe_snapshot (TM_TIMELINE (timeline), tm_allocations_get_event (allocations, 0));
  g_assert_true (wraps_within (on_map, 800));
  g_assert_true (wraps_within (on_timeline, 800));
  /* The name itself, less the spaces that let it break. */
  {
    g_autofree char *text = NULL;

    g_assert_true (pango_parse_markup (on_map, -1, 0, NULL, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "layer_0.py:10:forward/\u200bD:\\\u200bwork"));
  }

  g_object_unref (timeline);
  g_object_unref (map);
}

/* The legend in a narrow header: the entries that fit are whole, those
 * that do not are left out, from the last, and "+N more" counts them with
 * the names beyond the legend (docs/ui.md, "The memory map's never-freed
 * filter"). */
static void
test_legend_fits (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = tm_fit_box_new (10);
  GtkWidget *more = gtk_label_new ("+3 more");
  GtkWidget *entries[5];
  int more_width, room = 0;

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autofree char *name = g_strdup_printf ("layer_%u/…/Cast", i);

      entries[i] = gtk_label_new (name);
      gtk_label_set_ellipsize (GTK_LABEL (entries[i]), PANGO_ELLIPSIZE_START);
      tm_fit_box_append (TM_FIT_BOX (box), entries[i]);
    }
  tm_fit_box_set_more (TM_FIT_BOX (box), more);
  gtk_widget_measure (more, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &more_width, NULL, NULL);
  /* Room for the first two entries and "more". */
  for (guint i = 0; i < 2; i++)
    {
      int natural;

      gtk_widget_measure (entries[i], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      room += natural + 10;
    }
  room += more_width + 5;
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_allocate (box, room, 20, -1, NULL);

  g_assert_cmpuint (tm_fit_box_get_n_hidden (TM_FIT_BOX (box)), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      int natural;

      gtk_widget_measure (entries[i], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_assert_true (gtk_widget_get_child_visible (entries[i]) == (i < 2));
      if (i < 2)
        g_assert_cmpint (gtk_widget_get_width (entries[i]), ==, natural);
    }
  g_assert_true (gtk_widget_get_child_visible (more));
  g_assert_cmpint (gtk_widget_get_width (more), ==, more_width);
  /* Wide enough: all of them. */
  gtk_widget_allocate (box, room * 4, 20, -1, NULL);
  g_assert_cmpuint (tm_fit_box_get_n_hidden (TM_FIT_BOX (box)), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    g_assert_true (gtk_widget_get_child_visible (entries[i]));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The painter's colours (src/charts, no GTK) are the ones GTK gave the
 * map before it drew through its layer: a name's hue from its hash,
 * converted as gtk_hsv_to_rgb() converts it. */
static void
test_colors_as_gtk (void)
{
  for (int dark = 0; dark < 2; dark++)
    for (guint i = 0; i < 4000; i++)
      {
        g_autofree char *name = g_strdup_printf ("model/layer_%u/op_%u", i / 7, i);
        guint h = g_str_hash (name);
        float r, g, b;

        gtk_hsv_to_rgb ((float) (h % 360) / 360.0f,
                        dark ? 0.55f : 0.60f + (float) ((h >> 9) % 3) * 0.1f,
                        dark ? 0.80f + (float) ((h >> 11) % 3) * 0.06f : 0.70f + (float) ((h >> 11) % 3) * 0.08f,
                        &r, &g, &b);
        g_assert_cmphex (tm_map_color_for_name (name, dark), ==, tm_map_color_pack (r, g, b, 1));
      }
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory-map/drawn-at-time-and-address", test_drawn_at_time_and_address);
  g_test_add_func ("/memory-map/selection-marks-both", test_selection_marks_both);
  g_test_add_func ("/memory-map/pending-then-ready", test_pending_then_ready);
  g_test_add_func ("/memory-map/one-pixel-among-a-million", test_one_pixel_among_a_million);
  g_test_add_func ("/memory-map/scope-highlight", test_scope_highlight);
  g_test_add_func ("/memory-map/legend-names", test_legend_names);
  g_test_add_func ("/memory-map/colors-as-gtk", test_colors_as_gtk);
  g_test_add_func ("/memory-map/tooltip-unknown-values", test_tooltip_unknown_values);
  g_test_add_func ("/memory-map/never-freed-filter", test_never_freed_filter);
  g_test_add_func ("/memory-map/tooltip-long-name", test_tooltip_long_name);
  g_test_add_func ("/memory-map/legend-fits", test_legend_fits);

  return g_test_run ();
}
