/* test-xprof-json.c — XProf's memory-profile JSON out and in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <zlib.h>

#include "tm-error.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-test-util.h"

static char *
export_json (TmProfile *profile)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (tm_export_xprof_json (profile, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  g_output_stream_close (out, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static JsonObject *
parse_object (JsonParser *parser,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_export_xprof_example (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_space (space, &error);
  g_autofree char *text = export_json (profile);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *per, *summary, *peak, *snap, *meta;
  JsonArray *active, *special, *sampled;
  g_autoptr(GList) keys = NULL;
  const char *expected_keys[] = { "memoryProfilePerAllocator", "numHosts", "memoryIds", "version", "hloModules" };

  g_assert_no_error (error);
  root = parse_object (parser, text);

  /* Key order is the protobuf field order. */
  keys = json_object_get_members (root);
  g_assert_cmpuint (g_list_length (keys), ==, G_N_ELEMENTS (expected_keys));
  for (guint i = 0; i < G_N_ELEMENTS (expected_keys); i++)
    g_assert_cmpstr (g_list_nth_data (keys, i), ==, expected_keys[i]);

  g_assert_cmpint (json_object_get_int_member (root, "numHosts"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (root, "version"), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (root, "memoryIds"), 0), ==, "GPU_0_bfc");

  per = json_object_get_object_member (json_object_get_object_member (root, "memoryProfilePerAllocator"), "GPU_0_bfc");
  summary = json_object_get_object_member (per, "profileSummary");
  peak = json_object_get_object_member (summary, "peakStats");
  /* 64-bit integers are strings. */
  g_assert_cmpstr (json_object_get_string_member (summary, "peakBytesUsageLifetime"), ==, "9500");
  g_assert_cmpstr (json_object_get_string_member (summary, "peakStatsTimePs"), ==, "70000");
  g_assert_cmpstr (json_object_get_string_member (summary, "memoryCapacity"), ==, "11000");
  g_assert_cmpstr (json_object_get_string_member (peak, "peakBytesInUse"), ==, "7000");
  g_assert_cmpstr (json_object_get_string_member (peak, "stackReservedBytes"), ==, "2000");
  g_assert_cmpfloat (json_object_get_double_member (peak, "fragmentation"), ==, 0.2);
  g_assert_nonnull (strstr (text, "\"fragmentation\":0.2,"));

  /* Rows: unused (special 0), stack (special 1), mul_grad/Sum (snapshot 0). */
  active = json_object_get_array_member (per, "activeAllocations");
  g_assert_cmpuint (json_array_get_length (active), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (active, 0), "snapshotIndex"), ==, "-1");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (active, 0), "specialIndex"), ==, "0");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (active, 1), "snapshotIndex"), ==, "-2");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (active, 1), "specialIndex"), ==, "1");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (active, 2), "snapshotIndex"), ==, "0");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (active, 2), "specialIndex"), ==, "-1");

  special = json_object_get_array_member (per, "specialAllocations");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (special, 0), "tfOpName"), ==, "unused preallocated device memory");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (special, 0), "allocationBytes"), ==, "4700");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (special, 1), "tfOpName"), ==, "stack");

  /* Only the breakdown's snapshots are kept, reindexed. */
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (per, "memoryProfileSnapshots")), ==, 1);
  snap = json_array_get_object_element (json_object_get_array_member (per, "memoryProfileSnapshots"), 0);
  meta = json_object_get_object_member (snap, "activityMetadata");
  g_assert_cmpstr (json_object_get_string_member (meta, "tfOpName"), ==, "mul_grad/Sum");
  g_assert_cmpstr (json_object_get_string_member (meta, "memoryActivity"), ==, "ALLOCATION");
  g_assert_cmpstr (json_object_get_string_member (meta, "address"), ==, "345678");
  g_assert_cmpstr (json_object_get_string_member (meta, "dataType"), ==, "half");

  sampled = json_object_get_array_member (per, "sampledTimelineSnapshots");
  g_assert_cmpuint (json_array_get_length (sampled), ==, 3);
  meta = json_object_get_object_member (json_array_get_object_element (sampled, 1), "activityMetadata");
  g_assert_cmpstr (json_object_get_string_member (meta, "memoryActivity"), ==, "DEALLOCATION");
  g_assert_cmpstr (json_object_get_string_member (meta, "tfOpName"), ==, "foo/bar");
}

