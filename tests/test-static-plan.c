/* test-static-plan.c — modules' static plans listed, and set against the run
 * (docs/buffer-assignment.md, sections 4 and 6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "tm-error.h"
#include "tm-fixture-writer.h"
#include "tm-hlo-fixture.h"
#include "tm-profile.h"
#include "tm-static-plan.h"
#include "tm-test-util.h"

#define MiB ((gint64) 1 << 20)

static void
add_entry (GArray     *entries,
           GBytes     *bytes,
           const char *name)
{
  TmHloEntry entry = { 0 };

  entry.source = tm_source_new_from_bytes (bytes, name);
  entry.size = g_bytes_get_size (bytes);
  entry.name = g_strdup (name);
  entry.sidecar = TRUE;
  g_array_append_val (entries, entry);
}

static TmBufferAssignment *
compute_viewer (gint64 memory_space)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_viewer ();
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  g_autoptr(TmHloProto) proto = NULL;
  g_autoptr(GError) error = NULL;
  TmBufferAssignment *ba;

  proto = tm_hlo_proto_decode (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "jit_train_step(1)", &error);
  g_assert_no_error (error);
  ba = tm_buffer_assignment_compute (proto, "jit_train_step(1)", memory_space, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE,
                                     NULL, &error);
  g_assert_no_error (error);
  return ba;
}

/* The page's module: its figures as the fixture's header says. */
static void
test_viewer_fixture (void)
{
  g_autoptr(TmBufferAssignment) ba = compute_viewer (0);
  g_autoptr(TmBufferAssignment) vmem = compute_viewer (1);

  g_assert_cmpint (ba->n_trace_events, ==, 8);
  g_assert_cmpint (ba->peak_heap, ==, 13 * MiB + 4096);
  g_assert_cmpint (ba->indefinite_bytes, ==, 5 * MiB);
  g_assert_cmpint (tm_buffer_assignment_get_peak (ba), ==, 18 * MiB + 4096);
  g_assert_cmpint (ba->peak_position, ==, 2);
  g_assert_cmpint (ba->entry_parameters, ==, 4 * MiB);
  /* parameter, output, dot.1, fusion.2, the small ones */
  g_assert_cmpuint (ba->max_heap->len, ==, 5);
  g_assert_cmpstr (g_array_index (ba->max_heap, TmHeapObject, 3).shape, ==, "f32[1024,1024]{1,0}");
  g_assert_cmpint (g_array_index (ba->max_heap, TmHeapObject, 3).unpadded_size, ==, 4 * MiB);
  g_assert_cmpint (g_array_index (ba->max_heap, TmHeapObject, 3).size, ==, 5 * MiB);
  g_assert_cmpint (g_array_index (ba->max_heap, TmHeapObject, 4).logical_buffer_id, ==, -1);
  g_assert_cmpint (tm_buffer_assignment_get_peak (vmem), ==, 256 << 10);
}

/* Every module in memory space 0 with its error kept; the default first
 * (most heap simulator events), then by peak, failures last. */
