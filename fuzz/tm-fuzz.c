/* tm-fuzz.c — loading and exercising a profile for the fuzz targets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include <json-glib/json-glib.h>

#include "tm-analysis.h"
#include "tm-buffer-assignment.h"
#include "tm-export.h"
#include "tm-fuzz.h"
#include "tm-lod.h"
#include "tm-profile-private.h"
#include "tm-memory-viewer-json.h"
#include "tm-pickle.h"
#include "tm-run-summary.h"
#include "tm-torch-export.h"
#include "tm-torch-snapshot.h"
#include "tm-xspace-writer.h"

static char *input_path;

static void
remove_input (void)
{
  g_autofree char *dir = g_path_get_dirname (input_path);

  g_unlink (input_path);
  g_rmdir (dir);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  /* GLib 2.74's slice allocator keeps freed blocks of its own, where
   * LeakSanitizer sees no leak of a JsonNode: plain malloc makes them
   * visible. GLib reads G_SLICE before this runs, so the target starts
   * again with it set (if that fails, it goes on without). */
  if (g_getenv ("G_SLICE") == NULL)
    {
      g_setenv ("G_SLICE", "always-malloc", TRUE);
      execv ("/proc/self/exe", *argv);
    }
  if (g_getenv ("TMPDIR") == NULL && g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) &&
      access ("/dev/shm", W_OK) == 0)
    g_setenv ("TMPDIR", "/dev/shm", TRUE);
  return 0;
}

const char *
tm_fuzz_write_input (const uint8_t *data,
                     size_t         size)
{
  if (input_path == NULL)
    {
      char *dir = g_dir_make_tmp ("tidemark-fuzz-XXXXXX", NULL);

      tm_fuzz_check (dir != NULL);
      input_path = g_build_filename (dir, "input", NULL);
      g_free (dir);
      atexit (remove_input);
    }
  tm_fuzz_check (g_file_set_contents (input_path, (const char *) data, (gssize) size, NULL));
  return input_path;
}

TmProfile *
tm_fuzz_load (const uint8_t *data,
              size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  TmProfile *profile;

  file = g_file_new_for_path (tm_fuzz_write_input (data, size));
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  if (profile == NULL)
    {
      /* A failed load always says why. */
      tm_fuzz_check (error != NULL);
      tm_fuzz_check (error->message != NULL && error->message[0] != '\0');
      tm_fuzz_check (g_utf8_validate (error->message, -1, NULL));
    }
  else
    tm_fuzz_check (error == NULL);
  return profile;
}

static char *
export (TmProfile *profile,
        int        kind,
        guint     *n_replaced)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (kind == 0)
    ok = tm_export_xprof_json_full (profile, out, n_replaced, NULL, &error);
  else if (kind == 1)
    ok = tm_export_summary_json_full (profile, "fuzz", out, n_replaced, NULL, &error);
  else
    {
      TmAnalysis *analysis = tm_profile_get_analysis (profile, tm_profile_get_busiest_index (profile));

      ok = tm_export_breakdown_csv (tm_analysis_get_peak_breakdown (analysis), out, NULL, &error);
    }
  tm_fuzz_check (ok && error == NULL);
  tm_fuzz_check (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
  tm_fuzz_check (g_output_stream_close (out, NULL, NULL));
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
}

