/* test-buffer-assignment.c — XProf's Memory Viewer: decoding HloProtos and
 * the computation (docs/buffer-assignment.md)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The first tests carry over the expectations of XProf's own unit tests
 * (hlo_proto_to_memory_visualization_utils_test.cc), whose modules are
 * built here with the generated structs; those about the Graphviz picture
 * are checked on the allocation chart's blocks instead. Then our own
 * cases, bad protos, and the real profile of $TM_REAL_PROFILES against
 * XProf's figures.
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "tm-buffer-assignment.h"
#include "tm-error.h"
#include "tm-hlo-fixture.h"
#include "tm-memory-viewer-json.h"
#include "tm-test-util.h"

#define MIB(bytes) ((double) (bytes) / (double) (1 << 20))

/* The peaks as XProf's JSON has them: the heap part and the indefinite
 * part, each in MiB, added. */
static double
peak_mib (const TmBufferAssignment *r)
{
  return MIB (r->peak_heap) + MIB (r->indefinite_bytes);
}

static double
peak_unpadded_mib (const TmBufferAssignment *r)
{
  return MIB (r->peak_unpadded_heap) + MIB (r->indefinite_bytes);
}

/* Serializes the fixture, decodes it as the reader does and computes. */
static TmBufferAssignment *
compute_full (TmHloFixture  *f,
              gint64         color,
              gint64         small,
              GError       **error)
{
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  g_autoptr(TmHloProto) proto = NULL;
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  proto = tm_hlo_proto_decode (data, size, "test_module(1)", error);
  if (proto == NULL)
    return NULL;
  return tm_buffer_assignment_compute (proto, "test_module(1)", color, small, NULL, error);
}

static TmBufferAssignment *
compute (TmHloFixture *f,
         gint64        color,
         gint64        small)
{
  g_autoptr(GError) error = NULL;
  TmBufferAssignment *r = compute_full (f, color, small, &error);

  g_assert_no_error (error);
  g_assert_nonnull (r);
  return r;
}

static void
add_events (TmHloFixture *f,
            const int    *events,
            guint         n)
{
  for (guint i = 0; i < n; i += 3)
    tm_hlo_fixture_add_event (f, events[i], events[i + 1], events[i + 2]);
}

static guint
n_buffer_blocks (const TmBufferAssignment *r)
{
  guint n = 0;

  for (guint i = 0; i < r->blocks->len; i++)
    n += g_array_index (r->blocks, TmBufferBlock, i).logical_buffer_id != -1;
  return n;
}

/* XProf: TestHeapSimulatorTraceShareWith_1. */
static void
test_share_with_1 (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_base ();
  static const int events[] = { TM_HLO_ALLOC, 1, 0, TM_HLO_SHARE_WITH, 2, 1, TM_HLO_FREE, 1, 0, TM_HLO_FREE, 2, 0 };
  g_autoptr(TmBufferAssignment) r = NULL;

  add_events (f, events, G_N_ELEMENTS (events));
  r = compute (f, 0, 0);
  g_assert_cmpfloat (peak_mib (r), ==, 1.5);
  g_assert_cmpfloat (peak_unpadded_mib (r), ==, 8.0 / (1 << 20) + 1);
  g_assert_cmpfloat (MIB (r->total_allocation), ==, 2);
  g_assert_cmpfloat (MIB (r->indefinite_allocation), ==, 1);
}

/* XProf: TestHeapSimulatorTraceShareWith_2. */
static void
test_share_with_2 (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_base ();
  static const int events[] = { TM_HLO_ALLOC, 1, 0, TM_HLO_FREE, 1, 0, TM_HLO_SHARE_WITH, 2, 1, TM_HLO_FREE, 2, 0 };
  g_autoptr(TmBufferAssignment) r = NULL;

  add_events (f, events, G_N_ELEMENTS (events));
  r = compute (f, 0, 0);
  g_assert_cmpfloat (peak_mib (r), ==, 1.5);
  g_assert_cmpfloat (peak_unpadded_mib (r), ==, 8.0 / (1 << 20) + 1);
  g_assert_cmpfloat (MIB (r->total_allocation), ==, 2);
  g_assert_cmpfloat (MIB (r->indefinite_allocation), ==, 1);
  /* XProf: the allocation timeline is not empty. */
  g_assert_cmpuint (r->blocks->len, >, 0);
}

/* XProf: TestHeapSimulatorTraceShareWithChain — a chain C → B → A is
 * counted at its root, with no phantom entry. */
static void
test_share_with_chain (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_chain ();
  static const int events[] = {
    TM_HLO_ALLOC, 1, 0, TM_HLO_SHARE_WITH, 2, 1, TM_HLO_FREE, 1, 0,
    TM_HLO_FREE, 2, 0, TM_HLO_SHARE_WITH, 3, 2, TM_HLO_FREE, 3, 0,
  };
  g_autoptr(TmBufferAssignment) r = NULL;

  add_events (f, events, G_N_ELEMENTS (events));
  r = compute (f, 0, 0);
  g_assert_cmpfloat (peak_mib (r), ==, 0.5);
  g_assert_cmpuint (r->max_heap->len, ==, 1);
}

/* XProf: TestShareWithChainDisplayName — at the peak the root's memory is
 * shown with the current sharer's metadata. */
