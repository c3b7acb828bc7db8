/* tm-lod.c — multi-resolution min/max over one memory id's columns
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Level 1 summarises aligned blocks of LEAF snapshots, level L > 1 aligned
 * blocks of FANOUT level L − 1 blocks (LEAF · FANOUT^(L−1) snapshots); only
 * full blocks are kept. A range query walks left to right, always taking the
 * largest aligned block that fits in what is left, and reads the columns
 * directly for the unaligned ends: at most 2·(LEAF − 1) snapshots plus
 * 2·(FANOUT − 1) blocks per level.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tm-lod.h"
#include "tm-types.h"

/* b − a as a double: exact while it fits in 64 bits, and no overflow when a
 * view spans more than INT64_MAX ps (docs/formats.md "Hostile input"). */
static inline double
diff (gint64 b,
      gint64 a)
{
  gint64 d;

  if (__builtin_sub_overflow (b, a, &d))
    return (double) b - (double) a;
  return (double) d;
}

/* start + floor (offset), saturating. */
static inline gint64
time_at (gint64 start,
         double offset)
{
  return tm_sat_add (start, tm_sat_from_double (floor (offset)));
}

#define LEAF_SHIFT   5
#define FANOUT_SHIFT 3
#define LEAF         (1u << LEAF_SHIFT)     /* 32 snapshots */
#define FANOUT       (1u << FANOUT_SHIFT)   /* 8 blocks */
#define MAX_LEVELS   16

/* tm_lod_query_columns() rounds a column boundary to the nearer edge of
 * the block around it when the block lasts at most 1/SNAP_DIVISOR of a
 * column: see there. */
#define SNAP_DIVISOR 2

/* tm_lod_query_columns() reads every snapshot in view, in one pass, when
 * there are at most this many per column on average. */
#define SWEEP_PER_COLUMN 64

/* One cache line. */
typedef struct
{
  gint64 stack_min;
  gint64 stack_max;
  gint64 used_min;
  gint64 used_max;
  gint64 total_min;
  gint64 total_max;
  double frag_min;
  double frag_max;
} Summary;

G_STATIC_ASSERT (sizeof (Summary) == 64);

struct _TmLod
{
  guint          n;
  const gint64  *times;
  const gint64  *stack;
  const gint64  *heap;
  const gint64  *free_bytes;   /* may be NULL: see has_capacity */
  gboolean       has_capacity; /* free_bytes NULL: every total is capacity; else 0 free */
  gint64         capacity;
  const double  *frag;         /* may be NULL: all zero */

  /* levels[1 .. n_levels]; levels[0] is unused (the columns themselves). */
  guint          n_levels;
  gsize          block_size[MAX_LEVELS];
  guint          block_shift[MAX_LEVELS];
  gsize          n_blocks[MAX_LEVELS];
  Summary       *levels[MAX_LEVELS];

  /* times[k · LEAF] for every leaf, the last one possibly partial: a small
   * array that time searches walk before touching the big column. */
  gint64        *leaf_times;
  gsize          n_leaf_times;

  Summary        all;
};

static inline void
summary_init (Summary *s)
{
  s->stack_min = G_MAXINT64;
  s->stack_max = G_MININT64;
  s->used_min = G_MAXINT64;
  s->used_max = G_MININT64;
  s->total_min = G_MAXINT64;
  s->total_max = G_MININT64;
  s->frag_min = INFINITY;
  s->frag_max = -INFINITY;
}

static inline void
summary_merge (Summary       *s,
               const Summary *o)
{
  if (o->stack_min < s->stack_min) s->stack_min = o->stack_min;
  if (o->stack_max > s->stack_max) s->stack_max = o->stack_max;
  if (o->used_min < s->used_min) s->used_min = o->used_min;
  if (o->used_max > s->used_max) s->used_max = o->used_max;
  if (o->total_min < s->total_min) s->total_min = o->total_min;
  if (o->total_max > s->total_max) s->total_max = o->total_max;
  if (o->frag_min < s->frag_min) s->frag_min = o->frag_min;
  if (o->frag_max > s->frag_max) s->frag_max = o->frag_max;
}

