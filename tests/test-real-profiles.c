/* test-real-profiles.c — the real files in $TM_REAL_PROFILES give XProf's
 * numbers exactly
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Skipped when TM_REAL_PROFILES is unset; a missing file fails.
 */
#include "config.h"

#include <string.h>
#include <json-glib/json-glib.h>

#include "tm-error.h"
#include "tm-export.h"
#include "tm-test-util.h"

#define GPU_PROFILE "tf_gpu_multi_worker.xplane.pb"

static TmProfile *
load_real (const char *name)
{
  g_autofree char *path = tm_test_real_profile (name);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  TmProfile *profile;

  if (path == NULL)
    return NULL;
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return profile;
}

static JsonNode *
parse_file (const char *path)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* Same values, same key order. Numbers compare by value. */
static void
assert_same_json (JsonNode   *got,
                  JsonNode   *want,
                  const char *path)
{
  if (JSON_NODE_TYPE (got) != JSON_NODE_TYPE (want))
    g_error ("%s: different kinds of value", path);

  switch (JSON_NODE_TYPE (want))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *g = json_node_get_object (got), *w = json_node_get_object (want);
        g_autoptr(GList) gk = json_object_get_members (g);
        g_autoptr(GList) wk = json_object_get_members (w);

        if (g_list_length (gk) != g_list_length (wk))
          g_error ("%s: %u keys, expected %u", path, g_list_length (gk), g_list_length (wk));
        for (GList *a = gk, *b = wk; a != NULL; a = a->next, b = b->next)
          {
            g_autofree char *sub = g_strconcat (path, ".", b->data, NULL);

            if (!g_str_equal (a->data, b->data))
              g_error ("%s: key “%s”, expected “%s”", path, (char *) a->data, (char *) b->data);
            assert_same_json (json_object_get_member (g, a->data), json_object_get_member (w, b->data), sub);
          }
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *g = json_node_get_array (got), *w = json_node_get_array (want);

        if (json_array_get_length (g) != json_array_get_length (w))
          g_error ("%s: %u elements, expected %u", path, json_array_get_length (g), json_array_get_length (w));
        for (guint i = 0; i < json_array_get_length (w); i++)
          {
            g_autofree char *sub = g_strdup_printf ("%s[%u]", path, i);
            assert_same_json (json_array_get_element (g, i), json_array_get_element (w, i), sub);
          }
      }
      break;

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (want) == G_TYPE_STRING)
        {
          if (json_node_get_value_type (got) != G_TYPE_STRING ||
              !g_str_equal (json_node_get_string (got), json_node_get_string (want)))
            g_error ("%s: differs", path);
        }
      else if (json_node_get_double (got) != json_node_get_double (want))
        g_error ("%s: %.17g, expected %.17g", path, json_node_get_double (got), json_node_get_double (want));
      break;

    case JSON_NODE_NULL:
      break;
    }
}