/* What we write, we read back with the same summary and rows. */
static void
test_round_trip (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_space (space, &error);
  g_autofree char *text = export_json (profile);
  g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));
  g_autoptr(TmProfile) again = tm_test_load_bytes (bytes, "x.memory_profile.json", &error);
  TmMemoryStore *a, *b;
  const TmSummary *sa, *sb;
  GPtrArray *ra, *rb;

  g_assert_no_error (error);
  g_assert_cmpint (tm_profile_get_format (again), ==, TM_INPUT_FORMAT_XPROF_JSON);
  a = tm_profile_get_memory_store (profile, 0);
  b = tm_profile_get_memory_store (again, 0);
  g_assert_false (tm_memory_store_is_complete (b));
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (b), ==, 3);
  sa = tm_memory_store_get_summary (a);
  sb = tm_memory_store_get_summary (b);
  g_assert_cmpint (sa->peak_bytes_in_use, ==, sb->peak_bytes_in_use);
  g_assert_cmpint (sa->peak_time_ps, ==, sb->peak_time_ps);
  g_assert_cmpint (sa->memory_capacity, ==, sb->memory_capacity);
  g_assert_cmpint (sa->peak_bytes_usage_lifetime, ==, sb->peak_bytes_usage_lifetime);
  g_assert_cmpfloat (sa->peak_fragmentation, ==, sb->peak_fragmentation);
  ra = tm_analysis_get_peak_breakdown (tm_profile_lookup_analysis (profile, a));
  rb = tm_analysis_get_peak_breakdown (tm_profile_lookup_analysis (again, b));
  g_assert_cmpuint (ra->len, ==, rb->len);
  for (guint i = 0; i < ra->len; i++)
    {
      const TmBreakdownRow *x = g_ptr_array_index (ra, i), *y = g_ptr_array_index (rb, i);

      g_assert_cmpstr (x->op_name, ==, y->op_name);
      g_assert_cmpint (x->allocation_bytes, ==, y->allocation_bytes);
      g_assert_cmpuint (x->n_occurrences, ==, y->n_occurrences);
      g_assert_cmpint (x->special, ==, y->special);
    }

  /* The same text, gzip-compressed, as .json.gz. */
  {
    uLongf len = compressBound (strlen (text)) + 64;
    g_autofree guint8 *gz = g_malloc (len);
    z_stream zs = { 0 };
    g_autoptr(GBytes) gzbytes = NULL;
    g_autoptr(TmProfile) third = NULL;

    g_assert_cmpint (deflateInit2 (&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
    zs.next_in = (Bytef *) text;
    zs.avail_in = strlen (text);
    zs.next_out = gz;
    zs.avail_out = len;
    g_assert_cmpint (deflate (&zs, Z_FINISH), ==, Z_STREAM_END);
    gzbytes = g_bytes_new (gz, zs.total_out);
    deflateEnd (&zs);
    third = tm_test_load_bytes (gzbytes, "x.memory_profile.json.gz", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (tm_profile_get_n_memory_ids (third), ==, 1);

    /* Truncated gzip: a clear error. */
    g_clear_pointer (&gzbytes, g_bytes_unref);
    gzbytes = g_bytes_new (gz, zs.total_out / 2);
    g_clear_object (&third);
    third = tm_test_load_bytes (gzbytes, "cut.memory_profile.json.gz", &error);
    g_assert_null (third);
    g_assert_error (error, TM_ERROR, TM_ERROR_TRUNCATED);
  }
}

/* TensorFlow's older JSON: no version, snake_case, numbers as numbers,
 * the timeline in memoryProfileSnapshots. */
static void
test_tensorflow_variant (void)
{
  static const char text[] =
    "{\"memory_profile_per_allocator\": {\"GPU_0_bfc\": {"
    " \"memory_profile_snapshots\": ["
    "  {\"time_offset_ps\": 10, \"aggregation_stats\": {\"stack_reserved_bytes\": 0, \"heap_allocated_bytes\": 256, \"free_memory_bytes\": 768, \"fragmentation\": 0.5, \"peak_bytes_in_use\": 256},"
    "   \"activity_metadata\": {\"memory_activity\": 1, \"requested_bytes\": 200, \"allocation_bytes\": 256, \"address\": 4096, \"tf_op_name\": \"dense/MatMul\", \"step_id\": 3, \"region_type\": \"output\", \"data_type\": \"float\", \"tensor_shape\": \"[8, 8]\"}},"
    "  {\"time_offset_ps\": 20, \"aggregation_stats\": {\"heap_allocated_bytes\": 0, \"free_memory_bytes\": 1024},"
    "   \"activity_metadata\": {\"memory_activity\": \"DEALLOCATION\", \"allocation_bytes\": 256, \"address\": 4096, \"step_id\": 3}}],"
    " \"profile_summary\": {\"peak_bytes_usage_lifetime\": 256, \"peak_stats\": {\"heap_allocated_bytes\": 256, \"free_memory_bytes\": 768, \"peak_bytes_in_use\": 256}, \"peak_stats_time_ps\": 10, \"memory_capacity\": 1024},"
    " \"active_allocations\": [{\"snapshot_index\": 0, \"special_index\": -1, \"num_occurrences\": 1}]"
    "}}, \"num_hosts\": 1, \"memory_ids\": [\"GPU_0_bfc\"]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, sizeof text - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "tf.json", &error);
  TmMemoryStore *store;
  const TmBreakdownRow *row;
  TmActivity act;

  g_assert_no_error (error);
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, 2);
  g_assert_cmpint (tm_memory_store_get_summary (store)->peak_bytes_in_use, ==, 256);
  g_assert_cmpint (tm_analysis_get_peak_step_id (tm_profile_get_analysis (profile, 0)), ==, 3);
  row = g_ptr_array_index (tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0)), 0);
  g_assert_cmpstr (row->op_name, ==, "dense/MatMul");
  g_assert_cmpint (row->allocation_bytes, ==, 256);
  g_assert_true (tm_memory_store_get_activity (store, 1, &act, &error));
  g_assert_cmpint (act.kind, ==, TM_ACTIVITY_DEALLOCATION);
  tm_activity_clear (&act);
}

