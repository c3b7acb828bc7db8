/* tm-buffer-assignment.h — XProf's Memory Viewer of one XLA module
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The compiler's static plan for one module and one memory space, computed
 * exactly as XProf's Memory Viewer computes it (docs/buffer-assignment.md):
 * the heap at each point of the heap simulator's trace, the peak and the
 * buffers live there, the totals, the indefinite allocations and the
 * allocation chart. Everything is kept in bytes (64-bit integers) and
 * program points; MiB appear only where the JSON is written
 * (tm-memory-viewer-json). Reads a decoded HloProto (tm-hlo); uses no
 * other part of the core.
 */
#pragma once

#include <gio/gio.h>

#include "tm-hlo.h"
#include "tm-hlo-info.h"

G_BEGIN_DECLS

/* Buffers smaller than this are summed into one "small" object at the peak. */
#define TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE 16384

/* One object live at the peak (XProf's HeapObject). */
typedef struct
{
  gint32           numbered;           /* its position in max_heap */
  gint64           logical_buffer_id;  /* -1 for the small buffers taken together */
  gint64           size;               /* bytes, padded */
  gint64           unpadded_size;      /* bytes without layout padding; 0 for the small buffers */
  char            *label;
  char            *instruction_name;   /* with the shape index, "fusion.3{0}" */
  char            *shape;              /* with its layout, "f32[8,128]{1,0}" */
  char            *tf_op_name;
  const char      *group;              /* "Parameter", "Output", "Thread-local", "Constant", "Temporary" */
  char            *op_code;
  TmHloSourceInfo  source;
} TmHeapObject;

typedef struct
{
  gint32 id;      /* logical buffer id */
  gint32 start;   /* program points */
  gint32 limit;
} TmBufferSpan;

typedef struct
{
  gint64  id;
  gint64  size;         /* the assigned size, bytes */
  char   *shape;
  char   *hlo_name;
  GArray *shape_index;  /* gint64 */
} TmIndefiniteBuffer;

/* An allocation that lives through the whole module. */
typedef struct
{
  gint64    id;
  gint64    size;
  gboolean  entry_parameter;
  gboolean  maybe_live_out;
  gboolean  reusable;
  GArray   *buffers;       /* TmIndefiniteBuffer */
  char     *common_shape;  /* NULL unless all buffers have the same shape */
} TmIndefiniteAllocation;

/* One rectangle of the allocation chart (program order × offset): an
 * allocation's container (logical_buffer_id -1) or a logical buffer. */
typedef struct
{
  gint32           logical_buffer_id;
  char            *name;
  guint64          offset;       /* bytes from the bottom of the chart */
  gint64           size;
  gint32           start_step;
  gint32           end_step;
  char            *tf_op_name;
  const char      *category;
  TmHloSourceInfo  source;
  char            *shape;
  gint64           unpadded_size;
  const char      *color;        /* "#rrggbb" */
} TmBufferBlock;

typedef struct
{
  char       *module_name;
  char       *entry_computation_name;
  gint64      memory_space;
  gint64      n_trace_events;     /* events of the heap simulator trace used (0: none) */

  /* The heap at each program point, before each event and once after the
   * last (empty when there is no trace), without the indefinite part;
   * instruction_names has the same length, the last one "". */
  GArray     *heap_sizes;          /* gint64 */
  GArray     *unpadded_heap_sizes; /* gint64 */
  GPtrArray  *instruction_names;   /* const char *, in strings */
  /* What every point and both peaks have on top: the allocations that live
   * through the whole module. */
  gint64      indefinite_bytes;
  gint64      peak_heap;           /* without indefinite_bytes */
  gint64      peak_unpadded_heap;  /* the same */
  gint64      peak_position;       /* the point just before the event that raised the peak */

  gint64      entry_parameters;
  gint64      non_reusable;
  gint64      maybe_live_out;
  gint64      total_allocation;
  gint64      indefinite_allocation;
  gint64      max_scoped_vmem;
  char       *max_scoped_vmem_instruction;

  GArray     *max_heap;            /* TmHeapObject, in program order */
  GArray     *by_size;             /* guint: max_heap indices in XProf's by-size order */
  GArray     *by_padding;          /* guint: max_heap indices in XProf's by-padding order */
  GArray     *spans;               /* TmBufferSpan, by id */
  GArray     *indefinite;          /* TmIndefiniteAllocation, by id */
  GArray     *blocks;              /* TmBufferBlock */

  /* Holds the strings of instruction_names and of the blocks' name,
   * tf_op_name and shape (there can be hundreds of thousands). */
  GStringChunk *strings;
} TmBufferAssignment;

/* Computes the view of memory_space (XLA's colour, 0 for device memory).
 * Allocations are visited by ascending index wherever XProf's order is a
 * hash map's (docs/buffer-assignment.md). Fails, naming the module, where
 * XProf's conversion fails (a trace that frees a buffer twice, a negative
 * heap, events from several allocations, an unknown event kind) and where
 * XProf would loop or crash (a buffer that shares with itself).
 * Cancellable: checked every few thousand events. */
TmBufferAssignment *tm_buffer_assignment_compute       (const TmHloProto    *proto,
                                                        const char          *module_name,
                                                        gint64               memory_space,
                                                        gint64               small_buffer_size,
                                                        GCancellable        *cancellable,
                                                        GError             **error);
void                tm_buffer_assignment_free          (TmBufferAssignment  *self);

/* The events of the heap simulator trace the view of memory_space would
 * replay (0 when none), without computing it: the module with the most in
 * memory space 0 is the one to show first (docs/buffer-assignment.md). */
gint64              tm_buffer_assignment_count_trace_events (const TmHloProto *proto,
                                                             gint64            memory_space);

/* The memory spaces (colours) the module's allocations use, ascending
 * (gint64). */
GArray             *tm_buffer_assignment_memory_spaces (const TmHloProto    *proto);

/* XProf's colour number (a TmHeapObject's numbered, for one): "#rrggbb"
 * from its palette of 209, the colours the allocation chart's blocks of
 * the objects at the peak have too. */
const char         *tm_buffer_assignment_color         (guint                number);

/* The peak with the indefinite part, bytes. */
static inline gint64
tm_buffer_assignment_get_peak (const TmBufferAssignment *self)
{
  /* Sizes come from the file: wrap rather than overflow. */
  return (gint64) ((guint64) self->peak_heap + (guint64) self->indefinite_bytes);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmBufferAssignment, tm_buffer_assignment_free)

G_END_DECLS
