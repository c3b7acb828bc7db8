/* test-lod.c — the multi-resolution min/max against brute force
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include "tm-lod.h"

typedef struct
{
  guint   n;
  gint64 *times;
  gint64 *stack;
  gint64 *heap;
  gint64 *free_bytes;
  double *frag;
} Columns;

static void
columns_free (Columns *c)
{
  g_free (c->times);
  g_free (c->stack);
  g_free (c->heap);
  g_free (c->free_bytes);
  g_free (c->frag);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Columns, columns_free)

/* Random walk with ties in time (several events at one timestamp) and
 * occasional one-sample spikes. */
static Columns *
columns_random (GRand *rand,
                guint  n)
{
  Columns *c = g_new0 (Columns, 1);
  gint64 t = g_rand_int_range (rand, 0, 1000);
  gint64 heap = 1 << 20;

  c->n = n;
  c->times = g_new (gint64, MAX (n, 1));
  c->stack = g_new (gint64, MAX (n, 1));
  c->heap = g_new (gint64, MAX (n, 1));
  c->free_bytes = g_new (gint64, MAX (n, 1));
  c->frag = g_new (double, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      if (g_rand_int_range (rand, 0, 4) != 0)
        t += g_rand_int_range (rand, 1, 5000);
      heap += g_rand_int_range (rand, -4096, 4097);
      heap = MAX (heap, 0);
      c->times[i] = t;
      c->stack[i] = g_rand_int_range (rand, 0, 3) == 0 ? g_rand_int_range (rand, 0, 1 << 16) : 0;
      c->heap[i] = heap;
      if (g_rand_int_range (rand, 0, 500) == 0)
        c->heap[i] += (gint64) 1 << 34;   /* a spike for one sample */
      c->free_bytes[i] = ((gint64) 1 << 32) - heap;
      c->frag[i] = g_rand_double (rand);
    }

  return c;
}

static TmLod *
lod_for (const Columns *c)
{
  return tm_lod_new (c->n, c->times, c->stack, c->heap, c->free_bytes, c->frag);
}

static void
brute_indices (const Columns *c,
               guint          first,
               guint          last,
               TmLodBucket   *b)
{
  b->has_data = TRUE;
  b->first = first;
  b->last = last;
  b->stack_min = b->used_min = b->total_min = G_MAXINT64;
  b->stack_max = b->used_max = b->total_max = G_MININT64;
  b->frag_min = INFINITY;
  b->frag_max = -INFINITY;
  for (guint i = first; i <= last; i++)
    {
      gint64 used = c->stack[i] + c->heap[i];
      gint64 total = used + c->free_bytes[i];

      b->stack_min = MIN (b->stack_min, c->stack[i]);
      b->stack_max = MAX (b->stack_max, c->stack[i]);
      b->used_min = MIN (b->used_min, used);
      b->used_max = MAX (b->used_max, used);
      b->total_min = MIN (b->total_min, total);
      b->total_max = MAX (b->total_max, total);
      b->frag_min = MIN (b->frag_min, c->frag[i]);
      b->frag_max = MAX (b->frag_max, c->frag[i]);
    }
}

/* The step function over [t0, t1), written from its definition. */
static gboolean
brute_time (const Columns *c,
            gint64         t0,
            gint64         t1,
            TmLodBucket   *b)
{
  gint64 first = -1, last = -1, carried = -1;
  gboolean exact = FALSE;

  if (t1 <= t0)
    t1 = t0 + 1;
  b->has_data = FALSE;
  if (c->n == 0 || t0 > c->times[c->n - 1])
    return FALSE;

  for (guint i = 0; i < c->n; i++)
    {
      if (c->times[i] < t0)
        carried = i;
      if (c->times[i] == t0)
        exact = TRUE;
      if (c->times[i] >= t0 && c->times[i] < t1)
        {
          if (first < 0)
            first = i;
          last = i;
        }
    }
  if (!exact && carried >= 0)
    {
      first = carried;
      if (last < 0)
        last = carried;
    }
  if (first < 0)
    return FALSE;

  brute_indices (c, first, last, b);
  return TRUE;
}

static void
assert_bucket_equal (const TmLodBucket *a,
                     const TmLodBucket *b)
{
  g_assert_cmpint (a->has_data, ==, b->has_data);
  if (!a->has_data)
    return;
  g_assert_cmpuint (a->first, ==, b->first);
  g_assert_cmpuint (a->last, ==, b->last);
  g_assert_cmpint (a->stack_min, ==, b->stack_min);
  g_assert_cmpint (a->stack_max, ==, b->stack_max);
  g_assert_cmpint (a->used_min, ==, b->used_min);
  g_assert_cmpint (a->used_max, ==, b->used_max);
  g_assert_cmpint (a->total_min, ==, b->total_min);
  g_assert_cmpint (a->total_max, ==, b->total_max);
  g_assert_cmpfloat (a->frag_min, ==, b->frag_min);
  g_assert_cmpfloat (a->frag_max, ==, b->frag_max);
}

