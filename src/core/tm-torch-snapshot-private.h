/* tm-torch-snapshot-private.h — what the snapshot's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-torch-snapshot.c reads and analyses; tm-torch-export.c writes the
 * summary, the tables and the collapsed stacks; tm-torch-stores.c fills
 * the memory stores. The last two only read what the first made.
 */
#pragma once

#include "tm-torch-snapshot.h"

G_BEGIN_DECLS

/* Trace entries, one column per field. */
typedef struct
{
  gint64         index;    /* the device number */
  char          *id;       /* its memory id: the number in decimal */
  GArray        *segments; /* TmPickleValue: this device's segment dicts, file order */

  guint          n;
  guint8        *action;
  const TmPickleValue *entry;  /* the entries' dicts: the trace list's items */

  struct _TmTorchWalk *walk;  /* while reading: the trace's allocations */
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
};

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

#define TM_TORCH_SLOT_CACHE 4

typedef struct
{
  guint shape[TM_TORCH_SLOT_CACHE];
  gint  slot[TM_TORCH_SLOT_CACHE][TM_TORCH_N_KEYS];
  guint next;
} TmTorchSlotCache;

/* A key of a trace entry (through the cache), as a value, a guint64 or a
 * gint64 (0 when absent), or None. */
gboolean           tm_torch_entry_get       (TmPickle        *p,
                                             TmTorchSlotCache *c,
                                             TmPickleValue    entry,
                                             guint            key,
                                             TmPickleValue   *out);
guint64            tm_torch_entry_uint      (TmPickle        *p,
                                             TmTorchSlotCache *c,
                                             TmPickleValue    entry,
                                             guint            key);
gint64             tm_torch_entry_int       (TmPickle        *p,
                                             TmTorchSlotCache *c,
                                             TmPickleValue    entry,
                                             guint            key);
/* The slots of entry's shape (TM_TORCH_N_KEYS of them, -1 for a key it
 * lacks) and its values; NULL for a dict without a shape. */
const gint        *tm_torch_entry_row       (TmPickle        *p,
                                             TmTorchSlotCache *c,
                                             TmPickleValue    entry,
                                             const TmPickleValue **values);
TmPickleValue      tm_torch_entry_get_or_none (TmPickle      *p,
                                             TmTorchSlotCache *c,
                                             TmPickleValue    entry,
                                             guint            key);

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
