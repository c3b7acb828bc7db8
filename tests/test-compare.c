/* test-compare.c — two profiles compared: tm-compare and tidemark --compare
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <json-glib/json-glib.h>

#include "tm-compare.h"
#include "tm-test-util.h"

typedef struct
{
  gboolean    alloc;
  gint64      time;
  gint64      heap;       /* after the event */
  gint64      bytes;
  guint64     addr;
  const char *op;
  gint64      group;      /* -1: no group_id */
} Ev;

/* Baseline: "init" before the first step; in step 1 "model/grow" 100 B
 * and "model/gone" 50 B; peak 160 at t=2000; step 1 begins at t=1000. */
static const Ev baseline_events[] = {
  { TRUE,   500,  10,  10, 0x100,  "init",       -1 },
  { TRUE,  1000, 110, 100, 0x1000, "model/grow",  1 },
  { TRUE,  2000, 160,  50, 0x2000, "model/gone",  1 },
  { FALSE, 3000, 110,  50, 0x2000, NULL,          1 },
};

/* Current: "model/grow" grew to 160 B, "model/gone" is gone, "model/new"
 * 40 B is new; step 1 begins at t=3000 and the peak, 210, is at t=4000
 * (2000 later than the baseline's). */
static const Ev current_events[] = {
  { TRUE,   500,  10,  10, 0x100,  "init",       -1 },
  { TRUE,  3000, 170, 160, 0x1000, "model/grow",  1 },
  { TRUE,  4000, 210,  40, 0x3000, "model/new",   1 },
  { FALSE, 5000, 170,  40, 0x3000, NULL,          1 },
};

static void
add_events (TmFixtureSpace *space,
            const char     *allocator,
            const Ev       *evs,
            guint           n)
{
  TmFixtureLine *line = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), allocator, 0);
  gint64 peak = 0;

  for (guint i = 0; i < n; i++)
    {
      TmFixtureMemory m = { 0 };

      peak = MAX (peak, evs[i].heap);
      m.allocator_name = allocator;
      m.bytes_allocated = evs[i].heap;
      m.bytes_available = 1000 - evs[i].heap;
      m.peak_bytes_in_use = peak;
      m.requested_bytes = evs[i].bytes;
      m.allocation_bytes = evs[i].bytes;
      m.addr = evs[i].addr;
      m.tf_op = evs[i].op;
      m.region_type = evs[i].op != NULL ? "output" : NULL;
      m.data_type = 1;
      m.shape = evs[i].op != NULL ? "[4]" : NULL;
      m.has_group_id = evs[i].group >= 0;
      m.group_id = evs[i].group;
      tm_fixture_line_add_memory_event (line, evs[i].alloc, evs[i].time, &m);
    }
}

/* Writes a profile with the memory ids ids[] (NULL-terminated), each with
 * the events evs; returns its path. */
static char *
write_profile (const char * const *ids,
               const Ev           *evs,
               guint               n,
               const char         *basename)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
  g_autoptr(GError) error = NULL;
  char *path;

  for (guint i = 0; ids[i] != NULL; i++)
    add_events (space, ids[i], evs, n);
  path = tm_fixture_space_write (space, NULL, basename, &error);
  g_assert_no_error (error);
  return path;
}

static const TmCompareEntry *
find_entry (GPtrArray  *entries,
            const char *name)
{
  for (guint i = 0; i < entries->len; i++)
    {
      const TmCompareEntry *e = g_ptr_array_index (entries, i);

      if (g_str_equal (e->name, name))
        return e;
    }
  return NULL;
}

static TmCompare *
compare_fixture (TmProfile **baseline_out,
                 TmProfile **current_out)
{
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *b = write_profile (ids, baseline_events, G_N_ELEMENTS (baseline_events), "baseline.xplane.pb");
  g_autofree char *c = write_profile (ids, current_events, G_N_ELEMENTS (current_events), "current.xplane.pb");
  TmProfile *baseline = tm_test_load_path (b);
  TmProfile *current = tm_test_load_path (c);
  g_autoptr(GError) error = NULL;
  TmCompare *cmp;

  tm_fixture_remove (b);
  tm_fixture_remove (c);
  cmp = tm_compare_new (tm_profile_get_analysis (baseline, 0), NULL,
                        tm_profile_get_analysis (current, 0), NULL, &error);
  g_assert_no_error (error);
  *baseline_out = baseline;
  *current_out = current;
  return cmp;
}

static void
test_figures (void)
{
  g_autoptr(TmProfile) baseline = NULL;
  g_autoptr(TmProfile) current = NULL;
  g_autoptr(TmCompare) cmp = compare_fixture (&baseline, &current);
  const TmCompareFigure *peak = tm_compare_lookup_figure (cmp, "peak_bytes_in_use");
  const TmCompareFigure *when = tm_compare_lookup_figure (cmp, "peak_stats_time_ps");
  const TmCompareFigure *frag = tm_compare_lookup_figure (cmp, "peak_fragmentation");
  const TmCompareFigure *never = tm_compare_lookup_figure (cmp, "never_freed_bytes");
  const TmCompareFigure *figures;
  guint n;

  g_assert_nonnull (peak);
  g_assert_cmpint (peak->baseline, ==, 160);
  g_assert_cmpint (peak->current, ==, 210);
  g_assert_cmpint (peak->delta, ==, 50);
  g_assert_cmpint (when->baseline, ==, 2000);
  g_assert_cmpint (when->delta, ==, 2000);
  /* Never freed: init + grow in both (10 + 100, then 10 + 160). */
  g_assert_cmpint (never->baseline, ==, 110);
  g_assert_cmpint (never->current, ==, 170);
  g_assert_cmpint (never->delta, ==, 60);
  g_assert_cmpint (frag->kind, ==, TM_COMPARE_FIGURE_FRACTION);
  g_assert_null (tm_compare_lookup_figure (cmp, "no_such_figure"));

  figures = tm_compare_get_figures (cmp, &n);
  g_assert_cmpuint (n, ==, 17);
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (figures[i].delta, ==, figures[i].current - figures[i].baseline);
}

