/* test-cli.c — tidemark --summary / --export, exit statuses and messages
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <json-glib/json-glib.h>

#include "tm-test-util.h"

static char *
write_example (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  char *path = tm_fixture_space_write (space, NULL, "example.xplane.pb", &error);

  g_assert_no_error (error);
  return path;
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    if (*p == '\n')
      n++;
  return n;
}

static void
test_summary (void)
{
  g_autofree char *path = write_example ();
  g_auto(TmTestRun) r = { 0 };
  g_auto(TmTestRun) j = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *mem;

  tm_test_run_cli (&r, NULL, "--summary", path, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  g_assert_nonnull (strstr (r.out, "example.xplane.pb"));
  g_assert_nonnull (strstr (r.out, "GPU_0_bfc"));
  g_assert_nonnull (strstr (r.out, "7\u202f000 bytes"));
  /* foo/bar lived 10 ns (docs/analysis.md, "Temporary allocations and the
   * rate per step"); without step ids everything is step 0. */
  g_assert_nonnull (strstr (r.out, "  temporary (≤ 1.000 ms)   1, 50.0 % of the allocations\n"));
  g_assert_nonnull (strstr (r.out, "  freed in the same step   1, 50.0 % of the allocations\n"));
  g_assert_nonnull (strstr (r.out, "  allocations per step     2.0 per step over 1 step (most: step 0, 2)\n"));

  tm_test_run_cli (&j, NULL, "--summary", "--json", path, NULL);
  g_assert_cmpint (j.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, j.out, -1, &error));
  g_assert_no_error (error);
  mem = json_object_get_object_member (json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "memory"), "GPU_0_bfc");
  g_assert_cmpint (json_object_get_int_member (mem, "peak_bytes_in_use"), ==, 7000);
  g_assert_cmpint (json_object_get_int_member (mem, "num_breakdown_rows"), ==, 3);
  {
    JsonObject *temporary = json_object_get_object_member (mem, "temporary");
    JsonObject *steps = json_object_get_object_member (mem, "steps");

    g_assert_cmpint (json_object_get_int_member (temporary, "threshold_ps"), ==, 1000000000);
    g_assert_cmpint (json_object_get_int_member (temporary, "num_within_threshold"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (temporary, "num_freed_in_same_step"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (steps, "num_steps"), ==, 1);
    g_assert_cmpfloat (json_object_get_double_member (steps, "allocations_per_step"), ==, 2.0);
    g_assert_cmpint (json_object_get_int_member (steps, "busiest_step_id"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (steps, "busiest_step_allocations"), ==, 2);
  }
  tm_fixture_remove (path);
}

static void
test_export (void)
{
  g_autofree char *path = write_example ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *json_path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *json_arg = g_strconcat ("--output=", json_path, NULL);
  g_autofree char *contents = NULL;
  g_auto(TmTestRun) a = { 0 };
  g_auto(TmTestRun) b = { 0 };
  g_auto(TmTestRun) c = { 0 };
  g_auto(TmTestRun) d = { 0 };

  tm_test_run_cli (&a, NULL, "--export=xprof-json", json_arg, path, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (a.out, ==, "");
  g_assert_true (g_file_get_contents (json_path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "{\"memoryProfilePerAllocator\":{\"GPU_0_bfc\":"));

  tm_test_run_cli (&b, NULL, "--export=csv", path, NULL);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_true (g_str_has_prefix (b.out, "op_name,allocation_bytes,requested_bytes,occurrences,region_type,data_type,shape,step_id,address\r\n"
                                          "unused preallocated device memory,4700,4700,1,persist/dynamic,INVALID,unknown,0,0\r\n"));
  g_assert_cmpuint (count_lines (b.out), ==, 4);

  tm_test_run_cli (&c, NULL, "--export=csv", "--memory-id=GPU_0_bfc", "--output=-", path, NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_cmpstr (c.out, ==, b.out);

  tm_test_run_cli (&d, NULL, "--export=csv", "--memory-id=GPU_9_bfc", path, NULL);
  g_assert_cmpint (d.status, ==, 1);
  g_assert_nonnull (strstr (d.err, "GPU_9_bfc"));
  g_assert_cmpuint (count_lines (d.err), ==, 1);
  tm_fixture_remove (path);
}

/* The sum of the numbers ending the lines of a collapsed export, which
 * must be sorted and well-formed. */
static gint64
collapsed_total (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n = g_strv_length (lines);
  gint64 total = 0;

  g_assert_cmpstr (lines[n - 1], ==, "");
  for (guint i = 0; i + 1 < n; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      guint64 value = 0;

      g_assert_nonnull (space);
      g_assert_true (g_ascii_string_to_unsigned (space + 1, 10, 1, G_MAXINT64, &value, NULL));
      if (i > 0)
        g_assert_cmpint (strcmp (lines[i - 1], lines[i]), <, 0);
      total += (gint64) value;
    }
  return total;
}

/* The fields of one RFC 4180 line. */
static GPtrArray *
csv_fields (const char *line)
{
  GPtrArray *fields = g_ptr_array_new_with_free_func (g_free);
  GString *field = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (field, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if (*p == ',' && !quoted)
        {
          g_ptr_array_add (fields, g_strdup (field->str));
          g_string_truncate (field, 0);
        }
      else
        g_string_append_c (field, *p);
    }
  g_ptr_array_add (fields, g_string_free (field, FALSE));
  return fields;
}

/* The sum of allocation_bytes × occurrences over a CSV export's rows. */
static gint64
csv_total (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\r\n", -1);
  gint64 total = 0;

  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(GPtrArray) fields = csv_fields (lines[i]);

      g_assert_cmpuint (fields->len, ==, 9);
      total += g_ascii_strtoll (g_ptr_array_index (fields, 1), NULL, 10) *
               g_ascii_strtoll (g_ptr_array_index (fields, 3), NULL, 10);
    }
  return total;
}

static void
test_export_collapsed (void)
{
  g_autofree char *path = write_example ();
  g_autofree char *real = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_auto(TmTestRun) a = { 0 };
  g_auto(TmTestRun) b = { 0 };
  g_auto(TmTestRun) c = { 0 };
  g_auto(TmTestRun) d = { 0 };

  tm_test_run_cli (&a, NULL, "--export=collapsed", path, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (a.out, ==,
                   "mul_grad;Sum 300\n"
                   "stack 2000\n"
                   "unused preallocated device memory 4700\n");

  /* At 50 000 ps: the one allocation was freed; the heap left is from
   * before the profile. */
  tm_test_run_cli (&b, NULL, "--export=collapsed", "--at=0.00005", "--memory-id=GPU_0_bfc", path, NULL);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_cmpstr (b.out, ==,
                   "memory allocated before the profile 2744\n"
                   "stack 2000\n");

  /* Outside the snapshots (0.00004 to 0.00007 ms) nothing is known: an
   * error naming the span, status 1, nothing written. The last snapshot
   * itself is inside. */
  {
    g_autofree char *display = g_filename_display_name (path);
    const struct { const char *at; int status; const char *says; } cases[] = {
      { "--at=0", 1, "--at=0 ms is before the first snapshot of memory id “GPU_0_bfc”: "
                     "its snapshots span 0.00004 ms to 0.00007 ms\n" },
      { "--at=0.00003999", 1, "--at=0.00003999 ms is before the first snapshot" },
      { "--at=0.000070001", 1, "--at=0.000070001 ms is after the last snapshot of memory id “GPU_0_bfc”: "
                               "its snapshots span 0.00004 ms to 0.00007 ms\n" },
      { "--at=5000", 1, "--at=5000 ms is after the last snapshot" },
      { "--at=0.00007", 0, NULL },
      { "--at=0.00004", 0, NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_auto(TmTestRun) r = { 0 };
        g_autofree char *prefix = g_strdup_printf ("tidemark: %s: ", display);

        tm_test_run_cli (&r, "C", "--export=collapsed", cases[i].at, path, NULL);
        g_test_message ("%s: %d %s", cases[i].at, r.status, r.err);
        g_assert_cmpint (r.status, ==, cases[i].status);
        if (cases[i].says == NULL)
          {
            g_assert_cmpstr (r.err, ==, "");
            g_assert_cmpstr (r.out, !=, "");
            continue;
          }
        g_assert_cmpstr (r.out, ==, "");
        g_assert_true (g_str_has_prefix (r.err, prefix));
        g_assert_nonnull (strstr (r.err, cases[i].says));
        g_assert_cmpuint (count_lines (r.err), ==, 1);
      }
  }
  tm_fixture_remove (path);

  /* Inside, at a moment when nothing is live: the output is empty, and
   * standard error says why. */
  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
    TmFixtureMemory m = {
      .allocator_name = "GPU_0_bfc", .bytes_allocated = 64, .peak_bytes_in_use = 64,
      .requested_bytes = 64, .allocation_bytes = 64, .addr = 64,
      .tf_op = "op", .region_type = "output", .data_type = 1, .shape = "[16]",
    };
    g_autoptr(GError) error = NULL;
    g_autofree char *empty_path = NULL;
    g_auto(TmTestRun) r = { 0 };

    tm_fixture_line_add_memory_event (line, TRUE, 1000, &m);
    m.bytes_allocated = 0;
    tm_fixture_line_add_memory_event (line, FALSE, 2000, &m);
    empty_path = tm_fixture_space_write (space, NULL, "freed.xplane.pb", &error);
    g_assert_no_error (error);
    tm_test_run_cli (&r, "C", "--export=collapsed", "--at=0.000002", empty_path, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, "");
    g_assert_nonnull (strstr (r.err, "warning: nothing of memory id “GPU_0_bfc” is live at 0.000002 ms: no stacks written\n"));
    tm_fixture_remove (empty_path);
  }

  if (real == NULL)
    return;
  /* The real GPU profile at its peak: the stacks add up to the table. */
  tm_test_run_cli (&c, NULL, "--export=collapsed", "--memory-id=GPU_4_bfc", real, NULL);
  tm_test_run_cli (&d, NULL, "--export=csv", "--memory-id=GPU_4_bfc", real, NULL);
  g_assert_cmpint (c.status, ==, 0);
  g_assert_cmpint (d.status, ==, 0);
  g_assert_cmpuint (count_lines (c.out), >, 100);
  g_assert_cmpint (collapsed_total (c.out), ==, csv_total (d.out));
  g_assert_cmpint (collapsed_total (c.out), ==, G_GINT64_CONSTANT (6208853760));
}

/* --export=collapsed --never-freed (docs/scopes.md, "Never freed"): the
 * name scopes of the allocations nothing ends, adding up to the summary's
 * never-freed bytes; refused for XProf's sampled points. */
static void
test_export_never_freed (void)
{
  g_autofree char *path = write_example ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *json = g_build_filename (dir, "example.memory_profile.json", NULL);
  g_autofree char *real = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_auto(TmTestRun) a = { 0 };
  g_auto(TmTestRun) b = { 0 };
  g_auto(TmTestRun) c = { 0 };

  /* XProf's example: foo/bar (256 bytes) is freed, mul_grad/Sum (300) is
   * not; no special rows. */
  tm_test_run_cli (&a, NULL, "--export=collapsed", "--never-freed", path, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpstr (a.out, ==, "mul_grad;Sum 300\n");
  g_assert_cmpstr (a.err, ==, "");

  /* XProf's JSON holds sampled points, whose pairing would be made up. */
  tm_test_run_cli (&b, "C", "--export=xprof-json", "--output", json, path, NULL);
  g_assert_cmpint (b.status, ==, 0);
  tm_test_run_cli (&c, "C", "--export=collapsed", "--never-freed", json, NULL);
  g_assert_cmpint (c.status, ==, 1);
  g_assert_cmpstr (c.out, ==, "");
  g_assert_nonnull (strstr (c.err, "which has no collapsed --never-freed export\n"));
  tm_fixture_remove (path);

  /* Everything freed: no lines, a warning, status 0. */
  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
    TmFixtureMemory m = {
      .allocator_name = "GPU_0_bfc", .bytes_allocated = 64, .peak_bytes_in_use = 64,
      .requested_bytes = 64, .allocation_bytes = 64, .addr = 64,
      .tf_op = "op", .region_type = "output", .data_type = 1, .shape = "[16]",
    };
    g_autoptr(GError) error = NULL;
    g_autofree char *freed = NULL;
    g_auto(TmTestRun) r = { 0 };

    tm_fixture_line_add_memory_event (line, TRUE, 1000, &m);
    m.bytes_allocated = 0;
    tm_fixture_line_add_memory_event (line, FALSE, 2000, &m);
    freed = tm_fixture_space_write (space, NULL, "freed.xplane.pb", &error);
    g_assert_no_error (error);
    tm_test_run_cli (&r, "C", "--export=collapsed", "--never-freed", freed, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpstr (r.out, ==, "");
    g_assert_nonnull (strstr (r.err, "warning: memory id “GPU_0_bfc” freed every allocation it made: no stacks written\n"));
    tm_fixture_remove (freed);
  }

  if (real == NULL)
    return;
  /* The real GPU profile: 553 allocations of GPU_6_bfc never freed,
   * 2 196 774 144 bytes (docs/analysis.md, "Allocations and the memory
   * map"). */
  {
    g_auto(TmTestRun) r = { 0 };

    tm_test_run_cli (&r, NULL, "--export=collapsed", "--never-freed", "--memory-id=GPU_6_bfc", real, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_cmpint (collapsed_total (r.out), ==, G_GINT64_CONSTANT (2196774144));
    g_assert_cmpuint (count_lines (r.out), >, 100);
  }
}

static void
test_usage (void)
{
  const char *cases[][4] = {
    { "--summary", NULL },
    { "--export=pdf", "x.xplane.pb", NULL },
    { "--summary", "--export=csv", "x.xplane.pb", NULL },
    { "--json", "x.xplane.pb", NULL },
    { "--summary", "--memory-id=1", "x.xplane.pb", NULL },
    { "--export=csv", "--output=/nonexistent/out.csv", "a.xplane.pb", "b.xplane.pb" },
    { "--summary", "--no-such-option", "x.xplane.pb", NULL },
    { "--export=csv", "--at=12", "x.xplane.pb", NULL },
    { "--export=collapsed", "--at=12ms", "x.xplane.pb", NULL },
    { "--export=xprof-json", "--memory-id=1", "x.xplane.pb", NULL },
    { "--summary", "--baseline-memory-id=1", "x.xplane.pb", NULL },
    { "--baseline-memory-id=1", "x.xplane.pb", NULL },
    { "--export=csv", "--never-freed", "x.xplane.pb", NULL },
    { "--export=collapsed", "--never-freed", "--at=1", "x.xplane.pb" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(TmTestRun) r = { 0 };

      tm_test_run_cli (&r, NULL, cases[i][0], cases[i][1], cases[i][2], cases[i][3], NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_true (g_str_has_prefix (r.err, "tidemark: "));
    }
}

/* Every option is in --help: the window's (tidemark --help) and the
 * command line's (tidemark --summary --help), which a build without the
 * window also gives for tidemark --help. */
static void
test_help (void)
{
  const char *options[] = {
    "--summary", "--json", "--export=FORMAT", "--memory-id=ID", "--at=MS", "--output=PATH",
    "--compare", "--baseline-memory-id=ID", "--never-freed",
  };
  const char *cases[][2] = { { "--help", NULL }, { "--summary", "--help" } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(TmTestRun) r = { 0 };

      tm_test_run_cli (&r, "C", cases[i][0], cases[i][1], NULL);
      g_assert_cmpint (r.status, ==, 0);
      for (guint o = 0; o < G_N_ELEMENTS (options); o++)
        {
          g_autofree char *listed = g_strconcat (" ", options[o], " ", NULL);

          g_test_message ("%s %s: %s", cases[i][0], cases[i][1] != NULL ? cases[i][1] : "", options[o]);
          g_assert_nonnull (strstr (r.out, listed));
        }
    }
}

/* What a folder without profiles is told: that none was found, and where
 * they were looked for. */
#define NO_PROFILE_IN_FOLDER \
  "no profile found in this folder: looked in it for *.xplane.pb files " \
  "(else *.memory_profile.json or *.memory_profile.json.gz) and, as a log directory, " \
  "in the newest run under its plugins/profile/ folder; open a log directory or one run folder\n"

static void
test_bad_input (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *empty = g_build_filename (dir, "empty.xplane.pb", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.xplane.pb", NULL);
  /* A folder without profiles (one with a single profile opens as it). */
  g_autofree char *subdir = g_build_filename (dir, "no-profiles", NULL);
  /* A log directory's plugins/profile: its runs are one level down. */
  g_autofree char *run = g_build_filename (dir, "logdir", "plugins", "profile", "run-1", NULL);
  g_autofree char *profile_dir = g_path_get_dirname (run);
  g_autofree char *logdir = g_build_filename (dir, "logdir", NULL);
  /* Text whose first bytes happen to read as a protobuf field. */
  g_autofree char *text = g_build_filename (dir, "passwd", NULL);
  g_autofree char *corrupt = tm_test_real_profile ("corrupt_utf8_mangled.xplane.pb");
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autofree char *host = NULL;
  struct { const char *path; const char *says; } cases[] = {
    { empty, "file is empty\n" },
    { subdir, NO_PROFILE_IN_FOLDER },
    { profile_dir, NO_PROFILE_IN_FOLDER },
    { missing, "cannot be read" },
    { text, "not a profile, or a damaged one: field 12 has wire type 7 (invalid) at byte 113: no such wire type\n" },
    { corrupt, "not a profile, or a damaged one: length runs past the end at byte 1: "
               "a field claims 28501368332271 bytes but the file ends at byte 1365940\n" },
  };

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_cmpint (g_mkdir (subdir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (run, 0700), ==, 0);
  host = tm_fixture_space_write (space, run, "worker-0.xplane.pb", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (text,
                                      "root:x:0:0:root:/root:/bin/bash\n"
                                      "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
                                      "bin:x:2:2:bin:/bin:/usr/sbin/nologin\n", -1, NULL));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(TmTestRun) r = { 0 };
      g_autofree char *prefix = NULL;

      if (cases[i].path == NULL)
        continue;  /* no real profiles here */
      prefix = g_strdup_printf ("tidemark: %s: ", cases[i].path);
      tm_test_run_cli (&r, "C", "--summary", cases[i].path, NULL);
      g_test_message ("%s", r.err);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpuint (count_lines (r.err), ==, 1);
      g_assert_true (g_str_has_prefix (r.err, prefix));
      if (g_str_has_suffix (cases[i].says, "\n"))
        g_assert_cmpstr (r.err + strlen (prefix), ==, cases[i].says);
      else
        g_assert_nonnull (strstr (r.err, cases[i].says));
    }

  /* The log directory itself opens its newest run. */
  {
    g_auto(TmTestRun) r = { 0 };

    tm_test_run_cli (&r, "C", "--summary", logdir, NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "worker-0.xplane.pb"));
  }
  tm_fixture_remove (dir);
}

/* Names and the file name that are not valid UTF-8: every output stays
 * valid UTF-8, and stderr says what was replaced. */
static void
test_invalid_utf8 (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_get_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME, .allocator_name = "GPU\xff_bfc",
    .bytes_reserved = 10, .bytes_allocated = 100, .peak_bytes_in_use = 100,
    .requested_bytes = 100, .allocation_bytes = 100, .addr = 64,
    .tf_op = "op\xc3", .region_type = "output", .data_type = 1, .shape = "[1]",
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  const char *modes[][2] = { { "--summary", NULL }, { "--summary", "--json" }, { "--export=xprof-json", NULL } };

  tm_fixture_line_add_memory_event (line, TRUE, 1000, &m);
  path = tm_fixture_space_write (space, NULL, "bad\xfe.xplane.pb", &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_auto(TmTestRun) r = { 0 };

      if (modes[i][1] != NULL)
        tm_test_run_cli (&r, NULL, modes[i][0], modes[i][1], path, NULL);
      else
        tm_test_run_cli (&r, NULL, modes[i][0], path, NULL);
      g_test_message ("%s: %s", modes[i][0], r.err);
      g_assert_cmpint (r.status, ==, 0);
      g_assert_true (g_utf8_validate (r.out, -1, NULL));
      g_assert_nonnull (strstr (r.out, "GPU\xef\xbf\xbd_bfc"));
      g_assert_nonnull (strstr (r.err, "U+FFFD"));
      if (i < 2)
        g_assert_nonnull (strstr (r.out, "bad\xef\xbf\xbd.xplane.pb"));
    }
  tm_fixture_remove (path);
}

/* --summary of gathered summaries (JSON Lines, told by content): the run
 * table of the hosts it holds, each bad line named by its number; with
 * --json, the lines read back, one per host; no export. */
static void
test_gathered_summaries (void)
{
  g_autofree char *first = write_example ();
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *second = tm_fixture_space_write (space, NULL, "other.xplane.pb", &error);
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *gathered = g_build_filename (dir, "run.jsonl", NULL);
  const char *failed = "{\"input\": \"w9.xplane.pb\", \"host\": \"w9\", \"file\": \"/x/w9.xplane.pb\", \"error\": \"file is empty\"}";
  g_auto(TmTestRun) a = { 0 };
  g_auto(TmTestRun) b = { 0 };
  g_auto(TmTestRun) text = { 0 };
  g_auto(TmTestRun) json = { 0 };
  g_auto(TmTestRun) csv = { 0 };
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;

  g_assert_no_error (error);
  tm_test_run_cli (&a, NULL, "--summary", "--json", first, NULL);
  tm_test_run_cli (&b, NULL, "--summary", "--json", second, NULL);
  g_assert_cmpint (a.status, ==, 0);
  g_assert_cmpint (b.status, ==, 0);
  g_assert_cmpuint (count_lines (a.out), ==, 1);
  g_assert_cmpuint (count_lines (b.out), ==, 1);

  /* Line 2 is blank, 3 and 5 are bad, 6 is a host that failed. */
  contents = g_strconcat (a.out, "   \n", "9{}\n", b.out, "{\"host\": \"w3\"}\n", failed, "\n", NULL);
  g_assert_true (g_file_set_contents (gathered, contents, -1, &error));

  tm_test_run_cli (&text, NULL, "--summary", gathered, NULL);
  g_test_message ("%s%s", text.out, text.err);
  g_assert_cmpint (text.status, ==, 1);
  g_assert_cmpuint (count_lines (text.err), ==, 2);
  g_assert_nonnull (strstr (text.err, "run.jsonl: line 3 of the summaries "));
  g_assert_nonnull (strstr (text.err, "run.jsonl: line 5 of the summaries "));
  g_assert_true (g_str_has_prefix (text.out, "run.jsonl — gathered host summaries (JSON Lines), 3 hosts\n"));
  g_assert_nonnull (strstr (text.out, "Run: each host's busiest memory id, the busiest host first\n"));
  g_assert_nonnull (strstr (text.out, "  example  GPU_0_bfc"));
  g_assert_nonnull (strstr (text.out, "  other    GPU_0_bfc"));
  g_assert_nonnull (strstr (text.out, "  w9: file is empty\n"));

  tm_test_run_cli (&json, NULL, "--summary", "--json", gathered, NULL);
  g_assert_cmpint (json.status, ==, 1);
  g_assert_cmpuint (count_lines (json.err), ==, 2);
  expected = g_strconcat (a.out, b.out, failed, "\n", NULL);
  g_assert_cmpstr (json.out, ==, expected);

  tm_test_run_cli (&csv, NULL, "--export=csv", gathered, NULL);
  g_assert_cmpint (csv.status, ==, 1);
  g_assert_cmpstr (csv.out, ==, "");
  g_assert_nonnull (strstr (csv.err, "holds gathered host summaries (JSON Lines), not a profile"));

  tm_fixture_remove (gathered);
  tm_fixture_remove (dir);
  tm_fixture_remove (first);
  tm_fixture_remove (second);
}

/* Writes a profile of one memory id whose allocations are named by the
 * len bytes of each of names (NUL bytes included), all live at the end. */
static char *
write_named (const char        *memory_id,
             const char * const names[],
             const gsize        lengths[],
             guint              n)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_get_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  char *path;

  for (guint i = 0; i < n; i++)
    {
      TmFixtureMemory m = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME, .allocator_name = memory_id,
        .bytes_allocated = 100 * (i + 1) * (i + 2) / 2, .peak_bytes_in_use = 100 * (i + 1) * (i + 2) / 2,
        .requested_bytes = 100 * (i + 1), .allocation_bytes = 100 * (i + 1), .addr = 4096 * (i + 1),
        .region_type = "output", .data_type = 1, .shape = "[1]",
      };
      TmFixtureEvent *event = tm_fixture_line_add_memory_event (line, TRUE, 1000 * (i + 1), &m);
      TmFixtureStat op = TM_FIXTURE_STR_LEN ("tf_op", names[i], lengths[i]);

      tm_fixture_event_add_stat (event, &op);
    }
  /* The hand encoder writes a string's bytes whole, NUL bytes included. */
  bytes = tm_fixture_space_serialize_odd (space, TM_FIXTURE_ODD_NONE);
  path = tm_fixture_write_bytes (bytes, NULL, "names.xplane.pb", &error);
  g_assert_no_error (error);
  return path;
}

/* "op\0A/x", "op\0B/y" and "op" are three rows, not one "op" x 3: every
 * export keeps a NUL in a name, as \u0000 in JSON and \x00 in CSV and
 * collapsed stacks; the JSON export read back keeps them as well. */
static void
test_nul_in_names (void)
{
  const char * const names[] = { "op\0A/x", "op\0B/y", "op" };
  const gsize lengths[] = { 6, 6, 2 };
  g_autofree char *path = write_named ("GPU_0_bfc", names, lengths, G_N_ELEMENTS (names));
  g_auto(TmTestRun) csv = { 0 };
  g_auto(TmTestRun) allocations = { 0 };
  g_auto(TmTestRun) collapsed = { 0 };
  g_auto(TmTestRun) json = { 0 };

  tm_test_run_cli (&csv, NULL, "--export=csv", path, NULL);
  g_assert_cmpint (csv.status, ==, 0);
  g_test_message ("%s", csv.out);
  g_assert_nonnull (strstr (csv.out, "\nop\\x00A/x,100,"));
  g_assert_nonnull (strstr (csv.out, "\nop\\x00B/y,200,"));
  g_assert_nonnull (strstr (csv.out, "\nop,300,"));

  tm_test_run_cli (&allocations, NULL, "--export=allocations", path, NULL);
  g_assert_cmpint (allocations.status, ==, 0);
  g_assert_nonnull (strstr (allocations.out, ",op\\x00A/x,"));
  g_assert_nonnull (strstr (allocations.out, ",op\\x00B/y,"));
  g_assert_nonnull (strstr (allocations.out, ",op,"));

  tm_test_run_cli (&collapsed, NULL, "--export=collapsed", path, NULL);
  g_assert_cmpint (collapsed.status, ==, 0);
  g_test_message ("%s", collapsed.out);
  g_assert_nonnull (strstr (collapsed.out, "op\\x00A;x 100\n"));
  g_assert_nonnull (strstr (collapsed.out, "op\\x00B;y 200\n"));
  g_assert_nonnull (strstr (collapsed.out, "op 300\n"));

  tm_test_run_cli (&json, NULL, "--export=xprof-json", path, NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_cmpstr (json.err, ==, "");
  g_assert_nonnull (strstr (json.out, "\"op\\u0000A/x\""));
  g_assert_nonnull (strstr (json.out, "\"op\\u0000B/y\""));
  g_assert_nonnull (strstr (json.out, "\"op\""));

  /* That JSON read back keeps them too, and writes them back the same. */
  {
    g_autofree char *dir = g_path_get_dirname (path);
    g_autoptr(GBytes) bytes = g_bytes_new (json.out, strlen (json.out));
    g_autoptr(GError) error = NULL;
    g_autofree char *json_path = tm_fixture_write_bytes (bytes, dir, "names.memory_profile.json", &error);
    g_auto(TmTestRun) again = { 0 };
    g_auto(TmTestRun) again_csv = { 0 };

    g_assert_no_error (error);
    tm_test_run_cli (&again, NULL, "--export=xprof-json", json_path, NULL);
    g_assert_cmpint (again.status, ==, 0);
    g_assert_cmpstr (again.err, ==, "");
    g_assert_nonnull (strstr (again.out, "\"op\\u0000A/x\""));
    g_assert_nonnull (strstr (again.out, "\"op\\u0000B/y\""));

    tm_test_run_cli (&again_csv, NULL, "--export=csv", json_path, NULL);
    g_assert_cmpint (again_csv.status, ==, 0);
    g_assert_nonnull (strstr (again_csv.out, "\nop\\x00A/x,100,"));
    g_assert_nonnull (strstr (again_csv.out, "\nop\\x00B/y,200,"));
    g_assert_nonnull (strstr (again_csv.out, "\nop,300,"));
    tm_fixture_remove (json_path);
  }
  tm_fixture_remove (path);
}

static gboolean
has_raw_controls (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    if ((*p < 0x20 && *p != '\n' && *p != '\r') || *p == 0x7f)
      return TRUE;
  return FALSE;
}

/* Names that would drive a terminal: ESC sequences, BEL, DEL, U+202E and a
 * line feed in a memory id. Text for a terminal escapes them; CSV and
 * collapsed stacks escape ESC, BEL and DEL. */
static void
test_terminal_injection (void)
{
  const char *id = "GPU\x1b[2J\xe2\x80\xae\nfake";
  const char * const names[] = { "red\x1b[31m\x07\x7f/z" };
  const gsize lengths[] = { strlen (names[0]) };
  g_autofree char *path = write_named (id, names, lengths, 1);
  g_autofree char *missing = g_strdup_printf ("--memory-id=%s", id);
  g_auto(TmTestRun) summary = { 0 };
  g_auto(TmTestRun) csv = { 0 };
  g_auto(TmTestRun) collapsed = { 0 };
  g_auto(TmTestRun) error = { 0 };

  tm_test_run_cli (&summary, NULL, "--summary", path, NULL);
  g_assert_cmpint (summary.status, ==, 0);
  g_test_message ("%s", summary.out);
  g_assert_false (has_raw_controls (summary.out));
  g_assert_null (strstr (summary.out, "\xe2\x80\xae"));
  /* The heading is one line. */
  g_assert_nonnull (strstr (summary.out, "\nGPU\\x1b[2J\\u202e\\x0afake\n"));
  g_assert_null (strstr (summary.out, "\nfake"));

  tm_test_run_cli (&csv, NULL, "--export=csv", path, NULL);
  g_assert_cmpint (csv.status, ==, 0);
  g_assert_false (has_raw_controls (csv.out));
  g_assert_nonnull (strstr (csv.out, "\nred\\x1b[31m\\x07\\x7f/z,"));

  tm_test_run_cli (&collapsed, NULL, "--export=collapsed", path, NULL);
  g_assert_cmpint (collapsed.status, ==, 0);
  g_assert_false (has_raw_controls (collapsed.out));
  g_assert_nonnull (strstr (collapsed.out, "red\\x1b[31m\\x07\\x7f;z 100\n"));

  /* An error message that quotes a name. */
  missing[strlen (missing) - 4] = '\0';
  tm_test_run_cli (&error, NULL, "--export=csv", missing, path, NULL);
  g_assert_cmpint (error.status, ==, 1);
  g_test_message ("%s", error.err);
  g_assert_cmpuint (count_lines (error.err), ==, 1);
  g_assert_false (has_raw_controls (error.err));
  g_assert_nonnull (strstr (error.err, "GPU\\x1b[2J\\u202e\\x0a"));
  tm_fixture_remove (path);
}

/* A run folder whose entries named as profiles include an empty file, a
 * FIFO and a folder: each gets its own line, none is skipped without a
 * word. */
static void
test_run_folder_entries (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = tm_fixture_make_temp_dir (&error);
  g_autofree char *good = NULL;
  g_autofree char *empty = g_build_filename (dir, "empty.xplane.pb", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.xplane.pb", NULL);
  g_autofree char *folder = g_build_filename (dir, "folder.xplane.pb", NULL);
  g_autofree char *plain = g_build_filename (dir, "plain-folder", NULL);
  g_auto(TmTestRun) r = { 0 };
  const char *says[] = { "empty.xplane.pb: ", "fifo.xplane.pb: ", "folder.xplane.pb: is a directory" };

  g_assert_no_error (error);
  good = tm_fixture_space_write (space, dir, "good.xplane.pb", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (plain, 0700), ==, 0);

  tm_test_run_cli (&r, NULL, "--summary", dir, NULL);
  g_test_message ("%s%s", r.out, r.err);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_cmpuint (count_lines (r.err), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (says); i++)
    g_assert_nonnull (strstr (r.err, says[i]));
  /* In the run table too: a line per host that could not be read. */
  g_assert_nonnull (strstr (r.out, "  folder: is a directory"));
  g_assert_nonnull (strstr (r.out, "  empty: "));
  g_assert_nonnull (strstr (r.out, "  fifo: "));
  /* A folder not named as a profile is no host. */
  g_assert_null (strstr (r.out, "plain-folder"));
  g_assert_null (strstr (r.err, "plain-folder"));
  tm_fixture_remove (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/summary", test_summary);
  g_test_add_func ("/cli/export", test_export);
  g_test_add_func ("/cli/export-collapsed", test_export_collapsed);
  g_test_add_func ("/cli/export-never-freed", test_export_never_freed);
  g_test_add_func ("/cli/usage", test_usage);
  g_test_add_func ("/cli/help", test_help);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/cli/gathered-summaries", test_gathered_summaries);
  g_test_add_func ("/cli/nul-in-names", test_nul_in_names);
  g_test_add_func ("/cli/terminal-injection", test_terminal_injection);
  g_test_add_func ("/cli/run-folder-entries", test_run_folder_entries);

  return g_test_run ();
}
