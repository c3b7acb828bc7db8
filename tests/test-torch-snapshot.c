/* test-torch-snapshot.c — PyTorch memory snapshots give PyTorch's figures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The two real snapshots in $TM_REAL_PROFILES against the figures PyTorch's
 * own tools give (expected/NAME.summary.json and NAME.collapsed.ID.txt; skipped
 * when the variable is unset, a missing file fails); small snapshots
 * written by Python's pickle module at test time (TM_PYTHON, protocols 2
 * to 5) for each rule of docs/pytorch.md; hostile pickles refused by the
 * command line.
 */
#include "config.h"

#include <string.h>
#include <zlib.h>
#include <json-glib/json-glib.h>

#include "tm-allocations.h"
#include "tm-analysis.h"
#include "tm-error.h"
#include "tm-scopes.h"
#include "tm-torch-export.h"
#include "tm-torch-snapshot-private.h"
#include "tm-torch-stores.h"
#include "tm-test-util.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */

static JsonNode *
parse_text (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* Every member of want is in got with the same value (got may have more). */
static void
assert_contains (JsonNode   *got,
                 JsonNode   *want,
                 const char *where)
{
  if (JSON_NODE_HOLDS_OBJECT (want))
    {
      JsonObject *w = json_node_get_object (want);
      g_autoptr(GList) members = json_object_get_members (w);

      g_assert_true (JSON_NODE_HOLDS_OBJECT (got));
      for (GList *m = members; m != NULL; m = m->next)
        {
          g_autofree char *sub = g_strdup_printf ("%s.%s", where, (const char *) m->data);
          JsonNode *g = json_object_get_member (json_node_get_object (got), m->data);

          if (g == NULL)
            g_error ("%s is missing", sub);
          assert_contains (g, json_object_get_member (w, m->data), sub);
        }
    }
  else if (!json_node_equal (got, want))
    {
      g_autofree char *a = json_to_string (got, FALSE);
      g_autofree char *b = json_to_string (want, FALSE);

      g_error ("%s is %s, PyTorch's figure is %s", where, a, b);
    }
}

static TmTorchSnapshot *
read_bytes (GBytes  *bytes,
            GError **error)
{
  g_autoptr(TmSource) source = tm_source_new_from_bytes (bytes, "test.pickle");

  return tm_torch_snapshot_read (source, NULL, error);
}

/* ------------------------------------------------------------------ */
/* Real snapshots                                                       */

static void
check_real (const char *name,
            const char *memory_id)
{
  g_autofree char *file = g_strconcat (name, ".pickle", NULL);
  g_autofree char *path = tm_test_real_profile (file);
  g_autofree char *summary_name = g_strconcat ("expected/", name, ".summary.json", NULL);
  g_autofree char *collapsed_name = g_strdup_printf ("expected/%s.collapsed.%s.txt", name, memory_id);
  g_autofree char *summary_path = NULL;
  g_autofree char *collapsed_path = NULL;
  g_autofree char *want_text = NULL;
  g_autofree char *want_lines = NULL;
  g_autofree char *id_arg = g_strconcat ("--memory-id=", memory_id, NULL);
  g_autoptr(JsonNode) got = NULL;
  g_autoptr(JsonNode) want = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(TmTestRun) json = { 0 };
  g_auto(TmTestRun) collapsed = { 0 };
  JsonObject *mem;
  JsonArray *rows;
  gint64 sum = 0;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  summary_path = tm_test_real_profile (summary_name);
  collapsed_path = tm_test_real_profile (collapsed_name);

  tm_test_run_cli (&json, NULL, "--summary", "--json", path, NULL);
  g_assert_cmpint (json.status, ==, 0);
  g_assert_cmpstr (json.err, ==, "");
  got = parse_text (json.out);
  g_assert_true (g_file_get_contents (summary_path, &want_text, NULL, &error));
  g_assert_no_error (error);
  want = parse_text (want_text);
  assert_contains (got, want, "$");

  /* What is live at the peak adds up to the peak. */
  mem = json_object_get_object_member (json_object_get_object_member (json_node_get_object (got), "memory"),
                                       memory_id);
  rows = json_object_get_array_member (mem, "breakdown");
  for (guint i = 0; i < json_array_get_length (rows); i++)
    sum += json_object_get_int_member (json_array_get_object_element (rows, i), "bytes");
  g_assert_cmpint (sum, ==, json_object_get_int_member (mem, "peak_bytes_in_use"));
  g_assert_cmpint (json_array_get_length (rows), ==, json_object_get_int_member (mem, "num_live_at_peak"));

  /* The collapsed stacks of `_memory_viz.py memory`, byte for byte. */
  tm_test_run_cli (&collapsed, NULL, "--export=collapsed", id_arg, path, NULL);
  g_assert_cmpint (collapsed.status, ==, 0);
  g_assert_true (g_file_get_contents (collapsed_path, &want_lines, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (collapsed.out, ==, want_lines);
}

static void
test_real_cs336 (void)
{
  check_real ("pytorch_cs336_memory_snapshot", "0");
}

static void
test_real_select_n (void)
{
  check_real ("pytorch_select_n_snapshot", "1");
}

/* The same snapshot gzip-compressed reads the same. */
static void
test_real_gzip (void)
{
  g_autofree char *path = tm_test_real_profile ("pytorch_cs336_memory_snapshot.pickle");
  g_autofree char *data = NULL;
  g_autofree char *gz_path = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(TmTestRun) plain = { 0 };
  g_auto(TmTestRun) packed = { 0 };
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;
  gsize len;
  gzFile gz;
  int fd;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  fd = g_file_open_tmp ("tm-snapshot-XXXXXX.pickle.gz", &gz_path, &error);
  g_assert_no_error (error);
  gz = gzdopen (fd, "wb");
  g_assert_cmpint (gzwrite (gz, data, (unsigned) len), ==, (int) len);
  g_assert_cmpint (gzclose (gz), ==, Z_OK);

  tm_test_run_cli (&plain, NULL, "--summary", "--json", path, NULL);
  tm_test_run_cli (&packed, NULL, "--summary", "--json", gz_path, NULL);
  g_unlink (gz_path);
  g_assert_cmpint (packed.status, ==, 0);
  a = parse_text (plain.out);
  b = parse_text (packed.out);
  json_object_remove_member (json_node_get_object (a), "input");
  json_object_remove_member (json_node_get_object (a), "file");
  json_object_remove_member (json_node_get_object (b), "input");
  json_object_remove_member (json_node_get_object (b), "file");
  g_assert_true (json_node_equal (a, b));
}

/* A .pickle.gz follows the rules of every gzip file Tidemark reads
 * (docs/formats.md, "Hostile input"): one member, nothing after it, within
 * the limit, and a pickle inside. The snapshot reader and the profile
 * loader say the same. */
static GBytes *
joined (GBytes       *a,
        const guint8 *b,
        gsize         n)
{
  GByteArray *out = g_byte_array_new ();

  g_byte_array_append (out, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (out, b, n);
  return g_byte_array_free_to_bytes (out);
}

static void
test_gzip_rules (void)
{
  g_autoptr(GBytes) plain = tm_test_python_pickle ("{'segments': [], 'device_traces': "
                                           "[[{'action': 'alloc', 'addr': 16, 'size': 4, 'stream': 0}]]}", 4);
  g_autoptr(GBytes) gz = tm_test_gzip_bytes (g_bytes_get_data (plain, NULL), g_bytes_get_size (plain));
  gsize gz_len = g_bytes_get_size (gz);
  g_autoptr(GBytes) junk = joined (gz, (const guint8 *) "", 1);
  g_autoptr(GBytes) two = joined (gz, g_bytes_get_data (gz, NULL), gz_len);
  g_autoptr(GBytes) text = tm_test_gzip_bytes ("not a pickle", 12);
  g_autofree char *trailing = g_strdup_printf ("1 byte of trailing data after the gzip stream, at byte %zu", gz_len);
  g_autofree char *second = g_strdup_printf ("a second gzip member starts at byte %zu", gz_len);
  /* The last is no snapshot to the picker: gzip of anything but a pickle
   * is read as JSON (docs/formats.md, "Which reader reads a file"). */
  const struct { GBytes *bytes; const char *says; gboolean snapshot; } cases[] = {
    { junk, trailing, TRUE },
    { two, second, TRUE },
    { text, "the compressed file does not hold a pickle of protocol 2 to 5", FALSE },
  };

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(TmTorchSnapshot) snap = read_bytes (gz, &error);

    g_assert_no_error (error);
    g_assert_cmpint (tm_torch_snapshot_get_figures (snap, 0)->peak_bytes, ==, 4);
  }

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) profile_error = NULL;
      g_autoptr(TmTorchSnapshot) snap = read_bytes (cases[i].bytes, &error);
      g_autoptr(TmProfile) profile = tm_test_load_bytes (cases[i].bytes, "snap.pickle.gz", &profile_error);

      g_assert_null (snap);
      g_assert_error (error, TM_ERROR, TM_ERROR_INVALID);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("“%s” lacks “%s”", error->message, cases[i].says);
      g_assert_null (profile);
      if (cases[i].snapshot)
        {
          g_assert_error (profile_error, TM_ERROR, TM_ERROR_INVALID);
          g_assert_cmpstr (profile_error->message, ==, error->message);
        }
    }
}

/* ------------------------------------------------------------------ */
/* The rules, on small snapshots                                        */

/* Device 0's trace:
 *   0 alloc A (100)           v = 50 (live from the start) + 100
 *   1 free_requested B        the free of a block allocated before the trace
 *   2 free_completed B (30)   size from entry 1 (requested 50, completed 30)
 *   3 alloc C (200)           peak: 50 + 100 - 50 + 200 + 70 (ghost) = 370
 *   4 alloc C again (10)      the first C stays live for ever
 *   5 segment_alloc (1024)
 *   6 free_completed C        ends the second C
 *   7 oom
 *   8 segment_free (512)
 * plus a ghost: an active_allocated block of 70 requested bytes at an
 * address no live alloc has; its segment is 2048 bytes. The address of A
 * is above 2^63 (a LONG1 of 9 bytes). */
#define RULES_SNAPSHOT                                                                   \
  "{'segments': [{'device': 0, 'address': 4096, 'total_size': 2048, 'stream': 7,"       \
  "  'segment_pool_id': (0, 0), 'blocks': ["                                             \
  "    {'address': 4096, 'size': 512, 'requested_size': 70, 'state': 'active_allocated',"\
  "     'frames': [{'name': 'inner', 'filename': '/a/b/model.py', 'line': 3},"           \
  "                {'name': 'PyEval_Frame', 'filename': 'x.c', 'line': 1},"              \
  "                {'name': 'outer', 'filename': 'main.py', 'line': 9}]},"               \
  "    {'address': 4608, 'size': 1536, 'requested_size': 0, 'state': 'inactive', 'frames': []}]}],"\
  " 'device_traces': [[{'action': 'alloc', 'addr': 2**64 - 512, 'size': 100, 'stream': 7, 'time_us': 10},"\
  "   {'action': 'free_requested', 'addr': 8192, 'size': 50, 'stream': 7, 'time_us': 11},"\
  "   {'action': 'free_completed', 'addr': 8192, 'size': 30, 'stream': 7, 'time_us': 12},"\
  "   {'action': 'alloc', 'addr': 12288, 'size': 200, 'stream': 7, 'time_us': 13},"     \
  "   {'action': 'alloc', 'addr': 12288, 'size': 10, 'stream': 7, 'time_us': 14},"      \
  "   {'action': 'segment_alloc', 'addr': 65536, 'size': 1024, 'stream': 7, 'time_us': 15},"\
  "   {'action': 'free_completed', 'addr': 12288, 'size': 10, 'stream': 7, 'time_us': 16},"\
  "   {'action': 'oom', 'device_free': 5, 'size': 4096, 'stream': 7, 'time_us': 17},"   \
  "   {'action': 'segment_free', 'addr': 65536, 'size': 512, 'stream': 7, 'time_us': 18}],"\
  "  [], []]}"

static void
test_rules (void)
{
  for (guint protocol = 2; protocol <= 5; protocol++)
    {
      g_autoptr(GBytes) bytes = tm_test_python_pickle (RULES_SNAPSHOT, protocol);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTorchSnapshot) snap = read_bytes (bytes, &error);
      g_autoptr(GArray) live = NULL;
      g_autofree char *stack = NULL;
      g_autofree char *lines = NULL;
      const TmTorchFigures *f;
      const TmTorchAllocation *allocs;
      gint64 t = 0;
      guint n;

      g_assert_no_error (error);
      g_assert_cmpuint (tm_torch_snapshot_get_protocol (snap), ==, protocol);
      /* Devices 1 and 2 have empty traces and no segments: one memory id. */
      g_assert_cmpuint (tm_torch_snapshot_get_n_devices (snap), ==, 1);
      g_assert_cmpstr (tm_torch_snapshot_get_device_id (snap, 0), ==, "0");
      f = tm_torch_snapshot_get_figures (snap, 0);

      g_assert_cmpuint (f->n_entries, ==, 9);
      g_assert_true (f->has_time);
      g_assert_cmpuint (f->n_allocations, ==, 3);
      g_assert_cmpuint (f->n_deallocations, ==, 2);
      g_assert_cmpuint (f->n_by_action[TM_TORCH_OOM], ==, 1);
      g_assert_cmpuint (f->n_initially_from_free, ==, 1);
      g_assert_cmpuint (f->n_initially_from_snapshot, ==, 1);
      g_assert_cmpint (f->initially_allocated_bytes, ==, 50 + 70);
      g_assert_cmpint (f->peak_bytes, ==, 120 + 100 - 50 + 200 + 10);
      g_assert_cmpint (f->peak_index, ==, 4);
      g_assert_true (tm_torch_snapshot_get_time (snap, 0, f->peak_index, &t));
      g_assert_cmpint (t, ==, 14);
      g_assert_cmpuint (f->n_live_at_peak, ==, 4);
      g_assert_cmpint (f->allocated_bytes_at_end, ==, 70 + 100 + 200);
      g_assert_cmpuint (f->n_never_freed, ==, 3);
      g_assert_cmpint (f->never_freed_bytes, ==, 370);
      g_assert_cmpuint (f->n_never_freed_traced, ==, 2);
      g_assert_cmpint (f->never_freed_traced_bytes, ==, 300);
      g_assert_false (f->end_matches_snapshot);
      /* Reserved: 2048 at the end, so 2048 - 1024 + 512 at the start. */
      g_assert_cmpint (f->reserved_bytes_at_start, ==, 1536);
      g_assert_cmpint (f->peak_reserved_bytes, ==, 2560);
      g_assert_cmpint (f->peak_reserved_index, ==, 5);
      g_assert_cmpint (f->reserved_bytes_at_end, ==, 2048);
      g_assert_cmpint (f->free_internal_bytes, ==, 512 - 70);
      g_assert_cmpint (f->free_external_bytes, ==, 1536);
      g_assert_cmpint (f->largest_inactive_block_bytes, ==, 1536);

      allocs = tm_torch_snapshot_get_allocations (snap, 0, &n);
      g_assert_cmpuint (n, ==, 5);
      live = tm_torch_snapshot_live_at_peak (snap, 0);
      g_assert_cmpuint (live->len, ==, 4);
      /* The largest first: the first C (200), A above 2^63 (100). */
      g_assert_cmpint (allocs[g_array_index (live, guint, 0)].bytes, ==, 200);
      g_assert_cmpuint (allocs[g_array_index (live, guint, 1)].address, ==, G_MAXUINT64 - 511);
      /* The ghost's stack: outermost first, the interpreter frame left
       * out, files without their folders. */
      for (guint k = 0; k < n; k++)
        if (allocs[k].origin == TM_TORCH_ORIGIN_SNAPSHOT)
          stack = tm_torch_snapshot_format_stack (snap, allocs[k].frames);
      g_assert_cmpstr (stack, ==, "main.py:9:outer;model.py:3:inner");

      lines = tm_torch_export_collapsed (snap, 0, FALSE);
      g_assert_cmpstr (lines, ==,
                       "stream_7;active_allocated;<gaps> 442\n"
                       "stream_7;active_allocated;main.py:9:outer;model.py:3:inner 70\n"
                       "stream_7;inactive;<gaps> 1536\n");
      g_clear_pointer (&lines, g_free);
      lines = tm_torch_export_collapsed (snap, 0, TRUE);
      g_assert_true (g_str_has_prefix (lines, "stream_7;seg_4096;active_allocated;<gaps> 442\n"));
    }
}

