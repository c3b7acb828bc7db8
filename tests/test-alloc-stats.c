/* test-alloc-stats.c — temporary allocations and the rate per step
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The figures of docs/analysis.md, "Temporary allocations and the rate per
 * step", on a fixture whose every number is worked out below by hand.
 */
#include "config.h"

#include "tm-alloc-stats.h"
#include "tm-export.h"
#include "tm-test-util.h"

#define MS G_GINT64_CONSTANT (1000000000)

typedef struct
{
  gboolean alloc;
  gint64   time;   /* in µs */
  gint64   bytes;
  guint64  addr;
  gint64   step;   /* -1: no group_id */
} Ev;

/* Three steps in order, then one event without a step id (it gets the last
 * real step + 1 = 4, docs/analysis.md step 3) freed by an event of step 3:
 *
 *   #   time     kind   addr bytes step  ends
 *   0   0.5 ms   free   900   64   1     (allocated before the profile: not counted)
 *   1   1   ms   alloc  100  100   1     freed by 2 at 1.5 ms: 0.5 ms, same step
 *   2   1.5 ms   free   100  100   1
 *   3   2   ms   alloc  200  200   1     freed by 6 at 4 ms (step 2): 2 ms
 *   4   2.5 ms   alloc  300  300   1     freed by 5 at 3.5 ms: exactly 1 ms, same step
 *   5   3.5 ms   free   300  300   1
 *   6   4   ms   free   200  200   2
 *   7   5   ms   alloc  400  400   2     never freed
 *   8   6   ms   alloc  500  500   2     ended by 9 (a new allocation at its address): 0.2 ms, same step
 *   9   6.2 ms   alloc  500   50   2     freed by 10 at 20 ms (step 3): 13.8 ms
 *   10  20  ms   free   500   50   3
 *   11  21  ms   alloc  600  600   -1→4  freed by 12 at 21.1 ms (step 3): 0.1 ms, not the same step
 *   12  21.1 ms  free   600  600   3
 */
static const Ev events[] = {
  { FALSE,   500,  64, 900, 1 },
  { TRUE,   1000, 100, 100, 1 },
  { FALSE,  1500, 100, 100, 1 },
  { TRUE,   2000, 200, 200, 1 },
  { TRUE,   2500, 300, 300, 1 },
  { FALSE,  3500, 300, 300, 1 },
  { FALSE,  4000, 200, 200, 2 },
  { TRUE,   5000, 400, 400, 2 },
  { TRUE,   6000, 500, 500, 2 },
  { TRUE,   6200,  50, 500, 2 },
  { FALSE, 20000,  50, 500, 3 },
  { TRUE,  21000, 600, 600, -1 },
  { FALSE, 21100, 600, 600, 3 },
};

static void
fill_memory (gconstpointer    data,
             TmFixtureMemory *m,
             gboolean        *allocation,
             gint64          *time_ps)
{
  const Ev *ev = data;

  *allocation = ev->alloc;
  *time_ps = ev->time * 1000000;
  m->bytes_allocated = 10000;
  m->bytes_available = 100000;
  m->peak_bytes_in_use = 10000;
  m->requested_bytes = ev->bytes;
  m->allocation_bytes = ev->bytes;
  m->addr = ev->addr;
  m->tf_op = "op";
  m->region_type = "temp";
  m->data_type = 1;
  m->shape = "[1]";
  m->has_group_id = ev->step >= 0;
  m->group_id = ev->step;
}

/* Bytes are checked only where the figures have them (the store variant
 * keeps only those never freed). */
static void
assert_step (const TmAllocStats *stats,
             guint               index,
             gint64              step_id,
             gint64              first_us,
             gint64              last_us,
             guint               n_allocations,
             gint64              bytes,
             guint               n_temporary,
             guint               n_same_step)
{
  const TmStepStats *step = &g_array_index (stats->steps, TmStepStats, index);

  g_assert_cmpint (step->step_id, ==, step_id);
  g_assert_cmpint (step->first_time_ps, ==, first_us * 1000000);
  g_assert_cmpint (step->last_time_ps, ==, last_us * 1000000);
  g_assert_cmpuint (step->n_allocations, ==, n_allocations);
  g_assert_cmpint (step->allocated_bytes, ==, stats->has_bytes ? bytes : 0);
  g_assert_cmpuint (step->n_temporary, ==, n_temporary);
  g_assert_cmpuint (step->n_same_step, ==, n_same_step);
}

