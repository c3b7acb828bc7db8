/* test-hostile.c — files a hostile user would make
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Invalid UTF-8 in names, extreme values in every number, gzip bombs and
 * trailing data. Each case says what went wrong before it was handled
 * (docs/formats.md "Hostile input"). Run under UBSan with
 * -fno-sanitize-recover=all, the extreme-value table must stay silent.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <zlib.h>

#include "tm-analysis.h"
#include "tm-export.h"
#include "tm-lod.h"
#include "tm-test-util.h"

static char *
export_to_string (TmProfile *profile,
                  gboolean   summary,
                  guint     *n_replaced)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (summary)
    ok = tm_export_summary_json_full (profile, "host", out, n_replaced, NULL, &error);
  else
    ok = tm_export_xprof_json_full (profile, out, n_replaced, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_output_stream_close (out, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

/* ------------------------------------------------------------------ */
/* Finding 1: exports are valid UTF-8                                  */

static TmFixtureSpace *
mangled_space (void)
{
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_get_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 0);
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
    .allocator_name = "GPU_0\xff_bfc",
    .bytes_reserved = 100, .bytes_allocated = 1000, .bytes_available = 50,
    .peak_bytes_in_use = 1100, .requested_bytes = 1000, .allocation_bytes = 1000,
    .addr = 4096,
    .tf_op = "foo\xc3/bar\xfe",   /* a cut two-byte sequence and a byte never valid */
    .region_type = "te\xed\xa0\x80mp",  /* an encoded surrogate */
    .data_type = 1,
    .shape = "[1,\x80 2]",
  };

  tm_fixture_line_add_memory_event (line, TRUE, 1000, &m);
  return space;
}

static void
test_export_utf8 (void)
{
  g_autoptr(TmFixtureSpace) space = mangled_space ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_space (space, &error);
  g_autofree char *json = NULL;
  g_autofree char *summary = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TmProfile) again = NULL;
  GPtrArray *rows;
  guint n_replaced = 0;
  gboolean found = FALSE;

  g_assert_no_error (error);
  json = export_to_string (profile, FALSE, &n_replaced);
  g_assert_true (g_utf8_validate (json, -1, NULL));
  g_assert_cmpuint (n_replaced, >, 0);

  n_replaced = 0;
  summary = export_to_string (profile, TRUE, &n_replaced);
  g_assert_true (g_utf8_validate (summary, -1, NULL));
  g_assert_cmpuint (n_replaced, >, 0);
  g_assert_nonnull (strstr (summary, "\"invalid_utf8_replaced\": "));

  /* We reopen our own export, and the names carry U+FFFD. */
  bytes = g_bytes_new (json, strlen (json));
  again = tm_test_load_bytes (bytes, "again.memory_profile.json", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (again), ==, 1);
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (again, 0)), ==, "GPU_0\xef\xbf\xbd_bfc");
  rows = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (again, 0));
  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      if (row->special)
        continue;
      g_assert_cmpstr (row->op_name, ==, "foo\xef\xbf\xbd/bar\xef\xbf\xbd");
      g_assert_cmpstr (row->shape, ==, "[1,\xef\xbf\xbd 2]");
      g_assert_true (g_utf8_validate (row->region_type, -1, NULL));
      found = TRUE;
    }
  g_assert_true (found);
}

/* A valid profile exports with no replacement and no extra field. */
static void
test_export_utf8_valid (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_space (space, &error);
  g_autofree char *json = NULL;
  g_autofree char *summary = NULL;
  guint n_replaced = 99;

  g_assert_no_error (error);
  json = export_to_string (profile, FALSE, &n_replaced);
  g_assert_cmpuint (n_replaced, ==, 0);
  summary = export_to_string (profile, TRUE, &n_replaced);
  g_assert_cmpuint (n_replaced, ==, 0);
  g_assert_null (strstr (summary, "invalid_utf8"));
}

/* The file name is a name too: a file called "bad\xff.xplane.pb". */
static void
test_export_utf8_file_name (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GBytes) bytes = tm_fixture_space_serialize (space);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_write_bytes (bytes, NULL, "bad\xff.xplane.pb", &error);
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autofree char *summary = NULL;
  guint n_replaced = 0;

  g_assert_no_error (error);
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  summary = export_to_string (profile, TRUE, &n_replaced);
  g_assert_true (g_utf8_validate (summary, -1, NULL));
  g_assert_nonnull (strstr (summary, "\"input\": \"bad\xef\xbf\xbd.xplane.pb\""));
  /* Once in the input's name and once in the file's path. */
  g_assert_nonnull (strstr (summary, "/bad\xef\xbf\xbd.xplane.pb\", \"format\""));
  g_assert_cmpuint (n_replaced, ==, 2);
  tm_fixture_remove (path);
}

