/* test-session.c — TmSession, the state a window's views share, without a
 * display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-allocations-query.h"
#include "tm-comparison-query.h"
#include "tm-scope-index-query.h"
#include "tm-scope-series-query.h"
#include "tm-gui-test-util.h"
#include "tm-session.h"
#include "tm-test-time.h"
#include "tm-test-util.h"

#define STEP_PS G_GINT64_CONSTANT (1000000)   /* 1 µs between events */

/* 100 events on GPU_0_bfc and 10 on GPU_1_bfc, the heap peaking at event
 * 60 of GPU_0_bfc; with_modules adds two HLO modules, the second one
 * ending well after the last event. */
static TmProfile *
load_profile (gboolean with_modules)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  TmFixtureLine *line;
  TmProfile *profile;

  line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  for (guint i = 0; i < 110; i++)
    {
      gboolean second = i >= 100;
      gint64 heap = second ? 1024 : (i <= 60 ? (gint64) i + 1 : 121 - (gint64) i) << 20;
      TmFixtureMemory m = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
        .allocator_name = second ? "GPU_1_bfc" : "GPU_0_bfc",
        .bytes_allocated = heap,
        .bytes_available = G_GINT64_CONSTANT (256) << 20,
        .peak_bytes_in_use = heap,
        .requested_bytes = 1024,
        .allocation_bytes = 1024,
        .addr = 0x1000 + i,
        .tf_op = "session/Op",
      };

      tm_fixture_line_add_memory_event (line, TRUE, (gint64) (second ? i - 100 : i) * 10 * STEP_PS, &m);
    }
  if (with_modules)
    {
      tm_fixture_space_add_hlo_module (space, 0, "jit_a", 100 * STEP_PS, 300 * STEP_PS);
      tm_fixture_space_add_hlo_module (space, 0, "jit_b", 500 * STEP_PS, 5000 * STEP_PS);
    }

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  return profile;
}

typedef struct
{
  guint profile;
  guint memory_store;
  guint has_selected_time;
  guint selected_time;
  guint viewport_changed;
  guint allocations;
  guint allocations_pending;
} Counts;

static void
notify_cb (GObject    *object,
           GParamSpec *pspec,
           Counts     *counts)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "profile"))
    counts->profile++;
  else if (g_str_equal (name, "memory-store"))
    counts->memory_store++;
  else if (g_str_equal (name, "has-selected-time"))
    counts->has_selected_time++;
  else if (g_str_equal (name, "selected-time"))
    counts->selected_time++;
  else if (g_str_equal (name, "allocations"))
    counts->allocations++;
  else if (g_str_equal (name, "pending"))
    counts->allocations_pending++;
}

static void
viewport_changed_cb (TmViewport *viewport,
                     Counts     *counts)
{
  counts->viewport_changed++;
}

static TmSession *
session_new_counted (Counts *counts)
{
  TmSession *session = tm_session_new ();

  /* What asks for the allocation index (the window makes it too), whose
   * "allocations" and "pending" are counted with the session's own. */
  g_signal_connect (tm_allocations_query_get_for_session (session), "notify", G_CALLBACK (notify_cb), counts);
  g_signal_connect (session, "notify", G_CALLBACK (notify_cb), counts);
  g_signal_connect (tm_session_get_viewport (session), "changed", G_CALLBACK (viewport_changed_cb), counts);
  return session;
}

/* A new session shows nothing. */
static void
test_session_empty (void)
{
  g_autoptr(TmSession) session = tm_session_new ();
  TmViewport *viewport = tm_session_get_viewport (session);

  g_assert_nonnull (viewport);
  g_assert_null (tm_session_get_profile (session));
  g_assert_null (tm_session_get_memory_store (session));
  g_assert_null (tm_session_get_profile (session));
  g_assert_false (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_session_get_shown_time (session), ==, 0);
  g_assert_false (tm_viewport_is_zoomed (viewport));
}

/* Setting a store sets the viewport's limits to its data and shows all of
 * it, clears the selected time, and notifies each change once; setting it
 * again changes nothing. */
