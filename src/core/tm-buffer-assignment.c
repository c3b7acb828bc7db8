/* tm-buffer-assignment.c — XProf's Memory Viewer of one XLA module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The steps and their quirks are those of docs/buffer-assignment.md, in its
 * order: index the module, replay the heap simulator trace, take what is
 * live at the peak, the totals, the indefinite allocations, the chart.
 * Where XProf walks a hash map of allocations we go by ascending index.
 * XProf keeps the live buffers in a list it searches on every free and
 * copies at every new peak; here the list is linked by buffer, and the peak
 * is read back from a log of the list's changes, so a trace of n events
 * takes O(n).
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-buffer-assignment-private.h"
#include "tm-error.h"

enum { EVENT_ALLOC = 0, EVENT_FREE = 1, EVENT_SHARE_WITH = 2 };

/* The allocation chart's colours, in XProf's order. */
static const char * const buffer_colors[] = {
  "#e91e63", "#2196f3", "#81c784", "#4dd0e1", "#3f51b5", "#e53935", "#ff9100", "#b39ddb", "#90a4ae",
  "#26c6da", "#ad1457", "#03a9f4", "#2196f3", "#c2185b", "#795548", "#f9a825", "#00bfa5", "#880e4f",
  "#d500f9", "#ce93d8", "#ec407a", "#4caf50", "#ff8f00", "#ffca28", "#ab47bc", "#00e5ff", "#ff9800",
  "#40c4ff", "#1e88e5", "#9fa8da", "#bf360c", "#00b8d4", "#f57f17", "#64b5f6", "#e040fb", "#ffab91",
  "#4caf50", "#01579b", "#66bb6a", "#ef9a9a", "#558b2f", "#fb8c00", "#ff4081", "#00e676", "#388e3c",
  "#424242", "#6d4c41", "#c62828", "#616161", "#00897b", "#448aff", "#0d47a1", "#607d8b", "#673ab7",
  "#00c853", "#2e7d32", "#ffa726", "#5e35b1", "#ba68c8", "#8d6e63", "#00bcd4", "#ff6f00", "#f4511e",
  "#ff1744", "#9e9e9e", "#d81b60", "#4a148c", "#26a69a", "#689f38", "#7b1fa2", "#b0bec5", "#304ffe",
  "#f48fb1", "#ffd600", "#ffb74d", "#8bc34a", "#303f9f", "#5d4037", "#80cbc4", "#ffcc80", "#00acc1",
  "#3e2723", "#ff5252", "#ff7043", "#e91e63", "#ea80fc", "#e65100", "#d84315", "#212121", "#ff5722",
  "#1976d2", "#2962ff", "#bdbdbd", "#3949ab", "#69f0ae", "#d50000", "#ffd740", "#c0ca33", "#ff6e40",
  "#00b0ff", "#2979ff", "#e64a19", "#7c4dff", "#607d8b", "#009688", "#ffb300", "#c51162", "#ffc400",
  "#29b6f6", "#3d5afe", "#76ff03", "#cddc39", "#b388ff", "#5c6bc0", "#9e9d24", "#7cb342", "#ef5350",
  "#fdd835", "#ef6c00", "#4fc3f7", "#6200ea", "#004d40", "#ff8a65", "#ffab00", "#80deea", "#0097a7",
  "#7e57c2", "#ff6d00", "#1565c0", "#455a64", "#ffc107", "#4527a0", "#ff5722", "#f44336", "#f57c00",
  "#827717", "#a5d6a7", "#82b1ff", "#9c27b0", "#ff80ab", "#e1bee7", "#78909c", "#311b92", "#00695c",
  "#4e342e", "#3f51b5", "#651fff", "#9e9e9e", "#81d4fa", "#f8bbd0", "#b71c1c", "#0091ea", "#673ab7",
  "#a1887f", "#4db6ac", "#ffa000", "#6a1b9a", "#43a047", "#bcaaa4", "#546e7a", "#aeea00", "#e57373",
  "#ffccbc", "#006064", "#fbc02d", "#ffeb3b", "#8bc34a", "#039be5", "#8e24aa", "#80d8ff", "#009688",
  "#9ccc65", "#512da8", "#ffc107", "#757575", "#0277bd", "#ff3d00", "#33691e", "#03a9f4", "#00838f",
  "#ff8a80", "#283593", "#f50057", "#1a237e", "#90caf9", "#9c27b0", "#aa00ff", "#aed581", "#afb42b",
  "#9575cd", "#d32f2f", "#64dd17", "#f44336", "#795548", "#cddc39", "#ff9e80", "#7986cb", "#dd2c00",
  "#0288d1", "#ff9800", "#263238", "#00796b", "#42a5f5", "#8c9eff", "#1b5e20", "#ffab40", "#536dfe",
  "#00bcd4", "#f06292",
};

G_STATIC_ASSERT (G_N_ELEMENTS (buffer_colors) == 209);

const char *
tm_buffer_assignment_color (guint number)
{
  return buffer_colors[number % G_N_ELEMENTS (buffer_colors)];
}

/* The allocation chart is laid out on a canvas of this many points a side;
 * a rectangle under one point either way is not drawn, and only drawn ones
 * move the colour index on. */
#define CHART_POINTS 4096.0

