/* test-memory-store.c — a memory store built from snapshots: free memory kept as
 * the rest of the allocator's capacity, and the parts of two reading threads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-lod.h"
#include "tm-memory-store.h"

/* One snapshot: capacity < 0 gives free memory that does not depend on it. */
typedef struct
{
  gint64 stack;
  gint64 heap;
  gint64 capacity;
} Point;

static gint64
point_free (const Point *p,
            guint        index)
{
  return p->capacity >= 0 ? p->capacity - p->stack - p->heap : 1000 + 7 * (gint64) index;
}

/* A store of points[from, to), at times 10 * index. */
static TmMemoryStore *
store_of (const Point *points,
          guint        from,
          guint        to)
{
  TmMemoryStore *store = tm_memory_store_new ("GPU_0_bfc", NULL);

  for (guint i = from; i < to; i++)
    {
      TmSnapshot snapshot = { 0 };

      snapshot.time_ps = 10 * (gint64) i;
      snapshot.stack_bytes = points[i].stack;
      snapshot.heap_bytes = points[i].heap;
      snapshot.free_bytes = point_free (&points[i], i);
      snapshot.peak_bytes_in_use = points[i].heap;
      snapshot.step_id = -1;
      snapshot.kind = TM_ACTIVITY_ALLOCATION;
      tm_memory_store_add (store, &snapshot);
    }
  return store;
}

/* The points read as one part, and as two parts split at every place: the
 * same free memory and totals, and a column of free memory only when
 * stack + heap + free changes (what the store reports it uses). */
static void
check_points (const Point *points,
              guint        n,
              gboolean     expect_column)
{
  for (guint split = 0; split <= n; split++)
    {
      g_autoptr(TmMemoryStore) store = store_of (points, 0, split);
      g_autoptr(TmMemoryStore) later = store_of (points, split, n);
      g_autoptr(GError) error = NULL;
      const gint64 *free_bytes;
      gint64 max_total = G_MININT64;
      TmLodBucket bucket;
      gsize size;

      tm_memory_store_append (store, later);
      g_assert_true (tm_memory_store_finish (store, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, n);

      /* The LOD does not need a column of free memory. */
      g_assert_true (tm_lod_query_indices (tm_memory_store_get_lod (store), 0, n - 1, &bucket));
      size = tm_memory_store_get_memory_size (store);
      free_bytes = tm_memory_store_get_free (store);
      if (expect_column)
        g_assert_cmpuint (tm_memory_store_get_memory_size (store), ==, size);
      else
        g_assert_cmpuint (tm_memory_store_get_memory_size (store), ==, size + n * sizeof (gint64));

      for (guint i = 0; i < n; i++)
        {
          g_assert_cmpint (free_bytes[i], ==, point_free (&points[i], i));
          g_assert_cmpint (tm_memory_store_get_heap (store)[i], ==, points[i].heap);
          g_assert_cmpint (tm_memory_store_get_stack (store)[i], ==, points[i].stack);
          max_total = MAX (max_total, tm_sat_add (tm_sat_add (points[i].stack, points[i].heap),
                                                  point_free (&points[i], i)));
        }
      g_assert_cmpint (bucket.total_max, ==, max_total);
      g_assert_cmpint (tm_lod_get_max_total (tm_memory_store_get_lod (store)), ==, max_total);
    }
}

static void
test_free_rest_of_one_capacity (void)
{
  static const Point points[] = {
    { 0, 100, 1 << 20 }, { 0, 300, 1 << 20 }, { 512, 300, 1 << 20 },
    { 512, 0, 1 << 20 }, { 0, 0, 1 << 20 },
  };

  check_points (points, G_N_ELEMENTS (points), FALSE);
}

/* A second capacity after a few points: the column, with the first ones
 * made from the first capacity. Splitting at 2 gives two parts of one
 * capacity each, but not the same one. */
static void
test_free_capacity_changes (void)
{
  static const Point points[] = {
    { 0, 100, 1 << 20 }, { 256, 300, 1 << 20 }, { 0, 300, 2 << 20 },
    { 0, 0, 2 << 20 }, { 512, 0, 2 << 20 },
  };

  check_points (points, G_N_ELEMENTS (points), TRUE);
}

/* Free memory that is not the rest of anything, in one part or the other
 * whatever the split. */
static void
test_free_not_a_rest (void)
{
  static const Point first[] = {
    { 0, 100, -1 }, { 0, 300, -1 }, { 0, 200, 1 << 20 }, { 0, 0, 1 << 20 },
  };
  static const Point last[] = {
    { 0, 100, 1 << 20 }, { 0, 300, 1 << 20 }, { 0, 200, -1 }, { 0, 0, -1 },
  };

  check_points (first, G_N_ELEMENTS (first), TRUE);
  check_points (last, G_N_ELEMENTS (last), TRUE);
}

/* stack + heap + free beyond 64 bits at the first snapshot, or a rest that
 * does not fit at a later one: free memory is kept as it is. */
static void
test_free_overflow (void)
{
  static const Point first[] = {
    { 0, G_MAXINT64 - 10, -1 }, { 0, 5, -1 },
  };
  static const Point later[] = {
    { 0, 100, G_MAXINT64 }, { -2, 100, -1 },
  };

  check_points (first, G_N_ELEMENTS (first), TRUE);
  check_points (later, G_N_ELEMENTS (later), TRUE);
}

/* The moment the profile reached the allocator's lifetime peak heap: the
 * first snapshot holding that much heap; none when the allocator reported
 * a higher peak from before the profile. */
static void
test_lifetime_peak (void)
{
  const gint64 heaps[] = { 10, 50, 20, 50, 5 };

  for (guint before = 0; before < 2; before++)
    {
      g_autoptr(TmMemoryStore) store = tm_memory_store_new ("GPU_0_bfc", NULL);
      g_autoptr(GError) error = NULL;

      for (guint i = 0; i < G_N_ELEMENTS (heaps); i++)
        {
          TmSnapshot snapshot = { 0 };

          snapshot.time_ps = 10 * (gint64) i;
          snapshot.heap_bytes = heaps[i];
          snapshot.free_bytes = 100;
          /* The allocator's peak so far, as it reports it. */
          snapshot.peak_bytes_in_use = before ? 80 : MAX (heaps[i], i >= 1 ? 50 : 10);
          snapshot.step_id = -1;
          snapshot.kind = TM_ACTIVITY_ALLOCATION;
          tm_memory_store_add (store, &snapshot);
        }
      g_assert_true (tm_memory_store_finish (store, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (tm_memory_store_find_lifetime_peak (store), ==, before ? G_MAXUINT : 1);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/memory-store/free-rest-of-one-capacity", test_free_rest_of_one_capacity);
  g_test_add_func ("/memory-store/free-capacity-changes", test_free_capacity_changes);
  g_test_add_func ("/memory-store/free-not-a-rest", test_free_not_a_rest);
  g_test_add_func ("/memory-store/free-overflow", test_free_overflow);
  g_test_add_func ("/memory-store/lifetime-peak", test_lifetime_peak);

  return g_test_run ();
}
