/* test-analysis.c — step ids, peak step, merging, live at t, sampling
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-analysis-private.h"
#include "tm-test-util.h"

typedef struct
{
  gboolean    alloc;
  gint64      time;
  gint64      stack;
  gint64      heap;
  gint64      bytes;
  guint64     addr;
  const char *op;
  gint64      group;   /* -1: no group_id */
} Ev;

static void
fill_memory (gconstpointer    data,
             TmFixtureMemory *m,
             gboolean        *allocation,
             gint64          *time_ps)
{
  const Ev *ev = data;

  *allocation = ev->alloc;
  *time_ps = ev->time;
  m->bytes_reserved = ev->stack;
  m->bytes_allocated = ev->heap;
  m->bytes_available = 1000000 - ev->heap;
  m->peak_bytes_in_use = ev->heap;
  m->requested_bytes = ev->bytes;
  m->allocation_bytes = ev->bytes;
  m->addr = ev->addr;
  m->tf_op = ev->op;
  m->region_type = "output";
  m->data_type = 1;
  m->shape = "[4]";
  m->has_group_id = ev->group >= 0;
  m->group_id = ev->group;
}

static TmProfile *
load_events (const Ev *evs,
             guint     n)
{
  return tm_test_load_memory_events (evs, sizeof *evs, n, fill_memory);
}

static void
test_step_ids (void)
{
  static const Ev evs[] = {
    { TRUE, 10, 0, 1, 1, 1, "a", -1 },   /* none seen yet: 0 */
    { TRUE, 20, 0, 2, 1, 2, "a", 4 },
    { TRUE, 30, 0, 3, 1, 3, "a", -1 },   /* 4 + 1 */
    { TRUE, 40, 0, 4, 1, 4, "a", 7 },
    { TRUE, 50, 0, 5, 1, 5, "a", -1 },   /* 7 + 1 */
    { TRUE, 60, 0, 6, 1, 6, "a", -1 },   /* still 7 + 1 */
  };
  static const gint64 expected[] = { 0, 4, 5, 7, 8, 8 };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpint (tm_memory_store_get_step_id (store, i), ==, expected[i]);
}

/* Step ids are kept as runs, built in file order and rebuilt in time order:
 * events out of time order, step ids beyond 32 bits, and runs that end at
 * every event. */
static void
test_step_runs_out_of_order (void)
{
  static const Ev evs[] = {
    { TRUE, 50, 0, 5, 1, 5, "a", 9 },
    { TRUE, 10, 0, 1, 1, 1, "a", -1 },
    { TRUE, 20, 0, 2, 1, 2, "a", G_GINT64_CONSTANT (5000000000) },
    { TRUE, 60, 0, 6, 1, 6, "a", 9 },
    { TRUE, 30, 0, 3, 1, 3, "a", G_GINT64_CONSTANT (5000000000) },
    { TRUE, 40, 0, 4, 1, 4, "a", -1 },
    { TRUE, 70, 0, 7, 1, 7, "a", -1 },
  };
  static const gint64 expected[] = {
    0, G_GINT64_CONSTANT (5000000000), G_GINT64_CONSTANT (5000000000),
    G_GINT64_CONSTANT (5000000001), 9, 9, 10,
  };
  static const guint expected_end[] = { 1, 3, 3, 4, 6, 6, 7 };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      guint end = 0;

      g_assert_cmpint (tm_memory_store_get_times (store)[i], ==, (i + 1) * 10);
      g_assert_cmpint (tm_memory_store_get_step_id (store, i), ==, expected[i]);
      g_assert_cmpint (tm_memory_store_get_step_run (store, i, &end), ==, expected[i]);
      g_assert_cmpuint (end, ==, expected_end[i]);
    }
}

/* Twelve time-ordered stretches of the file that take turns in time order:
 * more places than the run lookup remembers. */
