/* tm-segments.h — what a caching allocator reserved: segments over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * PyTorch's CUDA caching allocator reserves device memory in segments
 * (cudaMalloc, or the pages an expandable segment maps) and hands out
 * blocks of them. A snapshot records when each segment came and went,
 * when an allocation failed for want of memory, and the state of every
 * segment and block at snapshot time (docs/pytorch.md, "Segments and
 * out-of-memory events"). For one memory id, TmSegments holds:
 *
 *   segments   address ranges over a time span: from the trace entry
 *              that reserved them (segment_alloc, segment_map) to the one
 *              that gave them back (segment_free, segment_unmap), or from
 *              the first entry (reserved before the trace began) to the
 *              last (still there at snapshot time);
 *   out of memory
 *              the trace's `oom` entries: when, how many bytes were asked
 *              for, and how many the device said were free;
 *   the state at snapshot time, and the counts the views show in
 *              PyTorch's words.
 *
 * Times are picoseconds on the memory id's clock (that of its store).
 * Formats without such an allocator (XSpace, XProf JSON) have none. Plain
 * values only; immutable once built (by a reader, in its thread), then
 * safe to read from any thread.
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TM_TYPE_SEGMENTS (tm_segments_get_type ())

G_DECLARE_FINAL_TYPE (TmSegments, tm_segments, TM, SEGMENTS, GObject)

typedef enum
{
  TM_SEGMENT_BEFORE_TRACE = 1 << 0,  /* reserved before the first entry: start_ps is its time */
  TM_SEGMENT_AT_SNAPSHOT  = 1 << 1,  /* still reserved at snapshot time: end_ps is the last entry's time */
} TmSegmentFlags;

/* One address range over one time span. An expandable segment that maps
 * and unmaps pages is several, one per span of each range. */
typedef struct
{
  guint64        address;
  gint64         bytes;
  gint64         start_ps;
  gint64         end_ps;
  TmSegmentFlags flags;
  gint64         start_entry;  /* the entry that reserved it; -1 before the trace */
  gint64         end_entry;    /* the entry that gave it back; -1 at snapshot time */
} TmSegment;

/* One `oom` entry of the trace. */
typedef struct
{
  gint64  time_ps;
  gint64  requested_bytes;     /* its size */
  gint64  device_free_bytes;   /* its device_free; -1 when it has none */
  gint64  entry;               /* its index in the trace */
} TmOutOfMemory;

/* The memory id's state at snapshot time, and its trace's counts. */
typedef struct
{
  guint   n_trace_entries;
  guint   n_alloc_entries;           /* `alloc` */
  guint   n_free_entries;            /* `free_completed` */
  guint   n_initially_allocated;     /* live from the start */
  gint64  initially_allocated_bytes;
  gint64  peak_reserved_bytes;       /* over the trace (or at snapshot time without one) */

  guint   n_segments;
  guint   n_blocks;
  gint64  reserved_bytes;            /* Σ segment sizes */
  gint64  allocated_bytes;           /* Σ requested bytes of active_allocated blocks */
  gint64  free_internal_bytes;       /* Σ (size − requested) of those */
  gint64  free_external_bytes;       /* Σ size of every other block */
  gint64  largest_inactive_block_bytes;
  /* Tidemark's own, not PyTorch's: 1 − largest inactive block / external
   * free, at snapshot time (0 without free memory). */
  double  fragmentation;
} TmSegmentsState;

/* Building (a reader, in its thread). */
TmSegments            *tm_segments_new               (const char            *memory_id,
                                                      const TmSegmentsState *state);
void                   tm_segments_add_segment       (TmSegments            *self,
                                                      const TmSegment       *segment);
void                   tm_segments_add_out_of_memory (TmSegments            *self,
                                                      const TmOutOfMemory   *oom);

/* Reading. Segments are in the order of their start (time, then
 * address); out-of-memory entries in trace order. */
const char            *tm_segments_get_memory_id     (TmSegments            *self);
const TmSegmentsState *tm_segments_get_state         (TmSegments            *self);
const TmSegment       *tm_segments_get_segments      (TmSegments            *self,
                                                      guint                 *n_segments);
const TmOutOfMemory   *tm_segments_get_out_of_memory (TmSegments            *self,
                                                      guint                 *n_oom);

G_END_DECLS
