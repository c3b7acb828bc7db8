/* tm-torch-snapshot-walk.c — a device's trace, walked once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One pass over the trace checks each entry, counts actions and walks the
 * allocations (docs/pytorch.md, "Allocations on the timeline"): an alloc
 * starts one, a free_completed ends the live one at its address or is
 * live from the start. The allocated series is kept relative to its start
 * (v0 is known only once the snapshot's blocks are read).
 *
 * A long trace is walked in two parts on two threads. The second part
 * cannot know what the first leaves live, so a free_completed it cannot
 * match is put aside, with the bytes it would free as an allocation live
 * from the start; the two parts are then joined in order: each of those
 * frees ends the first part's allocation live at its address, if any and
 * unless the second part allocated there before it (its map keeps a mark
 * where it freed), or else is live from the start, exactly as one walk
 * would have it. Should an allocation it ends have other bytes than it
 * assumed, the second part is walked again after the first, on one
 * thread.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-addr-map.h"
#include "tm-error.h"
#include "tm-torch-snapshot-private.h"

/* In the second part's map: the address was allocated and freed there. */
#define FREED_HERE (G_MAXUINT32 - 1)

/* A free_completed the second part could not match. */
typedef struct
{
  guint32       entry;
  gboolean      freed_here;  /* the second part allocated and freed there before */
  guint64       address;
  gint64        bytes;       /* as an allocation live from the start */
  TmPickleValue frames;
  TmPickleValue stream;
} Unmatched;

/* A small cache of action strings by word: the memo makes every "alloc"
 * the same word. */
typedef struct
{
  TmPickleValue word[8];
  guint8        action[8];
  guint         n;
} ActionCache;

static guint8
action_of (TmPickle      *p,
           ActionCache   *cache,
           TmPickleValue  word)
{
  guint8 action = TM_TORCH_OTHER;

  for (guint i = 0; i < cache->n; i++)
    if (cache->word[i] == word)
      return cache->action[i];
  for (guint a = 0; a < TM_TORCH_OTHER; a++)
    if (tm_pickle_string_equal (p, word, tm_torch_action_name (a)))
      action = (guint8) a;
  if (cache->n < G_N_ELEMENTS (cache->word))
    {
      cache->word[cache->n] = word;
      cache->action[cache->n++] = action;
    }
  return action;
}

/* One part of a trace, walked, and what it found. */
typedef struct
{
  TmTorchSnapshot     *self;
  TmTorchDevice       *d;
  const TmPickleValue *items;
  gsize                from;
  gsize                to;
  gboolean             second;  /* puts aside the frees it cannot match */
  GCancellable        *cancellable;
  GError              *error;

  TmTorchWalk         *walk;        /* allocs, live, ghosts */
  GArray              *unmatched;   /* Unmatched, the second part's */
  GArray              *events;      /* guint32 */
  GArray              *checkpoints; /* TmTorchCheckpoint */
  GArray              *freed;       /* TmTorchFreed */
  guint                n_by_action[TM_TORCH_OTHER + 1];
  gboolean             has_time;
  gint64               rel;
  gint64               high;        /* the highest rel after an entry so far */
  gint64               high_index;  /* its first entry; -1: none */
  gint64               reserved_rel;
  gint64               reserved_high;
  gint64               reserved_high_index;
} Part;

static void
part_init (Part                *w,
           TmTorchSnapshot     *self,
           TmTorchDevice       *d,
           const TmPickleValue *items,
           gsize                from,
           gsize                to,
           gboolean             second,
           GCancellable        *cancellable)
{
  memset (w, 0, sizeof *w);
  w->self = self;
  w->d = d;
  w->items = items;
  w->from = from;
  w->to = to;
  w->second = second;
  w->cancellable = cancellable;
  w->walk = tm_torch_walk_new ();
  w->unmatched = g_array_new (FALSE, FALSE, sizeof (Unmatched));
  w->events = g_array_new (FALSE, FALSE, sizeof (guint32));
  w->checkpoints = g_array_new (FALSE, FALSE, sizeof (TmTorchCheckpoint));
  w->freed = g_array_new (FALSE, FALSE, sizeof (TmTorchFreed));
  w->has_time = TRUE;
  /* The first part starts from v0 itself, before the first entry (index
   * -1); the second from nothing yet. */
  w->high = second ? G_MININT64 : 0;
  w->high_index = -1;
  w->reserved_high = second ? G_MININT64 : 0;
  w->reserved_high_index = -1;
}

