/* tm-hlo-fixture.c — builds serialized xla.HloProtos for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Everything the proto points to is allocated from one list and freed
 * with the fixture.
 */
#include "tm-hlo-fixture.h"
#include "tm-fixture-writer.h"

struct _TmHloFixture
{
  GPtrArray                  *blocks;
  Xla__HloProto              *proto;
  Xla__HloComputationProto   *computation;
};

static gpointer
take (TmHloFixture *self,
      gpointer      block)
{
  g_ptr_array_add (self->blocks, block);
  return block;
}

#define NEW(self, Type, INIT) \
  ((Type *) take ((self), g_memdup2 (&(Type) INIT, sizeof (Type))))

/* Appends item to a protobuf-c repeated field (n, items). */
#define APPEND(n, items, item) \
  G_STMT_START { (items) = g_renew (__typeof__ (*(items)), (items), (n) + 1); (items)[(n)++] = (item); } G_STMT_END

char *
tm_hlo_fixture_strdup (TmHloFixture *self,
                       const char   *s)
{
  return take (self, g_strdup (s));
}

TmHloFixture *
tm_hlo_fixture_new (const char *module_name,
                    const char *entry_computation_name)
{
  TmHloFixture *self = g_new0 (TmHloFixture, 1);
  Xla__HloModuleProto *module;

  self->blocks = g_ptr_array_new_with_free_func (g_free);
  self->proto = NEW (self, Xla__HloProto, XLA__HLO_PROTO__INIT);
  module = NEW (self, Xla__HloModuleProto, XLA__HLO_MODULE_PROTO__INIT);
  module->name = tm_hlo_fixture_strdup (self, module_name);
  module->entry_computation_name = tm_hlo_fixture_strdup (self, entry_computation_name);
  self->computation = NEW (self, Xla__HloComputationProto, XLA__HLO_COMPUTATION_PROTO__INIT);
  self->computation->name = tm_hlo_fixture_strdup (self, entry_computation_name);
  APPEND (module->n_computations, module->computations, self->computation);
  self->proto->hlo_module = module;
  self->proto->buffer_assignment = NEW (self, Xla__BufferAssignmentProto, XLA__BUFFER_ASSIGNMENT_PROTO__INIT);
  return self;
}

static void
free_arrays (TmHloFixture *self)
{
  Xla__HloModuleProto *m = self->proto->hlo_module;
  Xla__BufferAssignmentProto *ba = self->proto->buffer_assignment;

  /* The repeated fields' arrays were g_renew()ed, not taken. */
  for (gsize c = 0; m != NULL && c < m->n_computations; c++)
    {
      for (gsize i = 0; i < m->computations[c]->n_instructions; i++)
        {
          Xla__ShapeProto *shape = m->computations[c]->instructions[i]->shape;

          if (shape != NULL)
            g_free (shape->tuple_shapes);
        }
      g_free (m->computations[c]->instructions);
    }
  if (m != NULL)
    g_free (m->computations);
  for (gsize a = 0; ba != NULL && a < ba->n_buffer_allocations; a++)
    g_free (ba->buffer_allocations[a]->assigned);
  for (gsize t = 0; ba != NULL && t < ba->n_heap_simulator_traces; t++)
    g_free (ba->heap_simulator_traces[t]->events);
  if (ba != NULL)
    {
      g_free (ba->buffer_allocations);
      g_free (ba->logical_buffers);
      g_free (ba->heap_simulator_traces);
    }
}

void
tm_hlo_fixture_free (TmHloFixture *self)
{
  if (self == NULL)
    return;
  free_arrays (self);
  g_ptr_array_unref (self->blocks);
  g_free (self);
}

Xla__HloProto *
tm_hlo_fixture_get_proto (TmHloFixture *self)
{
  return self->proto;
}

