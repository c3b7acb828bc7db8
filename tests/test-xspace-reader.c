/* test-xspace-reader.c — reading XSpace files: memory events, HLO modules,
 * odd encodings, and every kind of bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "tm-allocations.h"
#include "tm-error.h"
#include "tm-export.h"
#include "tm-test-util.h"

static TmFixtureMemory
memory (const char *allocator,
        gint64      stack,
        gint64      heap,
        gint64      free_bytes,
        gint64      bytes,
        guint64     addr,
        const char *op)
{
  TmFixtureMemory m = { 0 };

  m.id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME;
  m.allocator_name = allocator;
  m.bytes_reserved = stack;
  m.bytes_allocated = heap;
  m.bytes_available = free_bytes;
  m.peak_bytes_in_use = heap;
  m.requested_bytes = bytes;
  m.allocation_bytes = bytes;
  m.addr = addr;
  m.tf_op = op;
  m.region_type = "output";
  m.data_type = 1;
  m.shape = "[2]";
  return m;
}

static void
assert_xprof_example (TmProfile *profile)
{
  TmMemoryStore *store;
  const TmSummary *s;
  GPtrArray *rows;
  const TmBreakdownRow *row;

  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 1);
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpstr (tm_memory_store_get_id (store), ==, TM_FIXTURE_XPROF_ALLOCATOR);
  s = tm_memory_store_get_summary (store);
  g_assert_cmpuint (s->n_snapshots, ==, TM_FIXTURE_XPROF_N_SNAPSHOTS);
  g_assert_cmpuint (s->n_allocations, ==, TM_FIXTURE_XPROF_N_ALLOCATIONS);
  g_assert_cmpuint (s->n_deallocations, ==, TM_FIXTURE_XPROF_N_DEALLOCATIONS);
  g_assert_cmpint (s->peak_bytes_in_use, ==, TM_FIXTURE_XPROF_PEAK_BYTES);
  g_assert_cmpint (s->peak_time_ps, ==, TM_FIXTURE_XPROF_PEAK_TIME_PS);
  g_assert_cmpint (s->peak_stack_bytes, ==, TM_FIXTURE_XPROF_PEAK_STACK);
  g_assert_cmpint (s->peak_heap_bytes, ==, TM_FIXTURE_XPROF_PEAK_HEAP);
  g_assert_cmpint (s->peak_free_bytes, ==, TM_FIXTURE_XPROF_PEAK_FREE);
  g_assert_cmpfloat (s->peak_fragmentation, ==, TM_FIXTURE_XPROF_PEAK_FRAGMENTATION);
  g_assert_cmpint (s->memory_capacity, ==, TM_FIXTURE_XPROF_CAPACITY);
  g_assert_cmpint (s->peak_bytes_usage_lifetime, ==, TM_FIXTURE_XPROF_LIFETIME_PEAK);
  g_assert_cmpint (tm_analysis_get_peak_step_id (tm_profile_get_analysis (profile, 0)), ==, TM_FIXTURE_XPROF_PEAK_STEP);
  g_assert_cmpint (s->first_time_ps, ==, TM_FIXTURE_XPROF_FIRST_TIME_PS);
  g_assert_cmpint (s->last_time_ps, ==, TM_FIXTURE_XPROF_LAST_TIME_PS);

  rows = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0));
  g_assert_cmpuint (rows->len, ==, 3);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->op_name, ==, "unused preallocated device memory");
  g_assert_cmpint (row->allocation_bytes, ==, TM_FIXTURE_XPROF_UNUSED_BYTES);
  g_assert_cmpint (row->requested_bytes, ==, TM_FIXTURE_XPROF_UNUSED_BYTES);
  g_assert_cmpstr (row->region_type, ==, "persist/dynamic");
  g_assert_cmpstr (row->data_type, ==, "INVALID");
  g_assert_cmpstr (row->shape, ==, "unknown");
  g_assert_true (row->special);
  row = g_ptr_array_index (rows, 1);
  g_assert_cmpstr (row->op_name, ==, "stack");
  g_assert_cmpint (row->allocation_bytes, ==, TM_FIXTURE_XPROF_PEAK_STACK);
  g_assert_cmpstr (row->region_type, ==, "stack");
  row = g_ptr_array_index (rows, 2);
  g_assert_cmpstr (row->op_name, ==, TM_FIXTURE_XPROF_OP_NAME);
  g_assert_cmpint (row->allocation_bytes, ==, TM_FIXTURE_XPROF_OP_BYTES);
  g_assert_cmpstr (row->region_type, ==, TM_FIXTURE_XPROF_OP_REGION);
  g_assert_cmpstr (row->data_type, ==, TM_FIXTURE_XPROF_OP_DATA_TYPE);
  g_assert_cmpstr (row->shape, ==, TM_FIXTURE_XPROF_OP_SHAPE);
  g_assert_cmpuint (row->address, ==, TM_FIXTURE_XPROF_OP_ADDR);
  g_assert_cmpuint (row->n_occurrences, ==, 1);
  g_assert_false (row->special);
}

static void
test_xprof_example (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_space (space, &error);
  TmMemoryStore *store;
  TmActivity act;

  g_assert_no_error (error);
  assert_xprof_example (profile);
  g_assert_true (tm_profile_has_host_plane (profile));
  g_assert_cmpint (tm_profile_get_format (profile), ==, TM_INPUT_FORMAT_XSPACE);

  /* The deallocation shows its allocation's op (docs/analysis.md, step 4). */
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_true (tm_memory_store_get_activity (store, 1, &act, &error));
  g_assert_no_error (error);
  g_assert_cmpint (act.kind, ==, TM_ACTIVITY_DEALLOCATION);
  g_assert_cmpstr (act.op_name, ==, TM_FIXTURE_XPROF_FIRST_OP_NAME);
  g_assert_cmpuint (act.address, ==, TM_FIXTURE_XPROF_FIRST_ADDR);
  g_assert_cmpint (act.time_ps, ==, 50000);
  tm_activity_clear (&act);
}