static void
exercise_store (TmMemoryStore *store,
                TmAnalysis    *analysis)
{
  guint n = tm_memory_store_get_n_snapshots (store);
  const gint64 *times = tm_memory_store_get_times (store);
  TmLod *lod = tm_memory_store_get_lod (store);
  gint64 probes[8] = { G_MININT64, -1, 0, 1, G_MAXINT64, 0, 0, 0 };
  TmLodBucket buckets[16];
  GPtrArray *peak = tm_analysis_get_peak_breakdown (analysis);

  tm_fuzz_check (peak != NULL);
  for (guint r = 0; r < peak->len; r++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (peak, r);

      tm_fuzz_check (row->op_name != NULL && row->region_type != NULL &&
                     row->data_type != NULL && row->shape != NULL);
    }

  if (n > 0)
    {
      probes[5] = times[0];
      probes[6] = times[n / 2];
      probes[7] = times[n - 1];
    }
  for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
    {
      g_autoptr(GPtrArray) rows = tm_analysis_breakdown_at (store, probes[i]);
      guint k = tm_memory_store_find_nearest (store, probes[i]);

      tm_fuzz_check (rows != NULL);
      tm_fuzz_check (n == 0 || k < n);
      k = tm_memory_store_find_at_or_before (store, probes[i]);
      tm_fuzz_check (n == 0 || k < n);
      if (n > 0)
        {
          TmActivity act;

          if (tm_memory_store_get_activity (store, k, &act, NULL))
            tm_activity_clear (&act);
        }
    }

  if (lod != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
        for (guint j = i; j < G_N_ELEMENTS (probes); j++)
          {
            guint filled = tm_lod_query_columns (lod, probes[i], probes[j], G_N_ELEMENTS (buckets), buckets);
            TmLodBucket bucket;

            tm_fuzz_check (filled <= G_N_ELEMENTS (buckets));
            tm_lod_query_time (lod, probes[i], probes[j], &bucket);
          }
      if (n > 0)
        {
          TmLodBucket bucket;

          tm_fuzz_check (tm_lod_query_indices (lod, 0, n - 1, &bucket));
        }
    }

  g_array_unref (tm_analysis_sample (store, TM_XPROF_MAX_SNAPSHOTS));
  g_array_unref (tm_analysis_sample (store, 3));
}

char *
tm_fuzz_exercise (TmProfile *profile,
                  guint     *n_replaced)
{
  guint n = tm_profile_get_n_memory_ids (profile);
  guint n_summary = 0;
  g_autofree char *summary = NULL;
  g_autofree char *csv = NULL;
  char *json;

  for (guint i = 0; i < n; i++)
    exercise_store (tm_profile_get_memory_store (profile, i), tm_profile_get_analysis (profile, i));

  json = export (profile, 0, n_replaced);
  tm_fuzz_check (g_utf8_validate (json, -1, NULL));
  summary = export (profile, 1, &n_summary);
  tm_fuzz_check (g_utf8_validate (summary, -1, NULL));
  if (n > 0)
    csv = export (profile, 2, NULL);
  return json;
}

void
tm_fuzz_summaries (const uint8_t *data,
                   size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) lenient_error = NULL;
  g_autoptr(GPtrArray) summaries = tm_run_summaries_parse ((const char *) data, size, &error);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) lenient = tm_summaries_read ((const char *) data, size, problems, &lenient_error);

  /* Going on past bad lines: the same hosts when there is none, else the
   * first bad line's message first; hosts in line order. */
  tm_fuzz_check ((lenient == NULL) == (lenient_error != NULL));
  if (summaries != NULL)
    tm_fuzz_check (lenient != NULL && lenient->len == summaries->len && problems->len == 0);
  else if (lenient != NULL)
    tm_fuzz_check (problems->len > 0 && g_str_equal (g_ptr_array_index (problems, 0), error->message));
  for (guint i = 0; lenient != NULL && i < lenient->len; i++)
    tm_fuzz_check (i == 0 || ((const TmHostSummary *) g_ptr_array_index (lenient, i - 1))->line <
                             ((const TmHostSummary *) g_ptr_array_index (lenient, i))->line);

  if (summaries == NULL)
    {
      tm_fuzz_check (error != NULL);
      tm_fuzz_check (error->message != NULL && error->message[0] != '\0');
      tm_fuzz_check (g_utf8_validate (error->message, -1, NULL));
      return;
    }
  tm_fuzz_check (error == NULL);
  tm_fuzz_check (summaries->len > 0);
  for (guint i = 0; i < summaries->len; i++)
    {
      const TmHostSummary *summary = g_ptr_array_index (summaries, i);
      int busiest = tm_host_summary_get_busiest (summary);

      tm_fuzz_check (summary->host != NULL && g_utf8_validate (summary->host, -1, NULL));
      tm_fuzz_check (summary->file == NULL || g_utf8_validate (summary->file, -1, NULL));
      tm_fuzz_check (summary->devices != NULL);
      tm_fuzz_check (summary->error == NULL || summary->devices->len == 0);
      tm_fuzz_check (busiest >= -1 && busiest < (int) summary->devices->len);
      tm_fuzz_check ((busiest == -1) == (summary->devices->len == 0));
      for (guint d = 0; d < summary->devices->len; d++)
        {
          const TmRunDevice *device = g_ptr_array_index (summary->devices, d);

          tm_fuzz_check (device->memory_id != NULL && g_utf8_validate (device->memory_id, -1, NULL));
          tm_fuzz_check (d == 0 || strcmp (((const TmRunDevice *) g_ptr_array_index (summary->devices, d - 1))->memory_id,
                                           device->memory_id) < 0);
          tm_fuzz_check (device->peak_bytes >= 0 && device->capacity >= 0);
          tm_fuzz_check (device->sparkline != NULL && device->sparkline->len <= TM_RUN_SPARKLINE_POINTS);
        }
    }
}