/* Sizes come from the file and may be anything: sums wrap, as the
 * unsigned arithmetic they are done in, instead of overflowing. */
static inline gint64
add (gint64 a,
     gint64 b)
{
  return (gint64) ((guint64) a + (guint64) b);
}

static inline gint64
sub (gint64 a,
     gint64 b)
{
  return (gint64) ((guint64) a - (guint64) b);
}

typedef struct
{
  const Xla__BufferAllocationProto *proto;
  gboolean                          has_trace;
  gint64                            trace;
  gboolean                          seen;       /* in the replayed trace */
} Alloc;

typedef struct Buffer Buffer;

struct Buffer
{
  const Xla__LogicalBufferProto     *proto;
  const Alloc                       *alloc;
  const Xla__HloInstructionProto    *inst;
  const Xla__ShapeProto             *shape;
  guint64                            offset;       /* within its allocation */
  gint64                             unpadded;
  gint64                             ref_count;
  Buffer                            *canonical;
  gboolean                           has_span;
  guint64                            span_start;
  guint64                            span_end;
  gboolean                           seen;
  /* The live list: the nodes of this buffer's id still in it. */
  gint64                             first_live;
  char                              *shape_string;
};

/* One push on the live list: the buffer and when it left (G_MAXINT64:
 * never), for reading the list back at the peak. */
typedef struct
{
  Buffer  *buffer;
  gint64   pushed_at;
  gint64   removed_at;
  gint64   next_same;   /* the next live node of the same buffer, -1 */
} LiveNode;

/* canonical_to_display_id[root] = sharer, set at event `at`. */
typedef struct
{
  gint64  at;
  Buffer *root;
  Buffer *sharer;
} DisplayChange;

typedef struct
{
  const Xla__HloProto       *proto;
  const char                *module_name;
  gint64                     color;
  gint64                     small_buffer_size;
  GHashTable                *instructions;   /* gint64 id → Xla__HloInstructionProto */
  GHashTable                *buffers;        /* gint64 id → Buffer (the last assigned wins) */
  GHashTable                *allocs;         /* gint64 index → Alloc (the last wins) */
  GPtrArray                 *alloc_order;    /* Alloc, ascending index */
  GPtrArray                 *color_allocs;   /* the same, of the colour */
  Buffer                    *buffer_store;
  gsize                      n_buffer_store;
  Alloc                     *alloc_store;

  /* The replay. */
  GArray                    *live;           /* LiveNode */
  GArray                    *display_log;    /* DisplayChange */
  gint64                     heap;
  gint64                     unpadded_heap;
  gint64                     peak_event;     /* -1 */
  guint                      n_seen_allocs;
  GPtrArray                 *seen_buffers;

  TmBufferAssignment        *result;
  GHashTable                *buffer_color;   /* gint64 id → colour number (peak objects) */
} Ctx;

static void
heap_object_clear (TmHeapObject *o)
{
  g_free (o->label);
  g_free (o->instruction_name);
  g_free (o->shape);
  g_free (o->tf_op_name);
  g_free (o->op_code);
  tm_hlo_source_info_clear (&o->source);
}

static void
indefinite_buffer_clear (TmIndefiniteBuffer *b)
{
  g_free (b->shape);
  g_free (b->hlo_name);
  g_clear_pointer (&b->shape_index, g_array_unref);
}

static void
indefinite_allocation_clear (TmIndefiniteAllocation *a)
{
  g_clear_pointer (&a->buffers, g_array_unref);
  g_free (a->common_shape);
}

static void
block_clear (TmBufferBlock *b)
{
  tm_hlo_source_info_clear (&b->source);
}