static void
test_op_diff (void)
{
  g_autoptr(TmProfile) baseline = NULL;
  g_autoptr(TmProfile) current = NULL;
  g_autoptr(TmCompare) cmp = compare_fixture (&baseline, &current);
  GPtrArray *ops = tm_compare_get_op_diff (cmp);
  const TmCompareEntry *grow = find_entry (ops, "model/grow");
  const TmCompareEntry *gone = find_entry (ops, "model/gone");
  const TmCompareEntry *added = find_entry (ops, "model/new");
  const TmCompareEntry *unused = find_entry (ops, "unused preallocated device memory");

  g_assert_nonnull (grow);
  g_assert_cmpint (grow->baseline_bytes, ==, 100);
  g_assert_cmpint (grow->current_bytes, ==, 160);
  g_assert_cmpint (grow->delta, ==, 60);
  g_assert_cmpint (grow->status, ==, TM_COMPARE_CHANGED);
  g_assert_nonnull (gone);
  g_assert_cmpint (gone->delta, ==, -50);
  g_assert_cmpint (gone->current_bytes, ==, 0);
  g_assert_cmpint (gone->status, ==, TM_COMPARE_GONE);
  g_assert_nonnull (added);
  g_assert_cmpint (added->delta, ==, 40);
  g_assert_cmpint (added->baseline_bytes, ==, 0);
  g_assert_cmpint (added->status, ==, TM_COMPARE_NEW);
  /* "init" was made in step 0, before the peak step: the unused row. */
  g_assert_nonnull (unused);
  g_assert_true (unused->special);
  g_assert_cmpint (unused->delta, ==, 0);

  /* Sorted by |Δ|: grow, gone, new, then the unchanged row. */
  g_assert_true (g_ptr_array_index (ops, 0) == grow);
  g_assert_true (g_ptr_array_index (ops, 1) == gone);
  g_assert_true (g_ptr_array_index (ops, 2) == added);
  g_assert_cmpuint (ops->len, ==, 4);
}

static void
test_scope_diff (void)
{
  g_autoptr(TmProfile) baseline = NULL;
  g_autoptr(TmProfile) current = NULL;
  g_autoptr(TmCompare) cmp = compare_fixture (&baseline, &current);
  GPtrArray *scopes = tm_compare_get_scope_diff (cmp);
  const TmCompareEntry *model = find_entry (scopes, "model");
  const TmCompareEntry *grow = find_entry (scopes, "model/grow");
  const TmCompareEntry *gone = find_entry (scopes, "model/gone");

  g_assert_nonnull (model);
  g_assert_cmpuint (model->depth, ==, 1);
  g_assert_cmpint (model->baseline_bytes, ==, 150);
  g_assert_cmpint (model->current_bytes, ==, 200);
  g_assert_cmpint (model->delta, ==, 50);
  g_assert_nonnull (grow);
  g_assert_cmpuint (grow->depth, ==, 2);
  g_assert_cmpint (grow->delta, ==, 60);
  g_assert_cmpint (gone->status, ==, TM_COMPARE_GONE);
  g_assert_true (g_ptr_array_index (scopes, 0) == grow);
}

static void
test_alignment (void)
{
  g_autoptr(TmProfile) baseline = NULL;
  g_autoptr(TmProfile) current = NULL;
  g_autoptr(TmCompare) cmp = compare_fixture (&baseline, &current);

  g_assert_cmpint (tm_compare_get_anchor (cmp, TM_COMPARE_ALIGN_START, TRUE), ==, 500);
  g_assert_cmpint (tm_compare_get_anchor (cmp, TM_COMPARE_ALIGN_PEAK, TRUE), ==, 2000);
  g_assert_cmpint (tm_compare_get_anchor (cmp, TM_COMPARE_ALIGN_PEAK, FALSE), ==, 4000);
  /* The first step: the first snapshot whose step id differs from the
   * first snapshot's (0, filled in, docs/analysis.md step 3). */
  g_assert_cmpint (tm_compare_get_anchor (cmp, TM_COMPARE_ALIGN_FIRST_STEP, TRUE), ==, 1000);
  g_assert_cmpint (tm_compare_get_anchor (cmp, TM_COMPARE_ALIGN_FIRST_STEP, FALSE), ==, 3000);
  g_assert_cmpint (tm_compare_get_shift (cmp, TM_COMPARE_ALIGN_START), ==, 0);
  g_assert_cmpint (tm_compare_get_shift (cmp, TM_COMPARE_ALIGN_PEAK), ==, 2000);
  g_assert_cmpint (tm_compare_get_shift (cmp, TM_COMPARE_ALIGN_FIRST_STEP), ==, 2000);
  g_assert_cmpstr (tm_compare_alignment_to_string (TM_COMPARE_ALIGN_FIRST_STEP), ==, "first-step");
}