static void
test_share_with_chain_display_name (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_display ();
  static const int events[] = {
    TM_HLO_ALLOC, 1, 0, TM_HLO_SHARE_WITH, 2, 1, TM_HLO_FREE, 1, 0, TM_HLO_FREE, 2, 0,
    TM_HLO_ALLOC, 4, 0, TM_HLO_SHARE_WITH, 3, 2, TM_HLO_FREE, 3, 0, TM_HLO_FREE, 4, 0,
  };
  g_autoptr(TmBufferAssignment) r = NULL;
  gboolean found_3 = FALSE, found_4 = FALSE;

  add_events (f, events, G_N_ELEMENTS (events));
  r = compute (f, 1, 0);
  g_assert_cmpfloat (peak_mib (r), ==, 0.75);
  g_assert_cmpuint (r->max_heap->len, ==, 2);
  for (guint i = 0; i < r->max_heap->len; i++)
    {
      const char *name = g_array_index (r->max_heap, TmHeapObject, i).instruction_name;

      found_3 |= strstr (name, "fusion.3") != NULL;
      found_4 |= strstr (name, "fusion.4") != NULL;
      g_assert_null (strstr (name, "fusion.1"));
    }
  g_assert_true (found_3);
  g_assert_true (found_4);
}

/* Two buffers of the chart overlap if both their step ranges and their
 * byte ranges do. */
static void
assert_no_overlap (const TmBufferAssignment *r)
{
  for (guint i = 0; i < r->blocks->len; i++)
    for (guint k = i + 1; k < r->blocks->len; k++)
      {
        const TmBufferBlock *a = &g_array_index (r->blocks, TmBufferBlock, i);
        const TmBufferBlock *b = &g_array_index (r->blocks, TmBufferBlock, k);

        if (a->logical_buffer_id == -1 || b->logical_buffer_id == -1)
          continue;
        g_assert_false (a->start_step < b->end_step && b->start_step < a->end_step &&
                        a->offset < b->offset + (guint64) b->size && b->offset < a->offset + (guint64) a->size);
      }
}

static TmHloFixture *
two_buffers (gint64 size,
             gint64 offset_1,
             gint64 offset_2,
             gint64 buffer_size,
             gint64 color,
             gboolean chronological)
{
  TmHloFixture *f = tm_hlo_fixture_new ("test_module", "test_computation");
  Xla__BufferAllocationProto *a;

  tm_hlo_fixture_add_instruction (f, "fusion.1", 0);
  tm_hlo_fixture_add_instruction (f, "fusion.2", 1);
  a = tm_hlo_fixture_add_allocation (f, 0, size, color, 0);
  tm_hlo_fixture_assign (f, a, 1, offset_1, buffer_size);
  tm_hlo_fixture_assign (f, a, 2, offset_2, buffer_size);
  tm_hlo_fixture_add_logical_buffer (f, 1, buffer_size, color, 0);
  tm_hlo_fixture_add_logical_buffer (f, 2, buffer_size, color, 1);
  tm_hlo_fixture_add_trace (f);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 1, 0);
  if (chronological)
    {
      tm_hlo_fixture_add_event (f, TM_HLO_FREE, 1, 0);
      tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 2, 0);
    }
  else
    {
      tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 2, 0);
      tm_hlo_fixture_add_event (f, TM_HLO_FREE, 1, 0);
    }
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 2, 0);
  return f;
}

/* XProf: TestLogicalBuffersDoNotOverlap, on the blocks: one allocation,
 * one at the scale of a large customer module, and reuse in time. */
static void
test_buffers_do_not_overlap (void)
{
  g_autoptr(TmHloFixture) single = two_buffers (1048576, 0, 524288, 524288, 0, FALSE);
  g_autoptr(TmHloFixture) scale = two_buffers (54344548352, 54076112896, 54210330624, 134217728, 0, FALSE);
  g_autoptr(TmHloFixture) chrono = two_buffers (1048576, 0, 0, 524288, 0, TRUE);
  TmHloFixture *all[] = { single, scale, chrono };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autoptr(TmBufferAssignment) r = compute (all[i], 0, 0);

      g_assert_cmpuint (n_buffer_blocks (r), >, 0);
      assert_no_overlap (r);
    }
}

static TmHloFixture *
vmem_module (const char *config_1,
             const char *config_2)
{
  TmHloFixture *f = two_buffers (1048576, 0, 524288, 524288, 1, FALSE);
  Xla__HloInstructionProto **insts = tm_hlo_fixture_get_proto (f)->hlo_module->computations[0]->instructions;

  if (config_1 != NULL)
    {
      insts[0]->backend_config.data = (guint8 *) tm_hlo_fixture_strdup (f, config_1);
      insts[0]->backend_config.len = strlen (config_1);
    }
  if (config_2 != NULL)
    {
      insts[1]->backend_config.data = (guint8 *) tm_hlo_fixture_strdup (f, config_2);
      insts[1]->backend_config.len = strlen (config_2);
    }
  return f;
}

#define SCOPED_1MIB "{\"used_scoped_memory_configs\":[{\"memory_space\":\"1\",\"size\":\"1048576\"}]}"
#define SCOPED_2MIB "{\"used_scoped_memory_configs\":[{\"memory_space\":\"1\",\"size\":\"2097152\"}]}"