void
tm_buffer_assignment_free (TmBufferAssignment *self)
{
  if (self == NULL)
    return;
  g_free (self->module_name);
  g_free (self->entry_computation_name);
  g_clear_pointer (&self->heap_sizes, g_array_unref);
  g_clear_pointer (&self->unpadded_heap_sizes, g_array_unref);
  g_clear_pointer (&self->instruction_names, g_ptr_array_unref);
  g_free (self->max_scoped_vmem_instruction);
  g_clear_pointer (&self->max_heap, g_array_unref);
  g_clear_pointer (&self->by_size, g_array_unref);
  g_clear_pointer (&self->by_padding, g_array_unref);
  g_clear_pointer (&self->spans, g_array_unref);
  g_clear_pointer (&self->indefinite, g_array_unref);
  g_clear_pointer (&self->blocks, g_array_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_free (self);
}

static TmBufferAssignment *
result_new (void)
{
  TmBufferAssignment *r = g_new0 (TmBufferAssignment, 1);

  r->heap_sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->unpadded_heap_sizes = g_array_new (FALSE, FALSE, sizeof (gint64));
  r->instruction_names = g_ptr_array_new ();
  r->strings = g_string_chunk_new (64 * 1024);
  r->max_heap = g_array_new (FALSE, TRUE, sizeof (TmHeapObject));
  g_array_set_clear_func (r->max_heap, (GDestroyNotify) heap_object_clear);
  r->by_size = g_array_new (FALSE, FALSE, sizeof (guint));
  r->by_padding = g_array_new (FALSE, FALSE, sizeof (guint));
  r->spans = g_array_new (FALSE, FALSE, sizeof (TmBufferSpan));
  r->indefinite = g_array_new (FALSE, TRUE, sizeof (TmIndefiniteAllocation));
  g_array_set_clear_func (r->indefinite, (GDestroyNotify) indefinite_allocation_clear);
  r->blocks = g_array_new (FALSE, TRUE, sizeof (TmBufferBlock));
  g_array_set_clear_func (r->blocks, (GDestroyNotify) block_clear);
  return r;
}

/* ------------------------------------------------------------------ */
/* Allocations and buffers                                            */
/* ------------------------------------------------------------------ */

static gboolean
alloc_is_indefinite (const Alloc *a)
{
  return a->proto->is_thread_local || a->proto->is_entry_computation_parameter ||
         a->proto->is_constant || a->proto->maybe_live_out;
}

static gboolean
alloc_is_reusable (const Xla__BufferAllocationProto *a)
{
  return !a->is_thread_local && !a->is_tuple;
}

static const char *
alloc_category (const Alloc *a)
{
  if (a->proto->is_entry_computation_parameter)
    return "Parameter";
  if (a->proto->maybe_live_out)
    return "Output";
  if (a->proto->is_thread_local)
    return "Thread-local";
  if (a->proto->is_constant)
    return "Constant";
  return "Temporary";
}

static const char *
inst_name (const Buffer *b)
{
  return b->inst->name != NULL ? b->inst->name : "";
}

static char *
name_with_shape_index (const Buffer *b)
{
  const Xla__LogicalBufferProto__Location *at = b->proto->defined_at;
  GString *str;

  if (at == NULL || at->n_shape_index == 0)
    return g_strdup (inst_name (b));
  str = g_string_new (inst_name (b));
  g_string_append_c (str, '{');
  for (gsize i = 0; i < at->n_shape_index; i++)
    g_string_append_printf (str, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", at->shape_index[i]);
  g_string_append_c (str, '}');
  return g_string_free (str, FALSE);
}

/* Moves a string into the chunk. */
static char *
chunk_take (GStringChunk *chunk,
            char         *s)
{
  char *copy = g_string_chunk_insert (chunk, s);

  g_free (s);
  return copy;
}

static const char *
buffer_shape_string (Buffer *b)
{
  if (b->shape_string == NULL)
    b->shape_string = tm_hlo_shape_string (b->shape);
  return b->shape_string;
}

static const char *
op_name (const Xla__HloInstructionProto *inst)
{
  return inst->metadata != NULL && inst->metadata->op_name != NULL ? inst->metadata->op_name : "";
}

static int
compare_allocs (gconstpointer a,
                gconstpointer b)
{
  gint64 x = (*(const Alloc * const *) a)->proto->index;
  gint64 y = (*(const Alloc * const *) b)->proto->index;

  return x < y ? -1 : x > y;
}

static Buffer *
lookup_buffer (Ctx    *ctx,
               gint64  id)
{
  return g_hash_table_lookup (ctx->buffers, &id);
}

static void
index_module (Ctx *ctx)
{
  const Xla__HloModuleProto *module = ctx->proto->hlo_module;
  const Xla__BufferAssignmentProto *ba = ctx->proto->buffer_assignment;
  g_autoptr(GHashTable) protos = g_hash_table_new (g_int64_hash, g_int64_equal);
  gsize n_assigned = 0, k = 0;
  GHashTableIter iter;
  gpointer value;

  for (gsize c = 0; c < module->n_computations; c++)
    {
      const Xla__HloComputationProto *comp = module->computations[c];

      for (gsize i = 0; i < comp->n_instructions; i++)
        g_hash_table_insert (ctx->instructions, &comp->instructions[i]->id, comp->instructions[i]);
    }
  for (gsize i = 0; i < ba->n_logical_buffers; i++)
    g_hash_table_insert (protos, &ba->logical_buffers[i]->id, ba->logical_buffers[i]);

  for (gsize a = 0; a < ba->n_buffer_allocations; a++)
    n_assigned += ba->buffer_allocations[a]->n_assigned;
  ctx->buffer_store = g_new0 (Buffer, MAX (n_assigned, 1));
  ctx->alloc_store = g_new0 (Alloc, MAX (ba->n_buffer_allocations, 1));

  for (gsize a = 0; a < ba->n_buffer_allocations; a++)
    {
      const Xla__BufferAllocationProto *ap = ba->buffer_allocations[a];
      Alloc *alloc = &ctx->alloc_store[a];

      alloc->proto = ap;
      g_hash_table_insert (ctx->allocs, (gpointer) &ap->index, alloc);
      for (gsize i = 0; i < ap->n_assigned; i++)
        {
          const Xla__BufferAllocationProto__Assigned *as = ap->assigned[i];
          const Xla__LogicalBufferProto *lp = g_hash_table_lookup (protos, &as->logical_buffer_id);
          const Xla__HloInstructionProto *inst;
          const Xla__LogicalBufferProto__Location *at;
          Buffer *b;

          if (lp == NULL)
            continue;
          at = lp->defined_at;
          inst = g_hash_table_lookup (ctx->instructions, at != NULL ? &at->instruction_id : &(gint64) { 0 });
          if (inst == NULL)
            continue;

          b = &ctx->buffer_store[k++];
          b->proto = lp;
          b->alloc = alloc;
          b->inst = inst;
          b->offset = (guint64) as->offset;
          b->shape = tm_hlo_shape_resolve (inst->shape, at != NULL ? at->shape_index : NULL,
                                           at != NULL ? at->n_shape_index : 0);
          b->unpadded = tm_hlo_shape_unpadded_size (b->shape);
          b->first_live = -1;
          g_hash_table_insert (ctx->buffers, (gpointer) &as->logical_buffer_id, b);
        }
    }
  ctx->n_buffer_store = k;

  /* Which trace is an allocation's: the one whose first event's buffer
   * lies in it (a later trace wins). */
  for (gsize t = 0; t < ba->n_heap_simulator_traces; t++)
    {
      const Xla__HeapSimulatorTrace *trace = ba->heap_simulator_traces[t];
      Buffer *b;

      if (trace->n_events == 0)
        continue;
      b = lookup_buffer (ctx, trace->events[0]->buffer_id);
      if (b == NULL)
        continue;
      value = g_hash_table_lookup (ctx->allocs, &b->alloc->proto->index);
      ((Alloc *) value)->has_trace = TRUE;
      ((Alloc *) value)->trace = (gint64) t;
    }

  g_hash_table_iter_init (&iter, ctx->allocs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (ctx->alloc_order, value);
  g_ptr_array_sort (ctx->alloc_order, compare_allocs);
  for (guint i = 0; i < ctx->alloc_order->len; i++)
    {
      Alloc *a = g_ptr_array_index (ctx->alloc_order, i);

      if (a->proto->color == ctx->color)
        g_ptr_array_add (ctx->color_allocs, a);
    }
}

static gint64
pick_trace (Ctx *ctx)
{
  const Xla__BufferAssignmentProto *ba = ctx->proto->buffer_assignment;
  gint64 best = -1, best_count = 0;

  for (guint i = 0; i < ctx->color_allocs->len; i++)
    {
      Alloc *a = g_ptr_array_index (ctx->color_allocs, i);

      if (!alloc_is_indefinite (a) && a->has_trace)
        return a->trace;
    }

  for (gsize t = 0; t < ba->n_heap_simulator_traces; t++)
    {
      const Xla__HeapSimulatorTrace *trace = ba->heap_simulator_traces[t];
      gint64 count = 0;

      for (gsize e = 0; e < trace->n_events; e++)
        {
          Buffer *b = lookup_buffer (ctx, trace->events[e]->buffer_id);

          if (b != NULL && b->proto->color == ctx->color)
            count++;
        }
      if (count > best_count)
        best = (gint64) t, best_count = count;
    }
  return best;
}

/* ------------------------------------------------------------------ */
/* The replay                                                         */
/* ------------------------------------------------------------------ */

/* The root of a buffer's sharing chain. Sharing never makes a cycle (see
 * share_with), so this ends. */
static Buffer *
root_of (Buffer *b)
{
  while (b->canonical != NULL)
    b = b->canonical;
  return b;
}

/* Whether b is on the sharing chain that starts at from. */
static gboolean
on_chain (Buffer *from,
          Buffer *b)
{
  for (; from != NULL; from = from->canonical)
    if (from == b)
      return TRUE;
  return FALSE;
}

static void
live_push (Ctx    *ctx,
           Buffer *b,
           gint64  at)
{
  LiveNode node = { b, at, G_MAXINT64, b->first_live };

  g_array_append_val (ctx->live, node);
  b->first_live = (gint64) ctx->live->len - 1;
}

static void
live_remove_all (Ctx    *ctx,
                 Buffer *b,
                 gint64  at)
{
  for (gint64 n = b->first_live; n >= 0; n = g_array_index (ctx->live, LiveNode, n).next_same)
    g_array_index (ctx->live, LiveNode, n).removed_at = at;
  b->first_live = -1;
}

static void
increase (Ctx    *ctx,
          Buffer *b,
          gint64  event,
          gboolean init_span,
          gint64  n_events)
{
  TmBufferAssignment *r = ctx->result;
  gint64 point = (gint64) r->heap_sizes->len - 1;

  live_push (ctx, b, event);
  ctx->heap = add (ctx->heap, b->proto->size);
  ctx->unpadded_heap = add (ctx->unpadded_heap, b->unpadded);
  if (ctx->heap > r->peak_heap)
    {
      r->peak_heap = ctx->heap;
      r->peak_position = point;
      r->peak_unpadded_heap = ctx->unpadded_heap;
      ctx->peak_event = event;
    }
  if (init_span)
    {
      b->has_span = TRUE;
      b->span_start = (guint64) point;
      b->span_end = (guint64) (n_events - 1);
    }
}

static gboolean
replay (Ctx           *ctx,
        gint64         trace_id,
        GCancellable  *cancellable,
        GError       **error)
{
  const Xla__HeapSimulatorTrace *trace = ctx->proto->buffer_assignment->heap_simulator_traces[trace_id];
  TmBufferAssignment *r = ctx->result;
  gint64 n_events = (gint64) trace->n_events;

  r->n_trace_events = n_events;
  for (gint64 e = 0; e < n_events; e++)
    {
      const Xla__HeapSimulatorTrace__Event *ev = trace->events[e];
      Buffer *b;

      if ((e & 4095) == 4095 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      g_array_append_val (r->heap_sizes, ctx->heap);
      g_array_append_val (r->unpadded_heap_sizes, ctx->unpadded_heap);
      g_ptr_array_add (r->instruction_names,
                       ev->instruction_name == NULL || ev->instruction_name[0] == '\0'
                       ? (char *) "" : g_string_chunk_insert_const (r->strings, ev->instruction_name));
      b = lookup_buffer (ctx, ev->buffer_id);
      if (b == NULL)
        continue;
      if (!b->seen)
        {
          b->seen = TRUE;
          g_ptr_array_add (ctx->seen_buffers, b);
        }
      /* Counted by proto: two allocations of one index are two. */
      if (!b->alloc->seen)
        {
          ((Alloc *) b->alloc)->seen = TRUE;
          ctx->n_seen_allocs++;
        }

      if (ev->kind == EVENT_ALLOC)
        {
          root_of (b)->ref_count++;
          increase (ctx, b, e, TRUE, n_events);
        }
      else if (ev->kind == EVENT_FREE)
        {
          Buffer *root = root_of (b);

          if (--root->ref_count < 0)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                           _("module “%s”: Failed to process heap simulator trace: Buffer %" PRId64 "is freed multiple times."),
                           ctx->module_name, b->proto->id);
              return FALSE;
            }
          if (root->ref_count == 0)
            {
              live_remove_all (ctx, root, e);
              ctx->heap = sub (ctx->heap, root->proto->size);
              if (ctx->heap < 0)
                {
                  g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                               _("module “%s”: Failed to process heap simulator trace: Heap size should be non-negative, but get: %" PRId64),
                               ctx->module_name, ctx->heap);
                  return FALSE;
                }
              ctx->unpadded_heap = sub (ctx->unpadded_heap, root->unpadded);
              if (root->has_span)
                root->span_end = r->heap_sizes->len - 1;
            }
          if (b->has_span && b->canonical != NULL)
            b->span_end = r->heap_sizes->len - 1;
        }
      else if (ev->kind == EVENT_SHARE_WITH)
        {
          Buffer *canonical = lookup_buffer (ctx, ev->share_with_canonical_id);
          Buffer *root;

          if (canonical == NULL)
            continue;
          root = root_of (canonical);
          /* XProf would recurse for ever on a chain that comes back. */
          if (on_chain (canonical, b))
            {
              g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                           _("module “%s”: Failed to process heap simulator trace: buffer %" PRId64 " shares with buffer %" PRId64 ", which already shares with it"),
                           ctx->module_name, b->proto->id, canonical->proto->id);
              return FALSE;
            }
          b->canonical = canonical;
          if (++root->ref_count == 1)
            {
              DisplayChange change = { e, root, b };

              g_array_append_val (ctx->display_log, change);
              b->has_span = TRUE;
              b->span_start = r->heap_sizes->len - 1;
              b->span_end = (guint64) (n_events - 1);
              increase (ctx, root, e, FALSE, n_events);
            }
        }
      else
        {
          g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                       _("module “%s”: Failed to process heap simulator trace: Unhandled event kind: %d"),
                       ctx->module_name, ev->kind);
          return FALSE;
        }
    }

  g_array_append_val (r->heap_sizes, ctx->heap);
  g_array_append_val (r->unpadded_heap_sizes, ctx->unpadded_heap);
  g_ptr_array_add (r->instruction_names, (char *) "");

  if (ctx->n_seen_allocs != 1)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                   _("module “%s”: Failed to process heap simulator trace: All heap simulation should work out of a single buffer allocation, actual seen_buffer_allocations.size():%u"),
                   ctx->module_name, ctx->n_seen_allocs);
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* What is live at the peak                                           */
/* ------------------------------------------------------------------ */