static void
part_clear (Part *w)
{
  g_clear_pointer (&w->walk, tm_torch_walk_free);
  g_clear_pointer (&w->unmatched, g_array_unref);
  g_clear_pointer (&w->events, g_array_unref);
  g_clear_pointer (&w->checkpoints, g_array_unref);
  g_clear_pointer (&w->freed, g_array_unref);
  g_clear_error (&w->error);
}

static void
note_freed (Part   *w,
            gsize   i,
            gint64  bytes,
            gint64  size)
{
  if (bytes != size)
    {
      TmTorchFreed freed = { (guint32) i, bytes };

      g_array_append_val (w->freed, freed);
    }
}

static gpointer
walk_part (gpointer data)
{
  Part *w = data;
  TmTorchDevice *d = w->d;
  TmPickle *p = w->self->pickle;
  TmTorchWalk *c = w->walk;
  ActionCache cache = { { 0 }, { 0 }, 0 };
  TmTorchEntry entry, prev;
  guint8 prev_action = TM_TORCH_OTHER;
  guint64 prev_addr = 0;

  memset (&prev, 0, sizeof prev);
  if (w->from > 0)
    {
      /* The entry before the part, for a free_requested right before a
       * free_completed (the other part's action column is not ours). */
      tm_torch_entry_read (w->self, w->items[w->from - 1], &prev);
      if (tm_pickle_kind (p, prev.value[TM_TORCH_KEY_ACTION]) == TM_PICKLE_STRING)
        prev_action = action_of (p, &cache, prev.value[TM_TORCH_KEY_ACTION]);
      tm_torch_entry_uint (p, &prev, TM_TORCH_KEY_ADDR, &prev_addr);
    }

  for (gsize i = w->from; i < w->to; i++)
    {
      TmPickleValue e = w->items[i];
      guint32 index32 = (guint32) i;
      TmTorchAllocation a;
      guint8 action;
      guint64 addr = 0;
      gint64 size = 0, t;
      guint32 found;

      if ((i & 0xffff) == 0 && g_cancellable_set_error_if_cancelled (w->cancellable, &w->error))
        return NULL;
      if (i % w->self->checkpoint == 0)
        {
          TmTorchCheckpoint point = { w->rel, w->high, w->reserved_rel };

          g_array_append_val (w->checkpoints, point);
        }
      if (tm_pickle_kind (p, e) != TM_PICKLE_DICT)
        {
          tm_torch_fail_shape (&w->error, _("trace entry %zu of device %s is a %s, not a dict"),
                               i, d->id, tm_pickle_kind_name (tm_pickle_kind (p, e)));
          return NULL;
        }
      tm_torch_entry_read (w->self, e, &entry);

      if (!(entry.present & (1u << TM_TORCH_KEY_ACTION)) ||
          tm_pickle_kind (p, entry.value[TM_TORCH_KEY_ACTION]) != TM_PICKLE_STRING)
        {
          tm_torch_fail_shape (&w->error, _("trace entry %zu of device %s has no “action” string"), i, d->id);
          return NULL;
        }
      action = action_of (p, &cache, entry.value[TM_TORCH_KEY_ACTION]);
      d->action[i] = action;
      w->n_by_action[action]++;

      if (action != TM_TORCH_OOM && !tm_torch_entry_uint (p, &entry, TM_TORCH_KEY_ADDR, &addr) &&
          action <= TM_TORCH_SEGMENT_UNMAP)
        {
          tm_torch_fail_shape (&w->error, _("trace entry %zu (%s) of device %s has no “addr” integer"),
                               i, tm_torch_action_name (action), d->id);
          return NULL;
        }
      if (!tm_torch_entry_int (p, &entry, TM_TORCH_KEY_SIZE, &size) && action <= TM_TORCH_SEGMENT_UNMAP)
        {
          tm_torch_fail_shape (&w->error, _("trace entry %zu (%s) of device %s has no “size” integer"),
                               i, tm_torch_action_name (action), d->id);
          return NULL;
        }
      if (size < 0)
        {
          tm_torch_fail_shape (&w->error, _("trace entry %zu of device %s has a negative size"), i, d->id);
          return NULL;
        }
      if (w->has_time && !tm_torch_entry_int (p, &entry, TM_TORCH_KEY_TIME, &t))
        w->has_time = FALSE;

      switch (action)
        {
        case TM_TORCH_ALLOC:
          a.address = addr;
          a.bytes = size;
          a.start = (gint64) i;
          a.end = -1;
          a.origin = TM_TORCH_ORIGIN_TRACE;
          a.frames = entry.value[TM_TORCH_KEY_FRAMES];
          a.stream = entry.value[TM_TORCH_KEY_STREAM];
          g_array_append_val (c->allocs, a);
          /* A second alloc at a live address leaves the first live. */
          tm_addr_map_insert (c->live, addr, c->allocs->len - 1);
          w->rel = tm_sat_add (w->rel, size);
          break;

        case TM_TORCH_FREE_COMPLETED:
          if (w->second ? tm_addr_map_lookup (c->live, addr, &found) && found != FREED_HERE
                        : tm_addr_map_remove (c->live, addr, &found))
            {
              TmTorchAllocation *ended = &g_array_index (c->allocs, TmTorchAllocation, found);

              ended->end = (gint64) i;
              w->rel = tm_sat_sub (w->rel, ended->bytes);
              note_freed (w, i, ended->bytes, size);
              if (w->second)
                tm_addr_map_insert (c->live, addr, FREED_HERE);
              break;
            }
          /* Live from the start. MemoryViz merges a free_requested right
           * before at the same address into this one, and takes its
           * entry. */
          {
            const TmTorchEntry *from = prev_action == TM_TORCH_FREE_REQUESTED && prev_addr == addr
                                       ? &prev : &entry;

            a.address = addr;
            a.bytes = size;
            if (from != &entry)
              tm_torch_entry_int (p, from, TM_TORCH_KEY_SIZE, &a.bytes);
            a.start = -1;
            a.end = (gint64) i;
            a.origin = TM_TORCH_ORIGIN_FREE;
            a.frames = from->value[TM_TORCH_KEY_FRAMES];
            a.stream = from->value[TM_TORCH_KEY_STREAM];
            w->rel = tm_sat_sub (w->rel, a.bytes);
            note_freed (w, i, a.bytes, size);
            if (w->second)
              {
                Unmatched u = { index32, tm_addr_map_lookup (c->live, addr, NULL), addr, a.bytes,
                                a.frames, a.stream };

                g_array_append_val (w->unmatched, u);
              }
            else
              g_array_append_val (c->ghosts, a);
          }
          break;

        case TM_TORCH_SEGMENT_ALLOC:
        case TM_TORCH_SEGMENT_MAP:
          w->reserved_rel = tm_sat_add (w->reserved_rel, size);
          g_array_append_val (w->events, index32);
          break;

        case TM_TORCH_SEGMENT_FREE:
        case TM_TORCH_SEGMENT_UNMAP:
          w->reserved_rel = tm_sat_sub (w->reserved_rel, size);
          g_array_append_val (w->events, index32);
          break;

        case TM_TORCH_OOM:
          g_array_append_val (w->events, index32);
          break;

        default:
          break;
        }
      prev_action = action;
      prev_addr = addr;
      prev = entry;

      /* The first entry that reaches a new high. */
      if (w->rel > w->high)
        {
          w->high = w->rel;
          w->high_index = (gint64) i;
        }
      if (w->reserved_rel > w->reserved_high)
        {
          w->reserved_high = w->reserved_rel;
          w->reserved_high_index = (gint64) i;
        }
    }
  return NULL;
}