/* Folds snapshots [from, to) read straight from the columns. */
static inline void
summary_add_raw (Summary     *s,
                 const TmLod *lod,
                 gsize        from,
                 gsize        to)
{
  for (gsize i = from; i < to; i++)
    {
      gint64 stack = lod->stack[i];
      gint64 used = tm_sat_add (stack, lod->heap[i]);
      gint64 total = lod->free_bytes != NULL ? tm_sat_add (used, lod->free_bytes[i])
                     : lod->has_capacity ? lod->capacity : used;
      double frag = lod->frag != NULL ? lod->frag[i] : 0.0;

      if (isnan (frag))
        frag = 0.0;

      if (stack < s->stack_min) s->stack_min = stack;
      if (stack > s->stack_max) s->stack_max = stack;
      if (used < s->used_min) s->used_min = used;
      if (used > s->used_max) s->used_max = used;
      if (total < s->total_min) s->total_min = total;
      if (total > s->total_max) s->total_max = total;
      if (frag < s->frag_min) s->frag_min = frag;
      if (frag > s->frag_max) s->frag_max = frag;
    }
}

/* Folds snapshots [from, to) (to <= n) using the largest blocks that fit. */
static void
summary_add_range (Summary     *s,
                   const TmLod *lod,
                   gsize        from,
                   gsize        to)
{
  gsize i = from;

  g_assert (to <= lod->n);

  while (i < to)
    {
      guint level;

      if ((i & (LEAF - 1)) != 0 || i + LEAF > to || lod->n_levels == 0)
        {
          gsize stop = MIN (to, (i / LEAF + 1) * LEAF);

          summary_add_raw (s, lod, i, stop);
          i = stop;
          continue;
        }

      level = 1;
      while (level < lod->n_levels &&
             (i & (lod->block_size[level + 1] - 1)) == 0 &&
             i + lod->block_size[level + 1] <= to)
        level++;

      g_assert ((i >> lod->block_shift[level]) < lod->n_blocks[level]);
      summary_merge (s, &lod->levels[level][i >> lod->block_shift[level]]);
      i += lod->block_size[level];
    }
}

static TmLod *lod_build (TmLod *lod);

/* A LOD over the columns, its levels not built yet. */
static TmLod *
lod_alloc (guint         n,
           const gint64 *times,
           const gint64 *stack,
           const gint64 *heap,
           const double *fragmentation)
{
  TmLod *lod;

  g_return_val_if_fail (n == 0 || times != NULL, NULL);
  g_return_val_if_fail (n == 0 || stack != NULL, NULL);
  g_return_val_if_fail (n == 0 || heap != NULL, NULL);

  lod = g_new0 (TmLod, 1);
  lod->n = n;
  lod->times = times;
  lod->stack = stack;
  lod->heap = heap;
  lod->frag = fragmentation;
  return lod;
}

TmLod *
tm_lod_new (guint         n,
            const gint64 *times,
            const gint64 *stack,
            const gint64 *heap,
            const gint64 *free_bytes,
            const double *fragmentation)
{
  TmLod *lod = lod_alloc (n, times, stack, heap, fragmentation);

  if (lod == NULL)
    return NULL;
  lod->free_bytes = free_bytes;
  return lod_build (lod);
}

TmLod *
tm_lod_new_with_capacity (guint         n,
                          const gint64 *times,
                          const gint64 *stack,
                          const gint64 *heap,
                          gint64        capacity,
                          const double *fragmentation)
{
  TmLod *lod = lod_alloc (n, times, stack, heap, fragmentation);

  if (lod == NULL)
    return NULL;
  lod->has_capacity = TRUE;
  lod->capacity = capacity;
  return lod_build (lod);
}