Xla__HloInstructionProto *
tm_hlo_fixture_add_instruction (TmHloFixture *self,
                                const char   *name,
                                gint64        id)
{
  Xla__HloInstructionProto *inst = NEW (self, Xla__HloInstructionProto, XLA__HLO_INSTRUCTION_PROTO__INIT);
  Xla__ShapeProto *shape = NEW (self, Xla__ShapeProto, XLA__SHAPE_PROTO__INIT);
  Xla__ShapeProto *element = NEW (self, Xla__ShapeProto, XLA__SHAPE_PROTO__INIT);

  inst->name = tm_hlo_fixture_strdup (self, name);
  inst->opcode = tm_hlo_fixture_strdup (self, "fusion");
  inst->id = id;
  shape->element_type = XLA__PRIMITIVE_TYPE__TUPLE;
  element->element_type = XLA__PRIMITIVE_TYPE__U64;
  APPEND (shape->n_tuple_shapes, shape->tuple_shapes, element);
  inst->shape = shape;
  APPEND (self->computation->n_instructions, self->computation->instructions, inst);
  return inst;
}

Xla__BufferAllocationProto *
tm_hlo_fixture_add_allocation (TmHloFixture *self,
                               gint64        index,
                               gint64        size,
                               gint64        color,
                               guint         flags)
{
  Xla__BufferAssignmentProto *ba = self->proto->buffer_assignment;
  Xla__BufferAllocationProto *a = NEW (self, Xla__BufferAllocationProto, XLA__BUFFER_ALLOCATION_PROTO__INIT);

  a->index = index;
  a->size = size;
  a->color = color;
  a->is_thread_local = (flags & TM_HLO_ALLOC_THREAD_LOCAL) != 0;
  a->is_tuple = (flags & TM_HLO_ALLOC_TUPLE) != 0;
  a->is_entry_computation_parameter = (flags & TM_HLO_ALLOC_PARAMETER) != 0;
  a->is_constant = (flags & TM_HLO_ALLOC_CONSTANT) != 0;
  a->maybe_live_out = (flags & TM_HLO_ALLOC_MAYBE_LIVE_OUT) != 0;
  APPEND (ba->n_buffer_allocations, ba->buffer_allocations, a);
  return a;
}

void
tm_hlo_fixture_assign (TmHloFixture               *self,
                       Xla__BufferAllocationProto *allocation,
                       gint64                      logical_buffer_id,
                       gint64                      offset,
                       gint64                      size)
{
  Xla__BufferAllocationProto__Assigned *as =
    NEW (self, Xla__BufferAllocationProto__Assigned, XLA__BUFFER_ALLOCATION_PROTO__ASSIGNED__INIT);

  as->logical_buffer_id = logical_buffer_id;
  as->offset = offset;
  as->size = size;
  APPEND (allocation->n_assigned, allocation->assigned, as);
}

void
tm_hlo_fixture_add_logical_buffer (TmHloFixture *self,
                                   gint64        id,
                                   gint64        size,
                                   gint64        color,
                                   gint64        instruction_id)
{
  Xla__BufferAssignmentProto *ba = self->proto->buffer_assignment;
  Xla__LogicalBufferProto *lb = NEW (self, Xla__LogicalBufferProto, XLA__LOGICAL_BUFFER_PROTO__INIT);
  Xla__LogicalBufferProto__Location *at =
    NEW (self, Xla__LogicalBufferProto__Location, XLA__LOGICAL_BUFFER_PROTO__LOCATION__INIT);
  gint64 *index = take (self, g_new0 (gint64, 1));

  at->instruction_id = instruction_id;
  at->n_shape_index = 1;
  at->shape_index = index;
  lb->id = id;
  lb->size = size;
  lb->color = color;
  lb->defined_at = at;
  APPEND (ba->n_logical_buffers, ba->logical_buffers, lb);
}