/* XProf: the four ScopedVmemAllocation tests. */
static void
test_scoped_vmem (void)
{
  g_autoptr(TmHloFixture) single = vmem_module (SCOPED_1MIB, NULL);
  g_autoptr(TmHloFixture) two = vmem_module (SCOPED_1MIB, SCOPED_2MIB);
  g_autoptr(TmHloFixture) none = vmem_module (NULL, NULL);
  g_autoptr(TmHloFixture) hbm = tm_hlo_fixture_new_base ();
  static const int events[] = { TM_HLO_ALLOC, 1, 0, TM_HLO_ALLOC, 2, 0, TM_HLO_FREE, 1, 0, TM_HLO_FREE, 2, 0 };
  Xla__HloInstructionProto *inst;
  g_autoptr(TmBufferAssignment) r1 = compute (single, 1, 0);
  g_autoptr(TmBufferAssignment) r2 = compute (two, 1, 0);
  g_autoptr(TmBufferAssignment) r3 = compute (none, 1, 0);
  g_autoptr(TmBufferAssignment) r4 = NULL;

  g_assert_cmpfloat (MIB (r1->max_scoped_vmem), ==, 1.0);
  g_assert_cmpstr (r1->max_scoped_vmem_instruction, ==, "fusion.1");
  g_assert_cmpfloat (MIB (r2->max_scoped_vmem), ==, 2.0);
  g_assert_cmpstr (r2->max_scoped_vmem_instruction, ==, "fusion.2");
  g_assert_cmpint (r3->max_scoped_vmem, ==, 0);
  g_assert_null (r3->max_scoped_vmem_instruction);

  add_events (hbm, events, G_N_ELEMENTS (events));
  inst = tm_hlo_fixture_get_proto (hbm)->hlo_module->computations[0]->instructions[0];
  inst->backend_config.data = (guint8 *) tm_hlo_fixture_strdup (hbm, SCOPED_1MIB);
  inst->backend_config.len = strlen (SCOPED_1MIB);
  r4 = compute (hbm, 0, 0);
  g_assert_cmpint (r4->max_scoped_vmem, ==, 0);
  g_assert_null (r4->max_scoped_vmem_instruction);
}

/* XProf: TestConvertAllocationTimeline_BufferBlocks. */
static void
test_buffer_blocks (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_base ();
  static const int events[] = { TM_HLO_ALLOC, 1, 0, TM_HLO_FREE, 1, 0, TM_HLO_SHARE_WITH, 2, 1, TM_HLO_FREE, 2, 0 };
  g_autoptr(TmBufferAssignment) r = NULL;
  const TmBufferBlock *container, *block;

  add_events (f, events, G_N_ELEMENTS (events));
  r = compute (f, 0, 0);
  g_assert_cmpuint (r->blocks->len, ==, 2);

  container = &g_array_index (r->blocks, TmBufferBlock, 0);
  g_assert_cmpint (container->logical_buffer_id, ==, -1);
  g_assert_cmpuint (container->offset, ==, 0);
  g_assert_cmpint (container->size, ==, 1048576);
  g_assert_cmpint (container->start_step, ==, 0);
  g_assert_cmpint (container->end_step, ==, 4);
  g_assert_cmpstr (container->color, ==, "#ffffff");

  block = &g_array_index (r->blocks, TmBufferBlock, 1);
  g_assert_cmpint (block->logical_buffer_id, ==, 1);
  g_assert_cmpstr (block->name, ==, "fusion.1{0}");
  g_assert_cmpuint (block->offset, ==, 0);
  g_assert_cmpint (block->size, ==, 524288);
  g_assert_cmpint (block->start_step, ==, 0);
  g_assert_cmpint (block->end_step, ==, 3);
  g_assert_cmpstr (block->category, ==, "Temporary");
  /* Ours: the constant is object 0 at the peak, buffer 1 object 1, so the
   * block takes the palette's second colour. */
  g_assert_cmpstr (block->color, ==, "#2196f3");
}

/* XProf: the three label and font tests, on what the chart holds: one
 * block per buffer, named after its instruction. */
static void
test_chart_labels (void)
{
  g_autoptr(TmHloFixture) labels = two_buffers (1048576, 0, 524288, 524288, 1, FALSE);
  g_autoptr(TmHloFixture) font = tm_hlo_fixture_new ("test_module", "test_computation");
  g_autoptr(TmHloFixture) repeat = tm_hlo_fixture_new ("test_module", "test_computation");
  g_autoptr(TmBufferAssignment) r1 = NULL, r2 = NULL, r3 = NULL;
  Xla__BufferAllocationProto *a;

  r1 = compute (labels, 1, 0);
  g_assert_cmpuint (n_buffer_blocks (r1), ==, 2);
  g_assert_cmpstr (g_array_index (r1->blocks, TmBufferBlock, 1).name, ==, "fusion.1{0}");
  g_assert_cmpstr (g_array_index (r1->blocks, TmBufferBlock, 2).name, ==, "fusion.2{0}");

  tm_hlo_fixture_add_instruction (repeat, "very_long_instruction_name_that_should_be_truncated", 0);
  a = tm_hlo_fixture_add_allocation (repeat, 0, 1048576, 1, 0);
  tm_hlo_fixture_assign (repeat, a, 1, 0, 1048576);
  tm_hlo_fixture_add_logical_buffer (repeat, 1, 1048576, 1, 0);
  for (guint i = 0; i < 50; i++)
    {
      tm_hlo_fixture_add_event (repeat, TM_HLO_ALLOC, 1, 0);
      tm_hlo_fixture_add_event (repeat, TM_HLO_FREE, 1, 0);
    }
  r2 = compute (repeat, 1, 0);
  g_assert_cmpuint (n_buffer_blocks (r2), ==, 1);
  /* The last allocation's span: ALLOC at event 98, FREE at 99. */
  g_assert_cmpint (g_array_index (r2->blocks, TmBufferBlock, 1).start_step, ==, 98);
  g_assert_cmpint (g_array_index (r2->blocks, TmBufferBlock, 1).end_step, ==, 99);
  g_assert_cmpint (r2->heap_sizes->len, ==, 101);

  tm_hlo_fixture_add_instruction (font, "large_buffer", 0);
  tm_hlo_fixture_add_instruction (font, "medium_buffer", 1);
  tm_hlo_fixture_add_instruction (font, "small_buffer", 2);
  a = tm_hlo_fixture_add_allocation (font, 0, 1000000, 1, 0);
  tm_hlo_fixture_assign (font, a, 1, 0, 995000);
  tm_hlo_fixture_assign (font, a, 2, 995000, 4000);
  tm_hlo_fixture_assign (font, a, 3, 999000, 1000);
  tm_hlo_fixture_add_logical_buffer (font, 1, 995000, 1, 0);
  tm_hlo_fixture_add_logical_buffer (font, 2, 4000, 1, 1);
  tm_hlo_fixture_add_logical_buffer (font, 3, 1000, 1, 2);
  for (gint64 id = 1; id <= 3; id++)
    tm_hlo_fixture_add_event (font, TM_HLO_ALLOC, id, 0);
  for (gint64 id = 1; id <= 3; id++)
    tm_hlo_fixture_add_event (font, TM_HLO_FREE, id, 0);
  r3 = compute (font, 1, 0);
  g_assert_cmpuint (n_buffer_blocks (r3), ==, 3);
  assert_no_overlap (r3);
}