/* The allocation index takes a snapshot's names once per label key:
 * every allocation's address, bytes and names are still what decoding
 * its event gives. */
static void
assert_index_decodes (TmMemoryStore *store)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmAllocations) index = tm_allocations_new (store, NULL, &error);
  guint n_keyed = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < tm_allocations_get_n (index); i++)
    {
      const TmAllocation *a = tm_allocations_get (index, i);
      const TmAllocationLabel *label = tm_allocations_get_label (index, TM_ALLOCATION_LABEL (a));
      guint event = a->start != TM_ALLOCATIONS_OPEN ? a->start : a->end;
      TmActivity act;
      guint64 address, key;
      gint64 bytes;

      n_keyed += tm_memory_store_get_label_key (store, event, &address, &bytes, &key);
      g_assert_true (tm_memory_store_get_activity (store, event, &act, &error));
      g_assert_cmpuint (a->address, ==, act.address);
      g_assert_cmpint (TM_ALLOCATION_BYTES (a), ==, act.allocation_bytes);
      g_assert_cmpstr (label->op_name, ==, act.op_name);
      g_assert_cmpstr (label->region_type, ==, act.region_type);
      g_assert_cmpstr (label->data_type, ==, act.data_type);
      tm_activity_clear (&act);
    }
  g_assert_cmpuint (n_keyed, ==, tm_allocations_get_n (index));
}