void
tm_hlo_fixture_add_trace (TmHloFixture *self)
{
  Xla__BufferAssignmentProto *ba = self->proto->buffer_assignment;
  Xla__HeapSimulatorTrace *trace = NEW (self, Xla__HeapSimulatorTrace, XLA__HEAP_SIMULATOR_TRACE__INIT);

  APPEND (ba->n_heap_simulator_traces, ba->heap_simulator_traces, trace);
}

void
tm_hlo_fixture_add_event (TmHloFixture *self,
                          int           kind,
                          gint64        buffer_id,
                          gint64        share_with_canonical_id)
{
  Xla__BufferAssignmentProto *ba = self->proto->buffer_assignment;
  Xla__HeapSimulatorTrace__Event *ev =
    NEW (self, Xla__HeapSimulatorTrace__Event, XLA__HEAP_SIMULATOR_TRACE__EVENT__INIT);
  Xla__HeapSimulatorTrace *trace;

  if (ba->n_heap_simulator_traces == 0)
    tm_hlo_fixture_add_trace (self);
  trace = ba->heap_simulator_traces[ba->n_heap_simulator_traces - 1];
  ev->kind = kind;
  ev->buffer_id = buffer_id;
  ev->share_with_canonical_id = share_with_canonical_id;
  APPEND (trace->n_events, trace->events, ev);
}

GBytes *
tm_hlo_fixture_serialize (TmHloFixture *self)
{
  gsize size = xla__hlo_proto__get_packed_size (self->proto);
  guint8 *data = g_malloc (MAX (size, 1));

  xla__hlo_proto__pack (self->proto, data);
  return g_bytes_new_take (data, size);
}

TmHloFixture *
tm_hlo_fixture_new_base (void)
{
  TmHloFixture *f = tm_hlo_fixture_new ("test_module", "test_computation");
  Xla__BufferAllocationProto *a;

  tm_hlo_fixture_add_instruction (f, "fusion.1", 0);
  tm_hlo_fixture_add_instruction (f, "fusion.2", 1);
  tm_hlo_fixture_add_instruction (f, "constant.1", 2);
  a = tm_hlo_fixture_add_allocation (f, 0, 1048576, 0, 0);
  tm_hlo_fixture_assign (f, a, 1, 0, 524288);
  tm_hlo_fixture_assign (f, a, 2, 524288, 524288);
  a = tm_hlo_fixture_add_allocation (f, 1, 1048576, 0, TM_HLO_ALLOC_CONSTANT);
  tm_hlo_fixture_assign (f, a, 3, 0, 1048576);
  tm_hlo_fixture_add_logical_buffer (f, 1, 524288, 0, 0);
  tm_hlo_fixture_add_logical_buffer (f, 2, 524288, 0, 1);
  tm_hlo_fixture_add_logical_buffer (f, 3, 1048576, 0, 2);
  tm_hlo_fixture_add_trace (f);
  return f;
}

TmHloFixture *
tm_hlo_fixture_new_chain (void)
{
  TmHloFixture *f = tm_hlo_fixture_new ("test_module", "test_computation");
  Xla__BufferAllocationProto *a;

  tm_hlo_fixture_add_instruction (f, "fusion.1", 0);
  tm_hlo_fixture_add_instruction (f, "fusion.2", 1);
  tm_hlo_fixture_add_instruction (f, "fusion.3", 2);
  a = tm_hlo_fixture_add_allocation (f, 0, 1572864, 0, 0);
  for (gint64 id = 1; id <= 3; id++)
    {
      tm_hlo_fixture_assign (f, a, id, 0, 524288);
      tm_hlo_fixture_add_logical_buffer (f, id, 524288, 0, id - 1);
    }
  tm_hlo_fixture_add_trace (f);
  return f;
}