void
tm_fuzz_memory_only_round_trip (const uint8_t *data,
                                size_t         size)
{
  g_autoptr(GError) error = NULL;

  if (!tm_xspace_writer_round_trip (tm_fuzz_write_input (data, size), &error))
    {
      g_printerr ("memory-only round trip: %s\n", error != NULL ? error->message : "(no message)");
      abort ();
    }
  tm_fuzz_check (error == NULL);
}

static gboolean
same_double (double a,
             double b)
{
  return (a != a && b != b) || memcmp (&a, &b, sizeof a) == 0 || a == b;
}

static void
compare_round_trip (TmProfile *a,
                    TmProfile *b)
{
  tm_fuzz_check (tm_profile_get_n_memory_ids (a) == tm_profile_get_n_memory_ids (b));
  for (guint i = 0; i < tm_profile_get_n_memory_ids (a); i++)
    {
      TmMemoryStore *sa = tm_profile_get_memory_store (a, i);
      TmMemoryStore *sb = tm_profile_get_memory_store (b, i);
      const TmSummary *x = tm_memory_store_get_summary (sa);
      const TmSummary *y = tm_memory_store_get_summary (sb);
      GPtrArray *ra = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (a, i));
      GPtrArray *rb = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (b, i));

      tm_fuzz_check (strcmp (tm_memory_store_get_id (sa), tm_memory_store_get_id (sb)) == 0);
      tm_fuzz_check (x->peak_bytes_in_use == y->peak_bytes_in_use);
      tm_fuzz_check (x->peak_time_ps == y->peak_time_ps);
      tm_fuzz_check (x->memory_capacity == y->memory_capacity);
      tm_fuzz_check (x->peak_bytes_usage_lifetime == y->peak_bytes_usage_lifetime);
      tm_fuzz_check (x->peak_stack_bytes == y->peak_stack_bytes);
      tm_fuzz_check (x->peak_heap_bytes == y->peak_heap_bytes);
      tm_fuzz_check (x->peak_free_bytes == y->peak_free_bytes);
      tm_fuzz_check (same_double (x->peak_fragmentation, y->peak_fragmentation));
      tm_fuzz_check (ra->len == rb->len);
      for (guint r = 0; r < ra->len; r++)
        {
          const TmBreakdownRow *p = g_ptr_array_index (ra, r);
          const TmBreakdownRow *q = g_ptr_array_index (rb, r);

          tm_fuzz_check (strcmp (p->op_name, q->op_name) == 0);
          tm_fuzz_check (p->allocation_bytes == q->allocation_bytes);
          tm_fuzz_check (p->requested_bytes == q->requested_bytes);
          tm_fuzz_check (p->n_occurrences == q->n_occurrences);
          tm_fuzz_check (p->special == q->special);
        }
    }
}

/* Loads data; a profile that loads is exported as XProf JSON and read
 * again: the export must load, and, when no name had to be replaced
 * (docs/formats.md, section 1.10), with the same memory ids, summaries
 * and breakdown rows. */