/* Builds the levels over lod's columns. */
static TmLod *
lod_build (TmLod *lod)
{
  gsize n = lod->n;

  /* Level 1 from the columns. */
  if (n / LEAF > 0)
    {
      gsize n_blocks = n / LEAF;
      Summary *level = g_new (Summary, n_blocks);

      for (gsize b = 0; b < n_blocks; b++)
        {
          summary_init (&level[b]);
          summary_add_raw (&level[b], lod, b * LEAF, (b + 1) * LEAF);
        }

      lod->n_levels = 1;
      lod->block_size[1] = LEAF;
      lod->block_shift[1] = LEAF_SHIFT;
      lod->n_blocks[1] = n_blocks;
      lod->levels[1] = level;
    }

  /* Each further level from the one below. */
  while (lod->n_levels > 0 &&
         lod->n_levels + 1 < MAX_LEVELS &&
         lod->n_blocks[lod->n_levels] >= FANOUT)
    {
      guint below = lod->n_levels;
      gsize n_blocks = lod->n_blocks[below] / FANOUT;
      Summary *level = g_new (Summary, n_blocks);

      for (gsize b = 0; b < n_blocks; b++)
        {
          summary_init (&level[b]);
          for (guint c = 0; c < FANOUT; c++)
            summary_merge (&level[b], &lod->levels[below][b * FANOUT + c]);
        }

      lod->n_levels = below + 1;
      lod->block_size[below + 1] = lod->block_size[below] * FANOUT;
      lod->block_shift[below + 1] = lod->block_shift[below] + FANOUT_SHIFT;
      lod->n_blocks[below + 1] = n_blocks;
      lod->levels[below + 1] = level;
    }

  lod->n_leaf_times = (n + LEAF - 1) / LEAF;
  lod->leaf_times = g_new (gint64, MAX (lod->n_leaf_times, 1));
  for (gsize k = 0; k < lod->n_leaf_times; k++)
    lod->leaf_times[k] = lod->times[k * LEAF];

  summary_init (&lod->all);
  summary_add_range (&lod->all, lod, 0, n);

  return lod;
}

void
tm_lod_free (TmLod *lod)
{
  if (lod == NULL)
    return;

  for (guint l = 1; l <= lod->n_levels; l++)
    g_free (lod->levels[l]);
  g_free (lod->leaf_times);
  g_free (lod);
}

guint
tm_lod_get_n_snapshots (const TmLod *lod)
{
  g_return_val_if_fail (lod != NULL, 0);

  return lod->n;
}

gsize
tm_lod_get_memory_size (const TmLod *lod)
{
  gsize size;

  g_return_val_if_fail (lod != NULL, 0);

  size = sizeof (TmLod) + MAX (lod->n_leaf_times, 1) * sizeof (gint64);
  for (guint l = 1; l <= lod->n_levels; l++)
    size += lod->n_blocks[l] * sizeof (Summary);

  return size;
}

gint64
tm_lod_get_max_total (const TmLod *lod)
{
  g_return_val_if_fail (lod != NULL, 0);

  return lod->n > 0 ? lod->all.total_max : 0;
}

gint64
tm_lod_get_max_used (const TmLod *lod)
{
  g_return_val_if_fail (lod != NULL, 0);

  return lod->n > 0 ? lod->all.used_max : 0;
}

/* The last leaf j with leaf_times[j] < t_ps, or -1 when the first leaf
 * already starts at or after t_ps. The search gallops outwards from guess,
 * so a good guess (a frame's columns predict each other's) costs a couple
 * of reads in one cache line. */