/* Encodings real writers never produce must read the same. */
static void
test_odd_encodings (void)
{
  static const TmFixtureOddFlags flags[] = {
    TM_FIXTURE_ODD_NONE,
    TM_FIXTURE_ODD_METADATA_FIRST,
    TM_FIXTURE_ODD_INTERLEAVED,
    TM_FIXTURE_ODD_DUPLICATE_NAME,
    TM_FIXTURE_ODD_REVERSED,
    TM_FIXTURE_ODD_UNKNOWN_FIELDS,
    TM_FIXTURE_ODD_LONG_VARINTS,
    TM_FIXTURE_ODD_EXPLICIT_ZEROS,
    TM_FIXTURE_ODD_SPLIT_VALUES,
    TM_FIXTURE_ODD_METADATA_FIRST | TM_FIXTURE_ODD_REVERSED | TM_FIXTURE_ODD_UNKNOWN_FIELDS |
    TM_FIXTURE_ODD_LONG_VARINTS | TM_FIXTURE_ODD_EXPLICIT_ZEROS | TM_FIXTURE_ODD_SPLIT_VALUES |
    TM_FIXTURE_ODD_DUPLICATE_NAME,
  };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
      g_autoptr(GBytes) bytes = tm_fixture_space_serialize_odd (space, flags[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "odd.xplane.pb", &error);

      g_test_message ("odd flags 0x%x", flags[i]);
      g_assert_no_error (error);
      assert_xprof_example (profile);
    }
}

static void
test_several_allocators (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *a = tm_fixture_plane_add_line (host, "thread a", 1000);
  TmFixtureLine *b = tm_fixture_plane_add_line (host, "thread b", 1000);
  TmFixtureMemory m;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;

  /* Noise the reader must skip. */
  tm_fixture_space_add_plane (space, "/device:GPU:0");
  tm_fixture_line_add_event (a, "ExecutorState::Process", 5, 10);

  m = memory ("gpu_host_bfc", 0, 100, 900, 100, 1, "host_op");
  tm_fixture_line_add_memory_event (a, TRUE, 10, &m);
  m = memory ("GPU_0_bfc", 0, 4096, 0, 4096, 7, "big");
  tm_fixture_line_add_memory_event (b, TRUE, 20, &m);
  m = memory ("GPU_0_bfc", 0, 8192, 0, 4096, 8, "bigger");
  tm_fixture_line_add_memory_event (b, TRUE, 30, &m);
  m = memory ("GPU_10_bfc", 0, 1, 0, 1, 8, "tiny");
  tm_fixture_line_add_memory_event (a, TRUE, 40, &m);

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 3);
  /* Byte-wise order, as XProf sorts ids. */
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 0)), ==, "GPU_0_bfc");
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 1)), ==, "GPU_10_bfc");
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 2)), ==, "gpu_host_bfc");
  g_assert_cmpuint (tm_profile_get_busiest_index (profile), ==, 0);
  g_assert_cmpint (tm_memory_store_get_summary (tm_profile_get_memory_store (profile, 0))->peak_bytes_in_use, ==, 8192);
  g_assert_false (tm_memory_store_has_free_data (tm_profile_get_memory_store (profile, 0)));
  g_assert_true (tm_memory_store_has_free_data (tm_profile_get_memory_store (profile, 2)));
  g_assert_null (tm_profile_lookup_memory_store (profile, "GPU_1_bfc"));
  g_assert_nonnull (tm_profile_lookup_memory_store (profile, "GPU_10_bfc"));
}

/* Ids from index_on_host / device_ordinal; the last id stat wins. */
static void
test_numeric_ids (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  TmFixtureMemory m = memory (NULL, 0, 10, 0, 10, 1, "op");
  TmFixtureEvent *ev;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;

  m.id_kind = TM_FIXTURE_MEMORY_ID_INDEX_ON_HOST;
  m.memory_index = 0;
  tm_fixture_line_add_memory_event (line, TRUE, 1, &m);
  m.id_kind = TM_FIXTURE_MEMORY_ID_DEVICE_ORDINAL;
  m.memory_index = 3;
  tm_fixture_line_add_memory_event (line, TRUE, 2, &m);
  /* allocator_name first, then index_on_host: the id is "1". */
  m.id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME;
  m.allocator_name = "GPU_0_bfc";
  ev = tm_fixture_line_add_memory_event (line, TRUE, 3, &m);
  tm_fixture_event_add_int64 (ev, "index_on_host", 1);
  /* No id stat at all: the empty id. */
  m.id_kind = TM_FIXTURE_MEMORY_ID_NONE;
  tm_fixture_line_add_memory_event (line, TRUE, 4, &m);

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 4);
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 0)), ==, "");
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 1)), ==, "0");
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 2)), ==, "1");
  g_assert_cmpstr (tm_memory_store_get_id (tm_profile_get_memory_store (profile, 3)), ==, "3");
}

/* ref_value strings, numbers stored as uint64 or double, fragmentation as
 * int 0, a stat given twice (the later wins). */
