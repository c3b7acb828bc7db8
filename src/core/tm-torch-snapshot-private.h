/* tm-torch-snapshot-private.h — what the snapshot's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-torch-snapshot.c reads and analyses; tm-torch-export.c writes the
 * summary, the tables and the collapsed stacks; tm-torch-stores.c fills
 * the memory stores. The last two only read what the first made.
 */
#pragma once

#include "tm-addr-map.h"
#include "tm-torch-snapshot.h"

G_BEGIN_DECLS

/* The walk's state before entry k × the snapshot's checkpoint (by
 * default TM_TORCH_CHECKPOINT entries): where a part of the trace can
 * start filling a store (relative to the start, as the walk keeps them). */
#define TM_TORCH_CHECKPOINT (1u << 20)

typedef struct
{
  gint64 allocated_rel;   /* the allocated series minus v0 */
  gint64 high_rel;        /* its highest so far minus v0, at least 0 */
  gint64 reserved_rel;    /* the reserved series minus r0 */
} TmTorchCheckpoint;

/* An entry that frees other bytes than its own size says. */
typedef struct
{
  guint32 entry;
  gint64  bytes;
} TmTorchFreed;

/* The allocations being collected, and a map from address to the live
 * trace allocation there. */
typedef struct _TmTorchWalk
{
  GArray     *allocs;   /* TmTorchAllocation */
  TmAddrMap  *live;     /* address → index in allocs */
  GArray     *ghosts;   /* TmTorchAllocation live from the start */
  gint64      peak_rel;           /* the allocated series' high, minus v0 */
  gint64      rel_at_end;
  gint64      reserved_rel;       /* the reserved series, minus r0 */
  gint64      peak_reserved_rel;
} TmTorchWalk;

/* A device: its segments and its trace. */
typedef struct
{
  gint64         index;    /* the device number */
  char          *id;       /* its memory id: the number in decimal */
  GArray        *segments; /* TmPickleValue: this device's segment dicts, file order */

  guint          n;
  guint8        *action;
  const TmPickleValue *entry;  /* the entries' dicts: the trace list's items */
  GArray        *events;       /* guint32: the entries of segment actions and oom, in order */
  GArray        *checkpoints;  /* TmTorchCheckpoint */
  /* TmTorchFreed, by entry: the free_completed entries whose allocation's
   * bytes are not their size (rare), for the allocated series */
  GArray        *freed;
  /* guint32: the alloc entries whose allocation a second alloc at its
   * address left live for ever, in order */
  GArray        *orphans;

  TmTorchWalk   *walk;  /* while reading: the trace's allocations */
  TmTorchAllocation *allocs;
  guint          n_allocs;
  TmTorchFigures figures;
} TmTorchDevice;

struct _TmTorchSnapshot
{
  gint       ref_count;
  TmSource  *source;
  TmPickle  *pickle;
  GPtrArray *devices;   /* TmTorchDevice, ascending */
  gint8     *slots;     /* per shape, TM_TORCH_N_KEYS slots of the entry keys (-1: none) */
  guint      n_shapes;
  guint      checkpoint;     /* entries between the walk's checkpoints */
  gsize      two_parts_min;  /* the least entries walked and filled in two parts */
};

/* How a snapshot is read: the defaults are TM_TORCH_CHECKPOINT and two
 * checkpoints' worth; tests make them small to walk and fill small traces
 * in two parts. */
typedef struct
{
  guint checkpoint;
  gsize two_parts_min;
} TmTorchReadOptions;

TmTorchSnapshot   *tm_torch_snapshot_read_with_options (TmSource                 *source,
                                                        const TmTorchReadOptions *options,
                                                        GCancellable             *cancellable,
                                                        GError                  **error);

typedef enum
{
  TM_TORCH_BLOCK_ACTIVE,
  TM_TORCH_BLOCK_PENDING,
  TM_TORCH_BLOCK_INACTIVE,
  TM_TORCH_BLOCK_OTHER,
} TmTorchBlockState;

/* Called for each block of a device: its segment's dict, its dict, its
 * address and size. */
typedef void (*TmTorchBlockFunc) (TmTorchSnapshot *self,
                                  TmPickleValue    segment,
                                  TmPickleValue    block,
                                  guint64          address,
                                  gint64           size,
                                  gpointer         data);

/* The keys of a trace entry read for every entry: their slots found once
 * per shape of entry dicts (tm_pickle_dict_shape). */
