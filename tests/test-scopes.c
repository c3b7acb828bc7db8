/* test-scopes.c — scope trees, a scope over time, collapsed stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tm-allocations.h"
#include "tm-scopes.h"
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
  const char *region;
  gint64      dtype;
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
  m->requested_bytes = ev->bytes - 1;
  m->allocation_bytes = ev->bytes;
  m->addr = ev->addr;
  m->tf_op = ev->op;
  m->region_type = ev->region;
  m->data_type = ev->dtype;
  m->shape = ev->bytes > 100 ? "[big]" : "[small]";
  m->has_group_id = TRUE;
  m->group_id = 0;
}

static TmProfile *
load_events (const Ev *evs,
             guint     n)
{
  return tm_test_load_memory_events (evs, sizeof *evs, n, fill_memory);
}

/* A deep scope, ops without '/', an op with no name, empty components, an
 * allocation made before the profile, and a stack. At t=70: heap 2000,
 * stack 50. */
static const Ev fixture[] = {
  { FALSE, 5,  50,  600, 100, 99, "",                                     "output", 1 },
  { TRUE,  10, 50,  800, 200, 1,  "replica_0/bert/encoder/layer_0/attention/MatMul", "output", 1 },
  { TRUE,  20, 50, 1100, 300, 2,  "replica_0/bert/encoder/layer_1/attention/MatMul", "temp", 19 },
  { TRUE,  30, 50, 1150,  50, 3,  "loss",                                 "temp", 1 },
  { TRUE,  40, 50, 1250, 100, 4,  "",                                     "output", 19 },
  { TRUE,  50, 50, 1650, 400, 5,  "/replica_0//bert/",                    "output", 1 },
  { TRUE,  60, 50, 1700,  50, 6,  "loss",                                 "temp", 1 },
  { TRUE,  70, 50, 2000, 300, 7,  "replica_0/bert/encoder/layer_0/attention/MatMul", "output", 1 },
  { TRUE,  75, 50, 2010,  10, 8,  "odd;name/with space 2", "temp", 1 },
  { FALSE, 80, 50, 1700, 300, 7,  NULL,                                   NULL, 0 },
  { FALSE, 90, 50, 1500, 200, 1,  NULL,                                   NULL, 0 },
};

static gint64
rows_total (GPtrArray *rows)
{
  gint64 total = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      total += row->allocation_bytes * (gint64) row->n_occurrences;
    }
  return total;
}

static const TmScopeNode *
child_named (const TmScopeNode *node,
             const char        *name)
{
  for (guint i = 0; i < node->n_children; i++)
    if (strcmp (node->children[i]->name, name) == 0)
      return node->children[i];
  g_error ("no child %s under %s", name, node->name);
  return NULL;
}

static void
assert_children_sorted (const TmScopeNode *node)
{
  gint64 sum = node->self_bytes;

  for (guint i = 0; i < node->n_children; i++)
    {
      g_assert_true (node->children[i]->parent == node);
      g_assert_cmpuint (node->children[i]->depth, ==, node->depth + 1);
      if (i > 0)
        g_assert_cmpint (node->children[i - 1]->bytes, >=, node->children[i]->bytes);
      sum += node->children[i]->bytes;
      assert_children_sorted (node->children[i]);
    }
  g_assert_cmpint (sum, ==, node->bytes);
}