static void
test_value_kinds (void)
{
  static const TmFixtureMemoryFlags flags[] = {
    TM_FIXTURE_MEMORY_STRINGS_AS_REF,
    TM_FIXTURE_MEMORY_NUMBERS_AS_UINT64,
    TM_FIXTURE_MEMORY_NUMBERS_AS_DOUBLE,
    TM_FIXTURE_MEMORY_STRINGS_AS_REF | TM_FIXTURE_MEMORY_NUMBERS_AS_UINT64 | TM_FIXTURE_MEMORY_FRAGMENTATION_INT64_0,
  };

  for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
    {
      g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
      TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
      TmFixtureMemory m = memory ("GPU_0_bfc", 1024, 1 << 20, 1 << 22, 1 << 20, 0x7f0000001000, "layer/conv");
      TmFixtureEvent *ev;
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = NULL;
      TmMemoryStore *store;
      GPtrArray *rows;
      const TmBreakdownRow *row;
      TmActivity act;

      m.flags = flags[i];
      m.fragmentation = 0.25;
      m.data_type = 19;
      m.has_group_id = TRUE;
      m.group_id = 42;
      ev = tm_fixture_line_add_memory_event (line, TRUE, 5, &m);
      tm_fixture_event_add_str (ev, "region_type", "temp");  /* the later stat wins */

      profile = tm_test_load_space (space, &error);
      g_assert_no_error (error);
      store = tm_profile_get_memory_store (profile, 0);
      g_assert_cmpstr (tm_memory_store_get_id (store), ==, "GPU_0_bfc");
      g_assert_cmpint (tm_memory_store_get_heap (store)[0], ==, 1 << 20);
      g_assert_cmpint (tm_memory_store_get_stack (store)[0], ==, 1024);
      g_assert_cmpint (tm_memory_store_get_free (store)[0], ==, 1 << 22);
      g_assert_cmpint (tm_memory_store_get_step_id (store, 0), ==, 42);
      g_assert_cmpfloat (tm_memory_store_get_fragmentation (store)[0], ==,
                         (flags[i] & TM_FIXTURE_MEMORY_FRAGMENTATION_INT64_0) ? 0.0 : 0.25);

      g_assert_true (tm_memory_store_get_activity (store, 0, &act, &error));
      g_assert_cmpstr (act.op_name, ==, "layer/conv");
      g_assert_cmpstr (act.region_type, ==, "temp");
      g_assert_cmpstr (act.data_type, ==, "half");
      g_assert_cmpstr (act.shape, ==, "[2]");
      g_assert_cmpuint (act.address, ==, 0x7f0000001000);
      g_assert_cmpint (act.allocation_bytes, ==, 1 << 20);
      tm_activity_clear (&act);

      rows = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0));
      g_assert_cmpuint (rows->len, ==, 2);
      row = g_ptr_array_index (rows, 0);
      g_assert_cmpstr (row->op_name, ==, "layer/conv");
      row = g_ptr_array_index (rows, 1);
      g_assert_cmpstr (row->op_name, ==, "stack");
    }
}

/* Lines with different timestamps are put on one clock; equal times keep
 * file order; events come as several time-ordered runs. */
static void
test_clock_and_order (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *late = tm_fixture_plane_add_line (host, "late", 2000);   /* +1000 ns */
  TmFixtureLine *early = tm_fixture_plane_add_line (host, "early", 1000);
  TmFixtureMemory m = memory ("GPU_0_bfc", 0, 0, 0, 8, 0, "op");
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmMemoryStore *store;
  const gint64 *times;
  static const gint64 expected[] = { 0, 500000, 1000000, 1000000, 1000000, 1500000 };
  static const gint64 heaps[] = { 1, 2, 3, 4, 5, 6 };

  m.bytes_allocated = 3; m.addr = 3;
  tm_fixture_line_add_memory_event (late, TRUE, 0, &m);          /* 1 000 000 */
  m.bytes_allocated = 4; m.addr = 4;
  tm_fixture_line_add_memory_event (late, TRUE, 0, &m);          /* 1 000 000, after the first */
  m.bytes_allocated = 6; m.addr = 6;
  tm_fixture_line_add_memory_event (late, TRUE, 500000, &m);     /* 1 500 000 */
  m.bytes_allocated = 1; m.addr = 1;
  tm_fixture_line_add_memory_event (early, TRUE, 0, &m);         /* 0 */
  m.bytes_allocated = 2; m.addr = 2;
  tm_fixture_line_add_memory_event (early, TRUE, 500000, &m);    /* 500 000 */
  m.bytes_allocated = 5; m.addr = 5;
  tm_fixture_line_add_memory_event (early, TRUE, 1000000, &m);   /* 1 000 000: after late's */

  /* Also with each line's timestamp after its events, and with lines
   * split in two runs: the reader must notice and place them right. */
  for (guint k = 0; k < 3; k++)
    {
      static const TmFixtureOddFlags odd[] = {
        TM_FIXTURE_ODD_NONE, TM_FIXTURE_ODD_REVERSED, TM_FIXTURE_ODD_INTERLEAVED,
      };
      g_autoptr(GBytes) bytes = tm_fixture_space_serialize_odd (space, odd[k]);

      g_clear_object (&profile);
      profile = tm_test_load_bytes (bytes, "clock.xplane.pb", &error);
      g_assert_no_error (error);
      store = tm_profile_get_memory_store (profile, 0);
      g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, 6);
      times = tm_memory_store_get_times (store);
      for (guint i = 0; i < 6; i++)
        {
          TmActivity act;

          g_assert_cmpint (times[i], ==, expected[i]);
          g_assert_cmpint (tm_memory_store_get_heap (store)[i], ==, heaps[i]);
          /* The on-demand decode follows the sort. */
          g_assert_true (tm_memory_store_get_activity (store, i, &act, NULL));
          g_assert_cmpuint (act.address, ==, (guint64) heaps[i]);
          tm_activity_clear (&act);
        }
    }
}