/* A memory id with one step only: the first step is its start. */
static void
test_single_step (void)
{
  static const Ev evs[] = {
    { TRUE, 700, 10, 10, 0x10, "a", 3 },
    { TRUE, 900, 30, 20, 0x20, "b", 3 },
  };
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *path = write_profile (ids, evs, G_N_ELEMENTS (evs), "one-step.xplane.pb");
  g_autoptr(TmProfile) profile = tm_test_load_path (path);
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);

  tm_fixture_remove (path);
  g_assert_cmpint (tm_compare_anchor_of (store, TM_COMPARE_ALIGN_FIRST_STEP), ==, 700);
  g_assert_cmpint (tm_compare_anchor_of (store, TM_COMPARE_ALIGN_START), ==, 700);
  g_assert_cmpint (tm_compare_anchor_of (store, TM_COMPARE_ALIGN_PEAK), ==, 900);
}

/* The same op on two devices of a data-parallel run is one entry. */
static void
test_replicas_match (void)
{
  static const Ev on_4[] = {
    { TRUE, 100, 64, 64, 0x10, "replica_4/layer/MatMul", 1 },
    { TRUE, 200, 96, 32, 0x20, "replica_4x/other", 1 },
  };
  static const Ev on_6[] = {
    { TRUE, 100, 80, 80, 0x10, "replica_6/layer/MatMul", 1 },
    { TRUE, 200, 112, 32, 0x20, "replica_6x/other", 1 },
  };
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *a = write_profile (ids, on_4, G_N_ELEMENTS (on_4), "r4.xplane.pb");
  g_autofree char *b = write_profile (ids, on_6, G_N_ELEMENTS (on_6), "r6.xplane.pb");
  g_autoptr(TmProfile) pa = tm_test_load_path (a);
  g_autoptr(TmProfile) pb = tm_test_load_path (b);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmCompare) cmp = tm_compare_new (tm_profile_get_analysis (pa, 0), NULL,
                                             tm_profile_get_analysis (pb, 0), NULL, &error);
  GPtrArray *ops;
  const TmCompareEntry *matmul, *other;

  g_assert_no_error (error);
  tm_fixture_remove (a);
  tm_fixture_remove (b);
  ops = tm_compare_get_op_diff (cmp);
  matmul = find_entry (ops, "replica_6/layer/MatMul");
  g_assert_nonnull (matmul);
  g_assert_null (find_entry (ops, "replica_4/layer/MatMul"));
  g_assert_cmpint (matmul->status, ==, TM_COMPARE_CHANGED);
  g_assert_cmpint (matmul->delta, ==, 16);
  /* The scope view's lookup matches the same way. */
  {
    g_autoptr(TmScopeTree) tree = tm_scope_tree_new (tm_analysis_get_peak_breakdown (tm_profile_get_analysis (pa, 0)),
                                                     TM_SCOPE_GROUPING_NAME);
    const char *parts[] = { "replica_6", "layer", NULL };
    const char *other_parts[] = { "replica_6x", NULL };
    g_autoptr(TmScope) scope = tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, parts);
    g_autoptr(TmScope) other_scope = tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, other_parts);
    const TmScopeNode *node = tm_compare_match_scope (tree, scope);

    g_assert (node != NULL);
    g_assert_cmpstr (node->name, ==, "layer");
    g_assert_cmpint (node->bytes, ==, 64);
    g_assert_null (tm_compare_match_scope (tree, other_scope));
  }
  /* Only a whole "replica_N" scope matches: these two stay apart. */
  other = find_entry (ops, "replica_4x/other");
  g_assert (other != NULL);
  g_assert_cmpint (other->status, ==, TM_COMPARE_GONE);
  other = find_entry (ops, "replica_6x/other");
  g_assert (other != NULL);
  g_assert_cmpint (other->status, ==, TM_COMPARE_NEW);
}

/* Two runs of one Keras model, renumbered: the baseline's
 * "sequential_2/conv2d_11" … is the current's "sequential_3/conv2d_14" …,
 * and every op doubled. */
static char *
write_keras (int         model,
             int         first_conv,
             int         first_dense,
             gint64      scale,
             const char *basename)
{
  g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_keras_run (model, first_conv, first_dense, scale);
  g_autoptr(GError) error = NULL;
  char *path = tm_fixture_space_write (space, NULL, basename, &error);

  g_assert_no_error (error);
  return path;
}

static TmCompare *
compare_paths (const char  *baseline_path,
               const char  *current_path,
               TmProfile  **baseline_out,
               TmProfile  **current_out)
{
  TmProfile *baseline = tm_test_load_path (baseline_path);
  TmProfile *current = tm_test_load_path (current_path);
  g_autoptr(GError) error = NULL;
  TmCompare *cmp = tm_compare_new (tm_profile_get_analysis (baseline, 0), NULL,
                                   tm_profile_get_analysis (current, 0), NULL, &error);

  g_assert_no_error (error);
  *baseline_out = baseline;
  *current_out = current;
  return cmp;
}

