/* tm-memory-store-sort.c — finishing a memory store: matching, sorting, step ids
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-addr-map.h"
#include "tm-memory-store-private.h"

static void
alloc_partner (TmMemoryStore *self)
{
  if (self->partner == NULL)
    COLUMN_NEW (self->partner, self->capacity);
  for (guint i = 0; i < self->n; i++)
    self->partner[i] = TM_NO_PARTNER;
}

/* Matches every snapshot (time order) with earlier ones at the same
 * address (the partner column, tm-memory-store-private.h). A deallocation's partner is the
 * first allocation at its address since the last deallocation there
 * (docs/analysis.md step 4); an allocation's is the event that ends its
 * lifetime: the deallocation, or a later allocation at the same address
 * while it is live, which replaces it (as the breakdown's records do).
 * One map holds the live allocation of each address; a second, nearly
 * always empty, the first one where another came before any deallocation. */
static gboolean
match_all (TmMemoryStore  *s,
           const guint32  *perm,
           GCancellable   *cancellable,
           GError        **error)
{
  TmAddrMap *live = tm_addr_map_new ();
  TmAddrMap *first = tm_addr_map_new ();
  gsize n_first = 0;
  gboolean ok = TRUE;

  alloc_partner (s);

  /* i is the index in time order; perm (if any) maps it to file order,
   * where the addresses still are. */
  for (guint i = 0; i < s->n; i++)
    {
      guint src = perm != NULL ? perm[i] : i;
      guint64 addr = load_addr (s, src);
      guint32 other;

      if ((i % CANCEL_CHECK_INTERVAL) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      if (ref_kind (s->refs[src]) == TM_ACTIVITY_ALLOCATION)
        {
          if (tm_addr_map_exchange (live, addr, i, &other))
            {
              s->partner[other] = i;
              if (!tm_addr_map_lookup (first, addr, NULL))
                {
                  tm_addr_map_insert (first, addr, other);
                  n_first++;
                }
            }
        }
      else if (ref_kind (s->refs[src]) == TM_ACTIVITY_DEALLOCATION && tm_addr_map_remove (live, addr, &other))
        {
          guint32 earliest;

          s->partner[other] = i;
          if (n_first > 0 && tm_addr_map_remove (first, addr, &earliest))
            {
              n_first--;
              s->partner[i] = earliest;
            }
          else
            s->partner[i] = other;
        }
    }

  tm_addr_map_free (first);
  tm_addr_map_free (live);
  return ok;
}

/* An 8-byte column (the bits of a double are copied as they are), written
 * into spare, the previous column's old memory when there is one: its
 * pages are already there, so only the first column faults new ones in. */
static void
gather_column8 (gpointer        column,
                const guint32  *perm,
                guint           n,
                guint64       **spare)
{
  guint64 **col = column;
  guint64 *sorted;

  if (*col == NULL)
    return;
  if (*spare != NULL)
    sorted = *spare;
  else
    COLUMN_NEW (sorted, n);
  for (guint j = 0; j < n; j++)
    sorted[j] = (*col)[perm[j]];
  *spare = *col;
  *col = sorted;
}

/* Joins neighbouring runs of the same step id. */
static void
merge_runs (TmMemoryStore *s)
{
  guint out = 0;

  for (guint r = 0; r < s->n_runs; r++)
    {
      if (out > 0 && s->run_steps[out - 1] == s->run_steps[r])
        continue;
      s->run_starts[out] = s->run_starts[r];
      s->run_steps[out] = s->run_steps[r];
      out++;
    }
  s->n_runs = out;
}

/* The step runs in time order: snapshot j is snapshot perm[j] of file
 * order. Events not in time order come from a few lines of the file read
 * one after the other, so perm takes turns between a few places in file
 * order, each moving forward: the last runs used are remembered, one per
 * place, and a run is looked up only when none of them holds the next
 * snapshot. */
#define RUN_HINTS 8

static void
permute_runs (TmMemoryStore  *s,
              const guint32  *perm)
{
  g_autofree guint32 *old_starts = g_steal_pointer (&s->run_starts);
  g_autofree gint64 *old_steps = g_steal_pointer (&s->run_steps);
  guint n_old = s->n_runs;
  guint hints[RUN_HINTS] = { 0 };
  guint next_hint = 0;

  s->n_runs = 0;
  s->runs_capacity = 0;
  for (guint j = 0; j < s->n; j++)
    {
      guint src = perm[j];
      guint r = G_MAXUINT;

      for (guint h = 0; h < RUN_HINTS; h++)
        {
          guint c = hints[h];

          /* The hinted run, or the one after it. */
          if (old_starts[c] <= src)
            {
              if (c + 1 == n_old || src < old_starts[c + 1])
                r = c;
              else if (c + 2 == n_old || src < old_starts[c + 2])
                r = c + 1;
              else
                continue;
              hints[h] = r;
              break;
            }
        }
      if (r == G_MAXUINT)
        {
          r = find_run_in (old_starts, n_old, src);
          hints[next_hint] = r;
          next_hint = (next_hint + 1) % RUN_HINTS;
        }
      push_step (s, j, old_steps[r]);
    }
}

#undef RUN_HINTS

/* sorted[j] = old[perm[j]] for every column, one column at a time. The
 * reads come from a few runs, each read in order, so this is fast; a
 * column is copied whole, which costs one column (8 bytes per event) while
 * it happens. */
static void
apply_permutation (TmMemoryStore  *s,
                   const guint32  *perm)
{
  guint64 *spare = NULL;

  gather_column8 (&s->times, perm, s->n, &spare);
  gather_column8 (&s->stack, perm, s->n, &spare);
  gather_column8 (&s->heap, perm, s->n, &spare);
  gather_column8 (&s->free_bytes, perm, s->n, &spare);
  gather_column8 (&s->frag, perm, s->n, &spare);
  gather_column8 (&s->refs, perm, s->n, &spare);
  COLUMN_FREE (spare, s->n);
  s->capacity = s->n;
}

gboolean
_tm_memory_store_match (TmMemoryStore  *s,
                        const guint32  *perm,
                        GCancellable   *cancellable,
                        GError        **error)
{
  if (s->addrs == NULL && s->addrs32 == NULL)
    {
      alloc_partner (s);
      return TRUE;
    }
  return match_all (s, perm, cancellable, error);
}

void
_tm_memory_store_sort_columns (TmMemoryStore *s,
                               const guint32 *perm)
{
  apply_permutation (s, perm);
  permute_runs (s, perm);
}

void
_tm_memory_store_fill_steps (TmMemoryStore *s)
{
  gint64 last_valid_step = -1;

  /* In time order: a snapshot without a step gets the one after the last
   * step before it. */
  for (guint r = 0; r < s->n_runs; r++)
    {
      if (s->run_steps[r] == -1)
        s->run_steps[r] = tm_sat_add (last_valid_step, 1);
      else
        last_valid_step = s->run_steps[r];
    }
  merge_runs (s);
}