static void
test_step_runs_many_places (void)
{
  enum { N_PLACES = 12, PER_PLACE = 40 };
  g_autofree Ev *evs = g_new0 (Ev, N_PLACES * PER_PLACE);
  g_autoptr(TmProfile) profile = NULL;
  TmMemoryStore *store;

  for (guint r = 0; r < N_PLACES; r++)
    for (guint k = 0; k < PER_PLACE; k++)
      {
        Ev *ev = &evs[r * PER_PLACE + k];

        ev->alloc = TRUE;
        ev->time = (gint64) k * N_PLACES + r + 1;
        ev->heap = 1;
        ev->bytes = 1;
        ev->addr = (guint64) (r * PER_PLACE + k + 1) * 256;
        ev->op = "a";
        /* Runs of 3 in each place; a place without a step now and then. */
        ev->group = k % 11 == 5 ? -1 : (gint64) r * 1000 + k / 3;
      }
  profile = load_events (evs, N_PLACES * PER_PLACE);
  store = tm_profile_get_memory_store (profile, 0);
  g_assert_cmpuint (tm_memory_store_get_n_snapshots (store), ==, N_PLACES * PER_PLACE);

  {
    gint64 last_valid = -1;

    for (guint i = 0; i < N_PLACES * PER_PLACE; i++)
      {
        /* Snapshot i in time order is event k of place r. */
        guint r = i % N_PLACES, k = i / N_PLACES;
        gint64 group = evs[r * PER_PLACE + k].group;
        gint64 expected = group == -1 ? last_valid + 1 : group;

        if (group != -1)
          last_valid = group;
        g_assert_cmpint (tm_memory_store_get_times (store)[i], ==, (gint64) i + 1);
        g_assert_cmpint (tm_memory_store_get_step_id (store, i), ==, expected);
      }
  }
}

/* The peak step is that of the LAST snapshot at the peak; only its events
 * count; identical allocations merge with occurrences. */
static void
test_peak_step_and_merge (void)
{
  static const Ev evs[] = {
    { TRUE,  10, 0, 100, 100, 1, "old", 1 },
    { FALSE, 20, 0,   0, 100, 1, NULL, 1 },
    { TRUE,  30, 0,  50,  50, 2, "x", 2 },
    { TRUE,  40, 0, 100,  50, 3, "x", 2 },   /* reaches 100 again: step 2 wins */
    { TRUE,  50, 0, 110,  10, 4, "y", 2 },
    { FALSE, 60, 0, 100,  10, 4, NULL, 2 },
  };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  const TmSummary *s = tm_memory_store_get_summary (store);
  TmAnalysis *analysis = tm_profile_lookup_analysis (profile, store);
  GPtrArray *rows = tm_analysis_get_peak_breakdown (analysis);
  const TmBreakdownRow *row;

  g_assert_cmpint (s->peak_bytes_in_use, ==, 110);
  g_assert_cmpint (s->peak_time_ps, ==, 50);
  g_assert_cmpint (tm_analysis_get_peak_step_id (analysis), ==, 2);
  g_assert_cmpuint (s->n_allocations, ==, 4);
  g_assert_cmpuint (s->n_deallocations, ==, 2);

  g_assert_cmpuint (rows->len, ==, 2);
  row = g_ptr_array_index (rows, 0);
  g_assert_cmpstr (row->op_name, ==, "x");
  g_assert_cmpuint (row->n_occurrences, ==, 2);
  g_assert_cmpint (row->time_ps, ==, 30);      /* the earliest of the merged */
  g_assert_cmpuint (row->address, ==, 2);
  row = g_ptr_array_index (rows, 1);
  g_assert_cmpstr (row->op_name, ==, "y");
}

static void
test_live_at (void)
{
  static const Ev evs[] = {
    { FALSE,  5, 0, 400, 100, 9, NULL, 0 },   /* allocated before the profile */
    { TRUE,  10, 8, 500, 200, 1, "a", 0 },
    { TRUE,  20, 8, 600, 100, 2, "b", 0 },
    { FALSE, 30, 8, 400, 200, 1, NULL, 0 },
    { TRUE,  30, 8, 500, 100, 3, "b", 0 },
    { TRUE,  40, 8, 600, 100, 3, "c", 0 },    /* replaces b at 3 */
  };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  g_autoptr(GPtrArray) before = tm_analysis_breakdown_at (store, 1);
  g_autoptr(GPtrArray) at20 = tm_analysis_breakdown_at (store, 25);
  g_autoptr(GPtrArray) at30 = tm_analysis_breakdown_at (store, 30);
  g_autoptr(GPtrArray) at40 = tm_analysis_breakdown_at (store, 1000);
  const TmBreakdownRow *row;

  g_assert_cmpuint (before->len, ==, 0);

  /* t = 25: a (200), b (100), 300 before the profile, stack 8 */
  g_assert_cmpuint (at20->len, ==, 4);
  row = g_ptr_array_index (at20, 0);
  g_assert_true (row->special);
  g_assert_cmpint (row->allocation_bytes, ==, 300);
  row = g_ptr_array_index (at20, 1);
  g_assert_cmpstr (row->op_name, ==, "a");
  row = g_ptr_array_index (at20, 2);
  g_assert_cmpstr (row->op_name, ==, "b");
  row = g_ptr_array_index (at20, 3);
  g_assert_cmpstr (row->op_name, ==, "stack");

  /* t = 30: a freed; b twice (merged) */
  g_assert_cmpuint (at30->len, ==, 3);
  row = g_ptr_array_index (at30, 1);
  g_assert_cmpstr (row->op_name, ==, "b");
  g_assert_cmpuint (row->n_occurrences, ==, 2);

  /* the end: b at 2, c (replaced b at 3) */
  g_assert_cmpuint (at40->len, ==, 4);
  row = g_ptr_array_index (at40, 1);
  g_assert_cmpstr (row->op_name, ==, "b");
  g_assert_cmpuint (row->n_occurrences, ==, 1);
  row = g_ptr_array_index (at40, 2);
  g_assert_cmpstr (row->op_name, ==, "c");
}