/* Ours: buffers under the small size are one object at the end. */
static void
test_small_buffers (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new ("test_module", "test_computation");
  g_autoptr(TmBufferAssignment) r = NULL;
  Xla__BufferAllocationProto *a;
  const TmHeapObject *small;

  tm_hlo_fixture_add_instruction (f, "large_buffer", 0);
  tm_hlo_fixture_add_instruction (f, "medium_buffer", 1);
  tm_hlo_fixture_add_instruction (f, "small_buffer", 2);
  a = tm_hlo_fixture_add_allocation (f, 0, 1000000, 0, 0);
  tm_hlo_fixture_assign (f, a, 1, 0, 995000);
  tm_hlo_fixture_assign (f, a, 2, 995000, 4000);
  tm_hlo_fixture_assign (f, a, 3, 999000, 1000);
  tm_hlo_fixture_add_logical_buffer (f, 1, 995000, 0, 0);
  tm_hlo_fixture_add_logical_buffer (f, 2, 4000, 0, 1);
  tm_hlo_fixture_add_logical_buffer (f, 3, 1000, 0, 2);
  for (gint64 id = 1; id <= 3; id++)
    tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, id, 0);
  for (gint64 id = 3; id >= 1; id--)
    tm_hlo_fixture_add_event (f, TM_HLO_FREE, id, 0);

  r = compute (f, 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE);
  g_assert_cmpint (r->peak_heap, ==, 1000000);
  g_assert_cmpint (r->peak_position, ==, 2);
  g_assert_cmpuint (r->max_heap->len, ==, 2);
  small = &g_array_index (r->max_heap, TmHeapObject, 1);
  g_assert_cmpstr (small->label, ==, "small (<16384 bytes)");
  g_assert_cmpint (small->logical_buffer_id, ==, -1);
  g_assert_cmpint (small->size, ==, 5000);
  g_assert_cmpint (small->unpadded_size, ==, 0);
  g_assert_cmpint (small->numbered, ==, 1);
  /* The heap before each event and after the last. */
  g_assert_cmpuint (r->heap_sizes->len, ==, 7);
  g_assert_cmpint (g_array_index (r->heap_sizes, gint64, 3), ==, 1000000);
  g_assert_cmpint (g_array_index (r->unpadded_heap_sizes, gint64, 3), ==, 24);
  g_assert_cmpstr (g_ptr_array_index (r->instruction_names, 6), ==, "");
}

/* Ours: equal sizes come out in the order libstdc++'s std::sort leaves
 * them (the figures were taken from std::sort itself). */
static void
test_by_size_order (void)
{
  static const guint expected[] = {
    17, 2, 37, 22, 7, 32, 27, 12, 9, 24, 14, 29, 19, 34, 4, 39, 21, 1, 26, 31,
    36, 16, 11, 6, 18, 23, 38, 13, 28, 3, 8, 33, 0, 20, 5, 35, 10, 30, 15, 25,
  };
  static const guint expected_300[] = { 68, 218, 176, 80, 221, 125, 77, 224, 74, 227 };
  struct { guint n; guint mult; gint64 unit; guint mod; } cases[] = { { 40, 7, 1048576, 5 }, { 300, 37, 65536, 3 } };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(TmHloFixture) f = tm_hlo_fixture_new ("test_module", "test_computation");
      g_autoptr(TmBufferAssignment) r = NULL;
      Xla__BufferAllocationProto *a = tm_hlo_fixture_add_allocation (f, 0, 1 << 30, 0, 0);
      guint32 h = 0;

      for (guint i = 0; i < cases[c].n; i++)
        {
          g_autofree char *name = g_strdup_printf ("fusion.%u", i);
          gint64 size = ((i * cases[c].mult) % cases[c].mod + 1) * cases[c].unit;

          tm_hlo_fixture_add_instruction (f, name, i);
          tm_hlo_fixture_assign (f, a, i + 1, 0, size);
          tm_hlo_fixture_add_logical_buffer (f, i + 1, size, 0, i);
          tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, i + 1, 0);
        }
      r = compute (f, 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE);
      g_assert_cmpuint (r->by_size->len, ==, cases[c].n);
      for (guint i = 0; i < cases[c].n; i++)
        {
          guint k = g_array_index (r->by_size, guint, i);

          h = h * 31 + k;
          if (c == 0)
            g_assert_cmpuint (k, ==, expected[i]);
          else if (i < G_N_ELEMENTS (expected_300))
            g_assert_cmpuint (k, ==, expected_300[i]);
        }
      if (c == 1)
        g_assert_cmpuint (h, ==, 86794808u);
    }
}

/* ------------------------------------------------------------------ */
/* Bad protos                                                         */
/* ------------------------------------------------------------------ */