enum
{
  TM_TORCH_KEY_ACTION,
  TM_TORCH_KEY_ADDR,
  TM_TORCH_KEY_SIZE,
  TM_TORCH_KEY_TIME,
  TM_TORCH_KEY_FRAMES,
  TM_TORCH_KEY_STREAM,
  TM_TORCH_N_KEYS
};


/* One trace entry's fields, read at once: bit k of present says whether
 * the entry holds key k (value[k] is None otherwise). */
typedef struct
{
  TmPickleValue value[TM_TORCH_N_KEYS];
  guint         present;
} TmTorchEntry;

/* Shaped entries (nearly all) take their fields by the slots found once
 * per shape when the pickle was read. */
void               tm_torch_entry_read      (TmTorchSnapshot *self,
                                             TmPickleValue    entry,
                                             TmTorchEntry    *out);
/* Only the keys whose bits (1 << TM_TORCH_KEY_…) are set in keys; the
 * others are None. */
void               tm_torch_entry_read_keys (TmTorchSnapshot *self,
                                             TmPickleValue    entry,
                                             guint            keys,
                                             TmTorchEntry    *out);

/* A field as an unsigned integer (addresses) or a signed one: FALSE when
 * the entry lacks it or it is not one. */
static inline gboolean
tm_torch_entry_uint (TmPickle           *p,
                     const TmTorchEntry *e,
                     guint               key,
                     guint64            *out)
{
  TmPickleValue v = e->value[key];

  if (!(e->present & (1u << key)))
    return FALSE;
  if (TM_PICKLE_IS_SMALL_INT (v) && TM_PICKLE_SMALL_INT (v) >= 0)
    {
      *out = (guint64) TM_PICKLE_SMALL_INT (v);
      return TRUE;
    }
  return tm_pickle_get_uint (p, v, out);
}

static inline gboolean
tm_torch_entry_int (TmPickle           *p,
                    const TmTorchEntry *e,
                    guint               key,
                    gint64             *out)
{
  TmPickleValue v = e->value[key];

  if (!(e->present & (1u << key)))
    return FALSE;
  if (TM_PICKLE_IS_SMALL_INT (v))
    {
      *out = TM_PICKLE_SMALL_INT (v);
      return TRUE;
    }
  return tm_pickle_get_int (p, v, out);
}

/* One field of entry as an integer, 0 when absent (reads the whole entry:
 * for a field or two, not for a walk). */
gint64             tm_torch_entry_field_int (TmTorchSnapshot *self,
                                             TmPickleValue    entry,
                                             guint            key);

/* "alloc", "free_requested" ... as the file writes them ("other" for
 * TM_TORCH_OTHER). */
const char        *tm_torch_action_name     (guint            action);
/* "not a memory snapshot: " and the message; returns FALSE. */
gboolean           tm_torch_fail_shape      (GError         **error,
                                             const char      *format,
                                             ...) G_GNUC_PRINTF (2, 3);
TmTorchWalk       *tm_torch_walk_new        (void);
void               tm_torch_walk_free       (TmTorchWalk     *walk);
/* tm-torch-snapshot-walk.c: the device's trace, the list of its entries,
 * walked (its figures up to those the snapshot's blocks give). */
gboolean           tm_torch_read_trace      (TmTorchSnapshot *self,
                                             TmTorchDevice   *d,
                                             TmPickleValue    list,
                                             GCancellable    *cancellable,
                                             GError         **error);

TmTorchDevice     *tm_torch_get_device      (TmTorchSnapshot *self,
                                             guint            device);
void               tm_torch_each_block      (TmTorchSnapshot *self,
                                             TmTorchDevice   *d,
                                             TmTorchBlockFunc func,
                                             gpointer         data);
gboolean           tm_torch_lookup_int      (TmPickle        *p,
                                             TmPickleValue    dict,
                                             const char      *key,
                                             gint64          *out);
gboolean           tm_torch_lookup_addr     (TmPickle        *p,
                                             TmPickleValue    dict,
                                             const char      *key,
                                             guint64         *out);
TmPickleValue      tm_torch_lookup_or_none  (TmPickle        *p,
                                             TmPickleValue    dict,
                                             const char      *key);
gint64             tm_torch_block_requested (TmPickle        *p,
                                             TmPickleValue    block,
                                             gint64           size);
TmTorchBlockState  tm_torch_block_state     (TmPickle        *p,
                                             TmPickleValue    block);

G_END_DECLS