/* A deallocation with no allocation; two allocations at one address. */
static void
test_unmatched (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  TmFixtureMemory m;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmMemoryStore *store;
  GPtrArray *rows;
  TmActivity act;

  /* Freed memory allocated before the profile: its bytes count as
   * unmapped-deallocated (docs/analysis.md, step 6), and it keeps its own (empty) op. */
  m = memory ("GPU_0_bfc", 0, 1000, 0, 100, 99, NULL);
  m.region_type = NULL;
  tm_fixture_line_add_memory_event (line, FALSE, 10, &m);
  /* Two allocations at address 5: the second replaces the first. */
  m = memory ("GPU_0_bfc", 0, 1064, 0, 32, 5, "first");
  tm_fixture_line_add_memory_event (line, TRUE, 20, &m);
  m = memory ("GPU_0_bfc", 0, 1128, 0, 64, 5, "second");
  tm_fixture_line_add_memory_event (line, TRUE, 30, &m);

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  store = tm_profile_get_memory_store (profile, 0);

  g_assert_true (tm_memory_store_get_activity (store, 0, &act, NULL));
  g_assert_cmpint (act.kind, ==, TM_ACTIVITY_DEALLOCATION);
  g_assert_cmpstr (act.op_name, ==, "");
  tm_activity_clear (&act);

  /* unmapped: 1128 + 100 (the free) − 32 − 64 − 100 (unmapped-deallocated) = 1032 */
  rows = tm_analysis_get_peak_breakdown (tm_profile_get_analysis (profile, 0));
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_cmpstr (((TmBreakdownRow *) g_ptr_array_index (rows, 0))->op_name, ==, "unused preallocated device memory");
  g_assert_cmpint (((TmBreakdownRow *) g_ptr_array_index (rows, 0))->allocation_bytes, ==, 1032);
  g_assert_cmpstr (((TmBreakdownRow *) g_ptr_array_index (rows, 1))->op_name, ==, "second");
}

static void
test_no_host_plane (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmFixtureLine *line;

  line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/device:GPU:0"), "stream", 0);
  tm_fixture_line_add_event (line, "MemoryAllocation", 1, 1);   /* not on the host plane: ignored */
  tm_fixture_space_add_hostname (space, "worker-0");

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_false (tm_profile_has_host_plane (profile));
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 0);

  /* A host plane without memory events. */
  g_clear_object (&profile);
  line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "python", 0);
  tm_fixture_line_add_event (line, "train_step", 1, 100);
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  g_assert_true (tm_profile_has_host_plane (profile));
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 0);
}

static void
test_hlo_modules (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  GArray *modules;
  const TmHloModule *m;

  tm_fixture_space_add_hlo_module (space, 0, "jit_train_step", 100, 900);
  tm_fixture_space_add_hlo_module (space, 0, "jit_eval", 1000, 1500);
  tm_fixture_space_add_hlo_module (space, 1, "jit_train_step", 120, 910);

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  modules = tm_profile_get_hlo_modules (profile);
  g_assert_cmpuint (modules->len, ==, 3);
  m = &g_array_index (modules, TmHloModule, 1);
  g_assert_cmpint (m->id, ==, 1);
  g_assert_cmpstr (m->name, ==, "jit_eval");
  g_assert_cmpint (m->start_ps, ==, 1000);
  g_assert_cmpint (m->end_ps, ==, 1500);
  g_assert_cmpstr (m->device, ==, "TPU:0");
  m = &g_array_index (modules, TmHloModule, 2);
  g_assert_cmpint (m->id, ==, 2);
  g_assert_cmpstr (m->device, ==, "TPU:1");
  assert_xprof_example (profile);
}

static void
assert_load_fails (GBytes     *bytes,
                   int         code,
                   const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_bytes (bytes, "bad.xplane.pb", &error);

  g_assert_null (profile);
  g_assert_nonnull (error);
  if (code >= 0)
    g_assert_error (error, TM_ERROR, code);
  if (text != NULL && strstr (error->message, text) == NULL)
    g_error ("“%s” does not say “%s”", error->message, text);
}

static void
test_empty_and_garbage (void)
{
  g_autoptr(GBytes) empty = g_bytes_new_static ("", 0);
  g_autoptr(GBytes) text = g_bytes_new_static ("hello, world\n", 13);
  g_autoptr(GBytes) zero = g_bytes_new_static ("\0\0\0\0", 4);
  g_autoptr(GBytes) bad_json = g_bytes_new_static ("{ \"memoryIds\": [", 16);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) dir = NULL;
  g_autofree char *tmp = NULL;

  assert_load_fails (empty, TM_ERROR_EMPTY, "empty");
  assert_load_fails (text, -1, "byte");
  assert_load_fails (zero, TM_ERROR_NOT_PROTOBUF, "byte 0");
  assert_load_fails (bad_json, TM_ERROR_JSON, "invalid JSON");

  tmp = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);
  dir = g_file_new_for_path (tmp);
  g_assert_null (tm_profile_load (dir, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_IS_DIRECTORY);
  tm_fixture_remove (tmp);
}