/* Joins the second part to the first (see the top of this file): FALSE
 * when a free it put aside ends an allocation of other bytes than it
 * assumed, and nothing is changed but the first part's map. */
static gboolean
join (Part *first,
      Part *second)
{
  TmTorchWalk *c = first->walk;
  TmTorchWalk *c2 = second->walk;
  guint shift = c->allocs->len;
  gint64 rel = first->rel, reserved_rel = first->reserved_rel;
  gsize pos = 0;
  guint64 addr;
  guint32 k;

  /* The ends first: nothing is changed should one not fit. */
  for (guint i = 0; i < second->unmatched->len; i++)
    {
      Unmatched *u = &g_array_index (second->unmatched, Unmatched, i);

      if (!u->freed_here && tm_addr_map_lookup (c->live, u->address, &k) &&
          g_array_index (c->allocs, TmTorchAllocation, k).bytes != u->bytes)
        return FALSE;
    }
  for (guint i = 0; i < second->unmatched->len; i++)
    {
      Unmatched *u = &g_array_index (second->unmatched, Unmatched, i);

      if (!u->freed_here && tm_addr_map_remove (c->live, u->address, &k))
        g_array_index (c->allocs, TmTorchAllocation, k).end = u->entry;
      else
        {
          TmTorchAllocation a = { u->address, u->bytes, -1, u->entry, TM_TORCH_ORIGIN_FREE, u->frames, u->stream };

          g_array_append_val (c->ghosts, a);
        }
    }

  /* The second part's allocations after the first's, and what it leaves
   * live over what the first does: where it allocated, the first part's
   * allocation left the map (still live, never freed). */
  g_array_append_vals (c->allocs, c2->allocs->data, c2->allocs->len);
  while (tm_addr_map_iter_next (c2->live, &pos, &addr, &k))
    if (k != FREED_HERE)
      tm_addr_map_insert (c->live, addr, k + shift);
    else
      tm_addr_map_remove (c->live, addr, NULL);

  /* The series, from where the first part ended. */
  for (guint i = 0; i < second->checkpoints->len; i++)
    {
      TmTorchCheckpoint point = g_array_index (second->checkpoints, TmTorchCheckpoint, i);

      point.high_rel = point.high_rel == G_MININT64
                       ? first->high : MAX (first->high, tm_sat_add (rel, point.high_rel));
      point.allocated_rel = tm_sat_add (rel, point.allocated_rel);
      point.reserved_rel = tm_sat_add (reserved_rel, point.reserved_rel);
      g_array_append_val (first->checkpoints, point);
    }
  if (second->high_index >= 0 && tm_sat_add (rel, second->high) > first->high)
    {
      first->high = tm_sat_add (rel, second->high);
      first->high_index = second->high_index;
    }
  if (second->reserved_high_index >= 0 && tm_sat_add (reserved_rel, second->reserved_high) > first->reserved_high)
    {
      first->reserved_high = tm_sat_add (reserved_rel, second->reserved_high);
      first->reserved_high_index = second->reserved_high_index;
    }
  first->rel = tm_sat_add (rel, second->rel);
  first->reserved_rel = tm_sat_add (reserved_rel, second->reserved_rel);
  g_array_append_vals (first->events, second->events->data, second->events->len);
  g_array_append_vals (first->freed, second->freed->data, second->freed->len);
  for (guint a = 0; a <= TM_TORCH_OTHER; a++)
    first->n_by_action[a] += second->n_by_action[a];
  first->has_time &= second->has_time;
  first->to = second->to;
  return TRUE;
}