/* XProf's peak table adds up to the memory in use, except where its
 * accounting loses bytes: an address allocated again before it was freed
 * replaces the first allocation's row, whose bytes were already taken off
 * the unaccounted heap. */
static void
test_rows_bytes (void)
{
  static const Ev evs[] = {
    { TRUE, 10, 0, 1256, 256, 0x10, "first", 1 },   /* 1000 allocated before */
    { TRUE, 20, 0, 1768, 512, 0x10, "second", 1 },  /* the same address, not freed */
  };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAnalysis *analysis = tm_profile_lookup_analysis (profile, store);
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) example = tm_test_load_space (space, &error);
  TmMemoryStore *example_store;

  g_assert_cmpint (tm_memory_store_get_summary (store)->peak_bytes_in_use, ==, 1768);
  g_assert_cmpint (tm_analysis_rows_bytes (tm_analysis_get_peak_breakdown (analysis)), ==, 1768 - 256);

  g_assert_no_error (error);
  example_store = tm_profile_get_memory_store (example, 0);
  g_assert_cmpint (tm_analysis_rows_bytes (tm_analysis_get_peak_breakdown (tm_profile_lookup_analysis (example, example_store))),
                   ==, TM_FIXTURE_XPROF_PEAK_BYTES);
}

static void
test_find (void)
{
  static const Ev evs[] = {
    { TRUE, 10, 0, 1, 1, 1, "a", 0 },
    { TRUE, 20, 0, 2, 1, 2, "a", 0 },
    { TRUE, 20, 0, 3, 1, 3, "a", 0 },
    { TRUE, 40, 0, 4, 1, 4, "a", 0 },
  };
  g_autoptr(TmProfile) profile = load_events (evs, G_N_ELEMENTS (evs));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);

  g_assert_cmpuint (tm_memory_store_find_nearest (store, 0), ==, 0);
  g_assert_cmpuint (tm_memory_store_find_nearest (store, 14), ==, 0);
  g_assert_cmpuint (tm_memory_store_find_nearest (store, 16), ==, 1);
  g_assert_cmpuint (tm_memory_store_find_nearest (store, 20), ==, 1);
  g_assert_cmpuint (tm_memory_store_find_nearest (store, 29), ==, 1);
  g_assert_cmpuint (tm_memory_store_find_nearest (store, 31), ==, 3);
  g_assert_cmpuint (tm_memory_store_find_nearest (store, 99), ==, 3);
  g_assert_cmpuint (tm_memory_store_find_at_or_before (store, 5), ==, 0);
  g_assert_cmpuint (tm_memory_store_find_at_or_before (store, 20), ==, 2);
  g_assert_cmpuint (tm_memory_store_find_at_or_before (store, 39), ==, 2);
  g_assert_cmpuint (tm_memory_store_find_at_or_before (store, 40), ==, 3);
}

/* XProf's max-box sampling, against a direct reading of docs/analysis.md, step 7. */
static void
test_sampling (void)
{
  const guint ns[] = { 999, 1000, 1001, 2500, 3999 };

  for (guint k = 0; k < G_N_ELEMENTS (ns); k++)
    {
      guint n = ns[k];
      g_autofree Ev *evs = g_new0 (Ev, n);
      g_autoptr(TmProfile) profile = NULL;
      g_autoptr(GArray) sampled = NULL;
      TmMemoryStore *store;
      GRand *rand = g_rand_new_with_seed (n);
      guint w, count1, pos = 0;

      for (guint i = 0; i < n; i++)
        evs[i] = (Ev) { TRUE, i, g_rand_int_range (rand, 0, 3), g_rand_int_range (rand, 0, 50), 1, i + 1, "op", 0 };
      g_rand_free (rand);

      profile = load_events (evs, n);
      store = tm_profile_get_memory_store (profile, 0);
      sampled = tm_analysis_sample (store, 1000);
      g_assert_cmpuint (sampled->len, ==, MIN (n, 1000));
      if (n <= 1000)
        continue;

      w = n / 1000;
      count1 = 1000 * (w + 1) - n;
      for (guint b = 0; b < 1000; b++)
        {
          guint width = b < count1 ? w : w + 1;
          guint best = pos;

          for (guint i = pos; i < pos + width; i++)
            if (evs[i].stack + evs[i].heap > evs[best].stack + evs[best].heap)
              best = i;
          g_assert_cmpuint (g_array_index (sampled, guint, b), ==, best);
          pos += width;
        }
      g_assert_cmpuint (pos, ==, n);
    }
}