TmHloFixture *
tm_hlo_fixture_new_display (void)
{
  TmHloFixture *f = tm_hlo_fixture_new ("test_module", "test_computation");
  Xla__BufferAllocationProto *a;

  for (gint64 id = 0; id < 4; id++)
    {
      g_autofree char *name = g_strdup_printf ("fusion.%" G_GINT64_FORMAT, id + 1);

      tm_hlo_fixture_add_instruction (f, name, id);
    }
  a = tm_hlo_fixture_add_allocation (f, 0, 786432, 1, 0);
  for (gint64 id = 1; id <= 3; id++)
    {
      tm_hlo_fixture_assign (f, a, id, 0, 262144);
      tm_hlo_fixture_add_logical_buffer (f, id, 262144, 1, id - 1);
    }
  tm_hlo_fixture_assign (f, a, 4, 262144, 524288);
  tm_hlo_fixture_add_logical_buffer (f, 4, 524288, 1, 3);
  tm_hlo_fixture_add_trace (f);
  return f;
}

TmFixtureSpace *
tm_hlo_fixture_new_two_module_space (GBytes **keep)
{
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixturePlane *plane = tm_fixture_space_add_plane (space, "/host:metadata");
  g_autoptr(TmHloFixture) good = tm_hlo_fixture_new_base ();
  static const char bad[] = { 0x0a, 0x03, 0x0a, 0x01, 'b', 0x1a, 0x7f };
  TmFixtureStat stat = { .name = "Hlo Proto", .kind = TM_FIXTURE_STAT_BYTES };

  tm_hlo_fixture_add_event (good, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (good, TM_HLO_FREE, 1, 0);
  *keep = tm_hlo_fixture_serialize (good);
  stat.str = g_bytes_get_data (*keep, &stat.n_bytes);
  tm_fixture_plane_add_event_metadata_stat (plane, "test_module", &stat);
  stat.str = bad;
  stat.n_bytes = sizeof bad;
  tm_fixture_plane_add_event_metadata_stat (plane, "b", &stat);
  tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "l", 0);
  return space;
}

/* ------------------------------------------------------------------ */
/* The Memory Viewer page's module                                      */

/* inst's shape becomes f32[d0,d1]{1,0} (d1 0: f32[d0]{0}), and its
 * metadata op_name and source. */
static void
set_array (TmHloFixture             *self,
           Xla__HloInstructionProto *inst,
           const char               *opcode,
           gint64                    d0,
           gint64                    d1,
           const char               *op_name,
           int                       line)
{
  Xla__ShapeProto *shape = NEW (self, Xla__ShapeProto, XLA__SHAPE_PROTO__INIT);
  Xla__LayoutProto *layout = NEW (self, Xla__LayoutProto, XLA__LAYOUT_PROTO__INIT);
  Xla__OpMetadata *metadata = NEW (self, Xla__OpMetadata, XLA__OP_METADATA__INIT);

  /* The tuple shape it had goes, with its array (the fixture frees the
   * arrays of what the proto still holds). */
  g_clear_pointer (&inst->shape->tuple_shapes, g_free);
  inst->shape->n_tuple_shapes = 0;
  shape->element_type = XLA__PRIMITIVE_TYPE__F32;
  APPEND (shape->n_dimensions, shape->dimensions, d0);
  if (d1 > 0)
    {
      APPEND (shape->n_dimensions, shape->dimensions, d1);
      APPEND (layout->n_minor_to_major, layout->minor_to_major, 1);
    }
  APPEND (layout->n_minor_to_major, layout->minor_to_major, 0);
  take (self, shape->dimensions);
  take (self, layout->minor_to_major);
  shape->layout = layout;
  inst->shape = shape;
  inst->opcode = tm_hlo_fixture_strdup (self, opcode);
  metadata->op_name = tm_hlo_fixture_strdup (self, op_name);
  metadata->source_file = tm_hlo_fixture_strdup (self, "train.py");
  metadata->source_line = line;
  inst->metadata = metadata;
}