static gssize
leaf_search (const TmLod *lod,
             gint64       t_ps,
             gssize       guess)
{
  gssize n = (gssize) lod->n_leaf_times;
  gssize lo, hi;
  gsize step = 1;

  if (n == 0 || lod->leaf_times[0] >= t_ps)
    return -1;

  guess = CLAMP (guess, 0, n - 1);
  if (lod->leaf_times[guess] < t_ps)
    {
      /* Right: leaf_times[lo] < t_ps. */
      lo = guess;
      hi = lo + 1;
      while (hi < n && lod->leaf_times[hi] < t_ps)
        {
          lo = hi;
          step *= 2;
          hi = lo + (gssize) step;
        }
      hi = MIN (hi, n);
    }
  else
    {
      /* Left: leaf_times[hi] >= t_ps, and leaf_times[0] < t_ps. */
      hi = guess;
      lo = hi - 1;
      while (lo > 0 && lod->leaf_times[lo] >= t_ps)
        {
          hi = lo;
          step *= 2;
          lo = hi - (gssize) step;
        }
      lo = MAX (lo, 0);
    }

  while (hi - lo > 1)
    {
      gssize mid = lo + (hi - lo) / 2;

      if (lod->leaf_times[mid] < t_ps)
        lo = mid;
      else
        hi = mid;
    }

  return lo;
}

/* The exact lower bound, given j = leaf_search (t_ps). */
static guint
lower_bound_in_leaf (const TmLod *lod,
                     gint64       t_ps,
                     gssize       j)
{
  gsize a, b;

  if (j < 0)
    return 0;

  /* times[a] < t_ps; times[b] >= t_ps or b == n. */
  a = (gsize) j << LEAF_SHIFT;
  b = MIN ((gsize) lod->n, a + LEAF);
  while (b - a > 1)
    {
      gsize mid = a + (b - a) / 2;

      if (lod->times[mid] < t_ps)
        a = mid;
      else
        b = mid;
    }

  return b;
}

guint
tm_lod_lower_bound (const TmLod *lod,
                    gint64       t_ps,
                    guint        hint)
{
  g_return_val_if_fail (lod != NULL, 0);

  if (hint >= lod->n)
    return lod->n;

  return MAX (hint, lower_bound_in_leaf (lod, t_ps, leaf_search (lod, t_ps, (gssize) (hint >> LEAF_SHIFT))));
}

static void
bucket_from_summary (TmLodBucket   *bucket,
                     const Summary *s,
                     guint          first,
                     guint          last)
{
  bucket->has_data = TRUE;
  bucket->first = first;
  bucket->last = last;
  bucket->stack_min = s->stack_min;
  bucket->stack_max = s->stack_max;
  bucket->used_min = s->used_min;
  bucket->used_max = s->used_max;
  bucket->total_min = s->total_min;
  bucket->total_max = s->total_max;
  bucket->frag_min = s->frag_min;
  bucket->frag_max = s->frag_max;
}

gboolean
tm_lod_query_indices (const TmLod *lod,
                      guint        first,
                      guint        last,
                      TmLodBucket *bucket)
{
  Summary s;

  g_return_val_if_fail (lod != NULL, FALSE);
  g_return_val_if_fail (bucket != NULL, FALSE);

  memset (bucket, 0, sizeof *bucket);

  if (first > last || last >= lod->n)
    return FALSE;

  summary_init (&s);
  summary_add_range (&s, lod, first, (gsize) last + 1);
  bucket_from_summary (bucket, &s, first, last);

  return TRUE;
}

/* Fills bucket for the time range [t0_ps, t1_ps) whose snapshots are
 * [k, end): k and end are lower bounds of t0_ps and t1_ps (or, for a
 * snapped boundary, a leaf edge next to it). The snapshot before k is
 * carried in when the boundary is exact and no snapshot is at t0_ps, or
 * when the range has no snapshot of its own. */
static void
fill_bucket (const TmLod *lod,
             guint        k,
             gboolean     k_exact,
             guint        end,
             gint64       t0_ps,
             TmLodBucket *bucket)
{
  guint first = k;

  if (k >= lod->n || end == 0)
    {
      /* Entirely after the last snapshot, or before the first one. */
      memset (bucket, 0, sizeof *bucket);
      return;
    }

  if (k > 0 && (end == k || (k_exact && lod->times[k] != t0_ps)))
    first = k - 1;

  tm_lod_query_indices (lod, first, MAX (end, first + 1) - 1, bucket);
}