static void
add_heap_object (Ctx      *ctx,
                 Buffer   *b,
                 gint64   *small_total,
                 gint32   *colorno)
{
  TmHeapObject o = { 0 };

  if (b->proto->size < ctx->small_buffer_size)
    {
      *small_total = add (*small_total, b->proto->size);
      return;
    }
  g_hash_table_insert (ctx->buffer_color, (gpointer) &b->proto->id, GINT_TO_POINTER (*colorno));
  o.numbered = (*colorno)++;
  o.logical_buffer_id = b->proto->id;
  o.size = b->proto->size;
  o.unpadded_size = b->unpadded;
  o.shape = g_strdup (buffer_shape_string (b));
  o.label = g_strdup_printf ("%s: %s # %s", inst_name (b), o.shape, op_name (b->inst));
  o.instruction_name = name_with_shape_index (b);
  o.group = alloc_category (b->alloc);
  o.tf_op_name = g_strdup (op_name (b->inst));
  o.op_code = g_strdup (b->inst->opcode != NULL ? b->inst->opcode : "");
  tm_hlo_source_info (ctx->proto->hlo_module, b->inst, &o.source);
  g_array_append_val (ctx->result->max_heap, o);
}

static void
peak_snapshot (Ctx *ctx)
{
  TmBufferAssignment *r = ctx->result;
  g_autoptr(GHashTable) display = g_hash_table_new (NULL, NULL);
  gint64 small_total = 0;
  gint32 colorno = 0;
  gint64 p = ctx->peak_event;

  /* The indefinite allocations: each one's largest buffer stands for it. */
  for (guint i = 0; i < ctx->color_allocs->len; i++)
    {
      Alloc *a = g_ptr_array_index (ctx->color_allocs, i);
      Buffer *best = NULL;
      gint64 best_size = 0;

      if (!alloc_is_indefinite (a))
        continue;
      for (gsize k = 0; k < a->proto->n_assigned; k++)
        {
          Buffer *b = lookup_buffer (ctx, a->proto->assigned[k]->logical_buffer_id);

          if (b != NULL && b->proto->size > best_size)
            best = b, best_size = b->proto->size;
        }
      if (best == NULL)
        continue;
      ctx->result->indefinite_bytes = add (ctx->result->indefinite_bytes, best->alloc->proto->size);
      /* Only device memory shows them at the peak. */
      if (ctx->color == 0)
        add_heap_object (ctx, best, &small_total, &colorno);
    }

  /* The buffers of the trace live at the peak, in the order they came. */
  for (guint i = 0; p >= 0 && i < ctx->display_log->len; i++)
    {
      DisplayChange *c = &g_array_index (ctx->display_log, DisplayChange, i);

      if (c->at > p)
        break;
      g_hash_table_insert (display, c->root, c->sharer);
    }
  for (guint n = 0; p >= 0 && n < ctx->live->len; n++)
    {
      LiveNode *node = &g_array_index (ctx->live, LiveNode, n);
      Buffer *shown;

      if (node->pushed_at > p)
        break;
      if (node->removed_at <= p)
        continue;
      shown = g_hash_table_lookup (display, node->buffer);
      add_heap_object (ctx, shown != NULL ? shown : node->buffer, &small_total, &colorno);
    }

  if (small_total != 0)
    {
      TmHeapObject o = { 0 };

      o.numbered = colorno++;
      o.label = g_strdup_printf ("small (<%" G_GINT64_FORMAT " bytes)", ctx->small_buffer_size);
      o.logical_buffer_id = -1;
      o.size = small_total;
      o.source.line = -1;
      g_array_append_val (r->max_heap, o);
    }
}