static void
test_lod_indices_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240601);
  /* Sizes around the block sizes (32, 256, 2048, 16384) and odd ones. */
  const guint sizes[] = { 1, 2, 31, 32, 33, 255, 256, 257, 2047, 2048, 2049, 16385, 40000, 150001 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(Columns) c = columns_random (rand, sizes[s]);
      g_autoptr(TmLod) lod = lod_for (c);
      guint n = c->n;

      g_assert_cmpuint (tm_lod_get_n_snapshots (lod), ==, n);

      for (guint q = 0; q < 300; q++)
        {
          TmLodBucket got, want;
          guint a = g_rand_int_range (rand, 0, n);
          guint b = g_rand_int_range (rand, 0, n);
          guint first = MIN (a, b), last = MAX (a, b);

          /* Some short ranges, some aligned ones. */
          if (q % 3 == 1)
            {
              guint len = g_rand_int_range (rand, 0, 70);

              last = MIN (n - 1, first + len);
            }
          if (q % 5 == 2)
            {
              first = first / 32 * 32;
              last = MAX (first, last);
            }

          g_assert_true (tm_lod_query_indices (lod, first, last, &got));
          brute_indices (c, first, last, &want);
          assert_bucket_equal (&got, &want);
        }

      /* The whole range and the overall extremes. */
        {
          TmLodBucket got, want;

          g_assert_true (tm_lod_query_indices (lod, 0, n - 1, &got));
          brute_indices (c, 0, n - 1, &want);
          assert_bucket_equal (&got, &want);
          g_assert_cmpint (tm_lod_get_max_total (lod), ==, want.total_max);
          g_assert_cmpint (tm_lod_get_max_used (lod), ==, want.used_max);
        }
    }
}

static void
test_lod_indices_invalid (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autoptr(Columns) c = columns_random (rand, 100);
  g_autoptr(TmLod) lod = lod_for (c);
  TmLodBucket b;

  g_assert_false (tm_lod_query_indices (lod, 5, 4, &b));
  g_assert_false (b.has_data);
  g_assert_false (tm_lod_query_indices (lod, 0, 100, &b));
  g_assert_false (b.has_data);
  g_assert_true (tm_lod_query_indices (lod, 99, 99, &b));
  g_assert_true (b.has_data);
  g_assert_cmpint (b.used_max, ==, c->stack[99] + c->heap[99]);
}

static void
test_lod_lower_bound (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (99);
  g_autoptr(Columns) c = columns_random (rand, 20000);
  g_autoptr(TmLod) lod = lod_for (c);
  gint64 t_end = c->times[c->n - 1];

  for (guint q = 0; q < 2000; q++)
    {
      gint64 t = g_rand_int_range (rand, -100, (gint32) MIN (t_end + 100, G_MAXINT32));
      guint want = 0, hint;

      if (q % 4 == 0)
        t = c->times[g_rand_int_range (rand, 0, c->n)];
      while (want < c->n && c->times[want] < t)
        want++;

      g_assert_cmpuint (tm_lod_lower_bound (lod, t, 0), ==, want);
      hint = want > 0 ? g_rand_int_range (rand, 0, want + 1) : 0;
      g_assert_cmpuint (tm_lod_lower_bound (lod, t, hint), ==, want);
    }

  g_assert_cmpuint (tm_lod_lower_bound (lod, G_MININT64, 0), ==, 0);
  g_assert_cmpuint (tm_lod_lower_bound (lod, G_MAXINT64, 0), ==, c->n);
  g_assert_cmpuint (tm_lod_lower_bound (lod, 0, c->n), ==, c->n);
}

static void
test_lod_time_random (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  const guint sizes[] = { 1, 3, 40, 700, 5000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr(Columns) c = columns_random (rand, sizes[s]);
      g_autoptr(TmLod) lod = lod_for (c);
      gint64 t_first = c->times[0], t_last = c->times[c->n - 1];

      for (guint q = 0; q < 400; q++)
        {
          TmLodBucket got, want;
          gint64 t0 = t_first - 2000 + (gint64) (g_rand_double (rand) * (t_last - t_first + 4000));
          gint64 t1 = t0 + g_rand_int_range (rand, 0, 30000);

          if (q % 4 == 0)
            t0 = c->times[g_rand_int_range (rand, 0, c->n)];

          g_assert_cmpint (tm_lod_query_time (lod, t0, t1, &got), ==,
                           brute_time (c, t0, t1, &want));
          assert_bucket_equal (&got, &want);
        }
    }
}