static void
assert_decode_fails (const guint8 *data,
                     gsize         size,
                     gint          code,
                     const char   *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHloProto) proto = tm_hlo_proto_decode (data, size, "bad_module(7)", &error);

  g_assert_null (proto);
  g_assert_error (error, TM_ERROR, code);
  g_assert_nonnull (strstr (error->message, "bad_module(7)"));
  if (text != NULL && strstr (error->message, text) == NULL)
    g_error ("“%s” does not say “%s”", error->message, text);
}

static void
test_bad_truncated (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_base ();
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  /* Cut inside the buffer assignment: its length runs past the end. */
  assert_decode_fails (data, size - 3, TM_ERROR_LENGTH, "at byte");
  assert_decode_fails (data, 0, TM_ERROR_INVALID, "empty");
}

static void
test_bad_length (void)
{
  /* HloProto.hlo_module claiming 1000 bytes of 4. */
  static const guint8 data[] = { 0x0a, 0xe8, 0x07, 0x0a, 0x01, 'm' };

  assert_decode_fails (data, sizeof data, TM_ERROR_LENGTH, "at byte 1");
}

static void
test_bad_wire_type (void)
{
  /* HloProto.hlo_module as a varint. */
  static const guint8 data[] = { 0x08, 0x01 };

  assert_decode_fails (data, sizeof data, TM_ERROR_WIRE_TYPE, "xla.HloProto.hlo_module");
}

/* Shapes nest through tuple_shapes: 200 levels deep inside one
 * instruction. */
static void
test_bad_deep (void)
{
  GByteArray *inner = g_byte_array_new ();
  g_autoptr(GByteArray) out = NULL;
  static const guint8 fields[] = { 0x22 /* tuple_shapes */ };

  for (guint level = 0; level < 200; level++)
    {
      GByteArray *wrap = g_byte_array_new ();
      guint8 len[10];
      guint n = 0;
      guint64 v = inner->len;

      do
        {
          len[n++] = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
          v >>= 7;
        }
      while (v != 0);
      g_byte_array_append (wrap, fields, 1);
      g_byte_array_append (wrap, len, n);
      g_byte_array_append (wrap, inner->data, inner->len);
      g_byte_array_unref (inner);
      inner = wrap;
    }
  /* instruction.shape (3) ← computation.instructions (2) ← module.computations (3) ← HloProto.hlo_module (1) */
  {
    static const guint8 tags[] = { 0x1a, 0x12, 0x1a, 0x0a };

    for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
      {
        GByteArray *wrap = g_byte_array_new ();
        guint8 len[10];
        guint n = 0;
        guint64 v = inner->len;

        do
          {
            len[n++] = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
            v >>= 7;
          }
        while (v != 0);
        g_byte_array_append (wrap, &tags[t], 1);
        g_byte_array_append (wrap, len, n);
        g_byte_array_append (wrap, inner->data, inner->len);
        g_byte_array_unref (inner);
        inner = wrap;
      }
  }
  out = inner;
  assert_decode_fails (out->data, out->len, TM_ERROR_TOO_DEEP, "nested too deep");
}

static void
test_bad_no_buffer_assignment (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_base ();
  g_autoptr(GBytes) bytes = NULL;
  Xla__BufferAssignmentProto *ba = tm_hlo_fixture_get_proto (f)->buffer_assignment;
  gsize size;
  const guint8 *data;

  /* Left out while serializing; put back for the fixture to free. */
  tm_hlo_fixture_get_proto (f)->buffer_assignment = NULL;
  bytes = tm_hlo_fixture_serialize (f);
  tm_hlo_fixture_get_proto (f)->buffer_assignment = ba;
  data = g_bytes_get_data (bytes, &size);
  assert_decode_fails (data, size, TM_ERROR_INVALID, "no buffer assignment");
}

static void
assert_compute_fails (TmHloFixture *f,
                      const char   *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmBufferAssignment) r = compute_full (f, 0, 0, &error);

  g_assert_null (r);
  g_assert_error (error, TM_ERROR, TM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "test_module(1)"));
  if (strstr (error->message, text) == NULL)
    g_error ("“%s” does not say “%s”", error->message, text);
}

