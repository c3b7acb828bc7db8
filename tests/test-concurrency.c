/* test-concurrency.c — loads racing the user (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Opening many files quickly, closing a window while its profile is being
 * read and analysed (or its allocation index built), quitting during a
 * load, switching hosts while one is analysed, cancelling a run overview
 * while its hosts are summarised. The profile is large enough that each load takes a while: the
 * test generates it (tests/bench/gen-large-profile, 24 MiB, about 100 000
 * memory events); the real GPU profile joins when TM_REAL_PROFILES is set.
 * What is checked: nothing crashes, the window ends in the state asked
 * for last, and (in sanitizer builds) ASan and UBSan stay silent.
 */
#include "config.h"

#include "tm-allocations-query.h"

#include <unistd.h>
#include <gtk/gtk.h>

#include "tm-application.h"
#include "tm-run-loader.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"
#include "tm-test-time.h"
#include "tm-test-util.h"

/* Workers of windows already closed have no event to wait for: they
 * finish on their own. Give them the time they take in this build
 * (tm-test-time.h), so the next test does not race them. */
static void
let_workers_end (void)
{
  tm_test_iterate_for (2500 * (guint) tm_test_time_scale ());
}

static char *fixture_dir;
static char *large_path;   /* the generated 24 MiB profile */
static char *small_path;   /* XProf's example */
static char *run_dir;      /* plugins/profile/<run>/ with two large hosts */
static char *big_run_dir;  /* a run of BIG_RUN_HOSTS large hosts (hard links) */
static GFile *big_run_hosts[6];
#define BIG_RUN_HOSTS G_N_ELEMENTS (big_run_hosts)
static TmApplication *app; /* one per process: it registers on the bus */

static void
write_fixtures (void)
{
  g_autofree char *generator = g_test_build_filename (G_TEST_BUILT, "bench", "gen-large-profile", NULL);
  g_autoptr(TmFixtureSpace) example = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *host_a = NULL;
  g_autofree char *host_b = NULL;
  gsize length;
  int status;

  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);
  large_path = g_build_filename (fixture_dir, "large.xplane.pb", NULL);
  {
    const char *argv[] = { generator, "-q", "--size-mib", "24", "--seed", "14", large_path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                 NULL, NULL, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  small_path = tm_fixture_space_write (example, fixture_dir, "example.xplane.pb", &error);
  g_assert_no_error (error);

  run_dir = g_build_filename (fixture_dir, "logs", "plugins", "profile", "2024_01_01_00_00_00", NULL);
  g_assert_cmpint (g_mkdir_with_parents (run_dir, 0755), ==, 0);
  g_assert_true (g_file_get_contents (large_path, &contents, &length, NULL));
  host_a = g_build_filename (run_dir, "host-a.xplane.pb", NULL);
  host_b = g_build_filename (run_dir, "host-b.xplane.pb", NULL);
  g_assert_true (g_file_set_contents (host_a, contents, length, NULL));
  g_assert_true (g_file_set_contents (host_b, contents, length, NULL));

  big_run_dir = g_build_filename (fixture_dir, "big-run", NULL);
  g_assert_cmpint (g_mkdir (big_run_dir, 0755), ==, 0);
  for (guint i = 0; i < BIG_RUN_HOSTS; i++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u.xplane.pb", i);
      g_autofree char *path = g_build_filename (big_run_dir, name, NULL);

      g_assert_cmpint (link (large_path, path), ==, 0);
      big_run_hosts[i] = g_file_new_for_path (path);
    }
}

static gboolean
is_loading (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) == TM_WINDOW_STATE_LOADING;
}

/* Many opens in a row, some of the same file, across windows: each file
 * ends in one window, shown. */