/* Columns at many zooms. Where a leaf of 32 snapshots lasts more than half
 * a column nothing snaps and every column equals brute force; where
 * boundaries snap, every snapshot still lands in exactly one column, at
 * most a quarter column from where its time puts it, and each column's
 * extremes are those of its snapshots. Every spike shows. */
static void
check_columns (const Columns *c,
               GRand         *rand,
               guint         *n_exact_out,
               guint         *n_snapped_out,
               guint         *n_moved_out)
{
  g_autoptr(TmLod) lod = lod_for (c);
  gint64 t_first = c->times[0], t_last = c->times[c->n - 1];
  gint64 min_leaf_span = G_MAXINT64;
  const guint widths[] = { 1, 7, 100, 640, 1920 };
  guint n_exact = 0, n_snapped = 0, n_moved = 0;

  for (guint i = 0; i + 32 < c->n; i += 32)
    min_leaf_span = MIN (min_leaf_span, c->times[i + 32] - c->times[i]);

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint z = 0; z < 7; z++)
      {
        guint n_cols = widths[w];
        g_autofree TmLodBucket *buckets = g_new (TmLodBucket, n_cols);
        gint64 span = (t_last - t_first) >> (2 * z);
        gint64 start = t_first + (gint64) (g_rand_double (rand) * (t_last - t_first - span));
        gint64 end = start + span;
        double width, col_w;
        guint n_data, counted = 0;
        gint64 spike_max = G_MININT64, drawn_max = G_MININT64;
        gint64 prev_last = -1;

        if (z == 0)
          {
            start = t_first;
            end = t_last;
          }
        width = (double) (end - start);
        col_w = width / n_cols;

        n_data = tm_lod_query_columns (lod, start, end, n_cols, buckets);
        for (guint col = 0; col < n_cols; col++)
          {
            const TmLodBucket *b = &buckets[col];
            gint64 t0 = start + (gint64) floor (width * col / n_cols);
            gint64 t1 = col + 1 == n_cols ? end + 1 : start + (gint64) floor (width * (col + 1) / n_cols);

            if (col_w / 2 < min_leaf_span)
              {
                TmLodBucket want;

                brute_time (c, t0, t1, &want);
                assert_bucket_equal (b, &want);
                n_exact++;
              }
            else
              {
                TmLodBucket exact;

                n_snapped++;
                brute_time (c, t0, t1, &exact);
                if (exact.has_data != b->has_data || exact.first != b->first || exact.last != b->last)
                  n_moved++;
              }

            if (!b->has_data)
              continue;

            counted++;
            drawn_max = MAX (drawn_max, b->used_max);

            /* Its extremes are those of its snapshots. */
              {
                TmLodBucket own;

                brute_indices (c, b->first, b->last, &own);
                assert_bucket_equal (b, &own);
              }

            /* No gap and no overlap with the previous column, except the
             * one snapshot carried in. */
            if (prev_last >= 0)
              {
                g_assert_cmpint (b->first, >=, prev_last);
                g_assert_cmpint (b->first, <=, prev_last + 1);
              }

            /* Each snapshot of its own is at most a quarter column away. */
            for (guint i = b->first; i <= b->last; i++)
              {
                if (i == b->first && (prev_last >= 0 ? (gint64) i == prev_last : c->times[i] < t0))
                  continue;   /* carried in */
                g_assert_cmpfloat ((double) c->times[i], >=, t0 - col_w / 4 - 1);
                g_assert_cmpfloat ((double) c->times[i], <, t1 + col_w / 4 + 1);
              }
            prev_last = b->last;
          }
        g_assert_cmpuint (counted, ==, n_data);

        /* Every snapshot in the range is in a column, so the largest is
         * drawn. */
        for (guint i = 0; i < c->n; i++)
          if (c->times[i] >= start && c->times[i] <= end)
            spike_max = MAX (spike_max, c->stack[i] + c->heap[i]);
        if (spike_max != G_MININT64)
          g_assert_cmpint (drawn_max, >=, spike_max);
      }

  *n_exact_out += n_exact;
  *n_snapped_out += n_snapped;
  *n_moved_out += n_moved;
}

/* Bursts of 300 snapshots within a few ps, 1 µs apart: many snapshots per
 * column while blocks across a gap cannot snap. */
static Columns *
columns_bursty (GRand *rand,
                guint  n)
{
  Columns *c = columns_random (rand, n);

  for (guint i = 0; i < n; i++)
    c->times[i] = (gint64) (i / 300) * 1000000 + (i % 300) / 7;
  return c;
}