/* The stores the views read: a snapshot per allocation live from the
 * start (at the first entry's time), then one per entry; the allocated
 * series as heap, reserved - allocated as free, stacks as scope paths. */
static void
test_stores (void)
{
  g_autoptr(GBytes) bytes = tm_test_python_pickle (RULES_SNAPSHOT, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTorchSnapshot) snap = read_bytes (bytes, &error);
  g_autoptr(GPtrArray) stores = NULL;
  g_autoptr(TmAnalysis) analysis = NULL;
  g_autoptr(TmAllocations) allocations = NULL;
  TmMemoryStore *store;
  const TmSummary *s;
  TmActivity a;
  const gint64 *heap;

  g_assert_no_error (error);
  stores = tm_torch_snapshot_build_stores (snap);
  g_assert_cmpuint (stores->len, ==, 1);
  store = g_ptr_array_index (stores, 0);
  g_assert_cmpstr (tm_memory_store_get_id (store), ==, "0");
  g_assert_true (tm_memory_store_finish (store, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tm_memory_store_is_complete (store));
  /* The free of B (50) and the block (70), then the 9 entries. */
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, 2 + 9);
  heap = tm_memory_store_get_heap (store);
  g_assert_cmpint (heap[0], ==, 50);
  g_assert_cmpint (heap[1], ==, 120);
  /* At time 0, a picosecond before the first entry (docs/pytorch.md, "In
   * the views"). */
  g_assert_cmpint (tm_memory_store_get_times (store)[0], ==, 0);
  g_assert_cmpint (tm_memory_store_get_times (store)[1], ==, 0);
  g_assert_cmpint (tm_memory_store_get_times (store)[2], ==, 1);
  g_assert_cmpint (heap[2], ==, 220);
  g_assert_cmpint (heap[2 + 4], ==, 380);
  g_assert_cmpint (heap[2 + 8], ==, 370);
  /* Reserved 2048 at the end: free is the rest. */
  g_assert_cmpint (tm_memory_store_get_free (store)[2 + 8], ==, 2048 - 370);
  s = tm_memory_store_get_summary (store);
  g_assert_cmpint (s->peak_bytes_in_use, ==, 380);
  /* The store's window peak is the last snapshot at the maximum (entry 5,
   * a segment_alloc that leaves it unchanged); PyTorch's is the first. */
  g_assert_cmpint (s->peak_time_ps, ==, 5000000);
  g_assert_cmpint (tm_memory_store_get_times (store)[2 + 8], ==, 8000000);
  /* The trace's 3 allocs and the 2 allocations live from the start. */
  g_assert_cmpuint (s->n_allocations, ==, 5);
  g_assert_cmpuint (s->n_deallocations, ==, 2);

  g_assert_true (tm_memory_store_get_activity (store, 2, &a, &error));
  g_assert_cmpuint (a.address, ==, G_MAXUINT64 - 511);
  g_assert_cmpint (a.requested_bytes, ==, 100);
  g_assert_cmpstr (a.op_name, ==, "<non-python>");
  g_assert_cmpstr (a.region_type, ==, "alloc");
  g_assert_cmpstr (a.shape, ==, "stream 7");
  tm_activity_clear (&a);
  /* The block live from the start, with its stack and its segment's
   * stream. */
  g_assert_true (tm_memory_store_get_activity (store, 1, &a, &error));
  g_assert_cmpint (tm_memory_store_get_kind (store, 1), ==, TM_ACTIVITY_ALLOCATION);
  g_assert_cmpuint (a.address, ==, 4096);
  g_assert_cmpint (a.requested_bytes, ==, 70);
  g_assert_cmpstr (a.op_name, ==, "main.py:9:outer/model.py:3:inner");
  g_assert_cmpstr (a.region_type, ==, "block at snapshot");
  g_assert_cmpstr (a.shape, ==, "stream 7");
  tm_activity_clear (&a);
  /* Its whole stack, every frame, innermost first; none for alloc A. */
  {
    g_autofree char *stack = tm_memory_store_get_call_stack (store, 1);
    g_autofree char *none = tm_memory_store_get_call_stack (store, 2);

    g_assert_cmpstr (stack, ==, "inner (/a/b/model.py:3)\nPyEval_Frame (x.c:1)\nouter (main.py:9)");
    g_assert_cmpstr (none, ==, "");
  }
  /* The free of B ends the allocation live from the start it found. */
  g_assert_cmpint (tm_memory_store_get_kind (store, 2 + 2), ==, TM_ACTIVITY_DEALLOCATION);
  g_assert_cmpuint (tm_memory_store_get_partners (store)[2 + 2], ==, 0);
  g_assert_true (tm_memory_store_get_activity (store, 0, &a, &error));
  g_assert_cmpstr (a.region_type, ==, "alloc not in trace");
  g_assert_cmpint (a.requested_bytes, ==, 50);
  tm_activity_clear (&a);

  analysis = tm_analysis_new (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tm_analysis_get_peak_breakdown (analysis));
  allocations = tm_allocations_new (store, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (allocations);
  assert_index_decodes (store);
}

/* What the table lists at the window's peak is what PyTorch's walk has
 * live there: an allocation a second alloc at its address left live, an
 * allocation live from the start whose address the trace used before
 * freeing it, and entries in the peak's microsecond after it
 * (docs/pytorch.md, "In the views"). */
#define PAIRING_SNAPSHOT                                                                 \
  "{'segments': [], 'device_traces': [["                                                  \
  "  {'action': 'alloc', 'addr': 4096, 'size': 100, 'stream': 0, 'time_us': 10},"         \
  "  {'action': 'alloc', 'addr': 4096, 'size': 200, 'stream': 0, 'time_us': 11},"         \
  "  {'action': 'free_requested', 'addr': 4096, 'size': 200, 'stream': 0, 'time_us': 12},"\
  "  {'action': 'free_completed', 'addr': 4096, 'size': 200, 'stream': 0, 'time_us': 12},"\
  "  {'action': 'alloc', 'addr': 8192, 'size': 50, 'stream': 0, 'time_us': 13},"          \
  "  {'action': 'free_completed', 'addr': 8192, 'size': 50, 'stream': 0, 'time_us': 14}," \
  "  {'action': 'alloc', 'addr': 12288, 'size': 1000, 'stream': 0, 'time_us': 16},"       \
  "  {'action': 'free_requested', 'addr': 12288, 'size': 1000, 'stream': 0, 'time_us': 16},"\
  "  {'action': 'free_completed', 'addr': 12288, 'size': 1000, 'stream': 0, 'time_us': 16},"\
  "  {'action': 'free_completed', 'addr': 8192, 'size': 30, 'stream': 0, 'time_us': 17}]]}"

static void
test_store_pairing (void)
{
  g_autoptr(GBytes) bytes = tm_test_python_pickle (PAIRING_SNAPSHOT, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTorchSnapshot) snap = read_bytes (bytes, &error);
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "pairing.pickle", &error);
  g_autoptr(GArray) live = NULL;
  const TmTorchAllocation *allocs;
  TmMemoryStore *store;
  GPtrArray *rows;
  gint64 want = 0, got = 0;
  guint n;

  g_assert_no_error (error);
  allocs = tm_torch_snapshot_get_allocations (snap, 0, &n);
  live = tm_torch_snapshot_live_at_peak (snap, 0);
  /* Live from the start (30), left live (100), the last alloc (1000). */
  g_assert_cmpuint (live->len, ==, 3);
  g_assert_cmpint (tm_torch_snapshot_get_figures (snap, 0)->peak_bytes, ==, 1130);

  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpint (tm_memory_store_get_summary (store)->peak_bytes_in_use, ==, 1130);
  rows = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0));
  g_assert_cmpuint (rows->len, ==, 3);
  for (guint i = 0; i < live->len; i++)
    {
      const TmTorchAllocation *a = &allocs[g_array_index (live, guint, i)];
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      /* Both largest first. */
      g_assert_cmpuint (row->address, ==, a->address);
      g_assert_cmpint (row->allocation_bytes, ==, a->bytes);
      g_assert_cmpstr (row->op_name, !=, "unused preallocated device memory");
      want += a->bytes;
      got += row->allocation_bytes;
    }
  g_assert_cmpint (got, ==, want);
  /* The store pairs as PyTorch: the allocation live from the start ends
   * at the free that found it, not at the free of the alloc between. */
  g_assert_cmpuint (tm_memory_store_get_partners (store)[0], ==, 1 + 9);
  g_assert_cmpuint (tm_memory_store_get_partners (store)[1 + 4], ==, 1 + 5);
  /* The allocation left live is never freed. */
  g_assert_cmpuint (tm_memory_store_get_partners (store)[1 + 0], ==, TM_MEMORY_STORE_NO_PARTNER);
}