static void
test_open_many (void)
{
  g_autoptr(GFile) large = g_file_new_for_path (large_path);
  g_autoptr(GFile) small = g_file_new_for_path (small_path);
  g_autofree char *gpu_path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(GFile) gpu = gpu_path != NULL ? g_file_new_for_path (gpu_path) : g_object_ref (small);
  guint expected = gpu_path != NULL ? 3 : 2;

  for (guint i = 0; i < 6; i++)
    {
      tm_application_open_files (app, (GFile *[]) { large, small, gpu }, 3, NULL);
      tm_test_iterate_for (i * 15);
    }
  tm_test_iterate_until (tm_test_all_loaded, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, expected);
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    g_assert_cmpint (tm_window_get_state (l->data), ==, TM_WINDOW_STATE_PROFILE);

  /* The same, into one window: the last file asked for wins. */
  {
    TmWindow *window = TM_WINDOW (gtk_application_get_windows (GTK_APPLICATION (app))->data);

    for (guint i = 0; i < 8; i++)
      {
        tm_window_open (window, i % 2 == 0 ? large : gpu);
        tm_test_iterate_for (i * 10);
      }
    tm_window_open (window, small);
    tm_test_iterate_until (tm_test_not_loading, window);
    g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
    g_assert_true (g_file_equal (tm_window_get_file (window), small));
  }

  tm_test_destroy_all_windows (GTK_APPLICATION (app));
}

/* A window closed at several moments of its load: while reading, while
 * analysing, just after. The worker finishes on its own and finds no
 * window. */
static void
test_close_during_analysis (void)
{
  g_autoptr(GFile) large = g_file_new_for_path (large_path);
  const guint delays_ms[] = { 0, 5, 40, 120, 300, 600 };

  for (guint i = 0; i < G_N_ELEMENTS (delays_ms); i++)
    {
      TmWindow *window = tm_test_new_window ();

      tm_window_open (window, large);
      g_assert_true (is_loading (window));
      tm_test_iterate_for (delays_ms[i]);
      tm_test_destroy_window (window);
    }
  let_workers_end ();
}

static gboolean
no_windows (gpointer data)
{
  return tm_test_count_windows (GTK_APPLICATION (data)) == 0;
}

/* Quit (app.quit: closes every window, then quits) while two windows load. */
static void
test_quit_during_load (void)
{
  g_autoptr(GFile) large = g_file_new_for_path (large_path);
  g_autoptr(GFile) small = g_file_new_for_path (small_path);

  tm_application_open_files (app, (GFile *[]) { large, small }, 2, NULL);
  tm_test_iterate_for (20);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  /* The windows go when their loads have stopped: wait for that, not for
   * a time that a sanitizer build can overrun. */
  tm_test_iterate_until (no_windows, app);
  g_assert_cmpuint (tm_test_count_windows (GTK_APPLICATION (app)), ==, 0);
  let_workers_end ();
}

/* Hosts switched back and forth while one is read and analysed: the one
 * picked last is shown, complete. */
static void
test_switch_hosts_during_analysis (void)
{
  TmWindow *window = tm_test_new_window ();
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autofree char *a_path = g_build_filename (run_dir, "host-a.xplane.pb", NULL);
  g_autofree char *b_path = g_build_filename (run_dir, "host-b.xplane.pb", NULL);
  g_autoptr(GFile) a = g_file_new_for_path (a_path);
  g_autoptr(GFile) b = g_file_new_for_path (b_path);

  tm_window_open_run (window, dir, (GFile *[]) { a, b }, 2);
  for (guint i = 0; i < 9; i++)
    {
      tm_test_iterate_for (i * 20);
      g_assert_true (tm_window_select_host (window, i % 2 == 0 ? "host-b" : "host-a"));
    }
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
  g_assert_true (g_file_equal (tm_window_get_file (window), b));
  g_assert_nonnull (tm_window_get_memory_store (window));

  /* Switch, then close at once. */
  g_assert_true (tm_window_select_host (window, "host-a"));
  tm_test_iterate_for (30);
  tm_test_destroy_window (window);
  let_workers_end ();
}

static gboolean
is_shown (gpointer data)
{
  return tm_window_get_state (TM_WINDOW (data)) == TM_WINDOW_STATE_PROFILE;
}

static gboolean
is_null (gpointer pointer_to_pointer)
{
  return *(gpointer *) pointer_to_pointer == NULL;
}