static void
test_lod_columns (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (31337);
  g_autoptr(Columns) walk = columns_random (rand, 30000);
  g_autoptr(Columns) bursts = columns_bursty (rand, 30000);
  g_autoptr(TmLod) lod = lod_for (walk);
  guint n_exact = 0, n_snapped = 0, n_moved = 0;

  check_columns (walk, rand, &n_exact, &n_snapped, &n_moved);

  /* Both regimes were exercised. */
  g_assert_cmpuint (n_exact, >, 1000);
  g_assert_cmpuint (n_snapped, >, 100);
  g_assert_cmpuint (n_moved, >, 10);

  check_columns (bursts, rand, &n_exact, &n_snapped, &n_moved);

  /* Columns narrower than a picosecond. */
    {
      TmLodBucket buckets[50];
      gint64 t = walk->times[100];

      tm_lod_query_columns (lod, t, t + 10, 50, buckets);
      for (guint col = 0; col < 50; col++)
        {
          TmLodBucket want;
          gint64 t0 = t + (gint64) floor (10.0 * col / 50);
          gint64 t1 = col == 49 ? t + 11 : t + (gint64) floor (10.0 * (col + 1) / 50);

          brute_time (walk, t0, t1, &want);
          assert_bucket_equal (&buckets[col], &want);
        }
    }
}

/* A single allocation spike among millions of flat samples shows at the
 * fully zoomed-out view, in exactly one column. */
static void
test_lod_spike_never_lost (void)
{
  const guint n = 1000000;
  g_autofree gint64 *times = g_new (gint64, n);
  g_autofree gint64 *zero = g_new0 (gint64, n);
  g_autofree gint64 *heap = g_new (gint64, n);
  g_autoptr(TmLod) lod = NULL;
  TmLodBucket buckets[1920];
  guint spike = 777777, hits = 0;

  for (guint i = 0; i < n; i++)
    {
      times[i] = (gint64) i * 1000;
      heap[i] = 4096;
    }
  heap[spike] = 1 << 30;
  lod = tm_lod_new (n, times, zero, heap, zero, NULL);

  tm_lod_query_columns (lod, times[0], times[n - 1], G_N_ELEMENTS (buckets), buckets);
  for (guint c = 0; c < G_N_ELEMENTS (buckets); c++)
    {
      g_assert_true (buckets[c].has_data);
      g_assert_cmpfloat (buckets[c].frag_max, ==, 0.0);
      if (buckets[c].used_max == 1 << 30)
        {
          hits++;
          g_assert_cmpuint (buckets[c].first, <=, spike);
          g_assert_cmpuint (buckets[c].last, >=, spike);
        }
      else
        g_assert_cmpint (buckets[c].used_max, ==, 4096);
    }
  g_assert_cmpuint (hits, ==, 1);
}

static void
test_lod_memory_size (void)
{
  const guint n = 1 << 20;
  g_autofree gint64 *times = g_new (gint64, n);
  g_autofree gint64 *zero = g_new0 (gint64, n);
  g_autoptr(TmLod) lod = NULL;

  for (guint i = 0; i < n; i++)
    times[i] = i;
  lod = tm_lod_new (n, times, zero, zero, zero, NULL);

  /* Documented as about 2.55 bytes per snapshot. */
  g_assert_cmpuint (tm_lod_get_memory_size (lod), <=, (gsize) n * 26 / 10);
  g_assert_cmpuint (tm_lod_get_memory_size (lod), >=, (gsize) n * 2);
}

static void
test_lod_empty (void)
{
  g_autoptr(TmLod) lod = tm_lod_new (0, NULL, NULL, NULL, NULL, NULL);
  TmLodBucket b[4];

  g_assert_nonnull (lod);
  g_assert_cmpuint (tm_lod_get_n_snapshots (lod), ==, 0);
  g_assert_cmpuint (tm_lod_lower_bound (lod, 5, 0), ==, 0);
  g_assert_false (tm_lod_query_time (lod, 0, 100, &b[0]));
  g_assert_false (tm_lod_query_indices (lod, 0, 0, &b[0]));
  g_assert_cmpuint (tm_lod_query_columns (lod, 0, 100, 4, b), ==, 0);
  g_assert_cmpint (tm_lod_get_max_total (lod), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lod/indices-random", test_lod_indices_random);
  g_test_add_func ("/lod/indices-invalid", test_lod_indices_invalid);
  g_test_add_func ("/lod/lower-bound", test_lod_lower_bound);
  g_test_add_func ("/lod/time-random", test_lod_time_random);
  g_test_add_func ("/lod/columns", test_lod_columns);
  g_test_add_func ("/lod/spike-never-lost", test_lod_spike_never_lost);
  g_test_add_func ("/lod/memory-size", test_lod_memory_size);
  g_test_add_func ("/lod/empty", test_lod_empty);

  return g_test_run ();
}