gboolean
tm_lod_query_time (const TmLod *lod,
                   gint64       t0_ps,
                   gint64       t1_ps,
                   TmLodBucket *bucket)
{
  guint k, end;

  g_return_val_if_fail (lod != NULL, FALSE);
  g_return_val_if_fail (bucket != NULL, FALSE);

  if (t1_ps <= t0_ps)
    t1_ps = tm_sat_add (t0_ps, 1);

  k = tm_lod_lower_bound (lod, t0_ps, 0);
  end = tm_lod_lower_bound (lod, t1_ps, k);
  fill_bucket (lod, k, TRUE, end, t0_ps, bucket);

  return bucket->has_data;
}

/* A column boundary: the lower bound of t_ps, or, where a block of leaves
 * around it lasts at most max_span, the nearer edge of that block (no read
 * of the big columns at all). The coarsest such block is taken, so that the
 * column between two boundaries is made of few, large blocks; *level is a
 * guess in (the previous boundary's), the level used out (0: exact).
 * *leaf is a guess in, the boundary's leaf out. */
static guint
column_bound (const TmLod *lod,
              gint64       t_ps,
              guint        hint,
              double       max_span,
              gssize      *leaf,
              guint       *level,
              gboolean    *exact)
{
  gssize j = leaf_search (lod, t_ps, *leaf);
  guint bound;

  *leaf = j;
  if (j >= 0 && max_span > 0)
    {
      for (guint l = MIN (*level + 1, MAX (lod->n_levels, 1)); l >= 1; l--)
        {
          gssize leaves = (gssize) 1 << (FANOUT_SHIFT * (l - 1));
          gssize left = (j / leaves) * leaves;
          gssize right = left + leaves;

          if (right >= (gssize) lod->n_leaf_times ||
              diff (lod->leaf_times[right], lod->leaf_times[left]) > max_span)
            continue;

          bound = (guint) ((diff (t_ps, lod->leaf_times[left]) <= diff (lod->leaf_times[right], t_ps) ? left : right) << LEAF_SHIFT);
          *level = l;
          *exact = FALSE;
          return MAX (bound, hint);
        }
    }

  *level = 0;
  *exact = TRUE;
  bound = lower_bound_in_leaf (lod, t_ps, j);

  return MAX (bound, hint);
}

/* Columns by one pass over the snapshots in view, for when columns hold few
 * snapshots each: reading them all in order (every column read sequentially,
 * which the prefetcher loves) beats searching and summarising column by
 * column. Same result as the exact per-column query. Needs columns of at
 * least 1 ps. */
static guint
sweep_columns (const TmLod *lod,
               gint64       start_ps,
               gint64       end_ps,
               guint        n_columns,
               guint        k,
               TmLodBucket *buckets)
{
  double span = diff (end_ps, start_ps);
  guint n_with_data = 0;
  gsize i = k;
  Summary carried;
  gboolean have_carried = FALSE;

  summary_init (&carried);
  if (k > 0)
    {
      summary_add_raw (&carried, lod, k - 1, k);
      have_carried = TRUE;
    }

  for (guint c = 0; c < n_columns; c++)
    {
      gint64 t0 = time_at (start_ps, span * c / n_columns);
      gint64 t1 = c + 1 == n_columns ? tm_sat_add (end_ps, 1) : time_at (start_ps, span * (c + 1) / n_columns);
      TmLodBucket *bucket = &buckets[c];
      gsize column_start = i;
      gsize first;
      Summary s;

      if (i >= lod->n || (i == 0 && lod->times[0] >= t1))
        {
          /* After the last snapshot, or before the first. */
          memset (bucket, 0, sizeof *bucket);
          continue;
        }

      summary_init (&s);
      while (i < lod->n && lod->times[i] < t1)
        i++;
      summary_add_raw (&s, lod, column_start, i);

      /* The snapshot before the column holds into it, unless one is right
       * at its start. (Without one, the column has snapshots of its own:
       * an empty column before the first snapshot was handled above.) */
      first = column_start;
      if (have_carried && (i == column_start || lod->times[column_start] != t0))
        {
          summary_merge (&s, &carried);
          first = column_start - 1;
        }
      bucket_from_summary (bucket, &s, (guint) first, (guint) (i > column_start ? i - 1 : column_start - 1));

      if (i > column_start)
        {
          summary_init (&carried);
          summary_add_raw (&carried, lod, i - 1, i);
          have_carried = TRUE;
        }
      n_with_data++;
    }

  return n_with_data;
}