TmHloFixture *
tm_hlo_fixture_new_viewer (void)
{
  TmHloFixture *f = tm_hlo_fixture_new ("jit_train_step", "main");
  static const struct
  {
    const char *name, *opcode, *op_name;
    gint64      d0, d1;
  } insts[] = {
    { "param.0", "parameter", "jit(train_step)/params", 1024, 1024 },
    { "dot.1", "dot", "jit(train_step)/dot_general", 1024, 2048 },
    { "fusion.2", "fusion", "jit(train_step)/add", 1024, 1024 },
    { "copy.3", "copy", "jit(train_step)/copy", 512, 1024 },
    { "tuple.4", "tuple", "jit(train_step)/output", 256, 1024 },
    { "small.5", "fusion", "jit(train_step)/add", 1024, 0 },
    { "vmem.6", "fusion", "jit(train_step)/dot_general", 256, 256 },
  };
  Xla__BufferAllocationProto *a;

  for (guint i = 0; i < G_N_ELEMENTS (insts); i++)
    set_array (f, tm_hlo_fixture_add_instruction (f, insts[i].name, i), insts[i].opcode,
               insts[i].d0, insts[i].d1, insts[i].op_name, 10 + (int) i);

  a = tm_hlo_fixture_add_allocation (f, 0, 4 << 20, 0, TM_HLO_ALLOC_PARAMETER);
  tm_hlo_fixture_assign (f, a, 1, 0, 4 << 20);
  a = tm_hlo_fixture_add_allocation (f, 1, 16 << 20, 0, 0);
  tm_hlo_fixture_assign (f, a, 2, 0, 8 << 20);
  tm_hlo_fixture_assign (f, a, 3, 8 << 20, 5 << 20);
  tm_hlo_fixture_assign (f, a, 4, 0, 2 << 20);
  tm_hlo_fixture_assign (f, a, 6, 13 << 20, 4096);
  a = tm_hlo_fixture_add_allocation (f, 2, 1 << 20, 0, TM_HLO_ALLOC_MAYBE_LIVE_OUT);
  tm_hlo_fixture_assign (f, a, 5, 0, 1 << 20);
  a = tm_hlo_fixture_add_allocation (f, 3, 256 << 10, 1, 0);
  tm_hlo_fixture_assign (f, a, 7, 0, 256 << 10);

  tm_hlo_fixture_add_logical_buffer (f, 1, 4 << 20, 0, 0);
  tm_hlo_fixture_add_logical_buffer (f, 2, 8 << 20, 0, 1);
  tm_hlo_fixture_add_logical_buffer (f, 3, 5 << 20, 0, 2);
  tm_hlo_fixture_add_logical_buffer (f, 4, 2 << 20, 0, 3);
  tm_hlo_fixture_add_logical_buffer (f, 5, 1 << 20, 0, 4);
  tm_hlo_fixture_add_logical_buffer (f, 6, 4096, 0, 5);
  tm_hlo_fixture_add_logical_buffer (f, 7, 256 << 10, 1, 6);

  tm_hlo_fixture_add_trace (f);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 2, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 6, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 3, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 2, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 4, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 3, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 6, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 4, 0);
  tm_hlo_fixture_add_trace (f);
  tm_hlo_fixture_add_event (f, TM_HLO_ALLOC, 7, 0);
  tm_hlo_fixture_add_event (f, TM_HLO_FREE, 7, 0);

  /* Each event names its buffer's instruction, as XLA's traces do. */
  {
    Xla__BufferAssignmentProto *ba = f->proto->buffer_assignment;

    for (gsize t = 0; t < ba->n_heap_simulator_traces; t++)
      for (gsize e = 0; e < ba->heap_simulator_traces[t]->n_events; e++)
        {
          Xla__HeapSimulatorTrace__Event *ev = ba->heap_simulator_traces[t]->events[e];

          ev->instruction_name = tm_hlo_fixture_strdup (f, insts[ev->buffer_id - 1].name);
          ev->computation_name = tm_hlo_fixture_strdup (f, "main");
        }
  }
  return f;
}