/* The entry of name, which must be there. */
static const TmCompareEntry *
get_entry (GPtrArray  *entries,
           const char *name)
{
  const TmCompareEntry *e = find_entry (entries, name);

  if (e == NULL)
    g_error ("no entry “%s”", name);
  return e;
}

/* Two allocations of one op and size at the baseline's peak make one
 * breakdown row of two occurrences: the op counts both. */
static const Ev twice_events[] = {
  { TRUE,   500, 10, 10, 0x100,  "init",        -1 },
  { TRUE,  1000, 40, 30, 0x1000, "model/twice",  1 },
  { TRUE,  1100, 70, 30, 0x2000, "model/twice",  1 },
};

static void
test_op_diff_occurrences (void)
{
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *b = write_profile (ids, twice_events, G_N_ELEMENTS (twice_events), "twice.xplane.pb");
  g_autofree char *c = write_profile (ids, twice_events, 2, "once.xplane.pb");
  g_autoptr(TmProfile) baseline = tm_test_load_path (b);
  g_autoptr(TmProfile) current = tm_test_load_path (c);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmCompare) cmp = NULL;
  const TmCompareEntry *twice;
  const TmBreakdownRow *row;
  gint64 sum = 0;

  tm_fixture_remove (b);
  tm_fixture_remove (c);
  row = g_ptr_array_index (tm_analysis_get_peak_breakdown (tm_profile_get_analysis (baseline, 0)), 0);
  g_assert_nonnull (row);
  g_assert_cmpuint (row->n_occurrences, ==, 2);
  cmp = tm_compare_new (tm_profile_get_analysis (baseline, 0), NULL,
                        tm_profile_get_analysis (current, 0), NULL, &error);
  g_assert_no_error (error);
  twice = get_entry (tm_compare_get_op_diff (cmp), "model/twice");
  g_assert_cmpint (twice->baseline_bytes, ==, 60);
  g_assert_cmpint (twice->current_bytes, ==, 30);
  g_assert_cmpuint (twice->baseline_occurrences, ==, 2);
  g_assert_cmpuint (twice->current_occurrences, ==, 1);
  for (guint i = 0; i < tm_compare_get_op_diff (cmp)->len; i++)
    sum += ((TmCompareEntry *) g_ptr_array_index (tm_compare_get_op_diff (cmp), i))->delta;
  g_assert_cmpint (sum, ==, tm_compare_lookup_figure (cmp, "peak_bytes_in_use")->delta);
}

static void
assert_renumbered (GPtrArray  *entries,
                   const char *name,
                   const char *baseline_name,
                   gint64      baseline_bytes,
                   gint64      current_bytes)
{
  const TmCompareEntry *e = get_entry (entries, name);

  g_test_message ("%s ← %s", name, baseline_name);
  g_assert_cmpint (e->status, ==, TM_COMPARE_CHANGED);
  g_assert_true (e->renumbered);
  g_assert_cmpstr (e->baseline_name, ==, baseline_name);
  g_assert_cmpint (e->baseline_bytes, ==, baseline_bytes);
  g_assert_cmpint (e->current_bytes, ==, current_bytes);
  g_assert_cmpint (e->delta, ==, current_bytes - baseline_bytes);
}

static void
test_keras_renumbered (void)
{
  g_autofree char *a = write_keras (2, 11, 4, 1, "keras-a.xplane.pb");
  g_autofree char *b = write_keras (3, 14, 6, 2, "keras-b.xplane.pb");
  g_autoptr(TmProfile) pa = NULL;
  g_autoptr(TmProfile) pb = NULL;
  g_autoptr(TmCompare) cmp = compare_paths (a, b, &pa, &pb);
  GPtrArray *ops = tm_compare_get_op_diff (cmp);
  GPtrArray *scopes = tm_compare_get_scope_diff (cmp);
  gint64 sum = 0;

  tm_fixture_remove (a);
  tm_fixture_remove (b);

  /* Every op found its partner: none is new or gone. */
  for (guint i = 0; i < ops->len; i++)
    {
      const TmCompareEntry *e = g_ptr_array_index (ops, i);

      g_assert_cmpint (e->status, ==, TM_COMPARE_CHANGED);
      g_assert_true (e->renumbered != e->special);
      g_assert_true (e->renumbered || e->baseline_name == NULL);
      sum += e->delta;
    }
  g_assert_cmpuint (ops->len, ==, 8);
  assert_renumbered (ops, "sequential_3/conv2d_14/Conv2D", "sequential_2/conv2d_11/Conv2D", 1024, 2048);
  assert_renumbered (ops, "sequential_3/conv2d_15/BiasAdd", "sequential_2/conv2d_12/BiasAdd", 512, 1024);
  assert_renumbered (ops, "sequential_3/conv2d_16/Conv2D", "sequential_2/conv2d_13/Conv2D", 3072, 6144);
  assert_renumbered (ops, "sequential_3/dense_7/MatMul", "sequential_2/dense_5/MatMul", 4096, 8192);
  /* The ops' differences still add up to the peaks'. */
  g_assert_cmpint (sum, ==, tm_compare_lookup_figure (cmp, "peak_bytes_in_use")->delta);

  /* The scopes the same way, the model too. */
  for (guint i = 0; i < scopes->len; i++)
    g_assert_cmpint (((const TmCompareEntry *) g_ptr_array_index (scopes, i))->status, ==, TM_COMPARE_CHANGED);
  assert_renumbered (scopes, "sequential_3", "sequential_2", 13824, 27648);
  assert_renumbered (scopes, "sequential_3/conv2d_14", "sequential_2/conv2d_11", 1280, 2560);
  assert_renumbered (scopes, "sequential_3/dense_6", "sequential_2/dense_4", 2048, 4096);
  assert_renumbered (scopes, "sequential_3/dense_6/MatMul", "sequential_2/dense_4/MatMul", 2048, 4096);
  g_assert_cmpuint (get_entry (scopes, "sequential_3")->depth, ==, 1);

  /* The scope view's Δ finds the baseline's scope by the name it had. */
  {
    g_autoptr(TmScopeTree) tree = tm_scope_tree_new (tm_analysis_get_peak_breakdown (tm_profile_get_analysis (pa, 0)),
                                                     TM_SCOPE_GROUPING_NAME);
    const char *parts[] = { "sequential_3", "conv2d_14", NULL };
    const char *special[] = { "stack", NULL };
    g_autoptr(TmScope) scope = tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, parts);
    g_autoptr(TmScope) stack = tm_scope_new (TM_SCOPE_GROUPING_NAME, TRUE, special);
    g_autoptr(TmScope) renamed = NULL;
    const TmScopeNode *node;

    g_assert_null (tm_compare_match_scope (tree, scope));
    renamed = tm_compare_lookup_renumbered_scope (cmp, scope);
    g_assert_nonnull (renamed);
    g_assert_cmpstr (renamed->parts[0], ==, "sequential_2");
    g_assert_cmpstr (renamed->parts[1], ==, "conv2d_11");
    g_assert_null (renamed->parts[2]);
    node = tm_compare_match_scope (tree, renamed);
    g_assert (node != NULL);
    g_assert_cmpint (node->bytes, ==, 1280);
    g_assert_null (tm_compare_lookup_renumbered_scope (cmp, stack));
  }
}