static void
test_summarize_and_order (void)
{
  g_autoptr(TmHloFixture) viewer = tm_hlo_fixture_new_viewer ();
  g_autoptr(TmHloFixture) chain = tm_hlo_fixture_new_chain ();
  g_autoptr(TmHloFixture) base = tm_hlo_fixture_new_base ();
  g_autoptr(GBytes) viewer_bytes = tm_hlo_fixture_serialize (viewer);
  g_autoptr(GBytes) chain_bytes = NULL;
  g_autoptr(GBytes) base_bytes = NULL;
  g_autoptr(GBytes) bad = g_bytes_new_static ("\x0a\x03\x0a\x01" "b\x1a\x7f", 7);
  g_autoptr(GArray) entries = tm_hlo_entries_new ();
  g_autoptr(GArray) plans = NULL;
  g_autoptr(GArray) order = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  const TmModulePlan *p;

  /* base: one 0.5 MiB buffer allocated and freed, plus a 1 MiB constant:
   * fewer events than the viewer module but it is not the biggest either;
   * chain: no events. */
  tm_hlo_fixture_add_event (base, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (base, TM_HLO_FREE, 1, 0);
  base_bytes = tm_hlo_fixture_serialize (base);
  chain_bytes = tm_hlo_fixture_serialize (chain);
  add_entry (entries, bad, "bad(9)");
  add_entry (entries, base_bytes, "base(2)");
  add_entry (entries, chain_bytes, "chain(3)");
  add_entry (entries, viewer_bytes, "viewer(1)");

  plans = tm_static_plan_summarize (entries, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (plans->len, ==, 4);
  p = &g_array_index (plans, TmModulePlan, 0);
  g_assert_nonnull (p->error);
  g_assert_nonnull (strstr (p->error, "bad(9)"));
  p = &g_array_index (plans, TmModulePlan, 3);
  g_assert_null (p->error);
  g_assert_cmpint (p->peak, ==, 18 * MiB + 4096);
  g_assert_cmpint (p->n_trace_events, ==, 8);
  g_assert_cmpuint (p->memory_spaces->len, ==, 2);
  g_assert_cmpint (g_array_index (p->memory_spaces, gint64, 1), ==, 1);
  g_assert_cmpint (g_array_index (plans, TmModulePlan, 1).n_trace_events, ==, 2);

  order = tm_static_plan_order (plans);
  g_assert_cmpuint (order->len, ==, 4);
  g_assert_cmpuint (g_array_index (order, guint, 0), ==, 3);   /* most events */
  g_assert_cmpuint (g_array_index (order, guint, 3), ==, 0);   /* failed */
  /* base (0.5 + 1 MiB) and chain (no trace: 0) by peak */
  g_assert_cmpint (g_array_index (plans, TmModulePlan, g_array_index (order, guint, 1)).peak, >=,
                   g_array_index (plans, TmModulePlan, g_array_index (order, guint, 2)).peak);

  /* Cancelled: nothing, and says so. */
  g_cancellable_cancel (cancellable);
  g_clear_pointer (&plans, g_array_unref);
  plans = tm_static_plan_summarize (entries, NULL, NULL, cancellable, &error);
  g_assert_null (plans);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
add_execution (GArray     *modules,
               const char *name,
               gint64      start,
               gint64      end)
{
  TmHloModule m = { modules->len, g_strdup (name), start, end, g_strdup ("TPU:0") };

  g_array_append_val (modules, m);
}

static void
test_executions (void)
{
  g_autoptr(GArray) modules = g_array_new (FALSE, TRUE, sizeof (TmHloModule));
  g_autoptr(GArray) found = NULL;

  g_array_set_clear_func (modules, (GDestroyNotify) tm_hlo_module_clear);
  add_execution (modules, "jit_step(7)", 0, 10);
  add_execution (modules, "jit_step(8)", 20, 30);
  add_execution (modules, "jit_step", 40, 50);
  add_execution (modules, "", 60, 70);
  add_execution (modules, "jit_step(7)", 80, 90);

  found = tm_static_plan_executions (modules, "jit_step(7)");
  g_assert_cmpuint (found->len, ==, 3);
  g_assert_cmpuint (g_array_index (found, guint, 0), ==, 0);
  g_assert_cmpuint (g_array_index (found, guint, 1), ==, 2);
  g_assert_cmpuint (g_array_index (found, guint, 2), ==, 4);
  g_clear_pointer (&found, g_array_unref);
  found = tm_static_plan_executions (modules, "other(7)");
  g_assert_cmpuint (found->len, ==, 0);
  g_clear_pointer (&found, g_array_unref);
  found = tm_static_plan_executions (NULL, "x");
  g_assert_cmpuint (found->len, ==, 0);
}

/* A memory id whose memory in use is heaps[i] (stack 0) from times[i]. */
static TmMemoryStore *
make_store (const gint64 *times,
            const gint64 *heaps,
            guint         n)
{
  TmMemoryStore *store = tm_memory_store_new ("GPU_0_bfc", NULL);
  g_autoptr(GError) error = NULL;
  gint64 before = 0;

  for (guint i = 0; i < n; i++)
    {
      TmActivity act = { 0 };

      act.kind = heaps[i] >= before ? TM_ACTIVITY_ALLOCATION : TM_ACTIVITY_DEALLOCATION;
      act.time_ps = times[i];
      act.address = 0x1000 * (i + 1);
      act.allocation_bytes = ABS (heaps[i] - before);
      act.requested_bytes = act.allocation_bytes;
      act.heap_bytes = heaps[i];
      act.free_bytes = 1024 * MiB - heaps[i];
      act.op_name = g_strdup ("op");
      act.region_type = g_strdup ("");
      act.data_type = g_strdup ("");
      act.shape = g_strdup ("");
      tm_memory_store_add_activity (store, &act);
      before = heaps[i];
    }
  g_assert_true (tm_memory_store_finish (store, NULL, &error));
  g_assert_no_error (error);
  return store;
}

/* The four verdicts, and the words that say them. The plan: peak 18 MiB
 * + 4 KiB, of which 4 MiB of parameters. */
static void
test_compare (void)
{
  g_autoptr(TmBufferAssignment) plan = compute_viewer (0);
  const gint64 peak = 18 * MiB + 4096;
  struct
  {
    gint64        held;    /* during the execution */
    TmPlanVerdict verdict;
  } cases[] = {
    { 6 * MiB + peak, TM_PLAN_AS_PLANNED },
    { 6 * MiB + peak - 4 * MiB, TM_PLAN_PARAMETERS_TWICE },
    { 6 * MiB + peak - 4 * MiB - 1, TM_PLAN_HELD_LESS },
    { 6 * MiB + peak + 3, TM_PLAN_HELD_MORE },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      /* 6 MiB before, the most during [2000, 10000], back after. */
      const gint64 times[] = { 1000, 3000, 4000, 9000, 11000, 20000 };
      const gint64 heaps[] = { 6 * MiB, 7 * MiB, cases[k].held, 8 * MiB, 6 * MiB, 99 * MiB };
      g_autoptr(TmMemoryStore) store = make_store (times, heaps, G_N_ELEMENTS (times));
      g_autofree char *words = NULL;
      TmPlanComparison c;

      g_assert_true (tm_static_plan_compare (store, plan, 2000, 10000, &c));
      g_assert_true (c.has_before);
      g_assert_cmpint (c.live_before, ==, 6 * MiB);
      g_assert_cmpint (c.held, ==, cases[k].held);
      g_assert_cmpint (c.held_time_ps, ==, 4000);
      g_assert_cmpint (c.static_peak, ==, peak);
      g_assert_cmpint (c.parameters, ==, 4 * MiB);
      g_assert_cmpint (c.expected, ==, 6 * MiB + peak);
      g_assert_cmpint (c.difference, ==, cases[k].held - (6 * MiB + peak));
      g_assert_cmpint (c.verdict, ==, cases[k].verdict);

      words = tm_static_plan_explain (&c, "jit_train_step(1)", "GPU_0_bfc");
      g_assert_nonnull (strstr (words, "jit_train_step(1)"));
      g_assert_nonnull (strstr (words, "GPU_0_bfc"));
      g_assert_nonnull (strstr (words, "6.00 MiB"));
      switch (c.verdict)
        {
        case TM_PLAN_AS_PLANNED:
          g_assert_nonnull (strstr (words, "exactly"));
          break;
        case TM_PLAN_PARAMETERS_TWICE:
          g_assert_nonnull (strstr (words, "counted twice"));
          g_assert_nonnull (strstr (words, "4.00 MiB"));
          break;
        case TM_PLAN_HELD_LESS:
          g_assert_nonnull (strstr (words, "not reached"));
          break;
        case TM_PLAN_HELD_MORE:
          g_assert_nonnull (strstr (words, "more than planned"));
          break;
        }
    }
}

/* The state at the start is the last snapshot's at or before it; an
 * execution before any snapshot cannot be compared; one that starts
 * before the first snapshot has nothing live before it. */
static void
test_compare_edges (void)
{
  g_autoptr(TmBufferAssignment) plan = compute_viewer (0);
  const gint64 times[] = { 1000, 5000 };
  const gint64 heaps[] = { 3 * MiB, 10 * MiB };
  g_autoptr(TmMemoryStore) store = make_store (times, heaps, G_N_ELEMENTS (times));
  TmPlanComparison c;

  g_assert_false (tm_static_plan_compare (store, plan, 0, 999, &c));
  g_assert_true (tm_static_plan_compare (store, plan, 0, 6000, &c));
  g_assert_false (c.has_before);
  g_assert_cmpint (c.live_before, ==, 0);
  g_assert_cmpint (c.held, ==, 10 * MiB);
  g_assert_cmpint (c.held_time_ps, ==, 5000);
  /* Nothing happens during it: the state at its start is held. */
  g_assert_true (tm_static_plan_compare (store, plan, 2000, 3000, &c));
  g_assert_cmpint (c.live_before, ==, 3 * MiB);
  g_assert_cmpint (c.held, ==, 3 * MiB);
  g_assert_cmpint (c.held_time_ps, ==, 2000);
  g_assert_cmpint (c.verdict, ==, TM_PLAN_HELD_LESS);
}

/* The page's profile: the module, its one execution and the memory id,
 * compared; the busiest of several. */
static void
test_compare_profile (void)
{
  g_autoptr(GBytes) keep = NULL;
  struct _TmFixtureSpace *space = tm_hlo_fixture_new_viewer_space (&keep);
  g_autofree char *path = tm_fixture_space_write (space, NULL, "viewer.xplane.pb", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GArray) comparisons = NULL;
  g_autoptr(TmHloProto) proto = NULL;
  g_autoptr(TmBufferAssignment) plan = NULL;
  const TmPlanComparison *c;

  tm_fixture_space_free (space);
  g_assert_no_error (error);
  entries = tm_profile_list_hlo_entries (profile);
  g_assert_cmpuint (entries->len, ==, 3);
  g_assert_cmpstr (g_array_index (entries, TmHloEntry, 0).name, ==, "jit_train_step(1)");
  proto = tm_hlo_entry_decode (&g_array_index (entries, TmHloEntry, 0), &error);
  g_assert_no_error (error);
  plan = tm_buffer_assignment_compute (proto, "jit_train_step(1)", 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE,
                                       NULL, &error);
  g_assert_no_error (error);

  comparisons = tm_static_plan_compare_all (tm_profile_get_memory_store (profile, 0), plan, "jit_train_step(1)",
                                            tm_profile_get_hlo_modules (profile));
  g_assert_cmpuint (comparisons->len, ==, 1);
  g_assert_cmpuint (tm_static_plan_busiest (comparisons), ==, 0);
  c = &g_array_index (comparisons, TmPlanComparison, 0);
  g_assert_cmpint (c->live_before, ==, 6 * MiB);
  g_assert_cmpint (c->held, ==, 23 * MiB);
  /* 6 + 18 MiB 4 KiB expected: 1 MiB 4 KiB less, the parameter is in both. */
  g_assert_cmpint (c->difference, ==, -(MiB + 4096));
  g_assert_cmpint (c->verdict, ==, TM_PLAN_PARAMETERS_TWICE);
  g_assert_cmpuint (tm_static_plan_busiest (NULL), ==, G_MAXUINT);
  tm_fixture_remove (path);
}

/* The planned level over every execution of a module (what the timeline
 * draws): live before + the static peak, and what was held; one before
 * the first snapshot has nothing before it; the module an execution's
 * name is of; the memory space a memory id holds. */
static void
test_levels (void)
{
  const gint64 times[] = { 1000, 3000, 4000, 9000, 11000, 20000 };
  const gint64 heaps[] = { 6 * MiB, 7 * MiB, 30 * MiB, 8 * MiB, 5 * MiB, 9 * MiB };
  g_autoptr(TmMemoryStore) store = make_store (times, heaps, G_N_ELEMENTS (times));
  g_autoptr(GArray) modules = g_array_new (FALSE, TRUE, sizeof (TmHloModule));
  g_autoptr(GArray) plans = g_array_new (FALSE, TRUE, sizeof (TmModulePlan));
  g_autoptr(GArray) levels = NULL;
  const TmPlanLevel *l;
  TmModulePlan plan = { 0 };

  g_array_set_clear_func (modules, (GDestroyNotify) tm_hlo_module_clear);
  add_execution (modules, "jit_step(7)", 500, 900);
  add_execution (modules, "other(2)", 2500, 2600);
  add_execution (modules, "jit_step(7)", 2000, 10000);
  add_execution (modules, "jit_step", 12000, 15000);

  levels = tm_static_plan_levels (store, 10 * MiB, "jit_step(7)", modules);
  g_assert_cmpuint (levels->len, ==, 3);
  l = &g_array_index (levels, TmPlanLevel, 0);
  g_assert_cmpuint (l->execution, ==, 0);
  g_assert_false (l->has_before);
  g_assert_cmpint (l->live_before, ==, 0);
  g_assert_cmpint (l->expected, ==, 10 * MiB);
  g_assert_cmpint (l->held, ==, -1);
  l = &g_array_index (levels, TmPlanLevel, 1);
  g_assert_cmpuint (l->execution, ==, 2);
  g_assert_cmpint (l->start_ps, ==, 2000);
  g_assert_cmpint (l->end_ps, ==, 10000);
  g_assert_true (l->has_before);
  g_assert_cmpint (l->live_before, ==, 6 * MiB);
  g_assert_cmpint (l->expected, ==, 16 * MiB);
  g_assert_cmpint (l->held, ==, 30 * MiB);
  g_assert_cmpint (l->held_time_ps, ==, 4000);
  l = &g_array_index (levels, TmPlanLevel, 2);
  g_assert_cmpuint (l->execution, ==, 3);
  g_assert_cmpint (l->live_before, ==, 5 * MiB);
  g_assert_cmpint (l->expected, ==, 15 * MiB);
  g_assert_cmpint (l->held, ==, 5 * MiB);
  g_assert_cmpint (l->held_time_ps, ==, 12000);

  g_array_set_clear_func (plans, (GDestroyNotify) tm_module_plan_clear);
  plan.name = g_strdup ("jit_step(7)");
  g_array_append_val (plans, plan);
  plan.name = g_strdup ("other(2)");
  g_array_append_val (plans, plan);
  g_assert_cmpstr (tm_static_plan_module_of (plans, "other(2)"), ==, "other(2)");
  g_assert_cmpstr (tm_static_plan_module_of (plans, "jit_step"), ==, "jit_step(7)");
  g_assert_null (tm_static_plan_module_of (plans, "jit_step(8)"));
  g_assert_null (tm_static_plan_module_of (plans, "jit"));
  g_assert_null (tm_static_plan_module_of (NULL, "jit_step"));

  g_assert_cmpint (tm_static_plan_memory_space_of_id ("GPU_0_bfc"), ==, 0);
  g_assert_cmpint (tm_static_plan_memory_space_of_id ("0"), ==, 0);
  g_assert_cmpint (tm_static_plan_memory_space_of_id ("pinned_host"), ==, 5);
  g_assert_cmpint (tm_static_plan_memory_space_of_id ("cuda_host_bfc"), ==, 5);
  g_assert_cmpint (tm_static_plan_memory_space_of_id ("CPU_0"), ==, 5);
  g_assert_cmpint (tm_static_plan_memory_space_of_id (NULL), ==, 0);
}

/* An op's buffers: by its op name or an instruction's name, in every
 * memory space, by id. */
static void
test_find_op (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_viewer ();
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  g_autoptr(TmHloProto) proto = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(GError) error = NULL;
  const TmOpBuffer *b;

  proto = tm_hlo_proto_decode (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "m", &error);
  g_assert_no_error (error);

  found = tm_static_plan_find_op (proto, "jit(train_step)/dot_general");
  g_assert_cmpuint (found->len, ==, 2);
  b = &g_array_index (found, TmOpBuffer, 0);
  g_assert_cmpint (b->logical_buffer_id, ==, 2);
  g_assert_cmpint (b->memory_space, ==, 0);
  g_assert_cmpint (b->size, ==, 8 * MiB);
  g_assert_cmpstr (b->instruction, ==, "dot.1");
  b = &g_array_index (found, TmOpBuffer, 1);
  g_assert_cmpint (b->logical_buffer_id, ==, 7);
  g_assert_cmpint (b->memory_space, ==, 1);
  g_clear_pointer (&found, g_array_unref);

  found = tm_static_plan_find_op (proto, "copy.3");
  g_assert_cmpuint (found->len, ==, 1);
  g_assert_cmpint (g_array_index (found, TmOpBuffer, 0).logical_buffer_id, ==, 4);
  g_clear_pointer (&found, g_array_unref);

  found = tm_static_plan_find_op (proto, "jit(train_step)");
  g_assert_cmpuint (found->len, ==, 0);
  g_clear_pointer (&found, g_array_unref);
  found = tm_static_plan_find_op (proto, "");
  g_assert_cmpuint (found->len, ==, 0);
}

/* The real MI300X profile: eight modules, the convolution first (six
 * events, the most), then by XProf's peaks. */
static void
test_real_profile (void)
{
  static const char * const want[] = {
    "jit_forward_3d_conv(15)", "jit__multi_slice(13)", "jit__normal(9)", "jit__normal(11)",
    "jit__unstack(7)", "jit__threefry_split(5)", "jit__threefry_seed(3)", "jit_convert_element_type(1)",
  };
  static const gint64 peaks[] = { 1158144000, 102236224, 51118092, 655368, 72, 32, 12, 8 };
  g_autofree char *path = tm_test_real_profile ("jax_rocm_mi300x_conv.xplane.pb");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GArray) plans = NULL;
  g_autoptr(GArray) order = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    return;
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  entries = tm_profile_list_hlo_entries (profile);
  plans = tm_static_plan_summarize (entries, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  order = tm_static_plan_order (plans);
  g_assert_cmpuint (order->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < order->len; i++)
    {
      const TmModulePlan *p = &g_array_index (plans, TmModulePlan, g_array_index (order, guint, i));

      g_assert_cmpstr (p->name, ==, want[i]);
      g_assert_cmpint (p->peak, ==, peaks[i]);
      g_assert_null (p->error);
    }
  /* GPU: no XLA Modules line, so no execution to compare with. */
  g_assert_cmpuint (tm_profile_get_hlo_modules (profile)->len, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/static-plan/viewer-fixture", test_viewer_fixture);
  g_test_add_func ("/static-plan/summarize-and-order", test_summarize_and_order);
  g_test_add_func ("/static-plan/executions", test_executions);
  g_test_add_func ("/static-plan/compare", test_compare);
  g_test_add_func ("/static-plan/compare-edges", test_compare_edges);
  g_test_add_func ("/static-plan/compare-profile", test_compare_profile);
  g_test_add_func ("/static-plan/levels", test_levels);
  g_test_add_func ("/static-plan/find-op", test_find_op);
  g_test_add_func ("/static-plan/real-profile", test_real_profile);

  return g_test_run ();
}