/* ------------------------------------------------------------------ */
/* Totals, indefinite allocations, scoped memory                      */
/* ------------------------------------------------------------------ */

static void
special_allocations (Ctx *ctx)
{
  TmBufferAssignment *r = ctx->result;
  const Xla__BufferAssignmentProto *ba = ctx->proto->buffer_assignment;

  for (guint i = 0; i < ctx->color_allocs->len; i++)
    {
      Alloc *a = g_ptr_array_index (ctx->color_allocs, i);
      const Xla__BufferAllocationProto *ap = a->proto;
      TmIndefiniteAllocation ia = { 0 };

      if (ap->is_entry_computation_parameter)
        r->entry_parameters = add (r->entry_parameters, ap->size);
      if (!alloc_is_reusable (ap))
        r->non_reusable = add (r->non_reusable, ap->size);
      if (ap->maybe_live_out)
        r->maybe_live_out = add (r->maybe_live_out, ap->size);
      if (!alloc_is_indefinite (a))
        continue;

      ia.id = ap->index;
      ia.size = ap->size;
      ia.entry_parameter = ap->is_entry_computation_parameter;
      ia.maybe_live_out = ap->maybe_live_out;
      ia.reusable = alloc_is_reusable (ap);
      ia.buffers = g_array_new (FALSE, TRUE, sizeof (TmIndefiniteBuffer));
      g_array_set_clear_func (ia.buffers, (GDestroyNotify) indefinite_buffer_clear);
      for (gsize k = 0; k < ap->n_assigned; k++)
        {
          const Xla__BufferAllocationProto__Assigned *as = ap->assigned[k];
          TmIndefiniteBuffer ib = { 0 };
          Buffer *b = lookup_buffer (ctx, as->logical_buffer_id);

          ib.id = as->logical_buffer_id;
          ib.size = as->size;
          ib.shape_index = g_array_new (FALSE, FALSE, sizeof (gint64));
          if (b != NULL)
            {
              const Xla__LogicalBufferProto__Location *at = b->proto->defined_at;

              ib.hlo_name = g_strdup (inst_name (b));
              ib.shape = g_strdup (buffer_shape_string (b));
              if (at != NULL)
                g_array_append_vals (ib.shape_index, at->shape_index, (guint) at->n_shape_index);
            }
          g_array_append_val (ia.buffers, ib);
        }
      if (ia.buffers->len > 0)
        {
          const char *common = g_array_index (ia.buffers, TmIndefiniteBuffer, 0).shape;

          for (guint k = 1; common != NULL && k < ia.buffers->len; k++)
            if (g_strcmp0 (g_array_index (ia.buffers, TmIndefiniteBuffer, k).shape, common) != 0)
              common = NULL;
          if (common != NULL && common[0] != '\0')
            ia.common_shape = g_strdup (common);
        }
      g_array_append_val (r->indefinite, ia);
    }

  /* Over the proto's list, as XLA's own functions count. */
  for (gsize i = 0; i < ba->n_buffer_allocations; i++)
    {
      const Xla__BufferAllocationProto *ap = ba->buffer_allocations[i];

      if (ap->color != ctx->color)
        continue;
      r->total_allocation = add (r->total_allocation, ap->size);
      if (ap->is_thread_local || ap->is_entry_computation_parameter || ap->is_constant || ap->maybe_live_out)
        r->indefinite_allocation = add (r->indefinite_allocation, ap->size);
    }
}