/* What XProf refuses, and what it would loop or crash on. */
static void
test_bad_traces (void)
{
  g_autoptr(TmHloFixture) twice = tm_hlo_fixture_new_base ();
  g_autoptr(TmHloFixture) kind = tm_hlo_fixture_new_base ();
  g_autoptr(TmHloFixture) self_share = tm_hlo_fixture_new_base ();
  g_autoptr(TmHloFixture) cycle = tm_hlo_fixture_new_base ();
  g_autoptr(TmHloFixture) two_allocs = tm_hlo_fixture_new_base ();

  tm_hlo_fixture_add_event (twice, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (twice, TM_HLO_FREE, 1, 0);
  tm_hlo_fixture_add_event (twice, TM_HLO_FREE, 1, 0);
  assert_compute_fails (twice, "freed multiple times");

  tm_hlo_fixture_add_event (kind, 7, 1, 0);
  assert_compute_fails (kind, "Unhandled event kind: 7");

  tm_hlo_fixture_add_event (self_share, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (self_share, TM_HLO_SHARE_WITH, 1, 1);
  assert_compute_fails (self_share, "shares with");

  tm_hlo_fixture_add_event (cycle, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (cycle, TM_HLO_SHARE_WITH, 2, 1);
  tm_hlo_fixture_add_event (cycle, TM_HLO_SHARE_WITH, 1, 2);
  assert_compute_fails (cycle, "shares with");

  /* Buffer 3 lies in the constant allocation. */
  tm_hlo_fixture_add_event (two_allocs, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (two_allocs, TM_HLO_ALLOC, 3, 0);
  assert_compute_fails (two_allocs, "single buffer allocation");
}

/* The profile opens; the good module computes and the bad one says what
 * is wrong, naming itself. */
static void
test_bad_module_in_profile (void)
{
  g_autoptr(GBytes) keep = NULL;
  g_autoptr(TmFixtureSpace) space = tm_hlo_fixture_new_two_module_space (&keep);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;

  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  entries = tm_profile_list_hlo_entries (profile);
  g_assert_cmpuint (entries->len, ==, 2);
  for (guint i = 0; i < entries->len; i++)
    {
      const TmHloEntry *e = &g_array_index (entries, TmHloEntry, i);
      g_autoptr(TmHloProto) proto = NULL;
      g_autoptr(GError) local = NULL;

      proto = tm_hlo_entry_decode (e, &local);
      if (g_str_has_prefix (e->name, "test_module("))
        {
          g_autoptr(TmBufferAssignment) r = NULL;

          g_assert_no_error (local);
          r = tm_buffer_assignment_compute (proto, e->name, 0, 0, NULL, &local);
          g_assert_no_error (local);
          g_assert_cmpint (tm_buffer_assignment_get_peak (r), ==, 524288 + 1048576);
        }
      else
        {
          g_assert_true (g_str_has_prefix (e->name, "b("));
          g_assert_null (proto);
          g_assert_error (local, TM_ERROR, TM_ERROR_LENGTH);
          g_assert_nonnull (strstr (local->message, e->name));
        }
    }
}

/* Names as XProf makes them: the program_id stat wins over the event
 * metadata's id, prints as an unsigned 64-bit number, and of two modules
 * with one name the first is kept. */
static void
test_module_names (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  TmFixturePlane *plane = tm_fixture_space_add_plane (space, "/host:metadata");
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new_base ();
  g_autoptr(GBytes) bytes = tm_hlo_fixture_serialize (f);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  TmFixtureStat stat = { .name = "Hlo Proto", .kind = TM_FIXTURE_STAT_BYTES };
  TmFixtureStat minus_two = TM_FIXTURE_INT64 ("program_id", -2);
  TmFixtureStat five = TM_FIXTURE_INT64 ("program_id", 5);
  const char *names[] = { "first", "second", "third" };

  stat.str = g_bytes_get_data (bytes, &stat.n_bytes);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      tm_fixture_plane_add_event_metadata_stat (plane, names[i], &stat);
      tm_fixture_plane_add_event_metadata_stat (plane, names[i], i == 0 ? &minus_two : &five);
    }
  tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  profile = tm_test_load_space (space, &error);
  g_assert_no_error (error);
  entries = tm_profile_list_hlo_entries (profile);
  g_assert_cmpuint (entries->len, ==, 2);
  g_assert_cmpstr (g_array_index (entries, TmHloEntry, 0).name, ==, "test_module(18446744073709551614)");
  g_assert_cmpint (g_array_index (entries, TmHloEntry, 0).program_id, ==, -2);
  g_assert_cmpstr (g_array_index (entries, TmHloEntry, 1).name, ==, "test_module(5)");
}

/* Sizes near the 64-bit limit wrap instead of overflowing, and still give
 * a result (UndefinedBehaviorSanitizer builds report an overflow). */
static void
test_huge_sizes (void)
{
  g_autoptr(TmHloFixture) f = tm_hlo_fixture_new ("test_module", "test_computation");
  g_autoptr(TmBufferAssignment) r = NULL;
  g_autofree char *json = NULL;
  Xla__BufferAllocationProto *a;
  TmMemoryViewerModule m = { "test_module(1)", 0, NULL, NULL };

  tm_hlo_fixture_add_instruction (f, "fusion.1", 0);
  tm_hlo_fixture_add_instruction (f, "fusion.2", 1);
  a = tm_hlo_fixture_add_allocation (f, 0, G_MAXINT64, 0, 0);
  tm_hlo_fixture_assign (f, a, 1, 0, G_MAXINT64);
  tm_hlo_fixture_assign (f, a, 2, G_MAXINT64, G_MAXINT64);
  tm_hlo_fixture_add_logical_buffer (f, 1, G_MAXINT64, 0, 0);
  tm_hlo_fixture_add_logical_buffer (f, 2, G_MAXINT64, 0, 1);
  a = tm_hlo_fixture_add_allocation (f, 1, G_MAXINT64, 0, TM_HLO_ALLOC_PARAMETER | TM_HLO_ALLOC_TUPLE);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 2, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 2, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 1, 0);
  r = compute (f, 0, 0);
  g_assert_cmpint (r->peak_heap, ==, G_MAXINT64);
  g_assert_cmpint (r->total_allocation, ==, -2);
  m.result = r;
  json = tm_memory_viewer_json ("f", &m, 1, NULL);
  g_assert_true (g_str_has_prefix (json, "{\"file\":\"f\""));
}

/* ------------------------------------------------------------------ */
/* The real profile                                                   */
/* ------------------------------------------------------------------ */

static gboolean
json_is_default (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_HOLDS_ARRAY (node))
    return json_array_get_length (json_node_get_array (node)) == 0;
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_object_get_size (json_node_get_object (node)) == 0;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      {
        const char *s = json_node_get_string (node);

        return s[0] == '\0' || g_str_equal (s, "0");
      }
    case G_TYPE_BOOLEAN:
      return !json_node_get_boolean (node);
    default:
      return json_node_get_double (node) == 0.0;
    }
}

