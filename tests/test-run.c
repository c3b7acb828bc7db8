/* test-run.c — expanding what the user opens: files, run directories, log
 * directories; sync and async, without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The fixture tree, written by the test (expanding reads no profile, so
 * the files hold a byte each):
 *   single.xplane.pb
 *   run/worker-10.xplane.pb, run/worker-2.xplane.pb, run/worker-1.xplane.pb,
 *       run/events.trace.json.gz (not a profile), run/nested/ (ignored)
 *   json-run/a.memory_profile.json, json-run/b.memory_profile.json.gz
 *   mixed/x.xplane.pb, mixed/y.xplane.pb, mixed/z.memory_profile.json
 *   one-host/only.xplane.pb
 *   logs/plugins/profile/2024_01_01/{h1,h2}.xplane.pb (older run)
 *   logs/plugins/profile/2025_02_03/{h1,h2}.xplane.pb (newest run)
 *   empty/
 */
#include "config.h"

#include <gio/gio.h>

#include "tm-fixture-writer.h"
#include "tm-run.h"

static char *fixture_dir;

static GFile *
fixture (const char *relative)
{
  g_autofree char *path = g_build_filename (fixture_dir, relative, NULL);

  return g_file_new_for_path (path);
}

static void
touch (const char *relative)
{
  g_autofree char *path = g_build_filename (fixture_dir, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, "x", 1, NULL));
}

static void
mkdir_fixture (const char *relative)
{
  g_autofree char *path = g_build_filename (fixture_dir, relative, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
}

static void
write_fixtures (void)
{
  g_autoptr(GError) error = NULL;

  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);

  touch ("single.xplane.pb");
  touch ("run/worker-10.xplane.pb");
  touch ("run/worker-2.xplane.pb");
  touch ("run/worker-1.xplane.pb");
  touch ("run/events.trace.json.gz");
  touch ("run/nested/inner.xplane.pb");
  touch ("json-run/a.memory_profile.json");
  touch ("json-run/b.memory_profile.json.gz");
  touch ("mixed/x.xplane.pb");
  touch ("mixed/y.xplane.pb");
  touch ("mixed/z.memory_profile.json");
  touch ("one-host/only.xplane.pb");
  touch ("ranks/rank1.pickle");
  touch ("ranks/rank0.pickle.gz");
  touch ("ranks/notes.txt");
  touch ("logs/plugins/profile/2024_01_01/h1.xplane.pb");
  touch ("logs/plugins/profile/2024_01_01/h2.xplane.pb");
  touch ("logs/plugins/profile/2025_02_03/h1.xplane.pb");
  touch ("logs/plugins/profile/2025_02_03/h2.xplane.pb");
  mkdir_fixture ("empty");
}

static void
assert_file (const TmRunItem *item,
             const char      *relative)
{
  g_autoptr(GFile) expected = fixture (relative);

  g_assert_nonnull (item->file);
  g_assert_null (item->run_directory);
  g_assert_null (item->hosts);
  g_assert_true (g_file_equal (item->file, expected));
}

/* hosts: the expected host files relative to the run, in order */
static void
assert_run (const TmRunItem    *item,
            const char         *run,
            const char * const *hosts)
{
  g_autoptr(GFile) expected = fixture (run);
  guint n = g_strv_length ((char **) hosts);

  g_assert_null (item->file);
  g_assert_nonnull (item->run_directory);
  g_assert_true (g_file_equal (item->run_directory, expected));
  g_assert_nonnull (item->hosts);
  g_assert_cmpuint (item->hosts->len, ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GFile) host = g_file_get_child (expected, hosts[i]);

      g_assert_true (g_file_equal (g_ptr_array_index (item->hosts, i), host));
    }
}