static void
test_permission (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_space_write (space, NULL, "secret.xplane.pb", &error);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  if (geteuid () == 0)
    {
      tm_fixture_remove (path);
      g_test_skip ("root reads every file");
      return;
    }
  g_assert_cmpint (g_chmod (path, 0), ==, 0);
  g_assert_null (tm_profile_load (file, NULL, NULL, NULL, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_PERMISSION);
  tm_fixture_remove (path);
}

/* Every truncation of a valid file fails with an offset, or (cut between
 * planes) reads what is there; never crashes or reads past the end. */
static void
test_truncations (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GBytes) whole = NULL;
  const guint8 *data;
  gsize size;
  guint n_failed = 0;

  tm_fixture_space_add_hlo_module (space, 0, "jit_step", 1, 2);
  whole = tm_fixture_space_serialize (space);
  data = g_bytes_get_data (whole, &size);

  for (gsize cut = 1; cut < size; cut++)
    {
      g_autoptr(GBytes) part = g_bytes_new (data, cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = tm_test_load_bytes (part, "cut.xplane.pb", &error);

      if (profile == NULL)
        {
          n_failed++;
          g_assert_true (error->domain == TM_ERROR);
          g_assert_nonnull (strstr (error->message, "byte"));
        }
    }

  /* Almost every cut is inside a message. */
  g_assert_cmpuint (n_failed, >=, size - 3);
}

static void
test_random_bytes (void)
{
  GRand *rand = g_rand_new_with_seed (20261129);
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GBytes) valid = tm_fixture_space_serialize (space);

  for (int round = 0; round < 300; round++)
    {
      gsize n = g_rand_int_range (rand, 1, 2048);
      guint8 *buf = g_malloc (n);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = NULL;

      for (gsize i = 0; i < n; i++)
        buf[i] = (guint8) g_rand_int (rand);
      bytes = g_bytes_new_take (buf, n);
      profile = tm_test_load_bytes (bytes, "random.xplane.pb", &error);
      g_assert_true ((profile == NULL) != (error == NULL));
    }

  /* Flipped bytes inside a valid file. */
  for (int round = 0; round < 300; round++)
    {
      gsize n;
      const guint8 *data = g_bytes_get_data (valid, &n);
      guint8 *buf = g_memdup2 (data, n);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(TmProfile) profile = NULL;

      for (int k = 0; k < 3; k++)
        buf[g_rand_int_range (rand, 0, n)] = (guint8) g_rand_int (rand);
      bytes = g_bytes_new_take (buf, n);
      profile = tm_test_load_bytes (bytes, "flipped.xplane.pb", &error);
      g_assert_true ((profile == NULL) != (error == NULL));
      if (profile != NULL)
        for (guint i = 0; i < tm_profile_get_n_memory_ids (profile); i++)
          {
            TmMemoryStore *store = tm_profile_get_memory_store (profile, i);
            for (guint k = 0; k < tm_memory_store_get_n_snapshots (store); k++)
              {
                TmActivity act;
                if (tm_memory_store_get_activity (store, k, &act, NULL))
                  tm_activity_clear (&act);
              }
          }
    }

  g_rand_free (rand);
}

static void
count_progress (guint64  done,
                guint64  total,
                gpointer user_data)
{
  guint64 *last = user_data;

  g_assert_cmpuint (done, <=, total);
  g_assert_cmpuint (done, >=, *last);
  *last = done;
}

static void
test_progress_and_cancel (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tm_fixture_space_write (space, NULL, "p.xplane.pb", &error);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TmProfile) profile = NULL;
  guint64 last = 0;

  profile = tm_profile_load (file, count_progress, &last, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (last, ==, tm_profile_get_file_size (profile));

  g_cancellable_cancel (cancellable);
  g_clear_object (&profile);
  profile = tm_profile_load (file, NULL, NULL, cancellable, &error);
  g_assert_null (profile);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  tm_fixture_remove (path);
}

/* A file truncated while mapped: reading it later gives an error, no
 * SIGBUS. */
static void
test_truncated_while_mapped (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmMemoryStore *store;
  guint n, n_failed = 0;

  /* Big enough to span several pages. */
  for (int i = 0; i < 4000; i++)
    {
      TmFixtureMemory m = memory ("GPU_0_bfc", 0, i, 0, 1, (guint64) i + 1, "a/rather/long/op/name/to/fill/pages");
      tm_fixture_line_add_memory_event (line, TRUE, i, &m);
    }
  path = tm_fixture_space_write (space, NULL, "shrinking.xplane.pb", &error);
  g_assert_no_error (error);
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpint (truncate (path, 0), ==, 0);

  store = tm_profile_get_memory_store (profile, 0);
  n = tm_memory_store_get_n_snapshots (store);
  for (guint i = 0; i < n; i += 97)
    {
      TmActivity act;
      g_autoptr(GError) e = NULL;

      if (tm_memory_store_get_activity (store, i, &act, &e))
        tm_activity_clear (&act);
      else
        {
          g_assert_error (e, TM_ERROR, TM_ERROR_CHANGED);
          n_failed++;
        }
    }
  g_assert_cmpuint (n_failed, >, 0);
  tm_fixture_remove (path);
}

static char *
export_text (TmProfile *profile)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  g_assert_true (tm_export_xprof_json (profile, out, NULL, NULL));
  g_autofree char *path = g_file_get_path (tm_profile_get_file (profile));
  g_autofree char *data = NULL;
  g_autoptr(GString) text = NULL;

  g_assert_true (tm_export_summary_json (profile, "host", out, NULL, NULL));
  g_output_stream_write_all (out, "", 1, NULL, NULL, NULL);
  g_output_stream_close (out, NULL, NULL);
  /* The two profiles are read from two temporary files. */
  data = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
  text = g_string_new (data);
  g_assert_cmpuint (g_string_replace (text, path, "", 0), ==, 1);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The same memory profiles, snapshot by snapshot. */
static void
assert_same_profiles (TmProfile *one,
                      TmProfile *two)
{
  g_autofree char *text_one = export_text (one);
  g_autofree char *text_two = export_text (two);
  guint n_ids = tm_profile_get_n_memory_ids (one);

  g_assert_cmpuint (tm_profile_get_n_memory_ids (two), ==, n_ids);
  g_assert_true (g_str_equal (text_one, text_two));

  for (guint i = 0; i < n_ids; i++)
    {
      TmMemoryStore *a = tm_profile_get_memory_store (one, i);
      TmMemoryStore *b = tm_profile_get_memory_store (two, i);
      guint n = tm_memory_store_get_n_snapshots (a);

      g_assert_cmpuint (n, ==, tm_memory_store_get_n_snapshots (b));
      g_assert_cmpmem (tm_memory_store_get_times (a), n * 8, tm_memory_store_get_times (b), n * 8);
      g_assert_cmpmem (tm_memory_store_get_heap (a), n * 8, tm_memory_store_get_heap (b), n * 8);
      g_assert_cmpmem (tm_memory_store_get_stack (a), n * 8, tm_memory_store_get_stack (b), n * 8);
      g_assert_cmpmem (tm_memory_store_get_free (a), n * 8, tm_memory_store_get_free (b), n * 8);
      g_assert_cmpmem (tm_memory_store_get_partners (a), n * 4, tm_memory_store_get_partners (b), n * 4);
      for (guint k = 0; k < n; k += 7)
        {
          g_autoptr(GPtrArray) ra = tm_analysis_breakdown_at (a, tm_memory_store_get_times (a)[k]);
          g_autoptr(GPtrArray) rb = tm_analysis_breakdown_at (b, tm_memory_store_get_times (b)[k]);

          g_assert_cmpint (tm_memory_store_get_step_id (a, k), ==, tm_memory_store_get_step_id (b, k));
          g_assert_cmpuint (ra->len, ==, rb->len);
        }
    }
}