/* ------------------------------------------------------------------ */
/* Spans and the allocation chart                                     */
/* ------------------------------------------------------------------ */

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  gint32 x = ((const TmBufferSpan *) a)->id, y = ((const TmBufferSpan *) b)->id;

  return x < y ? -1 : x > y;
}

static void
spans (Ctx *ctx)
{
  TmBufferAssignment *r = ctx->result;
  guint n = 0;

  for (guint i = 0; i < ctx->seen_buffers->len; i++)
    {
      Buffer *b = g_ptr_array_index (ctx->seen_buffers, i);
      TmBufferSpan span;

      if (!b->has_span)
        continue;
      span.id = (gint32) b->proto->id;
      span.start = (gint32) b->span_start;
      span.limit = (gint32) b->span_end;
      g_array_append_val (r->spans, span);
    }
  /* Keyed by the id as a 32-bit integer: of two with one key (ids that
   * differ above 32 bits) the later one stays. The sort is stable. */
  g_array_sort (r->spans, compare_spans);
  for (guint i = 0; i < r->spans->len; i++)
    {
      TmBufferSpan *s = &g_array_index (r->spans, TmBufferSpan, i);

      if (n > 0 && g_array_index (r->spans, TmBufferSpan, n - 1).id == s->id)
        g_array_index (r->spans, TmBufferSpan, n - 1) = *s;
      else
        g_array_index (r->spans, TmBufferSpan, n++) = *s;
    }
  g_array_set_size (r->spans, n);
}

