/* tm-memory-store-private.h — the store's layout, for the core's builders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Memory per snapshot (documented budget: product.md §7 allows 64 bytes per
 * memory event beyond the mapped file):
 *   time, stack, heap, free  4 × 8 = 32 bytes
 *   fragmentation (double)           8 bytes
 *   ref (file offset | kind << 62)   8 bytes
 *   step id (int32; int64 only for a memory id whose
 *            step ids do not fit)    4 bytes
 *   partner (matching event index)   4 bytes
 *   ---------------------------------------
 *                                   56 bytes, plus the LOD (about 2.6
 *                                   bytes, tm-lod.h)
 * Everything else is decoded from the event's bytes on demand. While
 * loading, each event's address (8 bytes) is kept until allocations and
 * deallocations are matched, and a file whose events are not in time order
 * needs a 4-byte sort permutation before the partner column exists: the
 * peak stays at 64 bytes per event.
 */
#pragma once

#include "tm-memory-store.h"
#include "tm-lod.h"
#include "tm-xspace-reader.h"

G_BEGIN_DECLS

#define TM_NO_PARTNER G_MAXUINT32
#define TM_REF_KIND_SHIFT 62
#define TM_REF_OFFSET_MASK ((G_GUINT64_CONSTANT (1) << TM_REF_KIND_SHIFT) - 1)

struct _TmMemoryStore
{
  GObject          parent_instance;

  char            *id;

  guint            n;
  guint            capacity;
  gint64          *times;
  gint64          *stack;
  gint64          *heap;
  gint64          *free_bytes;
  gint32          *steps;      /* raw group_id (-1 none) while loading; filled in after */
  gint64          *steps_wide; /* replaces steps when a step id does not fit in 32 bits */
  double          *frag;
  guint64         *refs;       /* XSpace: file offset of the event's length prefix;
                                * JSON: index into json_activities; kind in the top bits */
  guint32         *partner;    /* alloc: event that ends it; dealloc: allocation it copies */
  guint64         *addrs;      /* while loading only: each event's address, for matching */

  TmSummary        summary;
  gboolean         have_window_peak;
  double           peak_fragmentation_exact;

  GPtrArray       *peak_rows;  /* TmBreakdownRow */
  TmLod           *lod;

  /* XSpace stores decode from the host plane. */
  TmHostContext   *ctx;
  /* XProf JSON stores keep XProf's metadata per point. */
  TmActivity      *json_activities;
  guint            n_json_activities;

  /* Loading state. */
  guint            time_sorted : 1;
  guint            complete : 1;
  guint            has_free : 1;
};

TmMemoryStore *tm_memory_store_new            (const char     *id,
                                               TmHostContext  *ctx);
/* Makes room for one more snapshot and returns its index. */
guint          tm_memory_store_grow           (TmMemoryStore  *self);
/* Shrinks the columns to their length. */
void           tm_memory_store_trim           (TmMemoryStore  *self);

void           tm_memory_store_set_step       (TmMemoryStore  *self,
                                               guint           index,
                                               gint64          step);
/* Appends later's snapshots (later in the file) and folds its summary in,
 * as if they had been read by this store. Both are still loading. */
void           tm_memory_store_append         (TmMemoryStore  *self,
                                               TmMemoryStore  *later);
/* Allocates the partner column (after sorting, before matching). */
void           tm_memory_store_alloc_partner  (TmMemoryStore  *self);

static inline gint64
tm_memory_store_step (const TmMemoryStore *self,
                      guint                index)
{
  return self->steps_wide != NULL ? self->steps_wide[index] : self->steps[index];
}

static inline TmActivityKind
tm_memory_store_ref_kind (guint64 ref)
{
  return (TmActivityKind) (ref >> TM_REF_KIND_SHIFT);
}

G_END_DECLS