static void
assert_whole (const TmAllocStats *stats)
{
  gboolean b = stats->has_bytes;

  /* Made in the profile: 1, 3, 4, 7, 8, 9, 11. */
  g_assert_cmpuint (stats->n_allocations, ==, 7);
  g_assert_cmpint (stats->allocated_bytes, ==, b ? 100 + 200 + 300 + 400 + 500 + 50 + 600 : 0);
  g_assert_cmpuint (stats->n_freed, ==, 6);
  g_assert_cmpuint (stats->n_never_freed, ==, 1);
  g_assert_cmpint (stats->never_freed_bytes, ==, 400);
  /* Within 1 ms: 1 (0.5), 4 (1.0, the bound is included), 8 (0.2), 11 (0.1). */
  g_assert_cmpuint (stats->n_temporary, ==, 4);
  g_assert_cmpint (stats->temporary_bytes, ==, b ? 100 + 300 + 500 + 600 : 0);
  /* In the step that made them: 1, 4 (step 1), 8 (step 2). */
  g_assert_cmpuint (stats->n_same_step, ==, 3);
  g_assert_cmpint (stats->same_step_bytes, ==, b ? 100 + 300 + 500 : 0);

  g_assert_cmpuint (stats->steps->len, ==, 4);
  assert_step (stats, 0, 1, 500, 3500, 3, 600, 2, 2);
  assert_step (stats, 1, 2, 4000, 6200, 3, 950, 1, 1);
  assert_step (stats, 2, 3, 20000, 21100, 0, 0, 0, 0);
  assert_step (stats, 3, 4, 21000, 21000, 1, 600, 1, 0);
  /* Steps 1 and 2 both made 3: the first of them. */
  g_assert_cmpuint (stats->busiest_step, ==, 0);
  g_assert_cmpfloat (tm_alloc_stats_get_allocations_per_step (stats), ==, 7.0 / 4.0);
  g_assert_cmpfloat (tm_alloc_stats_get_bytes_per_step (stats), ==, b ? 2150.0 / 4.0 : 0.0);
}