/* Loads bytes with one thread, then with two (the reader's
 * parallel_min_bytes 0), then with two and the middle line cut
 * (cut_lines): the three must be the same. expect_cut: the cut must
 * happen without being forced too. */
static void
assert_same_with_two_threads (GBytes   *bytes,
                              gboolean  expect_cut)
{
  const TmXSpaceReadOptions one_thread = { G_MAXSIZE, FALSE };
  const TmXSpaceReadOptions two_threads = { 0, FALSE };
  const TmXSpaceReadOptions two_cut = { 0, TRUE };
  g_autoptr(TmProfile) one = NULL;
  g_autoptr(TmProfile) two = NULL;
  g_autoptr(TmProfile) cut = NULL;
  g_autoptr(GError) error = NULL;

  one = tm_test_load_bytes_with_options (bytes, "one.xplane.pb", &one_thread, &error);
  g_assert_no_error (error);

  if (expect_cut)
    g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "host plane: line * cut at byte *");
  two = tm_test_load_bytes_with_options (bytes, "one.xplane.pb", &two_threads, &error);
  g_assert_no_error (error);
  if (expect_cut)
    g_test_assert_expected_messages ();

  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "host plane: line * cut at byte *");
  cut = tm_test_load_bytes_with_options (bytes, "one.xplane.pb", &two_cut, &error);
  g_assert_no_error (error);
  g_test_assert_expected_messages ();

  assert_same_profiles (one, two);
  assert_same_profiles (one, cut);
}

/* A large host plane is read by two threads; the result must be the same
 * as one thread's, whatever the lines hold, and wherever the lines are cut
 * between the threads. */
static void
test_two_threads (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  static const char * const ids[] = { "GPU_0_bfc", "GPU_1_bfc", "gpu_host_bfc" };
  GRand *rand = g_rand_new_with_seed (99);
  g_autoptr(GBytes) bytes = NULL;
  gint64 heap[3] = { 0, 0, 0 };

  for (guint l = 0; l < 5; l++)
    {
      TmFixtureLine *line = tm_fixture_plane_add_line (host, "thread", 1000 + l);
      gint64 t = g_rand_int_range (rand, 0, 1000);

      /* The last line is the only one of gpu_host_bfc (only the second
       * thread sees it); GPU_1_bfc is only in the first line. Free memory
       * is the rest of one capacity in gpu_host_bfc, of one capacity in
       * the first two lines of GPU_0_bfc and of another after them, and
       * the same amount at every snapshot of GPU_1_bfc. */
      for (guint k = 0; k < 400; k++)
        {
          guint id = l == 4 ? 2 : l == 0 ? g_rand_int_range (rand, 0, 2) : 0;
          gint64 bytes_k = 256 * g_rand_int_range (rand, 1, 64);
          gboolean alloc = g_rand_boolean (rand) || heap[id] < bytes_k;
          TmFixtureMemory m = memory (ids[id], g_rand_int_range (rand, 0, 2) * 512, 0, 1 << 24, bytes_k,
                                      (guint64) g_rand_int_range (rand, 1, 40) * 4096, alloc ? "op/a" : NULL);

          heap[id] += alloc ? bytes_k : -bytes_k;
          m.bytes_allocated = heap[id];
          if (id != 1)
            m.bytes_available = (G_GINT64_CONSTANT (1) << 30) + (id == 0 && l >= 2 ? 4096 : 0) -
                                m.bytes_reserved - heap[id];
          m.peak_bytes_in_use = heap[id];
          m.has_group_id = g_rand_int_range (rand, 0, 4) != 0;
          m.group_id = k / 50;
          t += g_rand_int_range (rand, 0, 3);   /* equal times too */
          tm_fixture_line_add_memory_event (line, alloc, t, &m);
        }
    }
  g_rand_free (rand);

  bytes = tm_fixture_space_serialize (space);
  assert_same_with_two_threads (bytes, FALSE);
}

/* All memory events in one line, as a profiler may write them: the line is
 * cut between two events so that both threads read half of it. */
static void
test_one_long_line (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_add_line (host, "allocator", 5000);
  g_autoptr(GBytes) bytes = NULL;
  gint64 heap[2] = { 0, 0 };

  for (guint k = 0; k < 3000; k++)
    {
      guint id = k % 3 == 0;
      gboolean alloc = (k / 2) % 3 != 0 || heap[id] == 0;
      TmFixtureMemory m = memory (id ? "GPU_1_bfc" : "GPU_0_bfc", 0, 0, 1 << 24, 1024,
                                  G_GUINT64_CONSTANT (0x7f0000000000) + (guint64) (k % 40) * 4096,
                                  alloc ? "op/a" : NULL);

      heap[id] += alloc ? 1024 : -1024;
      m.bytes_allocated = heap[id];
      m.peak_bytes_in_use = heap[id];
      m.has_group_id = TRUE;
      m.group_id = k / 100;
      tm_fixture_line_add_memory_event (line, alloc, 10 * (gint64) k, &m);
    }

  bytes = tm_fixture_space_serialize (space);
  assert_same_with_two_threads (bytes, TRUE);
}