static void
test_session_store (void)
{
  g_autoptr(TmProfile) profile = load_profile (FALSE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  TmMemoryStore *gpu1 = tm_profile_lookup_memory_store (profile, "GPU_1_bfc");
  Counts counts = { 0 };
  g_autoptr(TmSession) session = session_new_counted (&counts);
  TmViewport *viewport = tm_session_get_viewport (session);

  g_assert_nonnull (gpu0);
  g_assert_nonnull (gpu1);

  tm_session_set_profile (session, profile);
  g_assert_true (tm_session_get_profile (session) == profile);
  g_assert_null (tm_session_get_memory_store (session));
  g_assert_cmpuint (counts.profile, ==, 1);
  g_assert_cmpuint (counts.memory_store, ==, 0);

  tm_session_set_memory_store (session, gpu0);
  g_assert_true (tm_session_get_memory_store (session) == gpu0);
  g_assert_cmpuint (counts.memory_store, ==, 1);
  g_assert_cmpint (tm_viewport_get_data_start (viewport), ==, 0);
  g_assert_cmpint (tm_viewport_get_data_end (viewport), ==, 990 * STEP_PS);
  g_assert_false (tm_viewport_is_zoomed (viewport));
  g_assert_cmpuint (counts.viewport_changed, >=, 1);

  /* Zoomed and with a selected time, another store shows everything of
   * its own, unselected. */
  tm_viewport_set_range (viewport, 100 * STEP_PS, 200 * STEP_PS);
  tm_session_select_time (session, 150 * STEP_PS);
  counts = (Counts) { 0 };
  tm_session_set_memory_store (session, gpu1);
  g_assert_cmpuint (counts.memory_store, ==, 1);
  g_assert_cmpuint (counts.has_selected_time, ==, 1);
  g_assert_cmpuint (counts.profile, ==, 0);
  g_assert_false (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_viewport_get_data_start (viewport), ==, 0);
  g_assert_cmpint (tm_viewport_get_data_end (viewport), ==, 90 * STEP_PS);
  g_assert_false (tm_viewport_is_zoomed (viewport));

  /* The same store again: nothing happens. */
  tm_viewport_set_range (viewport, 10 * STEP_PS, 20 * STEP_PS);
  counts = (Counts) { 0 };
  tm_session_set_memory_store (session, gpu1);
  g_assert_cmpuint (counts.memory_store, ==, 0);
  g_assert_cmpuint (counts.viewport_changed, ==, 0);
  g_assert_true (tm_viewport_is_zoomed (viewport));

  /* Another profile: no store until one is chosen. */
  counts = (Counts) { 0 };
  tm_session_set_profile (session, NULL);
  g_assert_cmpuint (counts.profile, ==, 1);
  g_assert_cmpuint (counts.memory_store, ==, 1);
  g_assert_null (tm_session_get_memory_store (session));
  g_assert_false (tm_viewport_is_zoomed (viewport));
}

/* The viewport's limits reach the HLO modules, which come from the
 * profile. */
static void
test_session_modules (void)
{
  g_autoptr(TmProfile) profile = load_profile (TRUE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = tm_session_new ();
  TmViewport *viewport = tm_session_get_viewport (session);
  GArray *modules;

  tm_session_set_profile (session, profile);
  modules = tm_profile_get_hlo_modules (tm_session_get_profile (session));
  g_assert_nonnull (modules);
  g_assert_true (modules == tm_profile_get_hlo_modules (profile));
  g_assert_cmpuint (modules->len, ==, 2);

  tm_session_set_memory_store (session, gpu0);
  g_assert_cmpint (tm_viewport_get_data_start (viewport), ==, 0);
  g_assert_cmpint (tm_viewport_get_data_end (viewport), ==, 5000 * STEP_PS);
}

/* Selecting notifies once per change; the shown time is the selected time,
 * or the peak's without one. */
static void
test_session_selection (void)
{
  g_autoptr(TmProfile) profile = load_profile (FALSE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  Counts counts = { 0 };
  g_autoptr(TmSession) session = session_new_counted (&counts);
  gint64 peak;

  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, gpu0);
  peak = tm_memory_store_get_summary (gpu0)->peak_time_ps;
  g_assert_cmpint (peak, ==, 600 * STEP_PS);
  g_assert_cmpint (tm_session_get_shown_time (session), ==, peak);

  counts = (Counts) { 0 };
  tm_session_select_time (session, 250 * STEP_PS);
  g_assert_true (tm_session_get_has_selected_time (session));
  g_assert_cmpint (tm_session_get_selected_time (session), ==, 250 * STEP_PS);
  g_assert_cmpint (tm_session_get_shown_time (session), ==, 250 * STEP_PS);
  g_assert_cmpuint (counts.has_selected_time, ==, 1);
  g_assert_cmpuint (counts.selected_time, ==, 1);

  /* The same time again: nothing; another time: only the time. */
  tm_session_select_time (session, 250 * STEP_PS);
  g_assert_cmpuint (counts.has_selected_time, ==, 1);
  g_assert_cmpuint (counts.selected_time, ==, 1);
  tm_session_select_time (session, 300 * STEP_PS);
  g_assert_cmpuint (counts.has_selected_time, ==, 1);
  g_assert_cmpuint (counts.selected_time, ==, 2);

  /* Cleared: back to the peak, once. */
  tm_session_clear_selected_time (session);
  tm_session_clear_selected_time (session);
  g_assert_false (tm_session_get_has_selected_time (session));
  g_assert_cmpuint (counts.has_selected_time, ==, 2);
  g_assert_cmpint (tm_session_get_shown_time (session), ==, peak);

  /* Nothing selected: selecting notifies both, even for the old time. */
  tm_session_select_time (session, 300 * STEP_PS);
  g_assert_cmpuint (counts.has_selected_time, ==, 3);
  g_assert_true (tm_session_get_has_selected_time (session));
  g_assert_cmpuint (counts.viewport_changed, ==, 0);
}

/* zoom_to shows the range with 4 % of its span free on each side, in
 * either order of its ends. */
static void
test_session_zoom_to (void)
{
  g_autoptr(TmProfile) profile = load_profile (FALSE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  g_autoptr(TmSession) session = tm_session_new ();
  TmViewport *viewport = tm_session_get_viewport (session);

  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, gpu0);

  tm_viewport_zoom_to (viewport, 200 * STEP_PS, 300 * STEP_PS);
  g_assert_cmpint (tm_viewport_get_start (viewport), ==, 196 * STEP_PS);
  g_assert_cmpint (tm_viewport_get_end (viewport), ==, 304 * STEP_PS);

  tm_viewport_reset (viewport);
  tm_viewport_zoom_to (viewport, 300 * STEP_PS, 200 * STEP_PS);
  g_assert_cmpint (tm_viewport_get_start (viewport), ==, 196 * STEP_PS);
  g_assert_cmpint (tm_viewport_get_end (viewport), ==, 304 * STEP_PS);

  /* At the data's edge the margin stops there; the span is kept. */
  tm_viewport_zoom_to (viewport, 0, 100 * STEP_PS);
  g_assert_cmpint (tm_viewport_get_start (viewport), ==, 0);
  g_assert_cmpint (tm_viewport_get_span (viewport), ==, 108 * STEP_PS);

  /* Selecting does not move the view. */
  tm_session_select_time (session, 50 * STEP_PS);
  g_assert_cmpint (tm_viewport_get_span (viewport), ==, 108 * STEP_PS);
}

/* Runs the main loop until cond (data), or fails after a minute (scaled
 * for sanitizer builds, tm-test-time.h). */
static void
iterate_until (gboolean (*cond) (gpointer),
               gpointer   data)
{
  gint64 deadline = tm_test_deadline (60);

  while (!cond (data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
not_pending (gpointer session)
{
  return !tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session));
}

static gboolean
is_null (gpointer pointer_to_pointer)
{
  return *(gpointer *) pointer_to_pointer == NULL;
}

/* The allocation index (the session's allocations query) comes after the
 * memory store: pending (no index, so no view can pick an allocation)
 * until a worker has built it, then there, each change notified once. A
 * store shown again has it at once; a request for a store no longer shown
 * is dropped. Another store clears the selected allocation. */
static void
test_session_allocations (void)
{
  g_autoptr(TmProfile) profile = load_profile (FALSE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  TmMemoryStore *gpu1 = tm_profile_lookup_memory_store (profile, "GPU_1_bfc");
  Counts counts = { 0 };
  g_autoptr(TmSession) session = session_new_counted (&counts);
  TmAllocations *allocations;

  tm_session_set_profile (session, profile);
  g_assert_false (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
  tm_session_set_memory_store (session, gpu0);
  g_assert_true (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
  g_assert_null (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_cmpuint (counts.allocations_pending, ==, 1);
  g_assert_cmpuint (counts.allocations, ==, 0);

  iterate_until (not_pending, session);
  allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  g_assert_nonnull (allocations);
  g_assert_true (tm_allocations_get_store (allocations) == gpu0);
  g_assert_cmpuint (tm_allocations_get_n (allocations), ==, 100);
  g_assert_cmpuint (counts.allocations_pending, ==, 2);
  g_assert_cmpuint (counts.allocations, ==, 1);
  tm_session_select_allocation (session, 7);
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, 7);

  /* Another store: pending again; back to the first before its index is
   * there: the first's at once, and the other's request says nothing. */
  counts = (Counts) { 0 };
  tm_session_set_memory_store (session, gpu1);
  g_assert_true (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
  g_assert_null (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_cmpuint (tm_session_get_selected_allocation (session), ==, TM_ALLOCATIONS_NONE);
  tm_session_set_memory_store (session, gpu0);
  g_assert_false (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
  g_assert_true (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)) == allocations);
  counts = (Counts) { 0 };
  for (guint i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  g_assert_true (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)) == allocations);
  g_assert_cmpuint (counts.allocations, ==, 0);
  g_assert_cmpuint (counts.allocations_pending, ==, 0);

  /* The second store's own index, once asked for and waited for. */
  tm_session_set_memory_store (session, gpu1);
  iterate_until (not_pending, session);
  g_assert_nonnull (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_true (tm_allocations_get_store (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))) == gpu1);
  g_assert_cmpuint (tm_allocations_get_n (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))), ==, 10);

  /* No profile: no index, nothing pending. */
  tm_session_set_profile (session, NULL);
  g_assert_null (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_false (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
}

/* A session dropped while its index is pending (before its worker starts,
 * or while it runs) keeps neither itself nor the profile alive. */
static void
test_session_allocations_dropped (void)
{
  for (guint iterations = 0; iterations < 4; iterations++)
    {
      TmProfile *profile = load_profile (FALSE);
      TmSession *session = tm_session_new ();

      tm_allocations_query_get_for_session (session);
      g_object_add_weak_pointer (G_OBJECT (profile), (gpointer *) &profile);
      g_object_add_weak_pointer (G_OBJECT (session), (gpointer *) &session);
      tm_session_set_profile (session, profile);
      tm_session_set_memory_store (session, tm_profile_get_memory_store (profile, 0));
      g_assert_true (tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)));
      for (guint i = 0; i < iterations; i++)
        g_main_context_iteration (NULL, FALSE);

      g_object_unref (session);
      g_assert_null (session);
      g_object_unref (profile);
      iterate_until (is_null, &profile);
    }
}

/* The comparison is made once for the stores it compares and again when
 * either changes, whatever order the notifications came in; the
 * baseline's tree follows the selected time. */
static void
test_comparison_query (void)
{
  g_autoptr(TmProfile) profile = load_profile (FALSE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  TmMemoryStore *gpu1 = tm_profile_lookup_memory_store (profile, "GPU_1_bfc");
  g_autoptr(TmSession) session = tm_session_new ();
  TmComparisonQuery *query = tm_comparison_query_get_for_session (session);
  g_autoptr(TmCompare) first = NULL;
  TmScopeTree *tree;

  g_assert_true (tm_comparison_query_get_for_session (session) == query);
  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, gpu0);
  g_assert_null (tm_comparison_query_get_comparison (query));
  g_assert_null (tm_comparison_query_get_baseline_scope_tree (query, TM_SCOPE_GROUPING_NAME));

  tm_session_set_baseline (session, profile, gpu1);
  first = g_object_ref (tm_comparison_query_get_comparison (query));
  g_assert_nonnull (first);
  g_assert_true (tm_comparison_query_get_comparison (query) == first);

  /* The baseline's tree at its peak, then at the selected time. */
  tree = tm_comparison_query_get_baseline_scope_tree (query, TM_SCOPE_GROUPING_NAME);
  g_assert_nonnull (tree);
  g_assert_cmpint (tm_scope_tree_get_root (tree)->bytes, ==, 10 * 1024);
  tm_session_select_time (session, 0);
  tree = tm_comparison_query_get_baseline_scope_tree (query, TM_SCOPE_GROUPING_NAME);
  g_assert_cmpint (tm_scope_tree_get_root (tree)->bytes, ==, 1024);

  /* Swapped: another comparison, not the one kept. */
  tm_session_set_baseline (session, NULL, NULL);
  g_assert_null (tm_comparison_query_get_comparison (query));
  tm_session_set_memory_store (session, gpu1);
  tm_session_set_baseline (session, profile, gpu0);
  g_assert_nonnull (tm_comparison_query_get_comparison (query));
  g_assert_true (tm_comparison_query_get_comparison (query) != first);
}

static gboolean
scope_index_ready (gpointer query)
{
  return !tm_scope_index_query_get_pending (query);
}

/* A selected scope has its grouping's index built in a worker (the series
 * query asks for it) and its series made from it; another memory store
 * drops both, and a session that goes while a build runs is left alone by
 * it. */
static void
test_scope_index_query (void)
{
  g_autoptr(TmProfile) profile = load_profile (FALSE);
  TmMemoryStore *gpu0 = tm_profile_lookup_memory_store (profile, "GPU_0_bfc");
  TmMemoryStore *gpu1 = tm_profile_lookup_memory_store (profile, "GPU_1_bfc");
  g_autoptr(TmSession) session = tm_session_new ();
  TmScopeIndexQuery *query = tm_scope_index_query_get_for_session (session);
  TmScopeSeriesQuery *series = tm_scope_series_query_get_for_session (session);
  g_autoptr(TmScope) scope = tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, (const char *[]) { "session", NULL });
  TmScopeIndex *index;

  tm_session_set_profile (session, profile);
  tm_session_set_memory_store (session, gpu0);
  g_assert_false (tm_scope_index_query_get_pending (query));
  tm_session_set_selected_scope (session, scope);
  g_assert_true (tm_scope_index_query_get_pending (query));
  g_assert_null (tm_scope_series_query_get_series (series));
  iterate_until (scope_index_ready, query);
  index = tm_scope_index_query_get_index (query, TM_SCOPE_GROUPING_NAME);
  g_assert_nonnull (index);
  g_assert_true (tm_scope_index_get_store (index) == gpu0);
  g_assert_nonnull (tm_scope_series_query_get_series (tm_scope_series_query_get_for_session (session)));
  /* The heap at event 60 is 61 MiB, of which 61 allocations of 1 KiB are
   * of the scope. */
  g_assert_cmpint (tm_test_scope_series_at (session, 60), ==, 61 * 1024);

  /* Another memory store: no index, no series, until asked again. */
  tm_session_set_memory_store (session, gpu1);
  g_assert_false (tm_scope_index_query_get_pending (query));
  g_assert_null (tm_scope_series_query_get_series (tm_scope_series_query_get_for_session (session)));
  g_assert_null (tm_scope_index_query_get_index (query, TM_SCOPE_GROUPING_NAME));
  g_assert_true (tm_scope_index_query_get_pending (query));

  /* The session goes while that build runs. */
  g_clear_object (&session);
  for (guint i = 0; i < 200; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/empty", test_session_empty);
  g_test_add_func ("/session/store", test_session_store);
  g_test_add_func ("/session/modules", test_session_modules);
  g_test_add_func ("/session/selection", test_session_selection);
  g_test_add_func ("/session/zoom-to", test_session_zoom_to);
  g_test_add_func ("/session/allocations", test_session_allocations);
  g_test_add_func ("/session/allocations-dropped", test_session_allocations_dropped);
  g_test_add_func ("/session/comparison-query", test_comparison_query);
  g_test_add_func ("/session/scope-index-query", test_scope_index_query);

  return g_test_run ();
}