/* Names are length-delimited in XProf's protobuf, so one may hold a NUL,
 * which the JSON writes as \u0000: "op\u0000A/x", "op\u0000B/y" and "op"
 * are three ops, and a memory id keeps its NUL too. U+FDD0, which the
 * reader uses to mark them, reads back as itself, raw or escaped; an
 * escaped backslash before "u0000" is text. */
static const char nul_json[] =
  "{\"version\": 1, \"memoryIds\": [\"GPU\\u00000\"], \"memoryProfilePerAllocator\": {\"GPU\\u00000\": {"
  " \"memoryProfileSnapshots\": ["
  "  {\"timeOffsetPs\": \"10\", \"aggregationStats\": {\"heapAllocatedBytes\": \"100\"},"
  "   \"activityMetadata\": {\"memoryActivity\": \"ALLOCATION\", \"allocationBytes\": \"100\", \"tfOpName\": \"op\\u0000A/x\", \"stepId\": \"1\"}},"
  "  {\"timeOffsetPs\": \"20\", \"aggregationStats\": {\"heapAllocatedBytes\": \"300\"},"
  "   \"activityMetadata\": {\"memoryActivity\": \"ALLOCATION\", \"allocationBytes\": \"200\", \"tfOpName\": \"op\\u0000B/y\", \"stepId\": \"1\"}},"
  "  {\"timeOffsetPs\": \"30\", \"aggregationStats\": {\"heapAllocatedBytes\": \"600\"},"
  "   \"activityMetadata\": {\"memoryActivity\": \"ALLOCATION\", \"allocationBytes\": \"300\", \"tfOpName\": \"op\", \"stepId\": \"1\"}},"
  "  {\"timeOffsetPs\": \"40\", \"aggregationStats\": {\"heapAllocatedBytes\": \"1000\"},"
  "   \"activityMetadata\": {\"memoryActivity\": \"ALLOCATION\", \"allocationBytes\": \"400\", \"tfOpName\": \"keep\\uFDD0 \xef\xb7\x90\\ufdd0\","
  "    \"tensorShape\": \"a\\\\u0000b\", \"stepId\": \"1\"}}],"
  " \"profileSummary\": {\"peakBytesUsageLifetime\": \"1000\", \"peakStats\": {\"heapAllocatedBytes\": \"1000\"}, \"peakStatsTimePs\": \"40\"},"
  " \"activeAllocations\": [{\"snapshotIndex\": \"3\", \"specialIndex\": \"-1\"}, {\"snapshotIndex\": \"2\", \"specialIndex\": \"-1\"},"
  "  {\"snapshotIndex\": \"1\", \"specialIndex\": \"-1\"}, {\"snapshotIndex\": \"0\", \"specialIndex\": \"-1\"}]"
  "}}}";