/* The allocation index is built after the profile is shown. A window
 * closed at several moments of that goes with its profile (nothing keeps
 * it for the index); memory ids and hosts switched while indices are built
 * end with the index of the one shown last. */
static void
test_close_while_indexing (void)
{
  g_autoptr(GFile) large = g_file_new_for_path (large_path);
  const guint delays_ms[] = { 0, 1, 3, 10, 30 };
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autofree char *a_path = g_build_filename (run_dir, "host-a.xplane.pb", NULL);
  g_autofree char *b_path = g_build_filename (run_dir, "host-b.xplane.pb", NULL);
  g_autoptr(GFile) a = g_file_new_for_path (a_path);
  g_autoptr(GFile) b = g_file_new_for_path (b_path);
  TmWindow *window;
  TmSession *session;

  for (guint i = 0; i < G_N_ELEMENTS (delays_ms); i++)
    {
      TmProfile *profile;

      window = tm_test_new_window ();
      tm_window_open (window, large);
      tm_test_iterate_until (is_shown, window);
      profile = tm_window_get_profile (window);
      g_object_add_weak_pointer (G_OBJECT (profile), (gpointer *) &profile);
      tm_test_iterate_for (delays_ms[i]);
      tm_test_destroy_window (window);
      tm_test_iterate_until (is_null, &profile);
    }

  /* Memory ids switched as soon as each is shown, then left to settle. */
  window = tm_test_new_window ();
  session = tm_window_get_session (window);
  tm_window_open (window, large);
  tm_test_iterate_until (is_shown, window);
  for (guint i = 0; i < 12; i++)
    {
      g_assert_true (tm_window_select_memory_id (window, i % 3 == 0 ? "GPU_0_bfc" : i % 3 == 1 ? "GPU_2_bfc" : "gpu_host_bfc"));
      tm_test_iterate_for (i % 4);
    }
  g_assert_true (tm_window_select_memory_id (window, "GPU_1_bfc"));
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_nonnull (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_true (tm_allocations_get_store (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))) == tm_window_get_memory_store (window));
  g_assert_cmpstr (tm_memory_store_get_id (tm_window_get_memory_store (window)), ==, "GPU_1_bfc");

  /* Hosts switched as soon as each is shown. */
  tm_window_open_run (window, dir, (GFile *[]) { a, b }, 2);
  tm_test_iterate_until (is_shown, window);
  for (guint i = 0; i < 6; i++)
    {
      g_assert_true (tm_window_select_host (window, i % 2 == 0 ? "host-b" : "host-a"));
      tm_test_iterate_until (is_shown, window);
      tm_test_iterate_for (i % 3);
    }
  tm_test_iterate_until (tm_test_not_loading, window);
  g_assert_true (g_file_equal (tm_window_get_file (window), a));
  g_assert_nonnull (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)));
  g_assert_true (tm_allocations_get_store (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))) == tm_window_get_memory_store (window));

  /* And closed while the last one's index may still be built. */
  g_assert_true (tm_window_select_host (window, "host-b"));
  tm_test_iterate_until (is_shown, window);
  tm_test_destroy_window (window);
  tm_test_iterate_for (300);
}

/* The big run opened in window, its loader watched by *loader (a weak
 * pointer: NULL once it is finalized). */
static void
open_big_run (TmWindow     *window,
              TmRunLoader **loader)
{
  g_autoptr(GFile) dir = g_file_new_for_path (big_run_dir);

  tm_window_open_run (window, dir, big_run_hosts, BIG_RUN_HOSTS);
  g_assert_true (tm_window_get_showing_overview (window));
  *loader = tm_session_get_run (tm_window_get_session (window));
  g_assert_nonnull (*loader);
  g_assert_cmpuint (tm_run_loader_get_n_hosts (*loader), ==, BIG_RUN_HOSTS);
  g_object_add_weak_pointer (G_OBJECT (*loader), (gpointer *) loader);
}

static gboolean
big_run_done (gpointer data)
{
  TmRunLoader *loader = data;

  return tm_run_loader_get_n_done (loader) == tm_run_loader_get_n_hosts (loader);
}