static void
chart (Ctx *ctx)
{
  TmBufferAssignment *r = ctx->result;
  const Xla__BufferAssignmentProto *ba = ctx->proto->buffer_assignment;
  g_autoptr(GPtrArray) traced = g_ptr_array_new ();
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 total_y = 0, total_x = 0;
  double scale_x, scale_y;
  guint64 node_id = 0;

  for (guint i = 0; i < ctx->color_allocs->len; i++)
    {
      Alloc *a = g_ptr_array_index (ctx->color_allocs, i);

      if (alloc_is_indefinite (a) || !a->has_trace)
        continue;
      g_ptr_array_add (traced, a);
      g_array_append_val (offsets, total_y);
      total_y += (guint64) a->proto->size;
      if ((guint64) a->trace < ba->n_heap_simulator_traces)
        total_x = MAX (total_x, ba->heap_simulator_traces[a->trace]->n_events);
    }
  if (total_y == 0 || total_x == 0)
    return;
  scale_x = CHART_POINTS / (double) total_x;
  scale_y = CHART_POINTS / (double) total_y;

#define DRAWN(w, h) ((double) (w) * scale_x >= 1.0 && (double) (h) * scale_y >= 1.0)

  for (guint i = 0; i < traced->len; i++)
    {
      Alloc *a = g_ptr_array_index (traced, i);
      guint64 base = g_array_index (offsets, guint64, i);
      TmBufferBlock container = { 0 };

      container.logical_buffer_id = -1;
      container.name = g_string_chunk_insert_const (r->strings, alloc_category (a));
      container.offset = base;
      container.size = a->proto->size;
      container.start_step = 0;
      container.end_step = (gint32) total_x;
      container.category = alloc_category (a);
      container.color = "#ffffff";
      container.source.line = -1;
      g_array_append_val (r->blocks, container);
      if (DRAWN (total_x, (guint64) a->proto->size))
        node_id++;

      for (gsize k = 0; k < a->proto->n_assigned; k++)
        {
          Buffer *b = lookup_buffer (ctx, a->proto->assigned[k]->logical_buffer_id);
          TmBufferBlock block = { 0 };
          gpointer color;
          guint64 width;

          if (b == NULL || !b->has_span || b->canonical != NULL)
            continue;
          width = b->span_end - b->span_start;
          block.logical_buffer_id = (gint32) b->proto->id;
          block.name = chunk_take (r->strings, name_with_shape_index (b));
          block.offset = base + b->offset;
          block.size = b->proto->size;
          block.start_step = (gint32) b->span_start;
          block.end_step = (gint32) b->span_end;
          block.tf_op_name = g_string_chunk_insert_const (r->strings, op_name (b->inst));
          block.category = alloc_category (b->alloc);
          block.shape = g_string_chunk_insert (r->strings, buffer_shape_string (b));
          block.unpadded_size = b->unpadded;
          tm_hlo_source_info (ctx->proto->hlo_module, b->inst, &block.source);
          if (g_hash_table_lookup_extended (ctx->buffer_color, &b->proto->id, NULL, &color))
            block.color = buffer_colors[(guint) GPOINTER_TO_INT (color) % G_N_ELEMENTS (buffer_colors)];
          else
            block.color = buffer_colors[node_id % G_N_ELEMENTS (buffer_colors)];
          g_array_append_val (r->blocks, block);
          if (DRAWN (width, (guint64) b->proto->size))
            node_id++;
        }
    }

#undef DRAWN
}

/* ------------------------------------------------------------------ */