/* Two threads read a line in parts whose starts are guessed. Here every
 * op name holds bytes that read as a run of events (each with a metadata
 * id and a time), so some guess falls inside an event: the part before it
 * does not end there, the plane is read again by one thread, and the
 * result is the same. */
static void
test_wrong_part_start (void)
{
  const TmXSpaceReadOptions one_thread = { G_MAXSIZE, FALSE };
  const TmXSpaceReadOptions two_cut = { 0, TRUE };
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *line = tm_fixture_plane_add_line (host, "allocator", 5000);
  g_autoptr(GString) op = g_string_new ("op/");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TmProfile) one = NULL;
  g_autoptr(TmProfile) cut = NULL;
  g_autoptr(GError) error = NULL;
  gint64 heap = 0;

  for (guint k = 0; k < 9; k++)
    g_string_append (op, "\x22\x04\x08\x05\x10\x01");
  for (guint k = 0; k < 600; k++)
    {
      gboolean alloc = k % 2 == 0;
      TmFixtureMemory m = memory ("GPU_0_bfc", 0, 0, 1 << 24, 1024,
                                  G_GUINT64_CONSTANT (0x7f0000000000) + (guint64) (k / 2) * 4096,
                                  alloc ? op->str : NULL);

      heap += alloc ? 1024 : -1024;
      m.bytes_allocated = heap;
      m.peak_bytes_in_use = heap;
      tm_fixture_line_add_memory_event (line, alloc, 10 * (gint64) k, &m);
    }
  bytes = tm_fixture_space_serialize (space);

  one = tm_test_load_bytes_with_options (bytes, "one.xplane.pb", &one_thread, &error);
  g_assert_no_error (error);
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, "host plane: a part ends at byte *, not where the next starts: read again");
  cut = tm_test_load_bytes_with_options (bytes, "one.xplane.pb", &two_cut, &error);
  g_assert_no_error (error);
  g_test_assert_expected_messages ();
  assert_same_profiles (one, cut);
}

/* The store keeps no stack column while every stack value is 0 and keeps
 * addresses in 4 bytes while they are aligned in one region; a value that
 * breaks either, in the first line or only in the second (then the second
 * thread's store is merged into a differently kept one), must change
 * nothing: every allocation is still matched with its deallocation. */
static void
test_narrow_columns (void)
{
  static const char * const ids[] = { "aligned", "unaligned", "regions", "stack-later", "stack-early" };
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *host = tm_fixture_space_add_plane (space, "/host:CPU");
  TmFixtureLine *lines[2];
  g_autoptr(GBytes) bytes = NULL;

  lines[0] = tm_fixture_plane_add_line (host, "first", 1000);
  lines[1] = tm_fixture_plane_add_line (host, "second", 1000);
  for (guint k = 0; k < 100; k++)
    for (guint id = 0; id < G_N_ELEMENTS (ids); id++)
      {
        TmFixtureLine *line = lines[k < 50 ? 0 : 1];
        guint64 addr = G_GUINT64_CONSTANT (0x7f0000000000) + (guint64) k * 256;
        gint64 stack = 0;
        TmFixtureMemory m;

        if (id == 1 && (k == 30 || k == 70))
          addr += 8;
        if (id == 2 && k >= 50)
          addr -= G_GUINT64_CONSTANT (0x10000000000);
        if ((id == 3 && k >= 60) || (id == 4 && k == 10))
          stack = 512 + k;
        m = memory (ids[id], stack, 1024, 1 << 20, 1024, addr, "op/a");
        tm_fixture_line_add_memory_event (line, TRUE, 10 * k, &m);
        /* The last 10 are never freed. */
        if (k < 90)
          {
            m = memory (ids[id], stack, 0, 1 << 20, 1024, addr, NULL);
            tm_fixture_line_add_memory_event (line, FALSE, 10 * k + 5, &m);
          }
      }
  bytes = tm_fixture_space_serialize (space);

  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autoptr(TmProfile) profile = NULL;
      g_autoptr(GError) error = NULL;

      const TmXSpaceReadOptions options = { threads == 2 ? 0 : G_MAXSIZE, FALSE };

      profile = tm_test_load_bytes_with_options (bytes, "narrow.xplane.pb", &options, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, G_N_ELEMENTS (ids));

      for (guint id = 0; id < G_N_ELEMENTS (ids); id++)
        {
          TmMemoryStore *store = tm_profile_lookup_memory_store (profile, ids[id]);
          const gint64 *stack = tm_memory_store_get_stack (store);
          guint n = tm_memory_store_get_n_snapshots (store);
          guint count = 0;
          gint64 never_freed_bytes = 0;

          g_assert_cmpuint (n, ==, 190);
          g_assert_true (tm_allocations_count_never_freed (store, &count, &never_freed_bytes, &error));
          g_assert_no_error (error);
          g_assert_cmpuint (count, ==, 10);
          g_assert_cmpint (never_freed_bytes, ==, 10 * 1024);
          for (guint i = 0; i < n; i++)
            {
              gint64 k = tm_memory_store_get_times (store)[i] / 10;
              gint64 expected = (id == 3 && k >= 60) || (id == 4 && k == 10) ? 512 + k : 0;

              g_assert_cmpint (stack[i], ==, expected);
            }
        }
    }
}

/* Hand-encoding, for shapes the fixture writer does not make. */
static void
put_varint (GByteArray *b,
            guint64     v)
{
  do
    {
      guint8 byte = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
      g_byte_array_append (b, &byte, 1);
      v >>= 7;
    }
  while (v != 0);
}

static void
put_len (GByteArray *b,
         guint       field,
         GByteArray *sub)
{
  put_varint (b, (field << 3) | 2);
  put_varint (b, sub->len);
  g_byte_array_append (b, sub->data, sub->len);
  g_byte_array_unref (sub);
}