/* The real snapshots as stores: the allocated peak is PyTorch's. */
static void
test_real_stores (void)
{
  const struct { const char *name; gint64 peak; guint n; } cases[] = {
    /* The entries, after the allocations live from the start. */
    { "pytorch_cs336_memory_snapshot.pickle", 13923997700, 229 + 5163 },
    /* No trace: the 179 blocks, everything live from the start. */
    { "pytorch_select_n_snapshot.pickle", 544460336, 179 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = tm_test_real_profile (cases[i].name);
      g_autoptr(TmSource) source = NULL;
      g_autoptr(TmTorchSnapshot) snap = NULL;
      g_autoptr(GPtrArray) stores = NULL;
      g_autoptr(GError) error = NULL;
      TmMemoryStore *store;

      if (path == NULL)
        {
          g_test_skip ("TM_REAL_PROFILES is not set");
          return;
        }
      source = tm_source_open (path, &error);
      g_assert_no_error (error);
      snap = tm_torch_snapshot_read (source, NULL, &error);
      g_assert_no_error (error);
      stores = tm_torch_snapshot_build_stores (snap);
      g_assert_cmpuint (stores->len, ==, 1);
      store = g_ptr_array_index (stores, 0);
      g_assert_true (tm_memory_store_finish (store, NULL, &error));
      g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, cases[i].n);
      g_assert_cmpint (tm_memory_store_get_summary (store)->peak_bytes_in_use, ==, cases[i].peak);
      assert_index_decodes (store);
    }
}