static void
test_whole (void)
{
  g_autoptr(TmProfile) profile = tm_test_load_memory_events (events, sizeof *events, G_N_ELEMENTS (events), fill_memory);
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);
  const TmSummary *summary = tm_memory_store_get_summary (store);
  g_autoptr(TmAllocStats) over_index = NULL;
  g_autoptr(TmAllocStats) over_store = NULL;
  g_autoptr(GError) error = NULL;

  over_index = tm_alloc_stats_new (allocations, summary->first_time_ps, summary->last_time_ps,
                                   TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (over_index->temporary_ps, ==, 1 * MS);
  assert_whole (over_index);

  over_store = tm_alloc_stats_new_for_store (store, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (over_store->start_ps, ==, G_GINT64_CONSTANT (500) * 1000000);
  g_assert_cmpint (over_store->end_ps, ==, G_GINT64_CONSTANT (21100) * 1000000);
  assert_whole (over_store);
  g_assert_cmpuint (over_store->n_never_freed, ==, tm_allocations_get_n_never_freed (allocations));
  g_assert_cmpint (over_store->never_freed_bytes, ==, tm_allocations_get_never_freed_bytes (allocations));
  g_assert_true (over_index->has_bytes);
  g_assert_false (over_store->has_bytes);
}

/* [2 ms, 6 ms]: the allocations made in it (3, 4, 7, 8), whenever they
 * end; the steps of the snapshots in it. */
static void
test_range (void)
{
  g_autoptr(TmProfile) profile = tm_test_load_memory_events (events, sizeof *events, G_N_ELEMENTS (events), fill_memory);
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);
  g_autoptr(TmAllocStats) stats = NULL;
  g_autoptr(TmAllocStats) none = NULL;
  g_autoptr(GError) error = NULL;

  stats = tm_alloc_stats_new (allocations, 2 * MS, 6 * MS, 1 * MS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats->n_allocations, ==, 4);
  g_assert_cmpint (stats->allocated_bytes, ==, 200 + 300 + 400 + 500);
  g_assert_cmpuint (stats->n_freed, ==, 3);
  g_assert_cmpuint (stats->n_never_freed, ==, 1);
  g_assert_cmpuint (stats->n_temporary, ==, 2);
  g_assert_cmpint (stats->temporary_bytes, ==, 300 + 500);
  g_assert_cmpuint (stats->n_same_step, ==, 2);
  g_assert_cmpuint (stats->steps->len, ==, 2);
  assert_step (stats, 0, 1, 2000, 3500, 2, 500, 1, 1);
  assert_step (stats, 1, 2, 4000, 6000, 2, 900, 1, 1);
  g_assert_cmpuint (stats->busiest_step, ==, 0);

  /* Between two snapshots: nothing made, no step. */
  none = tm_alloc_stats_new (allocations, 7 * MS, 19 * MS, 1 * MS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (none->n_allocations, ==, 0);
  g_assert_cmpuint (none->steps->len, ==, 0);
  g_assert_cmpuint (none->busiest_step, ==, G_MAXUINT);
  g_assert_cmpfloat (tm_alloc_stats_get_allocations_per_step (none), ==, 0.0);
}

/* The threshold is the user's: 0 keeps only what lived no time at all, a
 * longer one takes in more (3 at 2 ms; 9 with its 13.8 ms at 14 ms). */
static void
test_threshold (void)
{
  g_autoptr(TmProfile) profile = tm_test_load_memory_events (events, sizeof *events, G_N_ELEMENTS (events), fill_memory);
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);
  const struct { gint64 threshold_us; guint n; gint64 bytes; } cases[] = {
    { 0, 0, 0 },
    { 99, 0, 0 },
    { 100, 1, 600 },
    { 500, 3, 600 + 500 + 100 },
    { 2000, 5, 600 + 500 + 100 + 300 + 200 },
    { 14000, 6, 600 + 500 + 100 + 300 + 200 + 50 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmAllocStats) stats = tm_alloc_stats_new (allocations, G_MININT64, G_MAXINT64,
                                                          cases[i].threshold_us * 1000000, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (stats->n_temporary, ==, cases[i].n);
      g_assert_cmpint (stats->temporary_bytes, ==, cases[i].bytes);
      /* The same step does not depend on it. */
      g_assert_cmpuint (stats->n_same_step, ==, 3);
    }
}

/* XProf's example: no step ids, so one step 0; foo/bar lived 10 ns. */
static void
test_xprof_example (void)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_test_load_space (space, &error);
  TmMemoryStore *store = NULL;
  g_autoptr(TmAllocStats) stats = NULL;

  g_assert_no_error (error);
  store = tm_profile_get_memory_store (profile, 0);
  stats = tm_alloc_stats_new_for_store (store, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (stats->n_allocations, ==, TM_FIXTURE_XPROF_N_ALLOCATIONS);
  g_assert_cmpint (stats->never_freed_bytes, ==, 300);
  g_assert_cmpuint (stats->n_temporary, ==, 1);
  g_assert_cmpuint (stats->n_same_step, ==, 1);
  g_assert_cmpuint (stats->steps->len, ==, 1);
  {
    const TmStepStats *step = &g_array_index (stats->steps, TmStepStats, 0);

    g_assert_cmpint (step->step_id, ==, 0);
    g_assert_cmpint (step->first_time_ps, ==, TM_FIXTURE_XPROF_FIRST_TIME_PS);
    g_assert_cmpint (step->last_time_ps, ==, TM_FIXTURE_XPROF_LAST_TIME_PS);
    g_assert_cmpuint (step->n_allocations, ==, 2);
  }

  /* Its XProf JSON (points paired without a partner column): the same. */
  {
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GBytes) json = NULL;
    g_autoptr(TmProfile) sampled = NULL;
    g_autoptr(TmAllocStats) again = NULL;

    g_assert_true (tm_export_xprof_json (profile, out, NULL, &error));
    g_assert_true (g_output_stream_close (out, NULL, &error));
    json = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
    sampled = tm_test_load_bytes (json, "example.memory_profile.json", &error);
    g_assert_no_error (error);
    g_assert_false (tm_memory_store_is_complete (tm_profile_get_memory_store (sampled, 0)));
    again = tm_alloc_stats_new_for_store (tm_profile_get_memory_store (sampled, 0),
                                          TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (again->n_allocations, ==, 2);
    g_assert_cmpuint (again->n_never_freed, ==, 1);
    g_assert_cmpint (again->never_freed_bytes, ==, 300);
    g_assert_cmpuint (again->n_temporary, ==, 1);
    g_assert_cmpuint (again->n_same_step, ==, 1);
  }
}

/* The real GPU profile: every memory id the same both ways, and as many
 * never freed as the summary says. */
static void
test_real_gpu (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(TmProfile) profile = NULL;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  profile = tm_test_load_path (path);
  for (guint m = 0; m < tm_profile_get_n_memory_ids (profile); m++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (profile, m);
      TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);
      const TmSummary *summary = tm_memory_store_get_summary (store);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmAllocStats) a = tm_alloc_stats_new (allocations, summary->first_time_ps, summary->last_time_ps,
                                                      TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, &error);
      g_autoptr(TmAllocStats) b = tm_alloc_stats_new_for_store (store, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (a->n_allocations, ==, summary->n_allocations);
      g_assert_cmpuint (b->n_allocations, ==, summary->n_allocations);
      g_assert_cmpint (a->never_freed_bytes, ==, b->never_freed_bytes);
      g_assert_cmpuint (a->n_temporary, ==, b->n_temporary);
      g_assert_cmpuint (a->n_same_step, ==, b->n_same_step);
      g_assert_cmpuint (a->n_never_freed, ==, tm_allocations_get_n_never_freed (allocations));
      g_assert_cmpuint (a->steps->len, ==, b->steps->len);
      for (guint k = 0; k < a->steps->len; k++)
        {
          const TmStepStats *x = &g_array_index (a->steps, TmStepStats, k);
          const TmStepStats *y = &g_array_index (b->steps, TmStepStats, k);

          g_assert_cmpint (x->step_id, ==, y->step_id);
          g_assert_cmpuint (x->n_allocations, ==, y->n_allocations);
          g_assert_cmpuint (x->n_temporary, ==, y->n_temporary);
          g_assert_cmpuint (x->n_same_step, ==, y->n_same_step);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/alloc-stats/whole", test_whole);
  g_test_add_func ("/alloc-stats/range", test_range);
  g_test_add_func ("/alloc-stats/threshold", test_threshold);
  g_test_add_func ("/alloc-stats/xprof-example", test_xprof_example);
  g_test_add_func ("/alloc-stats/real-gpu", test_real_gpu);

  return g_test_run ();
}