/* ------------------------------------------------------------------ */
/* Finding 2: extreme values                                           */

#define MAX64 G_MAXINT64
#define MIN64 G_MININT64

typedef struct
{
  const char *name;
  gint64      line_ns;       /* the line's timestamp */
  gint64      offset_ps[3];  /* the three events */
  gint64      duration_ps;
  gint64      stack;
  gint64      heap;
  gint64      free_bytes;
  gint64      peak_in_use;
  gint64      bytes;         /* requested and allocation bytes */
  gint64      group;
  double      frag;
  gint64      module_start;
  gint64      module_end;
  gint64      second_line_ns;  /* a second line of the host plane, when not 0 */
} Extreme;

static const Extreme extremes[] = {
  { "stack and heap at INT64_MAX", 0, { 10, 20, 30 }, 0, MAX64, MAX64, 0, MAX64, 8, 1, 0.5, 0, 10, 0 },
  { "free at INT64_MAX", 0, { 10, 20, 30 }, 0, 1000, 1000, MAX64, 2000, 8, 1, 0.5, 0, 10, 0 },
  { "everything at INT64_MIN", 0, { 10, 20, 30 }, 0, MIN64, MIN64, MIN64, MIN64, MIN64, MIN64, -INFINITY, MIN64, MIN64, 0 },
  { "everything at INT64_MAX", MAX64, { MAX64, MAX64, MAX64 }, MAX64, MAX64, MAX64, MAX64, MAX64, MAX64, MAX64, INFINITY, MAX64, MAX64, 0 },
  { "times from INT64_MIN to INT64_MAX", 0, { MIN64, 0, MAX64 }, MAX64, 10, 20, 30, 40, 4, 3, NAN, MIN64, MAX64, 0 },
  { "lines far apart", MIN64, { 0, 1, 2 }, 0, 10, 20, 30, 40, 4, 3, 0.1, 0, 1, MAX64 },
  { "line timestamps of opposite signs", -5, { MAX64, MIN64, 0 }, -1, 1, 2, 3, 4, 5, MAX64 - 1, 0.1, MAX64, MIN64, MAX64 / 1000 },
  { "step at INT64_MAX", 0, { 10, 20, 30 }, 0, 1, 2, 3, 4, 5, MAX64, 0.2, 0, 5, 0 },
  { "bytes at INT64_MAX", 0, { 10, 10, 10 }, 0, MAX64 / 2, MAX64 / 2, MAX64 / 2, MAX64, MAX64, -1, 0.2, -10, 10, 0 },
  { "negative sizes", 0, { 30, 20, 10 }, 0, -1, -MAX64, -1, -1, MIN64 + 1, -2, -0.0, 5, -5, 0 },
};

static GBytes *
extreme_bytes (const Extreme *x)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_get_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_get_line (host, "Memory", x->line_ns);
  TmFixtureLine *second = NULL;

  if (x->second_line_ns != 0)
    second = tm_fixture_plane_add_line (host, "Memory 2", x->second_line_ns);
  for (guint e = 0; e < 3; e++)
    {
      TmFixtureMemory m = {
        .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
        .allocator_name = "GPU_0_bfc",
        .bytes_reserved = x->stack, .bytes_allocated = x->heap, .bytes_available = x->free_bytes,
        .fragmentation = x->frag, .peak_bytes_in_use = x->peak_in_use,
        .requested_bytes = x->bytes, .allocation_bytes = x->bytes,
        .addr = (guint64) (e == 2 ? 0 : 4096), .tf_op = "op", .has_group_id = e != 1,
        .group_id = x->group, .region_type = "output", .data_type = 1, .shape = "[1]",
      };
      TmFixtureEvent *ev;

      ev = tm_fixture_line_add_memory_event (second != NULL && e == 1 ? second : line,
                                             e != 1, x->offset_ps[e], &m);
      (void) ev;
    }
  /* An event with a duration on the memory line: offset + duration. */
  tm_fixture_line_add_event (line, "Other", x->offset_ps[2], x->duration_ps);
  tm_fixture_space_add_hlo_module (space, 0, "module", x->module_start, x->module_end);
  return tm_fixture_space_serialize (space);
}