static void
test_name_grouping (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);
  g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, FALSE, 70, TM_SCOPE_GROUPING_NAME);
  g_autoptr(GPtrArray) rows = tm_analysis_breakdown_at (tm_analysis_get_store (analysis), 70);
  const TmScopeNode *root = tm_scope_tree_get_root (tree);
  const TmScopeNode *replica, *bert, *layer0, *matmul, *loss, *unnamed, *stack, *before;
  g_autoptr(TmScope) scope = NULL;

  /* Live at 70: 200+300 MatMul (layer 0), 300 (layer 1), 50+50 loss, 100
   * unnamed, 400 replica_0/bert; heap 2000 - 1400 tracked = 600 before the
   * profile; stack 50. */
  g_assert_cmpint (root->bytes, ==, rows_total (rows));
  g_assert_cmpint (root->bytes, ==, 2050);
  assert_children_sorted (root);

  replica = root->children[0];
  g_assert_cmpstr (replica->name, ==, "replica_0");
  g_assert_cmpint (replica->bytes, ==, 1200);
  g_assert_cmpuint (replica->n_allocations, ==, 4);
  g_assert_cmpint (replica->requested_bytes, ==, 1200 - 4);
  g_assert_cmpfloat_with_epsilon (tm_scope_tree_get_share (tree, replica), 1200.0 / 2050.0, 1e-12);

  /* "/replica_0//bert/" has the components replica_0, bert: self bytes of
   * bert. */
  bert = child_named (replica, "bert");
  g_assert_cmpuint (bert->n_children, ==, 1);
  g_assert_cmpint (bert->self_bytes, ==, 400);
  g_assert_cmpint (bert->bytes, ==, 1200);
  layer0 = child_named (child_named (bert, "encoder"), "layer_0");
  matmul = child_named (child_named (layer0, "attention"), "MatMul");
  g_assert_cmpuint (matmul->depth, ==, 6);
  g_assert_cmpint (matmul->bytes, ==, 500);
  g_assert_cmpuint (matmul->n_allocations, ==, 2);
  g_assert_cmpuint (matmul->n_children, ==, 0);

  loss = child_named (root, "loss");
  g_assert_cmpint (loss->bytes, ==, 100);
  g_assert_cmpuint (loss->n_allocations, ==, 2);
  g_assert_false (loss->special);
  unnamed = child_named (root, "");
  g_assert_cmpint (unnamed->bytes, ==, 100);

  /* Special rows: top-level, not split, marked. */
  stack = child_named (root, "stack");
  g_assert_true (stack->special);
  g_assert_cmpint (stack->bytes, ==, 50);
  before = root->children[1];
  g_assert_true (before->special);
  g_assert_cmpint (before->bytes, ==, 600);
  g_assert_cmpuint (before->n_children, ==, 0);

  /* Scopes round-trip, and contain exactly their rows. */
  scope = tm_scope_tree_get_scope (tree, layer0);
  g_assert_cmpuint (g_strv_length (scope->parts), ==, 4);
  g_assert_false (scope->special);
  g_assert_true (tm_scope_tree_find (tree, scope) == layer0);
  for (guint i = 0; i < root->n_children; i++)
    {
      g_autoptr(TmScope) top = tm_scope_tree_get_scope (tree, root->children[i]);
      gint64 sum = 0;

      g_assert_true (tm_scope_tree_find (tree, top) == root->children[i]);
      for (guint r = 0; r < rows->len; r++)
        {
          const TmBreakdownRow *row = g_ptr_array_index (rows, r);

          if (tm_scope_contains_row (top, row))
            sum += row->allocation_bytes * (gint64) row->n_occurrences;
        }
      g_assert_cmpint (sum, ==, root->children[i]->bytes);
    }
}

static void
test_other_groupings (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);

  for (TmScopeGrouping g = TM_SCOPE_GROUPING_REGION; g < TM_SCOPE_N_GROUPINGS; g++)
    {
      g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, FALSE, 70, g);
      const TmScopeNode *root = tm_scope_tree_get_root (tree);

      g_assert_cmpint (root->bytes, ==, 2050);
      assert_children_sorted (root);
      g_assert_true (child_named (root, "stack")->special);
      if (g == TM_SCOPE_GROUPING_REGION)
        {
          const TmScopeNode *output = child_named (root, "output");
          const TmScopeNode *temp = child_named (root, "temp");

          g_assert_false (output->special);
          g_assert_cmpint (output->bytes, ==, 200 + 300 + 100 + 400);
          g_assert_cmpint (temp->bytes, ==, 300 + 100);
          /* The name scopes below the region. */
          g_assert_cmpint (child_named (output, "replica_0")->bytes, ==, 900);
          g_assert_cmpint (child_named (output, "")->bytes, ==, 100);
        }
      else if (g == TM_SCOPE_GROUPING_DATA_TYPE)
        {
          g_assert_cmpint (child_named (root, "float")->bytes, ==, 200 + 300 + 100 + 400);
          g_assert_cmpint (child_named (root, "half")->bytes, ==, 300 + 100);
        }
      else
        {
          g_assert_cmpint (child_named (root, "[big]")->bytes, ==, 200 + 300 + 400 + 300);
          g_assert_cmpint (child_named (root, "[small]")->bytes, ==, 100 + 100);
        }
    }
}

static void
test_peak_tree (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);
  g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, TRUE, 0, TM_SCOPE_GROUPING_NAME);
  const TmScopeNode *root = tm_scope_tree_get_root (tree);

  g_assert_cmpint (root->bytes, ==, rows_total (tm_analysis_get_peak_breakdown (analysis)));
  g_assert_true (child_named (root, "unused preallocated device memory")->special);
  g_assert_true (child_named (root, "stack")->special);
}