/* Exact matches first: the baseline's "conv2d_1" and "conv2d_2" meet the
 * current's of the same names, though they are its first and second
 * convolutions; only "conv2d" and "conv2d_3", left over, are matched by
 * position. Names that differ in more than a suffix never match. */
static void
test_keras_exact_first (void)
{
  g_autofree char *a = write_keras (-1, -1, -1, 1, "keras-first.xplane.pb");
  g_autofree char *b = write_keras (-1, 1, -1, 1, "keras-second.xplane.pb");
  g_autoptr(TmProfile) pa = NULL;
  g_autoptr(TmProfile) pb = NULL;
  g_autoptr(TmCompare) cmp = compare_paths (a, b, &pa, &pb);
  GPtrArray *ops = tm_compare_get_op_diff (cmp);
  const TmCompareEntry *e;

  tm_fixture_remove (a);
  tm_fixture_remove (b);

  /* Baseline: conv2d 1024, conv2d_1 2048, conv2d_2 3072; current:
   * conv2d_1 1024, conv2d_2 2048, conv2d_3 3072. */
  e = get_entry (ops, "sequential/conv2d_1/Conv2D");
  g_assert_false (e->renumbered);
  g_assert_null (e->baseline_name);
  g_assert_cmpint (e->baseline_bytes, ==, 2048);
  g_assert_cmpint (e->current_bytes, ==, 1024);
  e = get_entry (ops, "sequential/conv2d_2/Conv2D");
  g_assert_false (e->renumbered);
  g_assert_cmpint (e->delta, ==, -1024);
  assert_renumbered (ops, "sequential/conv2d_3/Conv2D", "sequential/conv2d/Conv2D", 1024, 3072);
  assert_renumbered (ops, "sequential/conv2d_3/BiasAdd", "sequential/conv2d/BiasAdd", 256, 768);
  g_assert_null (find_entry (ops, "sequential/conv2d/Conv2D"));
  /* The dense layers kept their names. */
  e = get_entry (ops, "sequential/dense_1/MatMul");
  g_assert_false (e->renumbered);
  g_assert_cmpint (e->delta, ==, 0);

  /* Several suffixes are one tuple, and a level may be a suffix alone
   * (TensorFlow's "update_4_1" and "_167" on device 4 are "update_6_1"
   * and "_201" on device 6). */
  {
    static const Ev before[] = {
      { TRUE, 100, 64, 64, 0x10, "opt/update_4_1/Const", 1 },
      { TRUE, 200, 96, 32, 0x20, "cond_12/pivot_f/_167", 1 },
    };
    static const Ev after[] = {
      { TRUE, 100, 64, 64, 0x10, "opt/update_6_1/Const", 1 },
      { TRUE, 200, 96, 32, 0x20, "cond_14/pivot_f/_201", 1 },
    };
    const char *ids[] = { "GPU_0_bfc", NULL };
    g_autofree char *c = write_profile (ids, before, G_N_ELEMENTS (before), "tuple-a.xplane.pb");
    g_autofree char *d = write_profile (ids, after, G_N_ELEMENTS (after), "tuple-b.xplane.pb");
    g_autoptr(TmProfile) pc = NULL;
    g_autoptr(TmProfile) pd = NULL;
    g_autoptr(TmCompare) tuples = compare_paths (c, d, &pc, &pd);
    GPtrArray *tuple_ops = tm_compare_get_op_diff (tuples);

    tm_fixture_remove (c);
    tm_fixture_remove (d);
    assert_renumbered (tuple_ops, "opt/update_6_1/Const", "opt/update_4_1/Const", 64, 64);
    assert_renumbered (tuple_ops, "cond_14/pivot_f/_201", "cond_12/pivot_f/_167", 32, 32);
  }

  /* Names left over on one side only: nothing to match them with. */
  {
    static const Ev before[] = {
      { TRUE, 100, 64, 64, 0x10, "model_1/conv_1/Conv2D", 1 },
      { TRUE, 200, 96, 32, 0x20, "model_1/conv_2/Conv2D", 1 },
    };
    const char *ids[] = { "GPU_0_bfc", NULL };
    g_autofree char *c = write_profile (ids, before, G_N_ELEMENTS (before), "one-side-a.xplane.pb");
    g_autofree char *d = write_profile (ids, before, 1, "one-side-b.xplane.pb");
    g_autoptr(TmProfile) pc = NULL;
    g_autoptr(TmProfile) pd = NULL;
    g_autoptr(TmCompare) one_side = compare_paths (c, d, &pc, &pd);

    tm_fixture_remove (c);
    tm_fixture_remove (d);
    g_assert_cmpint (get_entry (tm_compare_get_op_diff (one_side), "model_1/conv_2/Conv2D")->status, ==, TM_COMPARE_GONE);
    g_assert_cmpint (get_entry (tm_compare_get_op_diff (one_side), "model_1/conv_1/Conv2D")->status, ==, TM_COMPARE_CHANGED);
  }

  /* Another stem, or another number of levels: no match. */
  {
    static const Ev before[] = {
      { TRUE, 100, 64, 64, 0x10, "model_1/conv_1/Conv2D", 1 },
      { TRUE, 200, 96, 32, 0x20, "model_1/pool_1", 1 },
    };
    static const Ev after[] = {
      { TRUE, 100, 64, 64, 0x10, "model_2/dense_1/Conv2D", 1 },
      { TRUE, 200, 96, 32, 0x20, "model_2/pool_1/MaxPool", 1 },
    };
    const char *ids[] = { "GPU_0_bfc", NULL };
    g_autofree char *c = write_profile (ids, before, G_N_ELEMENTS (before), "apart-a.xplane.pb");
    g_autofree char *d = write_profile (ids, after, G_N_ELEMENTS (after), "apart-b.xplane.pb");
    g_autoptr(TmProfile) pc = NULL;
    g_autoptr(TmProfile) pd = NULL;
    g_autoptr(TmCompare) apart = compare_paths (c, d, &pc, &pd);
    GPtrArray *apart_ops = tm_compare_get_op_diff (apart);

    tm_fixture_remove (c);
    tm_fixture_remove (d);
    g_assert_cmpint (get_entry (apart_ops, "model_1/conv_1/Conv2D")->status, ==, TM_COMPARE_GONE);
    g_assert_cmpint (get_entry (apart_ops, "model_2/dense_1/Conv2D")->status, ==, TM_COMPARE_NEW);
    g_assert_cmpint (get_entry (apart_ops, "model_1/pool_1")->status, ==, TM_COMPARE_GONE);
    g_assert_cmpint (get_entry (apart_ops, "model_2/pool_1/MaxPool")->status, ==, TM_COMPARE_NEW);
  }
}