/* The profile loader opens snapshots (plain and gzip) as it opens XSpace
 * files: one memory id per device, analysed. */
static void
test_real_profile (void)
{
  g_autofree char *path = tm_test_real_profile ("pytorch_cs336_memory_snapshot.pickle");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  TmAnalysis *analysis;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (tm_profile_get_format (profile), ==, TM_INPUT_FORMAT_TORCH_SNAPSHOT);
  g_assert_false (tm_profile_get_features (profile) & TM_INPUT_HAS_XPROF_JSON_EXPORT);
  g_assert_false (tm_profile_get_features (profile) & TM_INPUT_HAS_MEMORY_ONLY_EXPORT);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 1);
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 0)), ==, "0");
  analysis = tm_profile_get_analysis (profile, 0);
  g_assert_nonnull (analysis);
  g_assert_cmpint (tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0))->peak_bytes_in_use,
                   ==, 13923997700);
  g_assert_nonnull (tm_profile_lookup_allocations (profile, tm_profile_get_memory_store (profile, 0)));
}

/* The scope view by stack frame at the peak, as collapsed stacks (what the
 * window exports), is PyTorch's stacks of what is live at its peak
 * (docs/pytorch.md, "Collapsed stacks"), summed per stack: the stores'
 * pairing keys make XProf's table at the peak keep every allocation
 * PyTorch keeps, those a second alloc at their address left live
 * included (this file has two). */
static void
test_real_scopes (void)
{
  g_autofree char *path = tm_test_real_profile ("pytorch_cs336_memory_snapshot.pickle");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmTorchSnapshot) snap = NULL;
  g_autoptr(TmScopeTree) tree = NULL;
  g_autoptr(GArray) live = NULL;
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) got = g_string_new (NULL);
  g_autoptr(GString) want = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const TmTorchAllocation *allocs;
  GHashTableIter iter;
  gpointer key, value;
  guint n;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  tree = tm_scope_tree_new_at (tm_profile_get_analysis (profile, 0), TRUE, 0, TM_SCOPE_GROUPING_NAME);
  tm_scope_tree_append_collapsed (tree, got);

  source = tm_source_open (path, &error);
  snap = tm_torch_snapshot_read (source, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_torch_snapshot_get_figures (snap, 0)->n_never_freed_traced, ==, 2);
  allocs = tm_torch_snapshot_get_allocations (snap, 0, &n);
  live = tm_torch_snapshot_live_at_peak (snap, 0);
  for (guint i = 0; i < live->len; i++)
    {
      const TmTorchAllocation *a = &allocs[g_array_index (live, guint, i)];
      char *stack = tm_torch_snapshot_format_stack (snap, a->frames);
      gint64 *sum = g_hash_table_lookup (sums, stack);

      if (sum == NULL)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (sums, stack, sum);
        }
      else
        g_free (stack);
      *sum += a->bytes;
    }
  g_hash_table_iter_init (&iter, sums);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_ptr_array_add (lines, g_strdup_printf ("%s %" G_GINT64_FORMAT "\n", (char *) key, *(gint64 *) value));
  g_ptr_array_sort (lines, tm_test_compare_strings);
  for (guint i = 0; i < lines->len; i++)
    g_string_append (want, g_ptr_array_index (lines, i));
  g_assert_cmpuint (lines->len, >, 10);
  g_assert_cmpstr (got->str, ==, want->str);
}

/* A hostile pickle fails the profile loader with the same message. */
static void
test_profile_refuses (void)
{
  static const guint8 h[] = { 0x80, 4, 0x8c, 1, 'a', 0x8c, 1, 'b', 0x93, '.' };
  g_autoptr(GBytes) bytes = g_bytes_new_static (h, sizeof h);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "hostile.pickle", &error);

  g_assert_null (profile);
  g_assert_error (error, TM_ERROR, TM_ERROR_UNSAFE);
  g_assert_nonnull (strstr (error->message, "STACK_GLOBAL at byte 8 "));
}

/* Without time_us the axis is the entry index; a snapshot of bare segments
 * (the legacy form) reads too. */
static void
test_no_time_and_legacy (void)
{
  g_autoptr(GBytes) a = tm_test_python_pickle ("{'segments': [], 'device_traces': [[], "
                                       "[{'action': 'alloc', 'addr': 16, 'size': 4, 'stream': 0}]]}", 4);
  g_autoptr(GBytes) b = tm_test_python_pickle ("[{'device': 2, 'address': 0, 'total_size': 10, 'stream': 0,"
                                       " 'blocks': [{'size': 10, 'state': 'active_allocated',"
                                       " 'history': [{'real_size': 6}]}]}]", 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTorchSnapshot) sa = read_bytes (a, &error);
  g_autoptr(TmTorchSnapshot) sb = NULL;
  g_autofree char *lines = NULL;
  gint64 t;

  g_assert_no_error (error);
  g_assert_cmpuint (tm_torch_snapshot_get_n_devices (sa), ==, 1);
  g_assert_cmpstr (tm_torch_snapshot_get_device_id (sa, 0), ==, "1");
  g_assert_false (tm_torch_snapshot_get_figures (sa, 0)->has_time);
  g_assert_false (tm_torch_snapshot_get_time (sa, 0, 0, &t));
  g_assert_cmpint (tm_torch_snapshot_get_figures (sa, 0)->peak_index, ==, 0);

  sb = read_bytes (b, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tm_torch_snapshot_get_device_id (sb, 0), ==, "2");
  g_assert_cmpint (tm_torch_snapshot_get_figures (sb, 0)->peak_bytes, ==, 6);
  lines = tm_torch_export_collapsed (sb, 0, FALSE);
  g_assert_cmpstr (lines, ==, "stream_0;active_allocated;<gaps> 4\nstream_0;active_allocated;<no-context> 6\n");
}