/* Each line "a;b;c BYTES", sorted, the numbers summing to the tree's. */
static gint64
parse_collapsed (const char *text,
                 GHashTable *stacks)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gint64 total = 0;
  guint n = g_strv_length (lines);

  g_assert_cmpuint (n, >, 1);
  g_assert_cmpstr (lines[n - 1], ==, "");  /* ends with a newline */
  for (guint i = 0; i + 1 < n; i++)
    {
      const char *space = strrchr (lines[i], ' ');
      g_autoptr(GError) error = NULL;
      guint64 value;

      g_assert_nonnull (space);
      g_assert_true (g_ascii_string_to_unsigned (space + 1, 10, 1, G_MAXINT64, &value, &error));
      g_assert_no_error (error);
      g_assert_null (strchr (lines[i], '\t'));
      if (i > 0)
        g_assert_cmpint (strcmp (lines[i - 1], lines[i]), <, 0);
      g_hash_table_insert (stacks, g_strndup (lines[i], space - lines[i]), GSIZE_TO_POINTER ((gsize) value));
      total += value;
    }
  return total;
}

static void
test_collapsed (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);
  g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, FALSE, 75, TM_SCOPE_GROUPING_NAME);
  g_autoptr(GHashTable) stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) text = g_string_new (NULL);

  tm_scope_tree_append_collapsed (tree, text);
  g_assert_cmpint (parse_collapsed (text->str, stacks), ==, tm_scope_tree_get_root (tree)->bytes);
  g_assert_cmpuint (g_hash_table_size (stacks), ==, 8);
  /* No ';' inside a frame; no name read as a second count. */
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "odd:name;with_space_2")), ==, 10);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "replica_0;bert;encoder;layer_0;attention;MatMul")), ==, 500);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "replica_0;bert")), ==, 400);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "loss")), ==, 100);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "(no op name)")), ==, 100);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "stack")), ==, 50);
}

/* A scope's series equals, at every snapshot, the scope's node in the tree
 * live at that snapshot's time. */
static void
test_series (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);
  TmMemoryStore *store = tm_analysis_get_store (analysis);
  const gint64 *times = tm_memory_store_get_times (store);
  guint n = tm_memory_store_get_n_snapshots (store);
  g_autoptr(TmScopeTree) at_peak = tm_scope_tree_new_at (analysis, FALSE, 70, TM_SCOPE_GROUPING_NAME);
  const TmScopeNode *root = tm_scope_tree_get_root (at_peak);
  g_autoptr(GPtrArray) scopes = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_scope_free);
  g_autoptr(TmScopeIndex) index = NULL;
  g_autoptr(GError) error = NULL;

  index = tm_scope_index_new (store, TM_SCOPE_GROUPING_NAME, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_scope_index_get_memory_size (index), >, 0);

  for (guint i = 0; i < root->n_children; i++)
    g_ptr_array_add (scopes, tm_scope_tree_get_scope (at_peak, root->children[i]));
  g_ptr_array_add (scopes, tm_scope_tree_get_scope (at_peak, child_named (child_named (root, "replica_0"), "bert")));

  for (guint s = 0; s < scopes->len; s++)
    {
      const TmScope *scope = g_ptr_array_index (scopes, s);
      g_autofree gint64 *series = tm_scope_index_series (index, scope);

      for (guint j = 0; j < n; j++)
        {
          g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, FALSE, times[j], TM_SCOPE_GROUPING_NAME);
          const TmScopeNode *node = tm_scope_tree_find (tree, scope);

          /* Equal times: the tree holds the last of them. */
          if (j + 1 < n && times[j + 1] == times[j])
            continue;
          g_assert_cmpint (series[j], ==, node != NULL ? node->bytes : 0);
        }
    }
}

static void
assert_same_tree (TmScopeTree *a,
                  TmScopeTree *b)
{
  g_autoptr(GString) ta = g_string_new (NULL);
  g_autoptr(GString) tb = g_string_new (NULL);
  const TmScopeNode *ra = tm_scope_tree_get_root (a);
  const TmScopeNode *rb = tm_scope_tree_get_root (b);

  tm_scope_tree_append_collapsed (a, ta);
  tm_scope_tree_append_collapsed (b, tb);
  g_assert_cmpstr (ta->str, ==, tb->str);
  g_assert_cmpint (ra->bytes, ==, rb->bytes);
  g_assert_cmpint (ra->requested_bytes, ==, rb->requested_bytes);
  g_assert_cmpuint (ra->n_allocations, ==, rb->n_allocations);
  g_assert_cmpuint (ra->n_children, ==, rb->n_children);
}