static void
check_nul_profile (TmProfile *profile)
{
  TmMemoryStore *store;
  GPtrArray *rows;
  const char * const ops[] = { "keep\xef\xb7\x90 \xef\xb7\x90\xef\xb7\x90", "op", "op" TM_FORMAT_NUL "B/y", "op" TM_FORMAT_NUL "A/x" };
  g_autoptr(GError) error = NULL;
  TmActivity act;

  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 1);
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpstr (tm_memory_store_get_id (store), ==, "GPU" TM_FORMAT_NUL "0");
  rows = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0));
  g_assert_cmpuint (rows->len, ==, G_N_ELEMENTS (ops));
  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      g_assert_cmpstr (row->op_name, ==, ops[i]);
    }
  g_assert_cmpstr (((TmBreakdownRow *) g_ptr_array_index (rows, 0))->shape, ==, "a\\u0000b");
  g_assert_true (tm_memory_store_get_activity (store, 0, &act, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (act.op_name, ==, "op" TM_FORMAT_NUL "A/x");
  tm_activity_clear (&act);
}

static void
test_nul_in_names (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (nul_json, sizeof nul_json - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "nul.json", &error);
  g_autoptr(TmProfile) again = NULL;
  g_autoptr(GBytes) exported = NULL;
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  check_nul_profile (profile);

  /* Written back as \u0000, and read again the same. */
  text = export_json (profile);
  g_assert_nonnull (strstr (text, "\"GPU\\u00000\""));
  g_assert_nonnull (strstr (text, "\"op\\u0000A/x\""));
  g_assert_nonnull (strstr (text, "\"op\\u0000B/y\""));
  g_assert_nonnull (strstr (text, "\"keep\xef\xb7\x90 \xef\xb7\x90\xef\xb7\x90\""));
  exported = g_bytes_new (text, strlen (text));
  again = tm_test_load_bytes (exported, "again.json", &error);
  g_assert_no_error (error);
  check_nul_profile (again);
}

static void
test_bad_json (void)
{
  const struct { const char *text; int code; const char *says; } cases[] = {
    { "{\"memoryIds\": [", TM_ERROR_JSON, "invalid JSON" },
    { "{\"hello\": 1}", TM_ERROR_JSON, "memoryProfilePerAllocator" },
    { "{\"memoryProfilePerAllocator\": {\"x\": 3}}", TM_ERROR_JSON, "“x”" },
  };
  GString *deep = g_string_new ("{\"memoryProfilePerAllocator\":");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (cases[i].text, strlen (cases[i].text));
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "bad.json", &error);

      g_assert_null (profile);
      g_assert_error (error, TM_ERROR, cases[i].code);
      g_assert_nonnull (strstr (error->message, cases[i].says));
    }

  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  {
    g_autoptr(GBytes) bytes = g_bytes_new_take (deep->str, deep->len);
    g_autoptr(GError) error = NULL;
    g_autoptr(TmProfile) profile = NULL;

    g_string_free (deep, FALSE);
    profile = tm_test_load_bytes (bytes, "deep.json", &error);
    g_assert_null (profile);
    g_assert_error (error, TM_ERROR, TM_ERROR_TOO_DEEP);
    g_assert_nonnull (strstr (error->message, "byte 92"));
  }
}

static void
test_doubles (void)
{
  const struct { double v; const char *s; } cases[] = {
    { 0.0, "0" }, { 1.0, "1" }, { 0.2, "0.2" }, { 0.000282813, "0.000282813" },
    { 3.93863e-09, "3.93863e-09" }, { 0.1 + 0.2, "0.30000000000000004" }, { NAN, "\"NaN\"" },
    { -INFINITY, "\"-Infinity\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) str = g_string_new (NULL);

      tm_export_append_double (str, cases[i].v);
      g_assert_cmpstr (str->str, ==, cases[i].s);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/xprof-json/export-xprof-example", test_export_xprof_example);
  g_test_add_func ("/xprof-json/round-trip", test_round_trip);
  g_test_add_func ("/xprof-json/tensorflow-variant", test_tensorflow_variant);
  g_test_add_func ("/xprof-json/bad-json", test_bad_json);
  g_test_add_func ("/xprof-json/nul-in-names", test_nul_in_names);
  g_test_add_func ("/xprof-json/doubles", test_doubles);

  return g_test_run ();
}