/* What is not a snapshot says so. */
static void
test_not_a_snapshot (void)
{
  const struct { const char *expr; const char *fragment; } cases[] = {
    { "3", "holds a int, not a dict" },
    { "{'device_traces': []}", "no “segments” list" },
    { "{'segments': [], 'device_traces': 5}", "“device_traces” is a int" },
    { "{'segments': [7]}", "segment 0 is a int" },
    { "{'segments': [{'device': 0}]}", "segment 0 has no “blocks” list" },
    { "{'segments': [], 'device_traces': [[{'size': 1}]]}", "trace entry 0 of device 0 has no “action”" },
    { "{'segments': [], 'device_traces': [[{'action': 'alloc', 'size': 1}]]}", "has no “addr” integer" },
    { "{'segments': [], 'device_traces': [[{'action': 'alloc', 'addr': 1, 'size': -1}]]}", "negative size" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GBytes) bytes = tm_test_python_pickle (cases[i].expr, 4);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTorchSnapshot) snap = read_bytes (bytes, &error);

      g_assert_null (snap);
      g_assert_error (error, TM_ERROR, TM_ERROR_INVALID);
      if (strstr (error->message, cases[i].fragment) == NULL)
        g_error ("“%s” lacks “%s”", error->message, cases[i].fragment);
    }
}

/* ------------------------------------------------------------------ */
/* Segments and out-of-memory entries                                   */

static void
assert_segment (const TmSegment *s,
                guint64          address,
                gint64           bytes,
                gint64           start_entry,
                gint64           end_entry,
                gint64           start_ps,
                gint64           end_ps,
                guint            flags)
{
  g_assert_cmpuint (s->address, ==, address);
  g_assert_cmpint (s->bytes, ==, bytes);
  g_assert_cmpint (s->start_entry, ==, start_entry);
  g_assert_cmpint (s->end_entry, ==, end_entry);
  g_assert_cmpint (s->start_ps, ==, start_ps);
  g_assert_cmpint (s->end_ps, ==, end_ps);
  g_assert_cmpuint (s->flags, ==, flags);
}

/* Segments as address ranges over time: a free of what no entry reserved
 * was there before the trace; an unmap in the middle of a mapped range
 * ends it and the rest goes on; what the snapshot lists and no range
 * holds was there all along; out-of-memory entries with what the device
 * said was free. Through the profile too, on the store's clock. */
#define SEGMENTS_SNAPSHOT                                                                \
  "{'segments': [{'device': 0, 'address': 2000, 'total_size': 50, 'stream': 0, 'blocks': []},"\
  "              {'device': 0, 'address': 9000, 'total_size': 10, 'stream': 0,"           \
  "               'blocks': [{'size': 4, 'requested_size': 3, 'state': 'active_allocated', 'frames': []},"\
  "                          {'size': 6, 'requested_size': 0, 'state': 'inactive', 'frames': []}]},"\
  "              {'device': 0, 'address': 2250, 'total_size': 50, 'stream': 0, 'blocks': []}],"\
  " 'device_traces': [[{'action': 'segment_free', 'addr': 1000, 'size': 100, 'stream': 0, 'time_us': 100},"\
  "   {'action': 'segment_map', 'addr': 2000, 'size': 300, 'stream': 0, 'time_us': 101},"  \
  "   {'action': 'segment_unmap', 'addr': 2100, 'size': 100, 'stream': 0, 'time_us': 102},"\
  "   {'action': 'segment_map', 'addr': 2100, 'size': 100, 'stream': 0, 'time_us': 103},"  \
  "   {'action': 'oom', 'device_free': 9, 'size': 77, 'stream': 0, 'time_us': 104},"       \
  "   {'action': 'segment_unmap', 'addr': 2050, 'size': 200, 'stream': 0, 'time_us': 105},"\
  "   {'action': 'alloc', 'addr': 5000, 'size': 8, 'stream': 0, 'time_us': 106}]]}"

static void
test_segments (void)
{
  g_autoptr(GBytes) bytes = tm_test_python_pickle (SEGMENTS_SNAPSHOT, 4);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTorchSnapshot) snap = read_bytes (bytes, &error);
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(TmProfile) profile = NULL;
  const guint before = TM_SEGMENT_BEFORE_TRACE, end = TM_SEGMENT_AT_SNAPSHOT;
  const TmSegment *s;
  const TmOutOfMemory *oom;
  const TmSegmentsState *state;
  TmSegments *segments;
  guint n;

  g_assert_no_error (error);
  all = tm_torch_snapshot_build_segments (snap);
  g_assert_cmpuint (all->len, ==, 1);
  segments = g_ptr_array_index (all, 0);
  g_assert_cmpstr (tm_segments_get_memory_id (segments), ==, "0");

  s = tm_segments_get_segments (segments, &n);
  g_assert_cmpuint (n, ==, 8);
  /* Entry 0 a picosecond after the block live from the start. */
  assert_segment (&s[0], 1000, 100, -1, 0, 0, 1, before);
  assert_segment (&s[1], 9000, 10, -1, -1, 0, 6000000, before | end);
  assert_segment (&s[2], 2000, 300, 1, 2, 1000000, 2000000, 0);
  assert_segment (&s[3], 2000, 100, 2, 5, 2000000, 5000000, 0);
  assert_segment (&s[4], 2200, 100, 2, 5, 2000000, 5000000, 0);
  assert_segment (&s[5], 2100, 100, 3, 5, 3000000, 5000000, 0);
  assert_segment (&s[6], 2000, 50, 5, -1, 5000000, 6000000, end);
  assert_segment (&s[7], 2250, 50, 5, -1, 5000000, 6000000, end);

  oom = tm_segments_get_out_of_memory (segments, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (oom[0].time_ps, ==, 4000000);
  g_assert_cmpint (oom[0].requested_bytes, ==, 77);
  g_assert_cmpint (oom[0].device_free_bytes, ==, 9);
  g_assert_cmpint (oom[0].entry, ==, 4);

  state = tm_segments_get_state (segments);
  g_assert_cmpuint (state->n_trace_entries, ==, 7);
  g_assert_cmpuint (state->n_alloc_entries, ==, 1);
  g_assert_cmpuint (state->n_segments, ==, 3);
  g_assert_cmpuint (state->n_blocks, ==, 2);
  g_assert_cmpint (state->reserved_bytes, ==, 110);
  g_assert_cmpint (state->allocated_bytes, ==, 3);
  g_assert_cmpint (state->free_internal_bytes, ==, 1);
  g_assert_cmpint (state->free_external_bytes, ==, 6);
  g_assert_cmpint (state->largest_inactive_block_bytes, ==, 6);
  g_assert_cmpfloat (state->fragmentation, ==, 0.0);
  g_assert_cmpuint (state->n_initially_allocated, ==, 1);
  g_assert_cmpint (state->initially_allocated_bytes, ==, 3);

  /* The loaded profile holds them for its store. */
  profile = tm_test_load_bytes (bytes, "segments.pickle", &error);
  g_assert_no_error (error);
  segments = tm_profile_lookup_segments (profile, tm_profile_get_memory_store (profile, 0));
  g_assert_nonnull (segments);
  s = tm_segments_get_segments (segments, &n);
  g_assert_cmpuint (n, ==, 8);
  assert_segment (&s[6], 2000, 50, 5, -1, 5000000, 6000000, end);
}