/* ------------------------------------------------------------------ */
/* The command line                                                     */

static JsonObject *
parse_object (JsonParser *parser,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli_fixture (void)
{
  const char *ids_before[] = { "GPU_0_bfc", "GPU_9_bfc", NULL };
  const char *ids_after[] = { "GPU_0_bfc", "GPU_7_bfc", NULL };
  g_autofree char *b = write_profile (ids_before, baseline_events, G_N_ELEMENTS (baseline_events), "before.xplane.pb");
  g_autofree char *c = write_profile (ids_after, current_events, G_N_ELEMENTS (current_events), "after.xplane.pb");
  g_auto(TmTestRun) text = { 0 };
  g_auto(TmTestRun) json = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *pair, *summary, *peak;
  JsonArray *comparisons, *ops;

  tm_test_run_cli (&text, "C", "--compare", b, c, NULL);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_cmpstr (text.err, ==, "");
  g_assert_nonnull (strstr (text.out, "\nGPU_0_bfc\n"));
  g_assert_nonnull (strstr (text.out, "only in the baseline: GPU_9_bfc\n"));
  g_assert_nonnull (strstr (text.out, "only in the current file: GPU_7_bfc\n"));
  g_assert_nonnull (strstr (text.out, "+60 B"));
  g_assert_nonnull (strstr (text.out, "model/grow"));
  /* The ops in order of |Δ|. */
  g_assert_true (strstr (text.out, "model/grow") < strstr (text.out, "model/gone"));
  g_assert_true (strstr (text.out, "model/gone") < strstr (text.out, "model/new"));

  tm_test_run_cli (&json, "C", "--compare", "--json", b, c, NULL);
  g_assert_cmpint (json.status, ==, 0);
  root = parse_object (parser, json.out);
  g_assert_cmpstr (json_object_get_string_member (root, "baseline"), ==, "before.xplane.pb");
  g_assert_cmpstr (json_object_get_string_member (root, "input"), ==, "after.xplane.pb");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (root, "only_in_baseline"), 0), ==, "GPU_9_bfc");
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (root, "only_in_input"), 0), ==, "GPU_7_bfc");
  comparisons = json_object_get_array_member (root, "comparisons");
  g_assert_cmpuint (json_array_get_length (comparisons), ==, 1);
  pair = json_array_get_object_element (comparisons, 0);
  g_assert_cmpstr (json_object_get_string_member (pair, "memory_id"), ==, "GPU_0_bfc");
  summary = json_object_get_object_member (pair, "summary");
  peak = json_object_get_object_member (summary, "peak_bytes_in_use");
  g_assert_cmpint (json_object_get_int_member (peak, "baseline"), ==, 160);
  g_assert_cmpint (json_object_get_int_member (peak, "current"), ==, 210);
  g_assert_cmpint (json_object_get_int_member (peak, "delta"), ==, 50);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (pair, "time_shift_ps"), "peak"), ==, 2000);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (pair, "time_shift_ps"), "first-step"), ==, 2000);
  ops = json_object_get_array_member (pair, "ops");
  g_assert_cmpuint (json_array_get_length (ops), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ops, 0), "op_name"), ==, "model/grow");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ops, 0), "delta"), ==, 60);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ops, 1), "status"), ==, "gone");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ops, 2), "status"), ==, "new");
  g_assert_false (json_object_get_boolean_member (json_array_get_object_element (ops, 0), "renumbered"));
  g_assert_false (json_object_has_member (json_array_get_object_element (ops, 0), "baseline_op_name"));
  g_assert_null (strstr (text.out, "≈"));

  tm_fixture_remove (b);
  tm_fixture_remove (c);
}