/* Everything a view or an export asks of a store, at extreme times. */
static void
exercise_store (TmProfile *profile,
                guint      index)
{
  TmMemoryStore *store = tm_profile_get_memory_store (profile, index);
  TmAnalysis *analysis = tm_profile_get_analysis (profile, index);
  TmLod *lod = tm_memory_store_get_lod (store);
  const gint64 times[] = { MIN64, MIN64 + 1, -1, 0, 1, 10, 30, MAX64 - 1, MAX64 };
  guint n = tm_memory_store_get_n_snapshots (store);
  const gint64 *t = tm_memory_store_get_times (store);
  TmLodBucket buckets[7];
  TmLodBucket bucket;

  g_assert_nonnull (tm_analysis_get_peak_breakdown (analysis));
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_autoptr(GPtrArray) rows = tm_analysis_breakdown_at (store, times[i]);
      guint k = tm_memory_store_find_nearest (store, times[i]);

      g_assert_nonnull (rows);
      g_assert_cmpuint (k, <, MAX (n, 1));
      k = tm_memory_store_find_at_or_before (store, times[i]);
      g_assert_cmpuint (k, <, MAX (n, 1));
      for (guint j = 0; j < G_N_ELEMENTS (times); j++)
        {
          guint filled = tm_lod_query_columns (lod, times[i], times[j], G_N_ELEMENTS (buckets), buckets);

          g_assert_cmpuint (filled, <=, G_N_ELEMENTS (buckets));
          tm_lod_query_time (lod, times[i], times[j], &bucket);
        }
      tm_lod_lower_bound (lod, times[i], 0);
    }
  if (n > 0)
    {
      /* A view over the data, then one pixel wider each side. */
      tm_lod_query_columns (lod, t[0], t[n - 1], 1, buckets);
      tm_lod_query_columns (lod, t[0], t[n - 1], G_N_ELEMENTS (buckets), buckets);
      g_assert_true (tm_lod_query_indices (lod, 0, n - 1, &bucket));
    }
  tm_lod_get_max_total (lod);
  tm_lod_get_max_used (lod);
  g_array_unref (tm_analysis_sample (store, TM_XPROF_MAX_SNAPSHOTS));
  g_array_unref (tm_analysis_sample (store, 2));
}

static void
check_profile (TmProfile *profile)
{
  g_autofree char *json = NULL;
  g_autofree char *summary = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) again = NULL;

  for (guint i = 0; i < tm_profile_get_n_memory_ids (profile); i++)
    exercise_store (profile, i);

  json = export_to_string (profile, FALSE, NULL);
  summary = export_to_string (profile, TRUE, NULL);
  g_assert_true (g_utf8_validate (json, -1, NULL));

  /* What we export, we read back, with the same window peak. */
  bytes = g_bytes_new (json, strlen (json));
  again = tm_test_load_bytes (bytes, "again.memory_profile.json", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (again), ==, tm_profile_get_n_memory_ids (profile));
  for (guint i = 0; i < tm_profile_get_n_memory_ids (again); i++)
    {
      const TmSummary *a = tm_memory_store_get_summary (tm_profile_get_memory_store (profile, i));
      const TmSummary *b = tm_memory_store_get_summary (tm_profile_get_memory_store (again, i));

      g_assert_cmpint (a->peak_bytes_in_use, ==, b->peak_bytes_in_use);
      g_assert_cmpint (a->memory_capacity, ==, b->memory_capacity);
      g_assert_cmpint (a->peak_time_ps, ==, b->peak_time_ps);
      exercise_store (again, i);
    }
}

static void
test_extreme_values (void)
{
  for (guint c = 0; c < G_N_ELEMENTS (extremes); c++)
    {
      const Extreme *x = &extremes[c];
      g_autoptr(GBytes) bytes = extreme_bytes (x);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = NULL;

      g_test_message ("case: %s", x->name);
      profile = tm_test_load_bytes (bytes, "extreme.xplane.pb", &error);
      if (profile == NULL)
        {
          /* A clear rejection is allowed; silence is not. */
          g_assert_nonnull (error);
          g_assert_cmpstr (error->message, !=, "");
          continue;
        }
      g_assert_no_error (error);
      check_profile (profile);
    }
}

/* stack = heap = INT64_MAX: the window peak saturates, never wraps to 0. */
static void
test_extreme_peak (void)
{
  g_autoptr(GBytes) bytes = extreme_bytes (&extremes[0]);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "peak.xplane.pb", &error);
  const TmSummary *s;

  g_assert_no_error (error);
  s = tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0));
  g_assert_cmpint (s->peak_bytes_in_use, ==, MAX64);
  g_assert_cmpint (s->memory_capacity, ==, MAX64);
  g_assert_cmpint (s->peak_heap_bytes, ==, MAX64);

  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_object (&profile);
  bytes = extreme_bytes (&extremes[1]);
  profile = tm_test_load_bytes (bytes, "free.xplane.pb", &error);
  g_assert_no_error (error);
  s = tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0));
  g_assert_cmpint (s->peak_bytes_in_use, ==, 2000);
  g_assert_cmpint (s->memory_capacity, ==, MAX64);
}