/* The rules' snapshot: the state at snapshot time in Tidemark's
 * fragmentation, and an XSpace profile has no segments. */
static void
test_segments_state (void)
{
  g_autoptr(GBytes) bytes = tm_test_python_pickle (RULES_SNAPSHOT, 2);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmTorchSnapshot) snap = read_bytes (bytes, &error);
  g_autoptr(GPtrArray) all = tm_torch_snapshot_build_segments (snap);
  const TmSegmentsState *state = tm_segments_get_state (g_ptr_array_index (all, 0));
  TmFixtureSpace *space = tm_fixture_space_new_xprof_example ();
  g_autoptr(TmProfile) xspace = NULL;

  g_assert_cmpint (state->peak_reserved_bytes, ==, 2560);
  g_assert_cmpuint (state->n_free_entries, ==, 2);
  /* One inactive block of 1536 is all the external free memory. */
  g_assert_cmpfloat (state->fragmentation, ==, 0.0);

  xspace = tm_test_load_space (space, &error);
  tm_fixture_space_free (space);
  g_assert_no_error (error);
  g_assert_null (tm_profile_lookup_segments (xspace, tm_profile_get_memory_store (xspace, 0)));
  g_assert_null (tm_memory_store_get_call_stack (tm_profile_get_memory_store (xspace, 0), 0));
}

/* ------------------------------------------------------------------ */
/* Long traces: walked and filled in two parts                          */

/* A random trace over a few addresses, so that allocations, frees of
 * allocations from before the trace, second allocs at a live address,
 * free_requested before free_completed and segment entries meet across
 * every place a trace may be cut. With same_sizes, a free frees the bytes
 * of its address's allocs; otherwise any. */
static GBytes *
random_trace (guint    seed,
              gboolean same_sizes)
{
  g_autofree char *expr = g_strdup_printf (
    "(lambda r, F: {'segments': [{'device': 0, 'address': 1 << 20, 'total_size': 1 << 16, 'stream': 3,"
    "  'blocks': [{'address': (1 << 20) + 64 * k, 'size': 64, 'requested_size': 40 + k,"
    "              'state': 'active_allocated', 'frames': F} for k in range(8)]}],"
    " 'device_traces': [[{'action': a, 'addr': (1 << 20) + 64 * x, 'size': %s, 'stream': 3,"
    "                     'time_us': 100 + i, 'frames': F}"
    "   for i, (a, x, s) in enumerate((r.choice(['alloc'] * 4 + ['free_requested'] * 2 + ['free_completed'] * 4"
    "                                            + ['segment_alloc', 'segment_free', 'oom']),"
    "                                  r.randrange(12), r.randrange(1, 300)) for _ in range(1500))]]})"
    "(__import__('random').Random(%u), [{'name': 'f', 'filename': 'a.py', 'line': 1}])",
    same_sizes ? "8 * x + 1" : "s", seed);

  return tm_test_python_pickle (expr, 4);
}

static void
assert_same_snapshot (TmTorchSnapshot *one,
                      TmTorchSnapshot *two)
{
  const TmTorchFigures *f1 = tm_torch_snapshot_get_figures (one, 0);
  const TmTorchFigures *f2 = tm_torch_snapshot_get_figures (two, 0);
  const TmTorchAllocation *a1, *a2;
  g_autoptr(GString) j1 = g_string_new (NULL);
  g_autoptr(GString) j2 = g_string_new (NULL);
  g_autoptr(GPtrArray) s1 = tm_torch_snapshot_build_stores (one);
  g_autoptr(GPtrArray) s2 = tm_torch_snapshot_build_stores (two);
  TmMemoryStore *m1 = g_ptr_array_index (s1, 0), *m2 = g_ptr_array_index (s2, 0);
  TmTorchDevice *d1 = tm_torch_get_device (one, 0), *d2 = tm_torch_get_device (two, 0);
  guint n1, n2, n;

  tm_torch_export_summary_json (one, "x", "/x", j1);
  tm_torch_export_summary_json (two, "x", "/x", j2);
  g_assert_cmpstr (j1->str, ==, j2->str);
  g_assert_cmpmem (f1, sizeof *f1, f2, sizeof *f2);
  a1 = tm_torch_snapshot_get_allocations (one, 0, &n1);
  a2 = tm_torch_snapshot_get_allocations (two, 0, &n2);
  g_assert_cmpuint (n1, ==, n2);
  for (guint k = 0; k < n1; k++)
    {
      g_assert_cmpuint (a1[k].address, ==, a2[k].address);
      g_assert_cmpint (a1[k].bytes, ==, a2[k].bytes);
      g_assert_cmpint (a1[k].start, ==, a2[k].start);
      g_assert_cmpint (a1[k].end, ==, a2[k].end);
      g_assert_cmpint (a1[k].origin, ==, a2[k].origin);
      g_assert_cmpuint (a1[k].frames, ==, a2[k].frames);
      g_assert_cmpuint (a1[k].stream, ==, a2[k].stream);
    }
  g_assert_cmpmem (d1->checkpoints->data, d1->checkpoints->len * sizeof (TmTorchCheckpoint),
                   d2->checkpoints->data, d2->checkpoints->len * sizeof (TmTorchCheckpoint));
  g_assert_cmpuint (d1->freed->len, ==, d2->freed->len);
  for (guint k = 0; k < d1->freed->len; k++)
    {
      g_assert_cmpuint (g_array_index (d1->freed, TmTorchFreed, k).entry, ==,
                        g_array_index (d2->freed, TmTorchFreed, k).entry);
      g_assert_cmpint (g_array_index (d1->freed, TmTorchFreed, k).bytes, ==,
                       g_array_index (d2->freed, TmTorchFreed, k).bytes);
    }
  g_assert_cmpmem (d1->events->data, d1->events->len * sizeof (guint32),
                   d2->events->data, d2->events->len * sizeof (guint32));

  g_assert_true (tm_memory_store_finish (m1, NULL, NULL));
  g_assert_true (tm_memory_store_finish (m2, NULL, NULL));
  n = tm_memory_store_get_n_snapshots (m1);
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (m2), ==, n);
  g_assert_cmpmem (tm_memory_store_get_heap (m1), n * sizeof (gint64), tm_memory_store_get_heap (m2), n * sizeof (gint64));
  g_assert_cmpmem (tm_memory_store_get_free (m1), n * sizeof (gint64), tm_memory_store_get_free (m2), n * sizeof (gint64));
  g_assert_cmpmem (tm_memory_store_get_times (m1), n * sizeof (gint64), tm_memory_store_get_times (m2), n * sizeof (gint64));
  g_assert_cmpmem (tm_memory_store_get_partners (m1), n * sizeof (guint32),
                   tm_memory_store_get_partners (m2), n * sizeof (guint32));
  g_assert_cmpmem (tm_memory_store_get_summary (m1), sizeof (TmSummary),
                   tm_memory_store_get_summary (m2), sizeof (TmSummary));
}