guint
tm_lod_query_columns (const TmLod *lod,
                      gint64       start_ps,
                      gint64       end_ps,
                      guint        n_columns,
                      TmLodBucket *buckets)
{
  double span;
  double max_span;
  guint k;
  gboolean k_exact;
  gssize leaf = 0, leaf_step = 0;
  guint level = lod->n_levels;
  guint n_with_data = 0;

  g_return_val_if_fail (lod != NULL, 0);
  g_return_val_if_fail (n_columns == 0 || buckets != NULL, 0);

  if (n_columns == 0)
    return 0;

  if (end_ps < start_ps)
    end_ps = start_ps;
  span = diff (end_ps, start_ps);

  /* Snapping moves a boundary by at most half a block's duration, so by
   * at most 1/(2·SNAP_DIVISOR) of a column: invisible, and every snapshot
   * still lands in exactly one column. Columns under SNAP_DIVISOR ps never
   * snap (a block there would last 0 ps). */
  max_span = span / n_columns / SNAP_DIVISOR;
  if (max_span < 1.0)
    max_span = -1.0;

  /* Few snapshots per column: one pass over them. */
  if (span >= n_columns)
    {
      guint first = tm_lod_lower_bound (lod, start_ps, 0);
      guint last = tm_lod_lower_bound (lod, tm_sat_add (end_ps, 1), first);

      if ((gsize) (last - first) <= (gsize) n_columns * SWEEP_PER_COLUMN)
        return sweep_columns (lod, start_ps, end_ps, n_columns, first, buckets);
    }

  /* The view's own edges are exact: snapping there would push snapshots
   * out of the view rather than into a neighbouring column. */
  k = tm_lod_lower_bound (lod, start_ps, 0);
  k_exact = TRUE;
  leaf = (gssize) (k >> LEAF_SHIFT);
  for (guint c = 0; c < n_columns; c++)
    {
      gint64 t0 = time_at (start_ps, span * c / n_columns);
      gint64 t1;
      guint end;
      gboolean end_exact;

      if (c + 1 == n_columns)
        t1 = tm_sat_add (end_ps, 1);
      else
        t1 = time_at (start_ps, span * (c + 1) / n_columns);

      if (t1 <= t0)
        {
          /* Narrower than a picosecond: shares its start with the next. */
          end = tm_lod_lower_bound (lod, tm_sat_add (t0, 1), k);
          fill_bucket (lod, k, k_exact, end, t0, &buckets[c]);
        }
      else
        {
          /* The next boundary is about as many leaves on as the last. */
          gssize previous = leaf;

          leaf += leaf_step;
          end = column_bound (lod, t1, k, c + 1 < n_columns ? max_span : -1.0, &leaf, &level, &end_exact);
          leaf_step = MAX (leaf - previous, 0);
          fill_bucket (lod, k, k_exact, end, t0, &buckets[c]);
          k = end;
          k_exact = end_exact;
        }

      if (buckets[c].has_data)
        n_with_data++;
    }

  return n_with_data;
}