static void
ctx_init (Ctx              *ctx,
          const TmHloProto *hlo,
          const char       *module_name,
          gint64            memory_space,
          gint64            small_buffer_size)
{
  ctx->proto = hlo->proto;
  ctx->module_name = module_name;
  ctx->color = memory_space;
  ctx->small_buffer_size = small_buffer_size;
  ctx->instructions = g_hash_table_new (g_int64_hash, g_int64_equal);
  ctx->buffers = g_hash_table_new (g_int64_hash, g_int64_equal);
  ctx->allocs = g_hash_table_new (g_int64_hash, g_int64_equal);
  ctx->alloc_order = g_ptr_array_new ();
  ctx->color_allocs = g_ptr_array_new ();
  ctx->live = g_array_new (FALSE, FALSE, sizeof (LiveNode));
  ctx->display_log = g_array_new (FALSE, FALSE, sizeof (DisplayChange));
  ctx->seen_buffers = g_ptr_array_new ();
  ctx->buffer_color = g_hash_table_new (g_int64_hash, g_int64_equal);
  ctx->peak_event = -1;
}

static void
ctx_clear (Ctx *ctx)
{
  for (gsize i = 0; i < ctx->n_buffer_store; i++)
    g_free (ctx->buffer_store[i].shape_string);
  g_free (ctx->buffer_store);
  g_free (ctx->alloc_store);
  g_hash_table_unref (ctx->instructions);
  g_hash_table_unref (ctx->buffers);
  g_hash_table_unref (ctx->allocs);
  g_ptr_array_unref (ctx->alloc_order);
  g_ptr_array_unref (ctx->color_allocs);
  g_array_unref (ctx->live);
  g_array_unref (ctx->display_log);
  g_ptr_array_unref (ctx->seen_buffers);
  g_hash_table_unref (ctx->buffer_color);
}

TmBufferAssignment *
tm_buffer_assignment_compute (const TmHloProto  *hlo,
                              const char        *module_name,
                              gint64             memory_space,
                              gint64             small_buffer_size,
                              GCancellable      *cancellable,
                              GError           **error)
{
  Ctx ctx = { 0 };
  TmBufferAssignment *r;
  gint64 trace;
  gboolean ok = TRUE;

  g_return_val_if_fail (hlo != NULL && hlo->proto != NULL, NULL);
  g_return_val_if_fail (hlo->proto->hlo_module != NULL && hlo->proto->buffer_assignment != NULL, NULL);
  g_return_val_if_fail (module_name != NULL, NULL);

  ctx_init (&ctx, hlo, module_name, memory_space, small_buffer_size);
  ctx.result = r = result_new ();

  r->module_name = g_strdup (hlo->proto->hlo_module->name != NULL ? hlo->proto->hlo_module->name : "");
  r->entry_computation_name = g_strdup (hlo->proto->hlo_module->entry_computation_name != NULL
                                        ? hlo->proto->hlo_module->entry_computation_name : "");
  r->memory_space = memory_space;

  index_module (&ctx);
  trace = pick_trace (&ctx);
  if (trace >= 0 && (gsize) trace < hlo->proto->buffer_assignment->n_heap_simulator_traces)
    ok = replay (&ctx, trace, cancellable, error);
  if (ok && g_cancellable_set_error_if_cancelled (cancellable, error))
    ok = FALSE;
  if (ok)
    {
      peak_snapshot (&ctx);
      tm_buffer_assignment_sort_orders (r);
      spans (&ctx);
      special_allocations (&ctx);
      r->max_scoped_vmem = tm_hlo_max_scoped_memory (hlo->proto->hlo_module, memory_space,
                                                     &r->max_scoped_vmem_instruction);
      chart (&ctx);
    }

  ctx_clear (&ctx);

  if (!ok)
    {
      tm_buffer_assignment_free (r);
      return NULL;
    }
  return r;
}

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

GArray *
tm_buffer_assignment_memory_spaces (const TmHloProto *hlo)
{
  GArray *spaces = g_array_new (FALSE, FALSE, sizeof (gint64));
  const Xla__BufferAssignmentProto *ba;

  g_return_val_if_fail (hlo != NULL && hlo->proto != NULL, spaces);

  ba = hlo->proto->buffer_assignment;
  for (gsize i = 0; ba != NULL && i < ba->n_buffer_allocations; i++)
    {
      gint64 c = ba->buffer_allocations[i]->color;
      gboolean found = FALSE;

      for (guint k = 0; k < spaces->len && !found; k++)
        found = g_array_index (spaces, gint64, k) == c;
      if (!found)
        g_array_append_val (spaces, c);
    }
  g_array_sort (spaces, compare_int64);
  return spaces;
}

gint64
tm_buffer_assignment_count_trace_events (const TmHloProto *hlo,
                                         gint64            memory_space)
{
  Ctx ctx = { 0 };
  gint64 trace, n = 0;

  g_return_val_if_fail (hlo != NULL && hlo->proto != NULL, 0);
  g_return_val_if_fail (hlo->proto->hlo_module != NULL && hlo->proto->buffer_assignment != NULL, 0);

  ctx_init (&ctx, hlo, "", memory_space, 0);
  index_module (&ctx);
  trace = pick_trace (&ctx);
  if (trace >= 0 && (gsize) trace < hlo->proto->buffer_assignment->n_heap_simulator_traces)
    n = (gint64) hlo->proto->buffer_assignment->heap_simulator_traces[trace]->n_events;
  ctx_clear (&ctx);
  return n;
}