static GPtrArray *
expand (const char *relative)
{
  g_autoptr(GFile) file = fixture (relative);
  g_autoptr(GError) error = NULL;
  GPtrArray *items = tm_run_expand (&file, 1, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (items);
  g_assert_cmpuint (items->len, ==, 1);
  return items;
}

static void
test_host_names (void)
{
  static const struct {
    const char *basename;
    const char *name;
  } cases[] = {
    { "worker-1.xplane.pb", "worker-1" },
    { "host.memory_profile.json", "host" },
    { "host.memory_profile.json.gz", "host" },
    { "rank3.pickle", "rank3" },
    { "rank3.pickle.gz", "rank3" },
    { "notes.txt", "notes.txt" },
    /* Nothing but the suffix: the name stays. */
    { ".xplane.pb", ".xplane.pb" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) file = g_file_new_for_path (cases[i].basename);
      g_autofree char *name = tm_run_host_name (file);

      g_assert_cmpstr (name, ==, cases[i].name);
    }

  /* Numbers in order, as a file manager sorts. */
  g_assert_cmpint (tm_run_compare_host_names ("worker-2", "worker-10"), <, 0);
  g_assert_cmpint (tm_run_compare_host_names ("worker-10", "worker-2"), >, 0);
  g_assert_cmpint (tm_run_compare_host_names ("a", "a"), ==, 0);
  g_assert_cmpint (tm_run_compare_host_names ("a", "b"), <, 0);
}

static void
test_expand_files (void)
{
  g_autoptr(GPtrArray) items = NULL;

  /* A file stays itself. */
  items = expand ("single.xplane.pb");
  assert_file (g_ptr_array_index (items, 0), "single.xplane.pb");
  g_clear_pointer (&items, g_ptr_array_unref);

  /* So does a path that does not exist: loading it says why. */
  items = expand ("missing.xplane.pb");
  assert_file (g_ptr_array_index (items, 0), "missing.xplane.pb");
  g_clear_pointer (&items, g_ptr_array_unref);

  /* And a directory without profiles. */
  items = expand ("empty");
  assert_file (g_ptr_array_index (items, 0), "empty");
  g_clear_pointer (&items, g_ptr_array_unref);

  /* A run with one host is that host's file. */
  items = expand ("one-host");
  assert_file (g_ptr_array_index (items, 0), "one-host/only.xplane.pb");
}

static void
test_expand_runs (void)
{
  static const char * const run_hosts[] = { "worker-1.xplane.pb", "worker-2.xplane.pb", "worker-10.xplane.pb", NULL };
  static const char * const json_hosts[] = { "a.memory_profile.json", "b.memory_profile.json.gz", NULL };
  static const char * const mixed_hosts[] = { "x.xplane.pb", "y.xplane.pb", NULL };
  static const char * const log_hosts[] = { "h1.xplane.pb", "h2.xplane.pb", NULL };
  static const char * const rank_hosts[] = { "rank0.pickle.gz", "rank1.pickle", NULL };
  g_autoptr(GPtrArray) items = NULL;

  /* Hosts by name, numbers in order; other files and subdirectories are
   * not hosts. */
  items = expand ("run");
  assert_run (g_ptr_array_index (items, 0), "run", run_hosts);
  g_clear_pointer (&items, g_ptr_array_unref);

  /* Memory-profile JSON files when there is no *.xplane.pb ... */
  items = expand ("json-run");
  assert_run (g_ptr_array_index (items, 0), "json-run", json_hosts);
  g_clear_pointer (&items, g_ptr_array_unref);

  /* ... and only then. */
  items = expand ("mixed");
  assert_run (g_ptr_array_index (items, 0), "mixed", mixed_hosts);
  g_clear_pointer (&items, g_ptr_array_unref);

  /* PyTorch snapshots, one per rank, when there is neither. */
  items = expand ("ranks");
  assert_run (g_ptr_array_index (items, 0), "ranks", rank_hosts);
  g_clear_pointer (&items, g_ptr_array_unref);

  /* A log directory: its newest run. */
  items = expand ("logs");
  assert_run (g_ptr_array_index (items, 0), "logs/plugins/profile/2025_02_03", log_hosts);
}

static void
test_expand_several (void)
{
  static const char * const run_hosts[] = { "worker-1.xplane.pb", "worker-2.xplane.pb", "worker-10.xplane.pb", NULL };
  g_autoptr(GFile) single = fixture ("single.xplane.pb");
  g_autoptr(GFile) run = fixture ("run");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  /* One item per path, in the order given. */
  items = tm_run_expand ((GFile *[]) { run, single, run }, 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 3);
  assert_run (g_ptr_array_index (items, 0), "run", run_hosts);
  assert_file (g_ptr_array_index (items, 1), "single.xplane.pb");
  assert_run (g_ptr_array_index (items, 2), "run", run_hosts);
  g_clear_pointer (&items, g_ptr_array_unref);

  items = tm_run_expand (NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (items->len, ==, 0);
}

static void
test_expand_cancelled (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GFile) run = fixture ("run");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  g_cancellable_cancel (cancellable);
  items = tm_run_expand (&run, 1, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (items);
}

typedef struct
{
  GPtrArray *items;
  GError    *error;
  GThread   *thread;
  gboolean   done;
} AsyncResult;

static void
expand_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  AsyncResult *res = user_data;

  res->items = tm_run_expand_finish (result, &res->error);
  res->thread = g_thread_self ();
  res->done = TRUE;
}

static void
test_expand_async (void)
{
  static const char * const log_hosts[] = { "h1.xplane.pb", "h2.xplane.pb", NULL };
  g_autoptr(GFile) logs = fixture ("logs");
  g_autoptr(GFile) single = fixture ("single.xplane.pb");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncResult res = { 0 };

  /* The same items as the sync variant; the callback runs on the
   * caller's thread. */
  tm_run_expand_async ((GFile *[]) { logs, single }, 2, NULL, expand_ready_cb, &res);
  g_assert_false (res.done);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (res.error);
  g_assert_true (res.thread == g_thread_self ());
  g_assert_cmpuint (res.items->len, ==, 2);
  assert_run (g_ptr_array_index (res.items, 0), "logs/plugins/profile/2025_02_03", log_hosts);
  assert_file (g_ptr_array_index (res.items, 1), "single.xplane.pb");
  g_clear_pointer (&res.items, g_ptr_array_unref);

  /* Cancelled: an error, no items. */
  res.done = FALSE;
  tm_run_expand_async (&logs, 1, cancellable, expand_ready_cb, &res);
  g_cancellable_cancel (cancellable);
  while (!res.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (res.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (res.items);
  g_clear_error (&res.error);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  write_fixtures ();

  g_test_add_func ("/run/host-names", test_host_names);
  g_test_add_func ("/run/expand-files", test_expand_files);
  g_test_add_func ("/run/expand-runs", test_expand_runs);
  g_test_add_func ("/run/expand-several", test_expand_several);
  g_test_add_func ("/run/expand-cancelled", test_expand_cancelled);
  g_test_add_func ("/run/expand-async", test_expand_async);

  status = g_test_run ();

  tm_fixture_remove (fixture_dir);

  return status;
}