void
tm_fuzz_json_round_trip (const uint8_t *data,
                         size_t         size)
{
  g_autoptr(TmProfile) profile = tm_fuzz_load (data, size);
  g_autoptr(TmProfile) again = NULL;
  g_autofree char *json = NULL;
  guint n_replaced = 0;

  if (profile == NULL)
    return;

  json = tm_fuzz_exercise (profile, &n_replaced);
  again = tm_fuzz_load ((const uint8_t *) json, strlen (json));
  tm_fuzz_check (again != NULL);
  /* A NUL kept in a name is written as \u0000 and read back whole
   * (docs/formats.md, section 2); a name with invalid UTF-8 is not. */
  if (n_replaced == 0)
    compare_round_trip (profile, again);
}

/* Loads path with the XSpace reader's options (tm-xspace-reader-private.h). */
static TmProfile *
load_with (const char                *path,
           const TmXSpaceReadOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  TmProfile *profile;

  file = g_file_new_for_path (path);
  profile = tm_profile_load_with_options (file, options, NULL, &error);
  tm_fuzz_check (profile != NULL || (error != NULL && error->message[0] != '\0'));
  return profile;
}

/* The same snapshots, column by column, and the same exports. */
static void
compare_loads (TmProfile *a,
               TmProfile *b)
{
  g_autofree char *summary_a = export (a, 1, NULL);
  g_autofree char *summary_b = export (b, 1, NULL);
  g_autofree char *xprof_a = export (a, 0, NULL);
  g_autofree char *xprof_b = export (b, 0, NULL);

  tm_fuzz_check (strcmp (summary_a, summary_b) == 0);
  tm_fuzz_check (strcmp (xprof_a, xprof_b) == 0);
  tm_fuzz_check (tm_profile_get_n_memory_ids (a) == tm_profile_get_n_memory_ids (b));
  for (guint i = 0; i < tm_profile_get_n_memory_ids (a); i++)
    {
      TmMemoryStore *sa = tm_profile_get_memory_store (a, i);
      TmMemoryStore *sb = tm_profile_get_memory_store (b, i);
      guint n = tm_memory_store_get_n_snapshots (sa);
      gsize bytes8 = (gsize) n * sizeof (gint64);

      tm_fuzz_check (n == tm_memory_store_get_n_snapshots (sb));
      if (n == 0)
        continue;
      tm_fuzz_check (memcmp (tm_memory_store_get_times (sa), tm_memory_store_get_times (sb), bytes8) == 0);
      tm_fuzz_check (memcmp (tm_memory_store_get_stack (sa), tm_memory_store_get_stack (sb), bytes8) == 0);
      tm_fuzz_check (memcmp (tm_memory_store_get_heap (sa), tm_memory_store_get_heap (sb), bytes8) == 0);
      tm_fuzz_check (memcmp (tm_memory_store_get_free (sa), tm_memory_store_get_free (sb), bytes8) == 0);
      tm_fuzz_check (memcmp (tm_memory_store_get_fragmentation (sa), tm_memory_store_get_fragmentation (sb), bytes8) == 0);
      tm_fuzz_check (memcmp (tm_memory_store_get_partners (sa), tm_memory_store_get_partners (sb),
                             (gsize) n * sizeof (guint32)) == 0);
      for (guint k = 0; k < n; k++)
        {
          tm_fuzz_check (tm_memory_store_get_kind (sa, k) == tm_memory_store_get_kind (sb, k));
          tm_fuzz_check (tm_memory_store_get_step_id (sa, k) == tm_memory_store_get_step_id (sb, k));
        }
    }
}

void
tm_fuzz_two_threads (const uint8_t *data,
                     size_t         size)
{
  g_autoptr(TmProfile) one = NULL;
  g_autoptr(TmProfile) two = NULL;
  g_autoptr(TmProfile) cut = NULL;
  const TmXSpaceReadOptions one_thread = { G_MAXSIZE, FALSE };
  const TmXSpaceReadOptions two_threads = { 0, FALSE };
  const TmXSpaceReadOptions two_cut = { 0, TRUE };
  const char *path = tm_fuzz_write_input (data, size);

  one = load_with (path, &one_thread);
  two = load_with (path, &two_threads);
  cut = load_with (path, &two_cut);

  /* The file reads the same, or fails, whichever way it is split. */
  tm_fuzz_check ((one != NULL) == (two != NULL));
  tm_fuzz_check ((one != NULL) == (cut != NULL));
  if (one == NULL)
    return;
  compare_loads (one, two);
  compare_loads (one, cut);
}