/* The index's tree at any time is the tree of the live-at-t rows. */
static void
test_index_tree (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);
  TmMemoryStore *store = tm_analysis_get_store (analysis);
  const gint64 *times = tm_memory_store_get_times (store);
  guint n = tm_memory_store_get_n_snapshots (store);

  for (TmScopeGrouping g = 0; g < TM_SCOPE_N_GROUPINGS; g++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TmScopeIndex) index = tm_scope_index_new (store, g, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpint (tm_scope_index_get_grouping (index), ==, g);
      for (guint j = 0; j <= n; j++)
        {
          gint64 t = j < n ? times[j] : 0;
          g_autoptr(TmScopeTree) a = tm_scope_index_tree_at (index, t);
          g_autoptr(TmScopeTree) b = tm_scope_tree_new_at (analysis, FALSE, t, g);

          assert_same_tree (a, b);
        }
    }
}

/* The scopes of what was never freed (docs/scopes.md, "Never freed"): in
 * the fixture, the allocations at addresses 2, 3, 4, 5, 6 and 8 (1 and 7
 * are freed, 99 was allocated before the profile); no special rows. The
 * index gives the same trees as decoding, in every grouping. */
static void
test_never_freed (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmMemoryStore *store = tm_profile_get_memory_store (profile, 0);
  TmAllocations *allocations = tm_profile_lookup_allocations (profile, store);
  g_autoptr(GArray) events = tm_allocations_query_never_freed_events (allocations);
  g_autoptr(GHashTable) stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(TmScopeTree) tree = NULL;
  g_autoptr(TmScopeTree) empty = NULL;
  g_autoptr(GError) error = NULL;
  const TmScopeNode *root, *bert;

  g_assert_cmpuint (events->len, ==, 6);
  tree = tm_scope_tree_new_for_allocations (store, (const guint *) events->data, events->len,
                                            TM_SCOPE_GROUPING_NAME, NULL, &error);
  g_assert_no_error (error);
  root = tm_scope_tree_get_root (tree);
  g_assert_cmpint (root->bytes, ==, 300 + 50 + 100 + 400 + 50 + 10);
  g_assert_cmpint (root->bytes, ==, tm_allocations_get_never_freed_bytes (allocations));
  g_assert_cmpuint (root->n_allocations, ==, 6);
  g_assert_cmpint (root->requested_bytes, ==, root->bytes - 6);
  assert_children_sorted (root);
  for (guint i = 0; i < root->n_children; i++)
    g_assert_false (root->children[i]->special);
  bert = child_named (child_named (root, "replica_0"), "bert");
  g_assert_cmpint (bert->bytes, ==, 700);
  g_assert_cmpint (bert->self_bytes, ==, 400);
  g_assert_cmpint (child_named (root, "loss")->bytes, ==, 100);
  g_assert_cmpuint (child_named (root, "loss")->n_allocations, ==, 2);

  tm_scope_tree_append_collapsed (tree, text);
  g_assert_cmpint (parse_collapsed (text->str, stacks), ==, 910);
  g_assert_cmpuint (g_hash_table_size (stacks), ==, 5);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "replica_0;bert;encoder;layer_1;attention;MatMul")), ==, 300);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "replica_0;bert")), ==, 400);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "(no op name)")), ==, 100);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stacks, "odd:name;with_space_2")), ==, 10);
  g_assert_null (g_hash_table_lookup (stacks, "stack"));

  for (TmScopeGrouping g = 0; g < TM_SCOPE_N_GROUPINGS; g++)
    {
      g_autoptr(TmScopeIndex) index = tm_scope_index_new (store, g, NULL, &error);
      g_autoptr(TmScopeTree) a = NULL;
      g_autoptr(TmScopeTree) b = NULL;

      g_assert_no_error (error);
      a = tm_scope_index_tree_for_allocations (index, (const guint *) events->data, events->len);
      b = tm_scope_tree_new_for_allocations (store, (const guint *) events->data, events->len, g, NULL, &error);
      g_assert_no_error (error);
      assert_same_tree (a, b);
      g_assert_cmpint (tm_scope_tree_get_root (a)->bytes, ==, 910);
      if (g == TM_SCOPE_GROUPING_REGION)
        {
          g_assert_cmpint (child_named (tm_scope_tree_get_root (a), "temp")->bytes, ==, 300 + 50 + 50 + 10);
          g_assert_cmpint (child_named (tm_scope_tree_get_root (a), "output")->bytes, ==, 100 + 400);
        }
    }

  /* Nothing never freed: an empty tree. */
  empty = tm_scope_tree_new_for_allocations (store, NULL, 0, TM_SCOPE_GROUPING_NAME, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tm_scope_tree_get_root (empty)->n_children, ==, 0);
  g_assert_cmpint (tm_scope_tree_get_root (empty)->bytes, ==, 0);
}