/* A run overview cancelled while its hosts are summarised: the window
 * closed, another file opened in it, or a host opened and Back pressed.
 * The loader goes at once (its workers finish on their own and find no
 * loader), and no late update of the old run reaches the window. */
static void
test_cancel_run_overview (void)
{
  g_autoptr(GFile) small = g_file_new_for_path (small_path);
  const guint delays_ms[] = { 0, 10, 60, 250 };

  /* Closed. */
  for (guint i = 0; i < G_N_ELEMENTS (delays_ms); i++)
    {
      TmWindow *window = tm_test_new_window ();
      TmRunLoader *loader;

      open_big_run (window, &loader);
      tm_test_iterate_for (delays_ms[i]);
      if (i == 0)
        g_assert_cmpuint (tm_run_loader_get_n_done (loader), <, BIG_RUN_HOSTS);
      tm_test_destroy_window (window);
      tm_test_iterate_for (20);
      g_assert_null (loader);
    }

  /* Another file opened in the same window. */
  for (guint i = 0; i < G_N_ELEMENTS (delays_ms); i++)
    {
      TmWindow *window = tm_test_new_window ();
      TmRunLoader *loader;

      open_big_run (window, &loader);
      tm_test_iterate_for (delays_ms[i]);
      tm_window_open (window, small);
      tm_test_iterate_until (tm_test_not_loading, window);
      g_assert_null (loader);
      g_assert_null (tm_session_get_run (tm_window_get_session (window)));
      /* Late updates of the run change nothing. */
      tm_test_iterate_for (300);
      g_assert_false (tm_window_get_showing_overview (window));
      g_assert_cmpint (tm_window_get_state (window), ==, TM_WINDOW_STATE_PROFILE);
      g_assert_true (g_file_equal (tm_window_get_file (window), small));
      tm_test_destroy_window (window);
    }

  /* A host opened from the overview while it loads, then Back, twice; the
   * overview goes on to the end, then the window closes. */
  {
    TmWindow *window = tm_test_new_window ();
    TmRunLoader *loader;

    open_big_run (window, &loader);
    for (guint i = 0; i < 2; i++)
      {
        tm_test_iterate_for (20);
        g_assert_true (tm_window_select_host (window, i == 0 ? "worker-4" : "worker-5"));
        g_assert_false (tm_window_get_showing_overview (window));
        tm_test_iterate_for (30);
        tm_window_show_run_overview (window);
        g_assert_true (tm_window_get_showing_overview (window));
      }
    g_assert_nonnull (loader);
    tm_test_iterate_until (big_run_done, loader);
    for (guint i = 0; i < BIG_RUN_HOSTS; i++)
      g_assert_cmpint (tm_run_loader_get_host_state (loader, i), ==, TM_RUN_HOST_DONE);
    g_assert_true (tm_window_get_showing_overview (window));

    /* Back again while a host loads, then closed. */
    g_assert_true (tm_window_select_host (window, "worker-3"));
    tm_window_show_run_overview (window);
    tm_test_iterate_for (10);
    tm_test_destroy_window (window);
    tm_test_iterate_for (20);
    g_assert_null (loader);
  }

  let_workers_end ();
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  data_home = tm_test_gui_init (&argc, &argv);

  write_fixtures ();
  app = tm_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/concurrency/open-many", test_open_many);
  g_test_add_func ("/concurrency/close-during-analysis", test_close_during_analysis);
  g_test_add_func ("/concurrency/quit-during-load", test_quit_during_load);
  g_test_add_func ("/concurrency/switch-hosts-during-analysis", test_switch_hosts_during_analysis);
  g_test_add_func ("/concurrency/close-while-indexing", test_close_while_indexing);
  g_test_add_func ("/concurrency/cancel-run-overview", test_cancel_run_overview);

  status = g_test_run ();
  g_clear_object (&app);

  for (guint i = 0; i < BIG_RUN_HOSTS; i++)
    g_clear_object (&big_run_hosts[i]);
  tm_fixture_remove (fixture_dir);
  tm_fixture_remove (data_home);
  return status;
}