static gboolean
json_number (JsonNode *node,
             double   *value)
{
  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
    case G_TYPE_DOUBLE:
      *value = json_node_get_double (node);
      return TRUE;
    case G_TYPE_STRING:
      {
        /* int64 fields may be strings. */
        gint64 v;

        if (!g_ascii_string_to_signed (json_node_get_string (node), 10, G_MININT64, G_MAXINT64, &v, NULL))
          return FALSE;
        *value = (double) v;
        return TRUE;
      }
    default:
      return FALSE;
    }
}

/* Results compared as XProf's JSON reads: numbers as doubles, an absent
 * member equals its default, int64 as strings or numbers; the members the
 * reference's writer adds of its own are left out. */
static gboolean
json_same (JsonNode   *a,
           JsonNode   *b,
           const char *path)
{
  double x, y;

  if (json_is_default (a) && json_is_default (b))
    return TRUE;
  if (a == NULL || b == NULL)
    {
      g_test_message ("%s: only on one side", path);
      return FALSE;
    }
  if (json_number (a, &x) && json_number (b, &y))
    {
      if (x != y)
        g_test_message ("%s: %.17g != %.17g", path, x, y);
      return x == y;
    }
  if (JSON_NODE_HOLDS_ARRAY (a) && JSON_NODE_HOLDS_ARRAY (b))
    {
      JsonArray *p = json_node_get_array (a), *q = json_node_get_array (b);

      if (json_array_get_length (p) != json_array_get_length (q))
        {
          g_test_message ("%s: %u != %u elements", path, json_array_get_length (p), json_array_get_length (q));
          return FALSE;
        }
      for (guint i = 0; i < json_array_get_length (p); i++)
        {
          g_autofree char *sub = g_strdup_printf ("%s[%u]", path, i);

          if (!json_same (json_array_get_element (p, i), json_array_get_element (q, i), sub))
            return FALSE;
        }
      return TRUE;
    }
  if (JSON_NODE_HOLDS_OBJECT (a) && JSON_NODE_HOLDS_OBJECT (b))
    {
      JsonObject *p = json_node_get_object (a), *q = json_node_get_object (b);
      g_autoptr(GList) keys = g_list_concat (json_object_get_members (p), json_object_get_members (q));

      for (GList *l = keys; l != NULL; l = l->next)
        {
          g_autofree char *sub = g_strdup_printf ("%s.%s", path, (const char *) l->data);

          /* Written by the program that made the reference, not XProf's. */
          if (g_str_equal (l->data, "moduleList") || g_str_equal (l->data, "allocationTimeline"))
            continue;
          if (!json_same (json_object_get_member (p, l->data), json_object_get_member (q, l->data), sub))
            return FALSE;
        }
      return TRUE;
    }
  if (JSON_NODE_HOLDS_VALUE (a) && JSON_NODE_HOLDS_VALUE (b) &&
      json_node_get_value_type (a) == G_TYPE_STRING && json_node_get_value_type (b) == G_TYPE_STRING)
    {
      gboolean same = g_str_equal (json_node_get_string (a), json_node_get_string (b));

      if (!same)
        g_test_message ("%s: “%s” != “%s”", path, json_node_get_string (a), json_node_get_string (b));
      return same;
    }
  g_test_message ("%s: different kinds", path);
  return FALSE;
}

static char *
real_profile_path (const char *name)
{
  const char *dir = g_getenv ("TM_REAL_PROFILES");
  char *path;

  if (dir == NULL || dir[0] == '\0')
    return NULL;
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_error ("TM_REAL_PROFILES is set but %s is missing", path);
  return path;
}

static char *
module_json (const TmHloEntry *entry,
             TmBufferAssignment **out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHloProto) proto = tm_hlo_entry_decode (entry, &error);
  TmBufferAssignment *r;
  GString *str = g_string_new ("{\"module\":\"x\"");

  g_assert_no_error (error);
  r = tm_buffer_assignment_compute (proto, entry->name, 0, TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE, NULL, &error);
  g_assert_no_error (error);
  tm_memory_viewer_json_append_result (str, r);
  g_string_append_c (str, '}');
  if (out != NULL)
    *out = r;
  else
    tm_buffer_assignment_free (r);
  return g_string_free (str, FALSE);
}