/* The breakdown at the peak walked in two halves on two threads is the
 * one walk's: rows, bytes and the unmapped row alike. */
static void
assert_same_rows (GPtrArray *a,
                  GPtrArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const TmBreakdownRow *x = g_ptr_array_index (a, i);
      const TmBreakdownRow *y = g_ptr_array_index (b, i);

      g_assert_cmpstr (x->op_name, ==, y->op_name);
      g_assert_cmpint (x->allocation_bytes, ==, y->allocation_bytes);
      g_assert_cmpint (x->requested_bytes, ==, y->requested_bytes);
      g_assert_cmpuint (x->n_occurrences, ==, y->n_occurrences);
      g_assert_cmpstr (x->region_type, ==, y->region_type);
      g_assert_cmpuint (x->snapshot_index, ==, y->snapshot_index);
      g_assert_cmpint (x->special, ==, y->special);
    }
}

static void
assert_two_parts_same (TmMemoryStore *store)
{
  g_autoptr(TmAnalysis) one = NULL;
  g_autoptr(TmAnalysis) two = NULL;
  g_autoptr(GError) error = NULL;

  _tm_analysis_set_two_parts_min (G_MAXUINT);
  one = tm_analysis_new (store, NULL, &error);
  g_assert_no_error (error);
  _tm_analysis_set_two_parts_min (2);
  two = tm_analysis_new (store, NULL, &error);
  g_assert_no_error (error);
  _tm_analysis_set_two_parts_min (1u << 20);
  assert_same_rows (tm_analysis_get_peak_breakdown (one), tm_analysis_get_peak_breakdown (two));
}

static void
test_two_parts (void)
{
  const char *real[] = {
    "tf_gpu_multi_worker.xplane.pb", "jax_rocm_mi300x_conv.xplane.pb", "pytorch_cs336_memory_snapshot.pickle",
  };

  /* Random events at a few addresses: allocations that replace live ones,
   * deallocations with and without a record, across the halves and over
   * three steps, in many seeds. */
  for (guint seed = 1; seed <= 40; seed++)
    {
      g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
      g_autoptr(TmProfile) profile = NULL;
      guint n = g_rand_int_range (rand, 2, 300);
      gint64 heap = 1000;

      for (guint i = 0; i < n; i++)
        {
          Ev ev = { g_rand_boolean (rand), 10 * (i + 1), 0, 0, g_rand_int_range (rand, 1, 100),
                    (guint64) g_rand_int_range (rand, 1, 12) * 256, "op", (gint64) (i * 3 / n) };

          heap += ev.alloc ? ev.bytes : -ev.bytes;
          ev.heap = MAX (heap, 0);
          ev.op = ev.alloc ? (g_rand_boolean (rand) ? "a" : "b") : NULL;
          g_array_append_val (evs, ev);
        }
      profile = load_events ((const Ev *) evs->data, evs->len);
      assert_two_parts_same (tm_profile_get_memory_store (profile, 0));
    }

  for (guint i = 0; i < G_N_ELEMENTS (real); i++)
    {
      g_autofree char *path = tm_test_real_profile (real[i]);
      g_autoptr(TmProfile) profile = NULL;

      if (path == NULL)
        continue;
      profile = tm_test_load_path (path);
      for (guint k = 0; k < tm_profile_get_n_memory_ids (profile); k++)
        assert_two_parts_same (tm_profile_get_memory_store (profile, k));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/analysis/step-ids", test_step_ids);
  g_test_add_func ("/analysis/step-runs-out-of-order", test_step_runs_out_of_order);
  g_test_add_func ("/analysis/step-runs-many-places", test_step_runs_many_places);
  g_test_add_func ("/analysis/peak-step-and-merge", test_peak_step_and_merge);
  g_test_add_func ("/analysis/live-at", test_live_at);
  g_test_add_func ("/analysis/find", test_find);
  g_test_add_func ("/analysis/rows-bytes", test_rows_bytes);
  g_test_add_func ("/analysis/sampling", test_sampling);
  g_test_add_func ("/analysis/two-parts", test_two_parts);

  return g_test_run ();
}