/* The JSON reader: numbers far outside int64 saturate (or are NaN: 0). */
static void
test_extreme_json (void)
{
  const char *values[] = { "1e300", "-1e300", "9.3e18", "-9.3e18", "\"1e300\"", "\"99999999999999999999999\"",
                           "\"-99999999999999999999999\"", "\"18446744073709551615\"", "1.5", "-0.0" };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = g_strdup_printf (
        "{\"memoryProfilePerAllocator\":{\"a\":{\"memoryProfileSnapshots\":[],"
        "\"profileSummary\":{\"peakBytesUsageLifetime\":%s,\"peakStats\":{\"stackReservedBytes\":%s,"
        "\"heapAllocatedBytes\":%s,\"freeMemoryBytes\":%s,\"peakBytesInUse\":%s},\"peakStatsTimePs\":%s,"
        "\"memoryCapacity\":%s},\"activeAllocations\":[{\"snapshotIndex\":%s,\"specialIndex\":%s,\"numOccurrences\":%s}],"
        "\"specialAllocations\":[],\"sampledTimelineSnapshots\":[{\"timeOffsetPs\":%s,\"aggregationStats\":"
        "{\"stackReservedBytes\":%s,\"heapAllocatedBytes\":%s,\"freeMemoryBytes\":%s},\"activityMetadata\":"
        "{\"memoryActivity\":\"ALLOCATION\",\"requestedBytes\":%s,\"allocationBytes\":%s,\"stepId\":%s}},"
        "{\"timeOffsetPs\":\"0\"}]}},\"memoryIds\":[\"a\"],\"version\":1,\"hloModules\":"
        "[{\"name\":\"m\",\"startTimePs\":%s,\"endTimePs\":\"1\"}]}",
        values[i], values[i], values[i], values[i], values[i], values[i], values[i], values[i], values[i],
        values[i], values[i], values[i], values[i], values[i], values[i], values[i], values[i], values[i]);
      g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = NULL;

      g_test_message ("value: %s", values[i]);
      profile = tm_test_load_bytes (bytes, "extreme.json", &error);
      g_assert_no_error (error);
      check_profile (profile);
      if (i == 0)
        g_assert_cmpint (tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0))->memory_capacity, ==, MAX64);
      if (i == 1)
        g_assert_cmpint (tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0))->memory_capacity, ==, MIN64);
    }
}

/* ------------------------------------------------------------------ */
/* Finding 3: .json.gz                                                  */

static GBytes *
concat (GBytes *a,
        const void *b,
        gsize   n)
{
  GByteArray *arr = g_byte_array_new ();

  g_byte_array_append (arr, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (arr, b, n);
  return g_byte_array_free_to_bytes (arr);
}

static void
expect_failure (GBytes     *bytes,
                const char *basename,
                int         code,
                const char *says)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, basename, &error);

  g_assert_null (profile);
  g_assert_error (error, TM_ERROR, code);
  g_test_message ("%s: %s", basename, error->message);
  g_assert_nonnull (strstr (error->message, says));
}

static const char example_json[] =
  "{\"memoryProfilePerAllocator\":{},\"numHosts\":1,\"memoryIds\":[],\"version\":1}";

/* n_mib MiB of zeros, gzip-compressed a MiB at a time (never held whole). */
static GBytes *
gzip_zeros (guint n_mib)
{
  g_autofree guint8 *zeros = g_malloc0 (1 << 20);
  GByteArray *out = g_byte_array_new ();
  guint8 buf[65536];
  z_stream zs = { 0 };

  g_assert_cmpint (deflateInit2 (&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY), ==, Z_OK);
  for (guint i = 0; i <= n_mib; i++)
    {
      int ret;

      zs.next_in = zeros;
      zs.avail_in = i < n_mib ? 1 << 20 : 0;
      do
        {
          zs.next_out = buf;
          zs.avail_out = sizeof buf;
          ret = deflate (&zs, i < n_mib ? Z_NO_FLUSH : Z_FINISH);
          g_byte_array_append (out, buf, sizeof buf - zs.avail_out);
        }
      while (zs.avail_out == 0 || (i == n_mib && ret != Z_STREAM_END));
    }
  deflateEnd (&zs);
  return g_byte_array_free_to_bytes (out);
}