/* One walk and two parts, cut at many places, agree in every figure,
 * allocation and checkpoint, and fill the same stores. */
static void
test_two_parts (void)
{
  for (guint seed = 1; seed <= 6; seed++)
    {
      g_autoptr(GBytes) bytes = random_trace (seed, seed % 2 == 0);
      g_autoptr(TmSource) source = tm_source_new_from_bytes (bytes, "random.pickle");
      TmTorchReadOptions one_part = { 16, G_MAXSIZE };
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTorchSnapshot) one = tm_torch_snapshot_read_with_options (source, &one_part, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (tm_torch_snapshot_get_figures (one, 0)->n_entries, ==, 1500);
      for (guint checkpoint = 1; checkpoint <= 700; checkpoint = checkpoint * 3 + 1)
        {
          TmTorchReadOptions two_parts = { checkpoint, 2 };
          TmTorchReadOptions reference = { checkpoint, G_MAXSIZE };
          g_autoptr(TmTorchSnapshot) two = tm_torch_snapshot_read_with_options (source, &two_parts, NULL, &error);
          g_autoptr(TmTorchSnapshot) ref = tm_torch_snapshot_read_with_options (source, &reference, NULL, &error);

          g_assert_no_error (error);
          assert_same_snapshot (ref, two);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Hostile pickles on the command line                                  */

static void
assert_refused (const char *bytes,
                gsize       n,
                const char *fragment)
{
  g_autoptr(GBytes) data = g_bytes_new (bytes, n);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_write_bytes (data, NULL, "hostile.pickle", &error);
  const char *flags[][2] = { { "--summary", NULL }, { "--summary", "--json" }, { "--export=collapsed", NULL } };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_auto(TmTestRun) r = { 0 };

      if (flags[i][1] != NULL)
        tm_test_run_cli (&r, NULL, flags[i][0], flags[i][1], path, NULL);
      else
        tm_test_run_cli (&r, NULL, flags[i][0], path, NULL);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpstr (r.out, ==, "");
      /* Exactly one line. */
      g_assert_true (g_str_has_suffix (r.err, "\n"));
      g_assert_true (strchr (r.err, '\n') == r.err + strlen (r.err) - 1);
      if (strstr (r.err, fragment) == NULL)
        g_error ("“%s” lacks “%s”", r.err, fragment);
    }
  tm_fixture_remove (path);
}

static void
test_hostile (void)
{
  /* h1: protocol 0, os.system through GLOBAL and REDUCE. */
  static const char h1[] = "cos\nsystem\n(S'touch /tmp/tm-pwned'\ntR.";
  /* h2: protocol 4, a trace entry whose frames are posix.system(...)
   * through STACK_GLOBAL and REDUCE. */
  g_autoptr(GByteArray) h2 = g_byte_array_new ();
  static const guint8 head[] = {
    0x80, 4, '}', 0x94, 0x8c, 8, 's', 'e', 'g', 'm', 'e', 'n', 't', 's', 0x94, ']', 0x94, 's',
    0x8c, 6, 'f', 'r', 'a', 'm', 'e', 's',
    0x8c, 5, 'p', 'o', 's', 'i', 'x', 0x8c, 6, 's', 'y', 's', 't', 'e', 'm', 0x93,
    0x8c, 4, 't', 'r', 'u', 'e', 0x85, 'R', 's', '.',
  };

  g_byte_array_append (h2, head, sizeof head);
  assert_refused (h1, sizeof h1 - 1, "GLOBAL at byte 0 ");
  assert_refused ((const char *) h2->data, h2->len, "pickle opcode STACK_GLOBAL at byte 41 ");
  g_assert_false (g_file_test ("/tmp/tm-pwned", G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/torch-snapshot/real/cs336", test_real_cs336);
  g_test_add_func ("/torch-snapshot/real/select-n", test_real_select_n);
  g_test_add_func ("/torch-snapshot/real/gzip", test_real_gzip);
  g_test_add_func ("/torch-snapshot/gzip-rules", test_gzip_rules);
  g_test_add_func ("/torch-snapshot/rules", test_rules);
  g_test_add_func ("/torch-snapshot/stores", test_stores);
  g_test_add_func ("/torch-snapshot/store-pairing", test_store_pairing);
  g_test_add_func ("/torch-snapshot/real/stores", test_real_stores);
  g_test_add_func ("/torch-snapshot/real/profile", test_real_profile);
  g_test_add_func ("/torch-snapshot/real/scopes", test_real_scopes);
  g_test_add_func ("/torch-snapshot/profile-refuses", test_profile_refuses);
  g_test_add_func ("/torch-snapshot/no-time-and-legacy", test_no_time_and_legacy);
  g_test_add_func ("/torch-snapshot/not-a-snapshot", test_not_a_snapshot);
  g_test_add_func ("/torch-snapshot/two-parts", test_two_parts);
  g_test_add_func ("/torch-snapshot/segments", test_segments);
  g_test_add_func ("/torch-snapshot/segments-state", test_segments_state);
  g_test_add_func ("/torch-snapshot/hostile", test_hostile);

  return g_test_run ();
}