static void
test_real_profile (void)
{
  g_autofree char *path = real_profile_path ("jax_rocm_mi300x_conv.xplane.pb");
  g_autofree char *expected_path = real_profile_path ("expected/jax_rocm_mi300x_conv.memory_viewer.json");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  JsonArray *expected, *module_list;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  entries = tm_profile_list_hlo_entries (profile);
  g_assert_cmpuint (entries->len, ==, 8);
  json_parser_load_from_file (parser, expected_path, &error);
  g_assert_no_error (error);
  expected = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "modules");
  g_assert_cmpuint (json_array_get_length (expected), ==, 8);
  module_list = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "moduleList");

  dir = tm_fixture_make_temp_dir (&error);
  g_assert_no_error (error);

  for (guint i = 0; i < entries->len; i++)
    {
      const TmHloEntry *entry = &g_array_index (entries, TmHloEntry, i);
      g_autoptr(TmBufferAssignment) r = NULL;
      g_autofree char *json = module_json (entry, &r);
      g_autoptr(JsonParser) ours = json_parser_new ();
      g_autoptr(TmHloProto) proto = tm_hlo_entry_decode (entry, NULL);
      const Xla__BufferAssignmentProto *ba = proto->proto->buffer_assignment;
      JsonNode *want = NULL;
      gint64 max = 0;

      for (guint k = 0; k < json_array_get_length (expected); k++)
        if (g_str_equal (json_object_get_string_member (json_array_get_object_element (expected, k), "module"),
                         entry->name))
          want = json_array_get_element (expected, k);
      g_assert_nonnull (want);
      /* Which module to show first: the reference lists each one's events. */
      for (guint k = 0; k < json_array_get_length (module_list); k++)
        {
          JsonObject *m = json_array_get_object_element (module_list, k);

          if (g_str_equal (json_object_get_string_member (m, "module"), entry->name))
            g_assert_cmpint (tm_buffer_assignment_count_trace_events (proto, 0), ==,
                             json_object_get_int_member (m, "heapSimulatorTraceEvents"));
        }
      g_assert_cmpint (tm_buffer_assignment_count_trace_events (proto, 0), ==, r->n_trace_events);
      json_object_set_string_member (json_node_get_object (want), "module", "x");
      json_object_remove_member (json_node_get_object (want), "memorySpace");
      json_parser_load_from_data (ours, json, -1, &error);
      g_assert_no_error (error);
      if (!json_same (json_parser_get_root (ours), want, entry->name))
        g_error ("%s differs from XProf's result", entry->name);

      /* The peak is the largest point of the heap. */
      for (guint k = 0; k < r->heap_sizes->len; k++)
        max = MAX (max, g_array_index (r->heap_sizes, gint64, k));
      g_assert_cmpint (r->peak_heap, ==, max);
      if (r->heap_sizes->len > 0 && r->peak_heap > 0)
        g_assert_cmpint (g_array_index (r->heap_sizes, gint64, r->peak_position + 1), ==, r->peak_heap);

      /* Every buffer lies inside its allocation; every block inside its
       * allocation's container. */
      for (gsize a = 0; a < ba->n_buffer_allocations; a++)
        for (gsize k = 0; k < ba->buffer_allocations[a]->n_assigned; k++)
          {
            const Xla__BufferAllocationProto__Assigned *as = ba->buffer_allocations[a]->assigned[k];

            g_assert_cmpint (as->offset, >=, 0);
            g_assert_cmpint (as->offset + as->size, <=, ba->buffer_allocations[a]->size);
          }
      for (guint k = 0, c = 0; k < r->blocks->len; k++)
        {
          const TmBufferBlock *b = &g_array_index (r->blocks, TmBufferBlock, k);
          const TmBufferBlock *container;

          if (b->logical_buffer_id == -1)
            {
              c = k;
              continue;
            }
          container = &g_array_index (r->blocks, TmBufferBlock, c);
          g_assert_cmpuint (b->offset, >=, container->offset);
          g_assert_cmpuint (b->offset + (guint64) b->size, <=, container->offset + (guint64) container->size);
          g_assert_cmpint (b->unpadded_size, <=, b->size);
        }

      /* Written out as a sidecar and read back: the same result. */
      {
        g_autofree char *name = g_strconcat (entry->name, TM_HLO_SIDECAR_SUFFIX, NULL);
        g_autofree char *sidecar_path = g_build_filename (dir, name, NULL);
        TmHloEntry sidecar;
        g_autofree char *again = NULL;

        g_file_set_contents (sidecar_path, (const char *) tm_source_get_data (entry->source) + entry->offset,
                             (gssize) entry->size, &error);
        g_assert_no_error (error);
        g_assert_true (tm_hlo_open_sidecar (sidecar_path, &sidecar, &error));
        g_assert_no_error (error);
        g_assert_cmpstr (sidecar.name, ==, entry->name);
        again = module_json (&sidecar, NULL);
        g_assert_cmpstr (again, ==, json);
        tm_hlo_entry_clear (&sidecar);
      }
    }

  /* The sidecars are found beside a profile, after its own modules. */
  {
    g_autoptr(GArray) beside = tm_hlo_entries_new ();

    tm_hlo_add_sidecars (dir, beside);
    g_assert_cmpuint (beside->len, ==, 8);
    tm_hlo_add_sidecars (dir, beside);
    g_assert_cmpuint (beside->len, ==, 8);
  }
  tm_fixture_remove (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/buffer-assignment/xprof/share-with-1", test_share_with_1);
  g_test_add_func ("/buffer-assignment/xprof/share-with-2", test_share_with_2);
  g_test_add_func ("/buffer-assignment/xprof/share-with-chain", test_share_with_chain);
  g_test_add_func ("/buffer-assignment/xprof/share-with-chain-display-name", test_share_with_chain_display_name);
  g_test_add_func ("/buffer-assignment/xprof/buffers-do-not-overlap", test_buffers_do_not_overlap);
  g_test_add_func ("/buffer-assignment/xprof/scoped-vmem", test_scoped_vmem);
  g_test_add_func ("/buffer-assignment/xprof/buffer-blocks", test_buffer_blocks);
  g_test_add_func ("/buffer-assignment/xprof/chart-labels", test_chart_labels);
  g_test_add_func ("/buffer-assignment/small-buffers", test_small_buffers);
  g_test_add_func ("/buffer-assignment/by-size-order", test_by_size_order);
  g_test_add_func ("/buffer-assignment/bad/truncated", test_bad_truncated);
  g_test_add_func ("/buffer-assignment/bad/length", test_bad_length);
  g_test_add_func ("/buffer-assignment/bad/wire-type", test_bad_wire_type);
  g_test_add_func ("/buffer-assignment/bad/deep", test_bad_deep);
  g_test_add_func ("/buffer-assignment/bad/no-buffer-assignment", test_bad_no_buffer_assignment);
  g_test_add_func ("/buffer-assignment/bad/traces", test_bad_traces);
  g_test_add_func ("/buffer-assignment/bad/module-in-profile", test_bad_module_in_profile);
  g_test_add_func ("/buffer-assignment/module-names", test_module_names);
  g_test_add_func ("/buffer-assignment/huge-sizes", test_huge_sizes);
  g_test_add_func ("/buffer-assignment/real-profile", test_real_profile);

  return g_test_run ();
}