/* Finding scopes by name, ignoring case, depth first in the tree's order
 * (docs/scopes.md, "Finding a scope"). */
static void
test_search (void)
{
  g_autoptr(TmProfile) profile = load_events (fixture, G_N_ELEMENTS (fixture));
  TmAnalysis *analysis = tm_profile_get_analysis (profile, 0);
  g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, FALSE, 70, TM_SCOPE_GROUPING_NAME);
  g_autoptr(GPtrArray) matmul = tm_scope_tree_search (tree, "matmul");
  g_autoptr(GPtrArray) layer = tm_scope_tree_search (tree, "LAYER_");
  g_autoptr(GPtrArray) stack = tm_scope_tree_search (tree, "sta");
  g_autoptr(GPtrArray) none = tm_scope_tree_search (tree, "nothing like it");
  g_autoptr(GPtrArray) empty = tm_scope_tree_search (tree, "");
  const TmScopeNode *node;

  /* Live at 70: layer_0's MatMul (500) before layer_1's (300). */
  g_assert_cmpuint (matmul->len, ==, 2);
  node = g_ptr_array_index (matmul, 0);
  g_assert_cmpstr (node->name, ==, "MatMul");
  g_assert_cmpint (node->bytes, ==, 500);
  g_assert_cmpstr (node->parent->parent->name, ==, "layer_0");
  node = g_ptr_array_index (matmul, 1);
  g_assert_cmpint (node->bytes, ==, 300);
  g_assert_cmpuint (layer->len, ==, 2);
  g_assert_cmpstr (((const TmScopeNode *) g_ptr_array_index (layer, 0))->name, ==, "layer_0");
  /* Special rows are found by their names too. */
  g_assert_cmpuint (stack->len, ==, 1);
  g_assert_true (((const TmScopeNode *) g_ptr_array_index (stack, 0))->special);
  g_assert_cmpuint (none->len, ==, 0);
  g_assert_cmpuint (empty->len, ==, 0);
}

static void
test_real_gpu_peak (void)
{
  g_autofree char *path = tm_test_real_profile ("tf_gpu_multi_worker.xplane.pb");
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_test_skip ("TM_REAL_PROFILES is not set");
      return;
    }
  file = g_file_new_for_path (path);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint m = 0; m < tm_profile_get_n_memory_ids (profile); m++)
    {
      TmAnalysis *analysis = tm_profile_get_analysis (profile, m);
      GPtrArray *rows = tm_analysis_get_peak_breakdown (analysis);

      for (TmScopeGrouping g = 0; g < TM_SCOPE_N_GROUPINGS; g++)
        {
          g_autoptr(TmScopeTree) tree = tm_scope_tree_new_at (analysis, TRUE, 0, g);
          const TmScopeNode *root = tm_scope_tree_get_root (tree);
          gint64 top = 0;

          g_assert_cmpint (root->bytes, ==, rows_total (rows));
          for (guint i = 0; i < root->n_children; i++)
            top += root->children[i]->bytes;
          g_assert_cmpint (top, ==, rows_total (rows));
          assert_children_sorted (root);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scopes/name-grouping", test_name_grouping);
  g_test_add_func ("/scopes/other-groupings", test_other_groupings);
  g_test_add_func ("/scopes/peak-tree", test_peak_tree);
  g_test_add_func ("/scopes/collapsed", test_collapsed);
  g_test_add_func ("/scopes/series", test_series);
  g_test_add_func ("/scopes/index-tree", test_index_tree);
  g_test_add_func ("/scopes/never-freed", test_never_freed);
  g_test_add_func ("/scopes/search", test_search);
  g_test_add_func ("/scopes/real-gpu-peak", test_real_gpu_peak);

  return g_test_run ();
}