static void
put_int (GByteArray *b,
         guint       field,
         guint64     v)
{
  put_varint (b, field << 3);
  put_varint (b, v);
}

static GByteArray *
entry (gint64      id,
       const char *name)
{
  GByteArray *value = g_byte_array_new ();
  GByteArray *e = g_byte_array_new ();
  GByteArray *str = g_byte_array_new ();

  put_int (value, 1, id);
  g_byte_array_append (str, (const guint8 *) name, strlen (name));
  put_len (value, 2, str);
  put_int (e, 1, id);
  put_len (e, 2, value);
  return e;
}

static GByteArray *
event (guint64 first_md,
       guint64 last_md,
       gint64  offset,
       gint64  heap)
{
  GByteArray *ev = g_byte_array_new ();
  GByteArray *st = g_byte_array_new ();
  GByteArray *st2 = g_byte_array_new ();
  GByteArray *str = g_byte_array_new ();

  put_int (ev, 1, first_md);
  put_int (ev, 2, offset);
  put_int (st, 1, 1);
  g_byte_array_append (str, (const guint8 *) "GPU_0_bfc", 9);
  put_len (st, 5, str);
  put_len (ev, 4, st);
  put_int (st2, 1, 2);
  put_int (st2, 4, heap);
  put_len (ev, 4, st2);
  put_int (ev, 1, last_md);   /* a later metadata_id wins */
  return ev;
}

/* An event whose first metadata_id says "memory" and whose last one does
 * not is not a memory event, and the other way round. */
static void
test_metadata_id_twice (void)
{
  GByteArray *space = g_byte_array_new ();
  GByteArray *plane = g_byte_array_new ();
  GByteArray *line = g_byte_array_new ();
  GByteArray *name = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmMemoryStore *store;

  g_byte_array_append (name, (const guint8 *) "/host:CPU", 9);
  put_len (plane, 2, name);
  put_len (line, 4, event (1, 2, 10, 111));   /* memory, then not */
  put_len (line, 4, event (2, 1, 20, 222));   /* not, then memory */
  put_len (plane, 3, line);
  put_len (plane, 4, entry (1, "MemoryAllocation"));
  put_len (plane, 4, entry (2, "ExecutorState::Process"));
  put_len (plane, 5, entry (1, "allocator_name"));
  put_len (plane, 5, entry (2, "bytes_allocated"));
  put_len (space, 1, plane);
  bytes = g_byte_array_free_to_bytes (space);

  profile = tm_test_load_bytes (bytes, "twice.xplane.pb", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 1);
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, 1);
  g_assert_cmpint (tm_memory_store_get_heap (store)[0], ==, 222);
  g_assert_cmpint (tm_memory_store_get_times (store)[0], ==, 20);
}

/* A stat whose first metadata_id names a stat the memory profile does not
 * read, and whose later one (which wins) names bytes_allocated: it sets
 * the heap, after the plain bytes_allocated stat before it. */
static void
test_metadata_id_twice_in_stat (void)
{
  GByteArray *space = g_byte_array_new ();
  GByteArray *plane = g_byte_array_new ();
  GByteArray *line = g_byte_array_new ();
  GByteArray *name = g_byte_array_new ();
  GByteArray *ev = event (1, 1, 10, 222);
  GByteArray *st = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = NULL;
  TmMemoryStore *store;

  put_int (st, 1, 3);
  put_int (st, 4, 5);
  put_int (st, 1, 2);
  put_len (ev, 4, st);

  g_byte_array_append (name, (const guint8 *) "/host:CPU", 9);
  put_len (plane, 2, name);
  put_len (line, 4, ev);
  put_len (plane, 3, line);
  put_len (plane, 4, entry (1, "MemoryAllocation"));
  put_len (plane, 5, entry (1, "allocator_name"));
  put_len (plane, 5, entry (2, "bytes_allocated"));
  put_len (plane, 5, entry (3, "not_read"));
  put_len (space, 1, plane);
  bytes = g_byte_array_free_to_bytes (space);

  profile = tm_test_load_bytes (bytes, "stat-twice.xplane.pb", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_profile_get_n_memory_ids (profile), ==, 1);
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, 1);
  g_assert_cmpint (tm_memory_store_get_heap (store)[0], ==, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/xspace/xprof-example", test_xprof_example);
  g_test_add_func ("/xspace/odd-encodings", test_odd_encodings);
  g_test_add_func ("/xspace/several-allocators", test_several_allocators);
  g_test_add_func ("/xspace/numeric-ids", test_numeric_ids);
  g_test_add_func ("/xspace/value-kinds", test_value_kinds);
  g_test_add_func ("/xspace/clock-and-order", test_clock_and_order);
  g_test_add_func ("/xspace/unmatched", test_unmatched);
  g_test_add_func ("/xspace/no-host-plane", test_no_host_plane);
  g_test_add_func ("/xspace/hlo-modules", test_hlo_modules);
  g_test_add_func ("/xspace/empty-and-garbage", test_empty_and_garbage);
  g_test_add_func ("/xspace/permission", test_permission);
  g_test_add_func ("/xspace/truncations", test_truncations);
  g_test_add_func ("/xspace/random-bytes", test_random_bytes);
  g_test_add_func ("/xspace/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/xspace/truncated-while-mapped", test_truncated_while_mapped);
  g_test_add_func ("/xspace/two-threads", test_two_threads);
  g_test_add_func ("/xspace/one-long-line", test_one_long_line);
  g_test_add_func ("/xspace/narrow-columns", test_narrow_columns);
  g_test_add_func ("/xspace/metadata-id-twice", test_metadata_id_twice);
  g_test_add_func ("/xspace/wrong-part-start", test_wrong_part_start);
  g_test_add_func ("/xspace/metadata-id-twice-in-stat", test_metadata_id_twice_in_stat);

  return g_test_run ();
}