/* --compare says which ops were matched by position, in text and JSON. */
static void
test_cli_keras (void)
{
  g_autofree char *a = write_keras (2, 11, 4, 1, "keras-run-a.xplane.pb");
  g_autofree char *b = write_keras (3, 14, 6, 2, "keras-run-b.xplane.pb");
  g_auto(TmTestRun) text = { 0 };
  g_auto(TmTestRun) json = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *ops;
  guint n_renumbered = 0;

  tm_test_run_cli (&text, "C", "--compare", a, b, NULL);
  g_test_message ("%s", text.out);
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, " ≈     sequential_3/dense_7/MatMul (baseline: sequential_2/dense_5/MatMul)\n"));
  g_assert_nonnull (strstr (text.out, "  ≈ 8 ops were matched by their position among their siblings: "
                                      "their names differ only in numeric suffixes\n"));
  g_assert_null (strstr (text.out, " new "));
  g_assert_null (strstr (text.out, " gone "));

  tm_test_run_cli (&json, "C", "--compare", "--json", a, b, NULL);
  g_assert_cmpint (json.status, ==, 0);
  ops = json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (parse_object (parser, json.out),
                                                                                                   "comparisons"), 0), "ops");
  for (guint i = 0; i < json_array_get_length (ops); i++)
    {
      JsonObject *op = json_array_get_object_element (ops, i);
      const char *name = json_object_get_string_member (op, "op_name");

      g_assert_true (json_object_get_boolean_member (op, "renumbered"));
      g_assert_cmpstr (json_object_get_string_member (op, "status"), ==, "changed");
      g_assert_true (g_str_has_prefix (name, "sequential_3/"));
      g_assert_true (g_str_has_prefix (json_object_get_string_member (op, "baseline_op_name"), "sequential_2/"));
      n_renumbered++;
    }
  g_assert_cmpuint (n_renumbered, ==, 8);
  tm_fixture_remove (a);
  tm_fixture_remove (b);
}

static void
test_cli_errors (void)
{
  const char *ids[] = { "GPU_0_bfc", NULL };
  g_autofree char *b = write_profile (ids, baseline_events, G_N_ELEMENTS (baseline_events), "e.xplane.pb");
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "tidemark-no-such-file.xplane.pb", NULL);
  g_auto(TmTestRun) one = { 0 };
  g_auto(TmTestRun) absent = { 0 };
  g_auto(TmTestRun) no_id = { 0 };
  g_auto(TmTestRun) lone = { 0 };
  g_auto(TmTestRun) ok = { 0 };

  tm_test_run_cli (&one, "C", "--compare", b, NULL);
  g_assert_cmpint (one.status, ==, 2);
  g_assert_nonnull (strstr (one.err, "two profile files"));

  tm_test_run_cli (&absent, "C", "--compare", b, missing, NULL);
  g_assert_cmpint (absent.status, ==, 1);
  g_assert_nonnull (strstr (absent.err, "tidemark-no-such-file.xplane.pb: "));

  tm_test_run_cli (&no_id, "C", "--compare", "--memory-id=GPU_5_bfc", b, b, NULL);
  g_assert_cmpint (no_id.status, ==, 1);
  g_assert_nonnull (strstr (no_id.err, "GPU_5_bfc"));

  tm_test_run_cli (&lone, "C", "--compare", "--baseline-memory-id=GPU_0_bfc", b, b, NULL);
  g_assert_cmpint (lone.status, ==, 2);

  /* A profile against itself: nothing changed. */
  tm_test_run_cli (&ok, "C", "--compare", "--memory-id=GPU_0_bfc", b, b, NULL);
  g_assert_cmpint (ok.status, ==, 0);
  g_assert_nonnull (strstr (ok.out, "none"));

  tm_fixture_remove (b);
}

