/* tm-allocations-private.h — the allocation index's insides, for its
 * rasterizer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-allocations.c builds the index and answers its queries; the memory
 * map's rasterizer (tm-alloc-raster.c) reads the same arrays directly, a
 * frame at a time. Nothing else includes this header.
 */
#pragma once

#include "tm-allocations.h"

G_BEGIN_DECLS

/* Allocations are kept in blocks of BLOCK_SIZE for skipping in queries. */
#define BLOCK_SHIFT 6
#define BLOCK_SIZE (1u << BLOCK_SHIFT)

struct _TmAllocations
{
  GObject        parent_instance;

  TmMemoryStore *store;
  const gint64  *times;
  gint64         first_time;
  gint64         last_time;

  TmAllocation  *items;
  guint          n;
  guint          n_open_start;  /* items[0 .. n_open_start) start before the profile */
  gint64        *block_max_end; /* per block of BLOCK_SIZE items: the latest end time */

  GPtrArray     *label_strings; /* three strings per label */
  TmAllocationLabel *labels;
  guint          n_labels;

  TmAddressSpan *spans;
  guint          n_spans;
  guint64        axis_length;

  guint          n_never_freed;
  gint64         never_freed_bytes;

  /* A subset (tm_allocations_new_subset) borrows its parent's labels and
   * spans and keeps each item's index in it. NULL for a whole index. */
  TmAllocations *parent;
  guint         *parent_index;
};

static inline guint64
tm_allocations_item_end_address (const TmAllocation *a)
{
  guint64 bytes = MAX (TM_ALLOCATION_BYTES (a), 1);

  return a->address > G_MAXUINT64 - bytes ? G_MAXUINT64 : a->address + bytes;
}

static inline gint64
tm_allocations_item_start (TmAllocations      *self,
                           const TmAllocation *a)
{
  return a->start == TM_ALLOCATIONS_OPEN ? self->first_time : self->times[a->start];
}

static inline gint64
tm_allocations_item_end (TmAllocations      *self,
                         const TmAllocation *a)
{
  return a->end == TM_ALLOCATIONS_OPEN ? self->last_time : self->times[a->end];
}

/* One past the last allocation whose start time is <= t. */
static inline guint
tm_allocations_candidates_end (TmAllocations *self,
                               gint64         t)
{
  guint lo = self->n_open_start, hi = self->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->times[self->items[mid].start] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The span holding address, or the last one below it (0 if none). */
static inline guint
tm_allocations_find_span (TmAllocations *self,
                          guint64        address)
{
  guint lo = 0, hi = self->n_spans;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->spans[mid].address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? lo - 1 : 0;
}

G_END_DECLS
