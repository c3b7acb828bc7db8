/* test-run-summary.c — a run of 64 hosts: the loader's summaries, the CLI's
 * JSON Lines and run table, and reading JSON Lines back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "tm-error.h"
#include "tm-fixture-writer.h"
#include "tm-profile.h"
#include "tm-run.h"
#include "tm-run-loader.h"
#include "tm-run-summary.h"
#include "tm-test-util.h"

#define N_HOSTS 64
#define CORRUPT_HOST 5
#define NO_DATA_HOST 9

static char *fixture_dir;
static char *run_dir;
static char **host_paths;

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

static TmRunLoader *
load_run (void)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autoptr(GPtrArray) items = NULL;
  TmRunItem *item;
  TmRunLoader *loader;

  g_ptr_array_add (files, g_object_ref (dir));
  items = tm_run_expand ((GFile **) files->pdata, 1, NULL, NULL);
  item = g_ptr_array_index (items, 0);
  g_assert_nonnull (item->hosts);
  g_assert_cmpuint (item->hosts->len, ==, N_HOSTS);

  loader = tm_run_loader_new (item->run_directory, (GFile **) item->hosts->pdata, item->hosts->len);
  tm_run_loader_start (loader, 2);
  while (tm_run_loader_get_n_done (loader) < N_HOSTS)
    g_main_context_iteration (NULL, TRUE);
  return loader;
}

static void
assert_same_device (const TmRunDevice *a,
                    const TmRunDevice *b)
{
  g_assert_cmpstr (a->memory_id, ==, b->memory_id);
  g_assert_cmpint (a->peak_bytes, ==, b->peak_bytes);
  g_assert_cmpint (a->capacity, ==, b->capacity);
  g_assert_cmpint (a->peak_time_ps, ==, b->peak_time_ps);
  g_assert_cmpfloat (a->peak_fragmentation, ==, b->peak_fragmentation);
  g_assert_cmpuint (a->n_allocations, ==, b->n_allocations);
  g_assert_cmpuint (a->sparkline->len, ==, b->sparkline->len);
  g_assert_cmpmem (a->sparkline->data, a->sparkline->len * sizeof (gint64),
                   b->sparkline->data, b->sparkline->len * sizeof (gint64));
}

static void
assert_same_summary (const TmHostSummary *a,
                     const TmHostSummary *b)
{
  g_assert_cmpstr (a->host, ==, b->host);
  g_assert_cmpstr (a->file, ==, b->file);
  g_assert_cmpstr (a->error, ==, b->error);
  g_assert_cmpuint (a->devices->len, ==, b->devices->len);
  for (guint d = 0; d < a->devices->len; d++)
    assert_same_device (g_ptr_array_index (a->devices, d), g_ptr_array_index (b->devices, d));
}

/* The loader's summary of every host is the host's own summary. */
static void
test_loader (void)
{
  g_autoptr(TmRunLoader) loader = load_run ();
  gint64 best = -1;
  guint best_host = G_MAXUINT;

  for (guint h = 0; h < N_HOSTS; h++)
    {
      const TmHostSummary *got = tm_run_loader_get_host_summary (loader, h);
      g_autofree char *name = g_strdup_printf ("worker-%u", h);
      g_autoptr(GFile) file = g_file_new_for_path (host_paths[h]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = tm_profile_load (file, NULL, NULL, NULL, &error);
      g_autoptr(TmHostSummary) want = NULL;
      guint index = G_MAXUINT;

      /* Hosts are listed by name, numbers in order. */
      for (guint i = 0; i < N_HOSTS; i++)
        if (g_str_equal (tm_run_loader_get_host_name (loader, i), name))
          index = i;
      g_assert_cmpuint (index, !=, G_MAXUINT);
      got = tm_run_loader_get_host_summary (loader, index);
      g_assert_nonnull (got);

      if (h == CORRUPT_HOST)
        {
          g_assert_null (profile);
          g_assert_cmpint (tm_run_loader_get_host_state (loader, index), ==, TM_RUN_HOST_FAILED);
          g_assert_cmpstr (got->error, ==, error->message);
          /* The run overview's row says first what the file is. */
          g_assert_true (g_str_has_prefix (got->error, "not a profile, or a damaged one: "));
          g_assert_cmpuint (got->devices->len, ==, 0);
          continue;
        }

      g_assert_no_error (error);
      g_assert_cmpint (tm_run_loader_get_host_state (loader, index), ==, TM_RUN_HOST_DONE);
      g_assert_cmpfloat (tm_run_loader_get_host_progress (loader, index), ==, 1.0);
      want = tm_host_summary_new_for_profile (profile, name);
      assert_same_summary (got, want);
      g_assert_cmpuint (got->devices->len, ==, h == NO_DATA_HOST ? 0 : h % 2 == 0 ? 2 : 1);

      for (guint d = 0; d < got->devices->len; d++)
        {
          const TmRunDevice *device = g_ptr_array_index (got->devices, d);
          TmMemoryStore *store = tm_profile_get_memory_store (profile, d);

          g_assert_cmpint (device->peak_bytes, ==, tm_memory_store_get_summary (store)->peak_bytes_in_use);
          g_assert_cmpuint (device->sparkline->len, ==, tm_memory_store_get_n_snapshots (store));
          if (device->peak_bytes > best)
            {
              best = device->peak_bytes;
              best_host = h;
            }
          /* The sparkline reaches the peak. */
          {
            gint64 top = 0;

            for (guint p = 0; p < device->sparkline->len; p++)
              top = MAX (top, g_array_index (device->sparkline, gint64, p));
            g_assert_cmpint (top, ==, device->peak_bytes);
          }
        }
    }
  g_assert_cmpuint (best_host, ==, TM_FIXTURE_RUN_BUSIEST);
}

/* --summary --json over the run folder: JSON Lines, one per host, read
 * back equal to the loader's; the corrupt host has its error line. */
static void
test_json_lines (void)
{
  g_autoptr(TmRunLoader) loader = load_run ();
  g_auto(TmTestRun) r = { 0 };
  g_autoptr(GPtrArray) parsed = NULL;
  g_autoptr(GError) error = NULL;

  tm_test_run_cli (&r, NULL, "--summary", "--json", run_dir, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpuint (count_lines (r.out), ==, N_HOSTS);
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "tidemark: "));
  g_assert_nonnull (strstr (r.err, "worker-5.xplane.pb"));

  parsed = tm_run_summaries_parse (r.out, strlen (r.out), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (parsed->len, ==, N_HOSTS);
  /* In the order of the folder's hosts, as the loader has them. */
  for (guint i = 0; i < N_HOSTS; i++)
    assert_same_summary (g_ptr_array_index (parsed, i), tm_run_loader_get_host_summary (loader, i));

  /* The gathered file opens as the same run, told by its content (its
   * name says nothing). */
  {
    g_autofree char *dir = g_dir_make_tmp ("tidemark-gathered-XXXXXX", &error);
    g_autofree char *gathered_path = g_build_filename (dir, "gathered.txt", NULL);
    g_autoptr(GFile) source = g_file_new_for_path (gathered_path);
    g_autoptr(GBytes) contents = g_bytes_new (r.out, strlen (r.out));
    g_autoptr(GPtrArray) items = NULL;
    g_autoptr(TmRunLoader) gathered = NULL;

    g_assert_no_error (error);
    g_assert_true (g_file_set_contents (gathered_path, r.out, -1, &error));
    items = tm_run_expand (&source, 1, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (((TmRunItem *) g_ptr_array_index (items, 0))->summaries);
    g_assert_false (((TmRunItem *) g_ptr_array_index (items, 0))->hosts != NULL);

    gathered = tm_run_loader_new_for_gathered (source, contents, &error);
    g_assert_no_error (error);
    g_unlink (gathered_path);
    g_rmdir (dir);
    g_assert_true (tm_run_loader_is_gathered (gathered));
    g_assert_cmpuint (tm_run_loader_get_n_hosts (gathered), ==, N_HOSTS);
    g_assert_cmpuint (tm_run_loader_get_n_done (gathered), ==, N_HOSTS);
    for (guint i = 0; i < N_HOSTS; i++)
      {
        g_autofree char *path = g_file_get_path (tm_run_loader_get_host_file (gathered, i));

        assert_same_summary (tm_run_loader_get_host_summary (gathered, i), tm_run_loader_get_host_summary (loader, i));
        g_assert_cmpstr (path, ==, tm_run_loader_get_host_summary (loader, i)->file);
        g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      }
  }
}

/* Text --summary of several inputs: every summary, then the run table,
 * the busiest host first; a missing input fails alone. */
static void
test_text_and_status (void)
{
  g_autofree char *missing = g_build_filename (fixture_dir, "missing.xplane.pb", NULL);
  g_autofree char *busiest = g_strdup_printf ("  worker-%u ", TM_FIXTURE_RUN_BUSIEST);
  g_auto(TmTestRun) a = { 0 };
  g_auto(TmTestRun) b = { 0 };
  g_auto(TmTestRun) c = { 0 };
  g_auto(TmTestRun) d = { 0 };
  g_auto(TmTestRun) e = { 0 };
  const char *table;

  tm_test_run_cli (&a, NULL, "--summary", run_dir, NULL);
  g_assert_cmpint (a.status, ==, 1);
  table = strstr (a.out, "\nRun: ");
  g_assert_nonnull (table);
  table = strchr (table + 1, '\n') + 1;
  g_assert_true (g_str_has_prefix (strchr (table, '\n') + 1, busiest));
  g_assert_nonnull (strstr (table, "worker-5: "));
  g_assert_nonnull (strstr (table, "worker-9: "));

  /* One good file and one missing: the good one prints, the status is 1. */
  tm_test_run_cli (&b, NULL, "--summary", "--json", host_paths[0], missing, NULL);
  g_assert_cmpint (b.status, ==, 1);
  g_assert_cmpuint (count_lines (b.out), ==, 2);
  g_assert_nonnull (strstr (b.out, "\"error\": "));
  g_assert_cmpuint (count_lines (b.err), ==, 1);
  g_assert_nonnull (strstr (b.err, "missing.xplane.pb"));

  /* Two good files: status 0, a run table in text. */
  tm_test_run_cli (&c, NULL, "--summary", host_paths[0], host_paths[1], NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_nonnull (strstr (c.out, "\nRun: "));
  g_assert_cmpstr (c.err, ==, "");

  /* One file: no run table, one line of JSON. */
  tm_test_run_cli (&d, NULL, "--summary", host_paths[0], NULL);
  g_assert_cmpint (d.status, ==, 0);
  g_assert_null (strstr (d.out, "\nRun: "));
  tm_test_run_cli (&e, NULL, "--summary", "--json", host_paths[1], NULL);
  g_assert_cmpint (e.status, ==, 0);
  g_assert_cmpuint (count_lines (e.out), ==, 1);
  g_assert_nonnull (strstr (e.out, "\"host\": \"worker-1\""));
}

/* Exports of several inputs go to a folder, one file per host. */
static void
test_export_several (void)
{
  g_autofree char *out_dir = g_build_filename (fixture_dir, "exports", NULL);
  g_autofree char *arg = g_strconcat ("--output=", out_dir, NULL);
  g_autofree char *first = g_build_filename (out_dir, "worker-0.breakdown.csv", NULL);
  g_autofree char *second = g_build_filename (out_dir, "worker-1.breakdown.csv", NULL);
  g_auto(TmTestRun) r = { 0 };

  g_assert_cmpint (g_mkdir (out_dir, 0700), ==, 0);
  tm_test_run_cli (&r, NULL, "--export=csv", arg, host_paths[0], host_paths[1], NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (g_file_test (first, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (second, G_FILE_TEST_IS_REGULAR));

  /* Not to standard output: the hosts' documents back to back would be
   * no valid CSV or JSON. Refused before any host is read. */
  {
    const char *formats[] = { "--export=csv", "--export=xprof-json", "--export=allocations", "--export=collapsed" };

    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
      for (guint to_dash = 0; to_dash < 2; to_dash++)
        {
          g_auto(TmTestRun) refused = { 0 };

          if (to_dash)
            tm_test_run_cli (&refused, "C", formats[i], "-o", "-", run_dir, NULL);
          else
            tm_test_run_cli (&refused, "C", formats[i], run_dir, NULL);
          g_test_message ("%s%s: %s", formats[i], to_dash ? " -o -" : "", refused.err);
          g_assert_cmpint (refused.status, ==, 2);
          g_assert_cmpstr (refused.out, ==, "");
          g_assert_true (g_str_has_prefix (refused.err,
                                           "tidemark: --export writes one file per host, and 64 hosts were given: "
                                           "give --output=FOLDER\n"));
        }
  }
}

/* Dropping the loader while hosts load stops them; nothing is left. */
static void
test_cancel (void)
{
  g_autoptr(GFile) dir = g_file_new_for_path (run_dir);
  g_autoptr(GPtrArray) items = tm_run_expand (&dir, 1, NULL, NULL);
  TmRunItem *item = g_ptr_array_index (items, 0);
  TmRunLoader *loader = tm_run_loader_new (item->run_directory, (GFile **) item->hosts->pdata, item->hosts->len);
  gint64 until;

  g_object_add_weak_pointer (G_OBJECT (loader), (gpointer *) &loader);
  tm_run_loader_start (loader, 1);
  g_object_unref (loader);
  g_assert_null (loader);

  /* The host being loaded finishes on its own; its updates find no one. */
  until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

static void
assert_parse_error (const char *text,
                    const char *says)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parsed = tm_run_summaries_parse (text, strlen (text), &error);

  g_assert_null (parsed);
  g_assert_error (error, TM_ERROR, TM_ERROR_JSON);
  if (strstr (error->message, says) == NULL)
    g_error ("“%s” says “%s”, expected “%s”", text, error->message, says);
}

static void
test_parse (void)
{
  static const char good[] =
    "\n{\"host\": \"a\", \"file\": \"/x/a.xplane.pb\", \"memory\": {\"TPU_1\": {\"peak_bytes_in_use\": 5, "
    "\"memory_capacity\": 10, \"peak_stats_time_ps\": 7, \"num_allocations\": 2, \"peak_fragmentation\": 0}, "
    "\"TPU_0\": {\"peak_bytes_in_use\": 8, \"memory_capacity\": 10, \"peak_stats_time_ps\": 3, "
    "\"num_allocations\": 1, \"peak_fragmentation\": 0.25, \"sparkline\": [1, 8, 2]}}}\n"
    "   \n"
    "{\"host\": \"b\", \"error\": \"file is empty\"}";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) parsed = tm_run_summaries_parse (good, strlen (good), &error);
  g_autofree char *deep = NULL;
  const TmHostSummary *a, *b;
  const TmRunDevice *tpu0;

  g_assert_no_error (error);
  g_assert_cmpuint (parsed->len, ==, 2);
  a = g_ptr_array_index (parsed, 0);
  b = g_ptr_array_index (parsed, 1);
  g_assert_cmpstr (a->host, ==, "a");
  g_assert_cmpstr (a->file, ==, "/x/a.xplane.pb");
  g_assert_cmpuint (a->devices->len, ==, 2);
  tpu0 = g_ptr_array_index (a->devices, 0);
  g_assert_cmpstr (tpu0->memory_id, ==, "TPU_0");
  g_assert_cmpint (tpu0->peak_bytes, ==, 8);
  g_assert_cmpfloat (tpu0->peak_fragmentation, ==, 0.25);
  g_assert_cmpuint (tpu0->sparkline->len, ==, 3);
  g_assert_cmpint (tm_host_summary_get_busiest (a), ==, 0);
  g_assert_cmpstr (b->error, ==, "file is empty");
  g_assert_null (b->file);
  g_assert_cmpint (tm_host_summary_get_busiest (b), ==, -1);

  /* Only the given length is read. */
  g_clear_pointer (&parsed, g_ptr_array_unref);
  parsed = tm_run_summaries_parse (good, strlen (good) - 1, &error);
  g_assert_null (parsed);
  g_assert_nonnull (strstr (error->message, "line 4 "));
  g_clear_error (&error);

  assert_parse_error ("", "has no host summaries");
  assert_parse_error (" \n\n", "has no host summaries");
  assert_parse_error ("{\"host\": \"a\", \"error\": \"x\"}\nnot json\n", "line 2 of the summaries is not a JSON object");
  assert_parse_error ("[1]", "is not a JSON object");
  assert_parse_error ("{\"error\": \"x\"}", "has no “host”");
  assert_parse_error ("{\"host\": 3, \"error\": \"x\"}", "has no “host”");
  assert_parse_error ("{\"host\": \"a\", \"file\": 1, \"error\": \"x\"}", "“file” is not a string");
  assert_parse_error ("{\"host\": \"a\"}", "has neither");
  assert_parse_error ("{\"host\": \"a\", \"memory\": {\"m\": 1}}", "is not an object");
  assert_parse_error ("{\"host\": \"a\", \"memory\": {\"m\": {\"peak_bytes_in_use\": -1, \"memory_capacity\": 1, "
                      "\"peak_stats_time_ps\": 1, \"num_allocations\": 1, \"peak_fragmentation\": 0}}}", "lacks");
  assert_parse_error ("{\"host\": \"a\", \"memory\": {\"m\": {\"peak_bytes_in_use\": 1, \"memory_capacity\": 1, "
                      "\"peak_stats_time_ps\": 1, \"num_allocations\": 1, \"peak_fragmentation\": 0, "
                      "\"sparkline\": [1, \"2\"]}}}", "sparkline");
  assert_parse_error ("{\"host\": \"a\xff\", \"error\": \"x\"}", "is not UTF-8 text");

  deep = g_strnfill (100000, '[');
  assert_parse_error (deep, "nested too deep");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  fixture_dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);
  run_dir = g_build_filename (fixture_dir, "run", NULL);
  g_assert_cmpint (g_mkdir (run_dir, 0700), ==, 0);
  host_paths = tm_fixture_write_run (run_dir, N_HOSTS, CORRUPT_HOST, NO_DATA_HOST);

  g_test_add_func ("/run-summary/loader", test_loader);
  g_test_add_func ("/run-summary/json-lines", test_json_lines);
  g_test_add_func ("/run-summary/text-and-status", test_text_and_status);
  g_test_add_func ("/run-summary/export-several", test_export_several);
  g_test_add_func ("/run-summary/parse", test_parse);
  g_test_add_func ("/run-summary/cancel", test_cancel);

  status = g_test_run ();
  tm_fixture_remove (fixture_dir);
  g_free (fixture_dir);
  g_free (run_dir);
  g_strfreev (host_paths);
  return status;
}