static void
add_memory (TmFixtureLine *line,
            gboolean       allocation,
            gint64         t_ps,
            gint64         heap,
            gint64         bytes,
            guint64        addr,
            const char    *op)
{
  TmFixtureMemory m = { 0 };

  m.id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME;
  m.allocator_name = "GPU_0_bfc";
  m.bytes_allocated = heap;
  m.bytes_available = (gint64) (64 << 20) - heap;
  m.peak_bytes_in_use = heap;
  m.requested_bytes = bytes;
  m.allocation_bytes = bytes;
  m.addr = addr;
  m.tf_op = op;
  m.region_type = "output";
  m.shape = "";
  tm_fixture_line_add_memory_event (line, allocation, t_ps, &m);
}

TmFixtureSpace *
tm_hlo_fixture_new_viewer_space (GBytes **keep)
{
  TmFixtureSpace *space = tm_fixture_space_new ();
  TmFixturePlane *plane = tm_fixture_space_add_plane (space, "/host:metadata");
  g_autoptr(TmHloFixture) viewer = tm_hlo_fixture_new_viewer ();
  g_autoptr(TmHloFixture) base = tm_hlo_fixture_new_base ();
  GBytes *bytes[2];
  static const char bad[] = { 0x0a, 0x03, 0x0a, 0x01, 'b', 0x1a, 0x7f };
  TmFixtureStat stat = { .name = "Hlo Proto", .kind = TM_FIXTURE_STAT_BYTES };
  TmFixtureLine *line;
  GPtrArray *held;
  const gint64 MiB = 1 << 20;

  tm_hlo_fixture_add_event (base, TM_HLO_ALLOC, 1, 0);
  tm_hlo_fixture_add_event (base, TM_HLO_FREE, 1, 0);
  bytes[0] = tm_hlo_fixture_serialize (viewer);
  bytes[1] = tm_hlo_fixture_serialize (base);
  stat.str = g_bytes_get_data (bytes[0], &stat.n_bytes);
  tm_fixture_plane_add_event_metadata_stat (plane, "jit_train_step", &stat);
  stat.str = g_bytes_get_data (bytes[1], &stat.n_bytes);
  tm_fixture_plane_add_event_metadata_stat (plane, "test_module", &stat);
  stat.str = bad;
  stat.n_bytes = sizeof bad;
  tm_fixture_plane_add_event_metadata_stat (plane, "b", &stat);
  /* The plane refers to both modules' bytes: one GBytes keeps them. */
  held = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_ptr_array_add (held, bytes[0]);
  g_ptr_array_add (held, bytes[1]);
  *keep = g_bytes_new_with_free_func (held, 0, (GDestroyNotify) g_ptr_array_unref, held);

  /* Before the module: 6 MiB, its parameter among them; during it the
   * temporaries and the output. */
  line = tm_fixture_plane_add_line (tm_fixture_space_add_plane (space, "/host:CPU"), "Memory", 0);
  add_memory (line, TRUE, 1000, 2 * MiB, 2 * MiB, 0x10000000, "jit(init)/zeros");
  add_memory (line, TRUE, 1500, 6 * MiB, 4 * MiB, 0x10200000, "jit(train_step)/params");
  add_memory (line, TRUE, 3000, 22 * MiB, 16 * MiB, 0x10600000, "jit(train_step)/dot_general");
  add_memory (line, TRUE, 4000, 23 * MiB, 1 * MiB, 0x11600000, "jit(train_step)/output");
  add_memory (line, FALSE, 9000, 7 * MiB, 16 * MiB, 0x10600000, "jit(train_step)/dot_general");
  add_memory (line, FALSE, 12000, 3 * MiB, 4 * MiB, 0x10200000, "jit(train_step)/params");
  tm_fixture_space_add_hlo_module (space, 0, "jit_train_step(1)", 2000, 10000);
  return space;
}