/* GPU_4_bfc against GPU_6_bfc of the real GPU profile: every delta is the
 * difference of the two memory ids' figures in --summary --json. */
static void
test_real_gpu (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_auto(TmTestRun) summary_run = { 0 };
  g_auto(TmTestRun) compare_run = { 0 };
  g_autoptr(JsonParser) summary_parser = json_parser_new ();
  g_autoptr(JsonParser) compare_parser = json_parser_new ();
  JsonObject *memory, *before, *after, *pair, *deltas;
  g_autoptr(GList) keys = NULL;
  guint checked = 0;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }

  tm_test_run_cli (&summary_run, "C", "--summary", "--json", path, NULL);
  g_assert_cmpint (summary_run.status, ==, 0);
  memory = json_object_get_object_member (parse_object (summary_parser, summary_run.out), "memory");
  before = json_object_get_object_member (memory, "GPU_4_bfc");
  after = json_object_get_object_member (memory, "GPU_6_bfc");

  tm_test_run_cli (&compare_run, "C", "--compare", "--json", "--memory-id=GPU_6_bfc", "--baseline-memory-id=GPU_4_bfc", path, path, NULL);
  g_assert_cmpint (compare_run.status, ==, 0);
  pair = json_array_get_object_element (json_object_get_array_member (parse_object (compare_parser, compare_run.out),
                                                                      "comparisons"), 0);
  g_assert_cmpstr (json_object_get_string_member (pair, "baseline_memory_id"), ==, "GPU_4_bfc");
  deltas = json_object_get_object_member (pair, "summary");

  keys = json_object_get_members (before);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      const char *key = l->data;
      JsonNode *b = json_object_get_member (before, key);
      JsonNode *a = json_object_get_member (after, key);
      JsonObject *d;

      if (!JSON_NODE_HOLDS_VALUE (b) || json_node_get_value_type (b) == G_TYPE_STRING)
        continue;
      g_assert_true (json_object_has_member (deltas, key));
      d = json_object_get_object_member (deltas, key);
      if (json_node_get_value_type (b) == G_TYPE_DOUBLE || json_node_get_value_type (a) == G_TYPE_DOUBLE)
        {
          g_assert_cmpfloat (json_object_get_double_member (d, "baseline"), ==, json_node_get_double (b));
          g_assert_cmpfloat (json_object_get_double_member (d, "current"), ==, json_node_get_double (a));
          g_assert_cmpfloat_with_epsilon (json_object_get_double_member (d, "delta"),
                                          json_node_get_double (a) - json_node_get_double (b), 1e-12);
        }
      else
        {
          g_assert_cmpint (json_object_get_int_member (d, "baseline"), ==, json_node_get_int (b));
          g_assert_cmpint (json_object_get_int_member (d, "current"), ==, json_node_get_int (a));
          g_assert_cmpint (json_object_get_int_member (d, "delta"), ==, json_node_get_int (a) - json_node_get_int (b));
        }
      checked++;
    }
  /* Every figure of the summary: none was left out. */
  g_assert_cmpuint (checked, ==, json_object_get_size (deltas));
  g_assert_cmpuint (checked, ==, 17);

  /* The ops' deltas add up to the heap's at the peaks. */
  {
    JsonArray *ops = json_object_get_array_member (pair, "ops");
    gint64 sum = 0;

    guint n_renumbered = 0;

    for (guint i = 0; i < json_array_get_length (ops); i++)
      {
        JsonObject *op = json_array_get_object_element (ops, i);

        sum += json_object_get_int_member (op, "delta");
        /* The two devices number some ops after themselves
         * ("update_4/Const", "update_6/Const"): matched by position,
         * every op has its partner. */
        g_assert_cmpstr (json_object_get_string_member (op, "status"), ==, "changed");
        n_renumbered += json_object_get_boolean_member (op, "renumbered");
      }
    g_assert_cmpuint (n_renumbered, ==, 21);
    g_assert_cmpint (sum, ==,
                     json_object_get_int_member (json_object_get_object_member (deltas, "peak_bytes_in_use"), "delta"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/compare/figures", test_figures);
  g_test_add_func ("/compare/op-diff", test_op_diff);
  g_test_add_func ("/compare/op-diff-occurrences", test_op_diff_occurrences);
  g_test_add_func ("/compare/scope-diff", test_scope_diff);
  g_test_add_func ("/compare/alignment", test_alignment);
  g_test_add_func ("/compare/single-step", test_single_step);
  g_test_add_func ("/compare/replicas-match", test_replicas_match);
  g_test_add_func ("/compare/keras-renumbered", test_keras_renumbered);
  g_test_add_func ("/compare/keras-exact-first", test_keras_exact_first);
  g_test_add_func ("/compare/cli/fixture", test_cli_fixture);
  g_test_add_func ("/compare/cli/keras", test_cli_keras);
  g_test_add_func ("/compare/cli/errors", test_cli_errors);
  g_test_add_func ("/compare/real-gpu", test_real_gpu);

  return g_test_run ();
}