gboolean
tm_torch_read_trace (TmTorchSnapshot *self,
                     TmTorchDevice   *d,
                     TmPickleValue    list,
                     GCancellable    *cancellable,
                     GError         **error)
{
  TmTorchFigures *f = &d->figures;
  gsize n;
  const TmPickleValue *items = tm_pickle_get_items (self->pickle, list, &n);
  gsize mid = n / 2 / self->checkpoint * self->checkpoint;
  Part first, second;
  TmTorchWalk *c;

  if (n >= G_MAXUINT32)
    return tm_torch_fail_shape (error, _("device %s has more than 2^32 trace entries"), d->id);
  d->n = (guint) n;
  d->action = g_new (guint8, MAX (n, 1));
  d->entry = items;
  f->n_entries = d->n;

  if (n >= self->two_parts_min && mid > 0 && g_get_num_processors () >= 2)
    {
      GThread *thread;

      part_init (&first, self, d, items, 0, mid, FALSE, cancellable);
      part_init (&second, self, d, items, mid, n, TRUE, cancellable);
      thread = g_thread_new ("tidemark-torch-walk", walk_part, &second);
      walk_part (&first);
      g_thread_join (thread);
      if (first.error == NULL && second.error != NULL)
        first.error = g_steal_pointer (&second.error);
      else if (first.error == NULL && !join (&first, &second))
        {
          /* One walk after all, from where the first part ended. */
          first.from = mid;
          first.to = n;
          walk_part (&first);
        }
      part_clear (&second);
    }
  else
    {
      part_init (&first, self, d, items, 0, n, FALSE, cancellable);
      walk_part (&first);
    }

  if (first.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&first.error));
      part_clear (&first);
      return FALSE;
    }

  c = first.walk;
  c->peak_rel = first.high;
  c->rel_at_end = first.rel;
  c->reserved_rel = first.reserved_rel;
  c->peak_reserved_rel = first.reserved_high;
  f->peak_index = first.high_index;
  f->peak_reserved_index = first.reserved_high_index;
  f->has_time = n > 0 && first.has_time;
  memcpy (f->n_by_action, first.n_by_action, sizeof f->n_by_action);
  f->n_initially_from_free = c->ghosts->len;
  tm_torch_walk_free (d->walk);
  d->walk = g_steal_pointer (&first.walk);
  g_array_unref (d->events);
  d->events = g_steal_pointer (&first.events);
  g_array_unref (d->checkpoints);
  d->checkpoints = g_steal_pointer (&first.checkpoints);
  g_array_unref (d->freed);
  d->freed = g_steal_pointer (&first.freed);
  part_clear (&first);
  return TRUE;
}