/* ------------------------------------------------------------------ */
/* fuzz-hlo                                                           */
/* ------------------------------------------------------------------ */

static void
check_buffer_assignment (const TmBufferAssignment *r)
{
  gint64 max = 0;
  g_autofree guint8 *seen = g_malloc0 (r->max_heap->len + 1);
  g_autofree char *json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  TmMemoryViewerModule m = { "m", r->memory_space, r, NULL };

  if (r->heap_sizes->len != r->unpadded_heap_sizes->len || r->heap_sizes->len != r->instruction_names->len)
    abort ();
  if (r->heap_sizes->len != 0 && r->heap_sizes->len != (guint) r->n_trace_events + 1)
    abort ();
  for (guint i = 0; i < r->heap_sizes->len; i++)
    max = MAX (max, g_array_index (r->heap_sizes, gint64, i));
  if (max != r->peak_heap)
    abort ();
  /* The orders are permutations of the objects at the peak. */
  for (guint i = 0; i < r->by_size->len; i++)
    {
      guint k = g_array_index (r->by_size, guint, i);

      if (k >= r->max_heap->len || seen[k]++)
        abort ();
    }
  if (r->by_size->len != r->max_heap->len || r->by_padding->len != r->max_heap->len)
    abort ();

  json = tm_memory_viewer_json ("f", &m, 1, NULL);
  if (!g_utf8_validate (json, -1, NULL) || !json_parser_load_from_data (parser, json, -1, NULL))
    abort ();
}

void
tm_fuzz_hlo (const uint8_t *data,
             size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHloProto) proto = tm_hlo_proto_decode (data, size, "fuzzed(1)", &error);
  g_autoptr(GArray) spaces = NULL;

  if (proto == NULL)
    {
      if (error == NULL || strstr (error->message, "fuzzed(1)") == NULL)
        abort ();
      return;
    }

  spaces = tm_buffer_assignment_memory_spaces (proto);
  for (gint64 extra = 0; extra <= 1; extra++)
    g_array_append_val (spaces, extra);
  for (guint i = 0; i < spaces->len && i < 8; i++)
    {
      g_autoptr(GError) local = NULL;
      gint64 space = g_array_index (spaces, gint64, i);
      g_autoptr(TmBufferAssignment) r =
        tm_buffer_assignment_compute (proto, "fuzzed(1)", space, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE,
                                      NULL, &local);

      if (r == NULL)
        {
          if (local == NULL || strstr (local->message, "fuzzed(1)") == NULL)
            abort ();
          continue;
        }
      if (tm_buffer_assignment_count_trace_events (proto, space) != r->n_trace_events)
        abort ();
      check_buffer_assignment (r);
    }
}

/* ------------------------------------------------------------------ */
/* fuzz-pickle                                                        */
/* ------------------------------------------------------------------ */

/* Visits value and what it holds, depth first, to depth 8 and at most
 * *budget values (a list may hold itself). */