static JsonNode *
export_to_node (TmProfile *profile,
                gboolean   summary)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;

  if (summary)
    g_assert_true (tm_export_summary_json (profile, "host", out, NULL, &error));
  else
    g_assert_true (tm_export_xprof_json (profile, out, NULL, &error));
  g_assert_no_error (error);
  g_output_stream_write_all (out, "", 1, NULL, NULL, NULL);
  g_output_stream_close (out, NULL, NULL);
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_gpu_xprof_json (void)
{
  g_autoptr(TmProfile) profile = load_real (GPU_PROFILE);
  g_autofree char *expected_path = NULL;
  g_autoptr(JsonNode) want = NULL;
  g_autoptr(JsonNode) got = NULL;

  if (profile == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  expected_path = tm_test_real_profile ("expected/tf_gpu_multi_worker.memory_profile.json");
  want = parse_file (expected_path);
  got = export_to_node (profile, FALSE);
  assert_same_json (got, want, "$");
}

static gint64
member_int (JsonObject *o,
            const char *name)
{
  if (!json_object_has_member (o, name))
    g_error ("expected summary has no %s", name);
  return json_object_get_int_member (o, name);
}

static void
test_gpu_summary (void)
{
  g_autoptr(TmProfile) profile = load_real (GPU_PROFILE);
  g_autofree char *expected_path = NULL;
  g_autoptr(JsonNode) want_node = NULL;
  JsonObject *want, *memory;
  g_autoptr(GList) ids = NULL;
  guint k = 0;

  if (profile == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  expected_path = tm_test_real_profile ("expected/tf_gpu_multi_worker.summary.json");
  want_node = parse_file (expected_path);
  want = json_node_get_object (want_node);
  memory = json_object_get_object_member (want, "memory");
  ids = json_object_get_members (memory);

  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, g_list_length (ids));
  g_assert_cmpuint (tm_profile_get_hlo_modules (profile)->len, ==, member_int (want, "num_hlo_modules"));
  /* The busiest memory id is selected first. */
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, tm_profile_get_busiest_index (profile))), ==, "GPU_6_bfc");

  for (GList *l = ids; l != NULL; l = l->next, k++)
    {
      JsonObject *w = json_object_get_object_member (memory, l->data);
      TmMemoryStore *store = tm_profile_get_memory_store (profile, k);
      const TmSummary *s = tm_memory_store_get_summary (store);
      TmAnalysis *analysis = tm_profile_get_analysis (profile, k);
      GPtrArray *rows = tm_analysis_get_peak_breakdown (analysis);
      JsonArray *breakdown = json_object_get_array_member (w, "breakdown");
      g_autoptr(GArray) sampled = tm_analysis_sample (store, 1000);

      g_test_message ("memory id %s", (char *) l->data);
      g_assert_cmpstr (tm_memory_store_get_id (store), ==, l->data);
      g_assert_cmpint (s->n_snapshots, ==, member_int (w, "num_snapshots"));
      g_assert_cmpint (s->n_allocations, ==, member_int (w, "num_allocations"));
      g_assert_cmpint (s->n_deallocations, ==, member_int (w, "num_deallocations"));
      g_assert_cmpint (sampled->len, ==, member_int (w, "num_sampled_timeline_snapshots"));
      g_assert_cmpint (s->memory_capacity, ==, member_int (w, "memory_capacity"));
      g_assert_cmpint (s->peak_bytes_usage_lifetime, ==, member_int (w, "peak_bytes_usage_lifetime"));
      g_assert_cmpint (s->peak_bytes_usage_lifetime, ==, member_int (w, "max_peak_bytes_in_use_over_events"));
      g_assert_cmpint (s->last_peak_bytes_in_use, ==, member_int (w, "xprof_reported_lifetime_peak_last_in_file_order"));
      g_assert_cmpint (s->peak_bytes_in_use, ==, member_int (w, "peak_bytes_in_use"));
      g_assert_cmpint (s->peak_time_ps, ==, member_int (w, "peak_stats_time_ps"));
      g_assert_cmpint (s->peak_stack_bytes, ==, member_int (w, "peak_stack_reserved_bytes"));
      g_assert_cmpint (s->peak_heap_bytes, ==, member_int (w, "peak_heap_allocated_bytes"));
      g_assert_cmpint (s->peak_free_bytes, ==, member_int (w, "peak_free_memory_bytes"));
      g_assert_cmpfloat (s->peak_fragmentation, ==, json_object_get_double_member (w, "peak_fragmentation"));
      g_assert_cmpint (tm_analysis_get_peak_step_id (analysis), ==, member_int (w, "peak_step_id"));
      g_assert_cmpint (rows->len, ==, member_int (w, "num_breakdown_rows"));
      g_assert_cmpuint (rows->len, ==, json_array_get_length (breakdown));

      for (guint r = 0; r < rows->len; r++)
        {
          const TmBreakdownRow *row = g_ptr_array_index (rows, r);
          JsonObject *e = json_array_get_object_element (breakdown, r);

          g_assert_cmpstr (row->op_name, ==, json_object_get_string_member (e, "op_name"));
          g_assert_cmpint (row->allocation_bytes, ==, member_int (e, "allocation_bytes"));
          g_assert_cmpint (row->requested_bytes, ==, member_int (e, "requested_bytes"));
          g_assert_cmpint (row->n_occurrences, ==, member_int (e, "num_occurrences"));
          g_assert_cmpstr (row->region_type, ==, json_object_get_string_member (e, "region_type"));
          g_assert_cmpstr (row->data_type, ==, json_object_get_string_member (e, "data_type"));
          g_assert_cmpstr (row->shape, ==, json_object_get_string_member (e, "shape"));
          g_assert_cmpint (row->special, ==, json_object_get_boolean_member (e, "special"));

          if (!row->special)
            {
              JsonArray *cands = json_object_get_array_member (e, "candidate_snapshots");
              gboolean found = FALSE;

              for (guint c = 0; c < json_array_get_length (cands); c++)
                {
                  JsonObject *cand = json_array_get_object_element (cands, c);

                  if (member_int (cand, "time_offset_ps") == row->time_ps &&
                      (guint64) member_int (cand, "address") == row->address)
                    found = TRUE;
                }
              g_assert_true (found);
            }
        }
    }
}

static void
test_gpu_counts (void)
{
  g_autoptr(TmProfile) profile = load_real (GPU_PROFILE);
  static const struct { const char *id; guint n; } counts[] = {
    { "GPU_1_bfc", 19 }, { "GPU_4_bfc", 969 }, { "GPU_6_bfc", 969 }, { "gpu_host_bfc", 536 },
  };

  if (profile == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      TmMemoryStore *store = tm_profile_lookup_memory_store (profile, counts[i].id);

      g_assert_nonnull (store);
      g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, counts[i].n);
      g_assert_true (tm_memory_store_is_complete (store));
      g_assert_true (tm_memory_store_has_free_data (store));
    }
}

static void
test_corrupt (void)
{
  g_autofree char *path = tm_test_real_profile ("corrupt_utf8_mangled.xplane.pb");
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_null (profile);
  g_assert_error (error, TM_ERROR, TM_ERROR_LENGTH);
  /* What it is first, then where it broke: the same message in the
   * command line, the error page and the run overview's row. */
  g_assert_true (g_str_has_prefix (error->message, "not a profile, or a damaged one: length runs past the end at byte 1"));
}

static void
test_tpu_json (void)
{
  g_autoptr(TmProfile) profile = load_real ("xprof_tpu_training.memory_profile.json");
  static const guint points[] = { 421, 148, 148, 148 };

  if (profile == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  g_assert_cmpint (tm_profile_get_format (profile), ==, TM_INPUT_FORMAT_XPROF_JSON);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, i);
      g_autofree char *id = g_strdup_printf ("%u", i);

      g_assert_cmpstr (tm_memory_store_get_id (store), ==, id);
      g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, points[i]);
      g_assert_false (tm_memory_store_is_complete (store));
    }
  g_assert_cmpint (tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0))->peak_stack_bytes, ==,
                   G_GINT64_CONSTANT (1960673280));
  g_assert_cmpuint (tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0))->len, ==, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/real/gpu-xprof-json", test_gpu_xprof_json);
  g_test_add_func ("/real/gpu-summary", test_gpu_summary);
  g_test_add_func ("/real/gpu-counts", test_gpu_counts);
  g_test_add_func ("/real/corrupt", test_corrupt);
  g_test_add_func ("/real/tpu-json", test_tpu_json);

  return g_test_run ();
}