static glong
max_rss_kib (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

static void
test_gzip_not_json (void)
{
  /* 256 MiB of zeros in well under a MiB: the first inflated bytes are
   * not JSON, so we stop there instead of inflating it all. */
  g_autoptr(GBytes) gz = gzip_zeros (256);
  glong before = max_rss_kib ();

  g_assert_cmpuint (g_bytes_get_size (gz), <, 1 << 20);
  expect_failure (gz, "zeros.json.gz", TM_ERROR_NOT_PROTOBUF, "memory-profile JSON");
  g_assert_cmpint (max_rss_kib () - before, <, 64 * 1024);
}

static void
test_gzip_too_large (void)
{
  /* Valid JSON that inflates far beyond what its compressed size can
   * justify: a long run of spaces inside the object. */
  gsize size = 40 << 20;
  g_autofree char *text = g_malloc (size);
  g_autoptr(GBytes) gz = NULL;

  memset (text, ' ', size);
  text[0] = '{';
  text[size - 1] = '}';
  gz = tm_test_gzip_bytes (text, size);
  g_assert_cmpuint (g_bytes_get_size (gz), <, 100000);
  expect_failure (gz, "bomb.json.gz", TM_ERROR_TOO_LARGE, "compressed");
}

static void
test_gzip_trailing (void)
{
  g_autoptr(GBytes) gz = tm_test_gzip_bytes (example_json, strlen (example_json));
  g_autoptr(GBytes) junk = concat (gz, "junk", 4);
  g_autoptr(GBytes) two = concat (gz, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (gz, "one.json.gz", &error);

  /* The plain one loads. */
  g_assert_no_error (error);
  g_assert_nonnull (profile);
  expect_failure (junk, "junk.json.gz", TM_ERROR_INVALID, "after the gzip stream");
  expect_failure (two, "two.json.gz", TM_ERROR_INVALID, "second gzip member");
  /* Counted with the right plural. */
  {
    g_autoptr(GBytes) one = concat (gz, "j", 1);
    g_autofree char *at = g_strdup_printf ("1 byte of trailing data after the gzip stream, at byte %zu", g_bytes_get_size (gz));
    g_autofree char *from = g_strdup_printf ("4 bytes of trailing data after the gzip stream, from byte %zu", g_bytes_get_size (gz));

    expect_failure (one, "one-more.json.gz", TM_ERROR_INVALID, at);
    expect_failure (junk, "junk.json.gz", TM_ERROR_INVALID, from);
  }
}

/* ------------------------------------------------------------------ */
/* Finding 4: trailing data after the JSON value                        */

static void
test_json_trailing (void)
{
  const char *tails[] = { "{}", "{\"a\":1}", "x", "[]", "0", "\"s\"", "}", "\x00" };
  g_autoptr(GBytes) ws = NULL;
  g_autofree char *spaced = g_strconcat (example_json, " \n\t\r\n", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;

  /* Whitespace after the value is fine. */
  ws = g_bytes_new (spaced, strlen (spaced));
  profile = tm_test_load_bytes (ws, "ws.json", &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (tails); i++)
    {
      g_autofree char *text = g_strconcat (example_json, "\n", tails[i], NULL);
      gsize len = strlen (text) + (tails[i][0] == '\0' ? 1 : 0);
      g_autoptr(GBytes) bytes = g_bytes_new (text, len);
      g_autoptr(GBytes) gz = tm_test_gzip_bytes (text, len);

      expect_failure (bytes, "two.json", TM_ERROR_JSON, "after the JSON value");
      expect_failure (gz, "two.json.gz", TM_ERROR_JSON, "after the JSON value");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/hostile/export-utf8", test_export_utf8);
  g_test_add_func ("/hostile/export-utf8-valid", test_export_utf8_valid);
  g_test_add_func ("/hostile/export-utf8-file-name", test_export_utf8_file_name);
  g_test_add_func ("/hostile/extreme-values", test_extreme_values);
  g_test_add_func ("/hostile/extreme-peak", test_extreme_peak);
  g_test_add_func ("/hostile/extreme-json", test_extreme_json);
  g_test_add_func ("/hostile/gzip-not-json", test_gzip_not_json);
  g_test_add_func ("/hostile/gzip-too-large", test_gzip_too_large);
  g_test_add_func ("/hostile/gzip-trailing", test_gzip_trailing);
  g_test_add_func ("/hostile/json-trailing", test_json_trailing);

  return g_test_run ();
}