static void
walk_pickle (TmPickle      *p,
             TmPickleValue  value,
             guint          depth,
             guint         *budget)
{
  TmPickleKind kind = tm_pickle_kind (p, value);
  const TmPickleValue *items;
  gsize n, len;
  gint64 i;
  guint64 u;
  double d;

  if (*budget == 0 || depth > 8)
    return;
  (*budget)--;
  tm_fuzz_check (tm_pickle_kind_name (kind) != NULL);
  switch (kind)
    {
    case TM_PICKLE_INT:
    case TM_PICKLE_BOOL:
      tm_fuzz_check (tm_pickle_get_int (p, value, &i));
      tm_fuzz_check (tm_pickle_get_double (p, value, &d));
      break;
    case TM_PICKLE_UINT:
      tm_fuzz_check (tm_pickle_get_uint (p, value, &u) && u > (guint64) G_MAXINT64);
      break;
    case TM_PICKLE_STRING:
      tm_fuzz_check (tm_pickle_get_string (p, value, &len) != NULL);
      tm_fuzz_check (g_utf8_validate (tm_pickle_get_string (p, value, NULL), (gssize) len, NULL));
      break;
    case TM_PICKLE_BYTES:
      tm_fuzz_check (tm_pickle_get_string (p, value, &len) != NULL);
      break;
    case TM_PICKLE_LIST:
    case TM_PICKLE_TUPLE:
      items = tm_pickle_get_items (p, value, &n);
      tm_fuzz_check (n == tm_pickle_get_length (p, value));
      for (gsize k = 0; k < n; k++)
        walk_pickle (p, items[k], depth + 1, budget);
      break;
    case TM_PICKLE_DICT:
      n = tm_pickle_dict_size (p, value);
      for (gsize k = 0; k < n; k++)
        {
          TmPickleValue key, v, found;
          const char *s;

          tm_fuzz_check (tm_pickle_dict_item (p, value, k, &key, &v));
          /* A string key finds its last value. */
          if ((s = tm_pickle_get_string (p, key, &len)) != NULL && tm_pickle_kind (p, key) == TM_PICKLE_STRING &&
              memchr (s, 0, len) == NULL)
            {
              g_autofree char *name = g_strndup (s, len);

              tm_fuzz_check (tm_pickle_dict_lookup (p, value, name, &found));
            }
          walk_pickle (p, key, depth + 1, budget);
          walk_pickle (p, v, depth + 1, budget);
        }
      {
        TmPickleValue key, v;

        tm_fuzz_check (!tm_pickle_dict_item (p, value, n, &key, &v));
      }
      break;
    default:
      break;
    }
}

void
tm_fuzz_pickle (const uint8_t *data,
                size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmPickle) p = tm_pickle_read (data, size, &error);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmTorchSnapshot) snap = NULL;
  guint budget = 100000;

  if (p == NULL)
    tm_fuzz_check (error != NULL && error->message[0] != '\0');
  else
    walk_pickle (p, tm_pickle_get_root (p), 0, &budget);
  g_clear_error (&error);

  bytes = g_bytes_new (data, size);
  source = tm_source_new_from_bytes (bytes, "fuzz.pickle");
  snap = tm_torch_snapshot_read (source, NULL, &error);
  if (snap == NULL)
    {
      tm_fuzz_check (error != NULL && error->message[0] != '\0');
      return;
    }
  {
    g_autoptr(GString) out = g_string_new (NULL);

    tm_torch_export_summary_json (snap, "fuzz.pickle", "/fuzz.pickle", out);
    tm_fuzz_check (g_utf8_validate (out->str, (gssize) out->len, NULL));
  }
  for (guint dev = 0; dev < tm_torch_snapshot_get_n_devices (snap); dev++)
    {
      const TmTorchFigures *f = tm_torch_snapshot_get_figures (snap, dev);
      g_autoptr(GArray) live = tm_torch_snapshot_live_at_peak (snap, dev);
      g_autoptr(GString) csv = g_string_new (NULL);
      const TmTorchAllocation *allocs;
      g_autofree char *lines = NULL;
      g_autofree char *seg_lines = NULL;
      gboolean small = TRUE;
      gint64 sum = 0;
      guint n;

      allocs = tm_torch_snapshot_get_allocations (snap, dev, &n);
      tm_fuzz_check (n == f->n_timeline_allocations);
      tm_fuzz_check (live->len == f->n_live_at_peak);
      tm_fuzz_check (f->n_never_freed_traced <= f->n_never_freed);
      tm_fuzz_check (f->peak_index >= -1 && f->peak_index < (gint64) f->n_entries);
      for (guint k = 0; k < n; k++)
        small &= allocs[k].bytes >= 0 && allocs[k].bytes < ((gint64) 1 << 40);
      for (guint r = 0; r < live->len; r++)
        sum += allocs[g_array_index (live, guint, r)].bytes;
      if (small && n < (1u << 20))
        tm_fuzz_check (sum == f->peak_bytes);
      lines = tm_torch_export_collapsed (snap, dev, FALSE);
      seg_lines = tm_torch_export_collapsed (snap, dev, TRUE);
      tm_fuzz_check (lines != NULL && seg_lines != NULL);
      tm_torch_export_breakdown_csv (snap, dev, csv);
      tm_torch_export_allocations_csv (snap, dev, csv);
    }
}
