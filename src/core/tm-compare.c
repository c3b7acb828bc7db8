/* tm-compare.c — two memory ids side by side: a baseline and the current one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules are in docs/compare.md.
 */
#include "config.h"

#include <string.h>

#include "tm-compare.h"
#include "tm-scopes.h"

/* As tidemark --summary --json samples the timeline (docs/analysis.md
 * step 7). */
#define SAMPLED_POINTS 1000

struct _TmCompare
{
  GObject          parent_instance;

  TmAnalysis      *baseline;
  TmAnalysis      *current;
  GArray          *figures;      /* TmCompareFigure */
  GPtrArray       *op_diff;      /* TmCompareEntry */
  GPtrArray       *scope_diff;   /* TmCompareEntry */
  GHashTable      *renumbered_scopes;  /* current name → baseline name, of scope_diff */
  gint64           anchors[2][TM_COMPARE_N_ALIGNMENTS];  /* [0] baseline, [1] current */
};

G_DEFINE_FINAL_TYPE (TmCompare, tm_compare, G_TYPE_OBJECT)

static void
entry_free (gpointer data)
{
  TmCompareEntry *entry = data;

  g_free (entry->name);
  g_free (entry->baseline_name);
  g_free (entry);
}

static void
tm_compare_dispose (GObject *object)
{
  TmCompare *self = TM_COMPARE (object);

  g_clear_object (&self->baseline);
  g_clear_object (&self->current);
  g_clear_pointer (&self->figures, g_array_unref);
  g_clear_pointer (&self->op_diff, g_ptr_array_unref);
  g_clear_pointer (&self->scope_diff, g_ptr_array_unref);
  g_clear_pointer (&self->renumbered_scopes, g_hash_table_unref);

  G_OBJECT_CLASS (tm_compare_parent_class)->dispose (object);
}

static void
tm_compare_class_init (TmCompareClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tm_compare_dispose;
}

static void
tm_compare_init (TmCompare *self)
{
}

/* ------------------------------------------------------------------ */
/* Summary figures                                                      */

/* The figures of one memory id, in the order of --summary --json. */
static const struct
{
  const char          *key;
  TmCompareFigureKind  kind;
} figure_keys[] = {
  { "num_snapshots", TM_COMPARE_FIGURE_COUNT },
  { "num_allocations", TM_COMPARE_FIGURE_COUNT },
  { "num_deallocations", TM_COMPARE_FIGURE_COUNT },
  { "num_never_freed", TM_COMPARE_FIGURE_COUNT },
  { "never_freed_bytes", TM_COMPARE_FIGURE_BYTES },
  { "num_sampled_timeline_snapshots", TM_COMPARE_FIGURE_COUNT },
  { "memory_capacity", TM_COMPARE_FIGURE_BYTES },
  { "peak_bytes_usage_lifetime", TM_COMPARE_FIGURE_BYTES },
  { "xprof_reported_lifetime_peak_last_in_file_order", TM_COMPARE_FIGURE_BYTES },
  { "peak_bytes_in_use", TM_COMPARE_FIGURE_BYTES },
  { "peak_stats_time_ps", TM_COMPARE_FIGURE_TIME },
  { "peak_stack_reserved_bytes", TM_COMPARE_FIGURE_BYTES },
  { "peak_heap_allocated_bytes", TM_COMPARE_FIGURE_BYTES },
  { "peak_free_memory_bytes", TM_COMPARE_FIGURE_BYTES },
  { "peak_fragmentation", TM_COMPARE_FIGURE_FRACTION },
  { "peak_step_id", TM_COMPARE_FIGURE_STEP },
  { "num_breakdown_rows", TM_COMPARE_FIGURE_COUNT },
};

static gboolean
collect_figures (TmAnalysis     *analysis,
                 TmAllocations  *allocations,
                 gint64         *values,
                 double         *fragmentation,
                 GError        **error)
{
  TmMemoryStore *store = tm_analysis_get_store (analysis);
  const TmSummary *s = tm_memory_store_get_summary (store);
  g_autoptr(GArray) sampled = tm_analysis_sample (store, SAMPLED_POINTS);
  guint n_never_freed;
  gint64 never_freed_bytes;
  guint i = 0;

  if (allocations != NULL)
    {
      n_never_freed = tm_allocations_get_n_never_freed (allocations);
      never_freed_bytes = tm_allocations_get_never_freed_bytes (allocations);
    }
  else if (!tm_allocations_count_never_freed (store, &n_never_freed, &never_freed_bytes, error))
    return FALSE;

  values[i++] = s->n_snapshots;
  values[i++] = s->n_allocations;
  values[i++] = s->n_deallocations;
  values[i++] = n_never_freed;
  values[i++] = never_freed_bytes;
  values[i++] = sampled->len;
  values[i++] = s->memory_capacity;
  values[i++] = s->peak_bytes_usage_lifetime;
  values[i++] = s->last_peak_bytes_in_use;
  values[i++] = s->peak_bytes_in_use;
  values[i++] = s->peak_time_ps;
  values[i++] = s->peak_stack_bytes;
  values[i++] = s->peak_heap_bytes;
  values[i++] = s->peak_free_bytes;
  values[i++] = 0;  /* fragmentation: a fraction */
  values[i++] = tm_analysis_get_peak_step_id (analysis);
  values[i++] = tm_analysis_get_peak_breakdown (analysis)->len;
  g_assert (i == G_N_ELEMENTS (figure_keys));
  *fragmentation = s->peak_fragmentation;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Diffs                                                                */

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const TmCompareEntry *x = *(TmCompareEntry * const *) a;
  const TmCompareEntry *y = *(TmCompareEntry * const *) b;
  guint64 mx = x->delta < 0 ? (guint64) 0 - (guint64) x->delta : (guint64) x->delta;
  guint64 my = y->delta < 0 ? (guint64) 0 - (guint64) y->delta : (guint64) y->delta;

  if (mx != my)
    return mx > my ? -1 : 1;
  return strcmp (x->name, y->name);
}

/* The name an op or scope is matched by (docs/compare.md, "Matching"):
 * every scope "replica_N" (N digits) reads as "replica_*", so that the
 * same op on two devices of a data-parallel run lines up. */
static char *
match_key (const char *prefix,
           const char *name)
{
  GString *key = g_string_new (prefix);
  const char *p = name;

  while (*p != '\0')
    {
      const char *end = p;

      while (*end != '\0' && *end != '/' && *end != '\x1f')
        end++;
      if (end - p > 8 && strncmp (p, "replica_", 8) == 0 &&
          strspn (p + 8, "0123456789") == (gsize) (end - p - 8))
        g_string_append (key, "replica_*");
      else
        g_string_append_len (key, p, end - p);
      if (*end != '\0')
        g_string_append_c (key, *end++);
      p = end;
    }
  return g_string_free (key, FALSE);
}

/* Adds bytes to the entry of key in table (made with name on first use). */
static void
add_to_entry (GHashTable  *table,
              GPtrArray   *entries,
              const char  *key,
              const char  *name,
              guint        depth,
              gboolean     special,
              gboolean     baseline,
              gint64       bytes,
              guint64      occurrences)
{
  TmCompareEntry *entry = g_hash_table_lookup (table, key);

  if (entry == NULL)
    {
      entry = g_new0 (TmCompareEntry, 1);
      entry->name = g_strdup (name);
      entry->depth = depth;
      entry->special = special;
      entry->status = baseline ? TM_COMPARE_GONE : TM_COMPARE_NEW;
      g_hash_table_insert (table, g_strdup (key), entry);
      g_ptr_array_add (entries, entry);
    }
  else if ((entry->status == TM_COMPARE_GONE && !baseline) ||
           (entry->status == TM_COMPARE_NEW && baseline))
    {
      entry->status = TM_COMPARE_CHANGED;
      /* The current memory id's name is the one shown. */
      if (!baseline && !g_str_equal (entry->name, name))
        {
          g_free (entry->name);
          entry->name = g_strdup (name);
        }
    }

  if (baseline)
    {
      entry->baseline_bytes += bytes;
      entry->baseline_occurrences += occurrences;
    }
  else
    {
      entry->current_bytes += bytes;
      entry->current_occurrences += occurrences;
    }
}

static void
finish_entries (GPtrArray *entries)
{
  for (guint i = 0; i < entries->len; i++)
    {
      TmCompareEntry *entry = g_ptr_array_index (entries, i);

      entry->delta = entry->current_bytes - entry->baseline_bytes;
    }
  g_ptr_array_sort (entries, compare_entries);
}

/* ------------------------------------------------------------------ */
/* Matching by position (docs/compare.md, "Matching")                   */

/* A name left without a partner by the exact match: its match key, and
 * the key built from its levels' stems and positions. */
typedef struct
{
  const char     *key;
  TmCompareEntry *entry;
  GString        *position;
  char          **levels;
} Unmatched;

static void
unmatched_clear (gpointer data)
{
  Unmatched *u = data;

  /* Both NULL when the other side had nothing left to match. */
  if (u->position != NULL)
    g_string_free (u->position, TRUE);
  g_strfreev (u->levels);
}

static int
compare_unmatched (gconstpointer a,
                   gconstpointer b)
{
  return strcmp (((const Unmatched *) a)->key, ((const Unmatched *) b)->key);
}

/* Compares two numeric suffixes ("", "_4", "_4_1") as tuples of
 * numbers: "" first, then by the first number, the second, … */
static int
compare_suffixes (const char *a,
                  const char *b)
{
  while (*a == '_' && *b == '_')
    {
      guint64 x = g_ascii_strtoull (a + 1, (char **) &a, 10);
      guint64 y = g_ascii_strtoull (b + 1, (char **) &b, 10);

      if (x != y)
        return x < y ? -1 : 1;
    }
  return (*a == '_') - (*b == '_');
}

static int
compare_suffix_ptrs (gconstpointer a,
                     gconstpointer b)
{
  return compare_suffixes (*(const char * const *) a, *(const char * const *) b);
}

/* Where a level's numeric suffix starts: the longest tail made of "_"
 * and 1 to 18 digits, once or more ("conv2d_11" → "_11", "update_4_1" →
 * "_4_1", "_167" → "_167"); the end for a level without one ("conv2d",
 * which Keras names the first of its kind). */
static gsize
suffix_start (const char *level)
{
  gsize start = strlen (level);

  for (;;)
    {
      gsize digits = 0;

      while (digits < start && g_ascii_isdigit (level[start - 1 - digits]))
        digits++;
      if (digits == 0 || digits > 18 || digits == start || level[start - 1 - digits] != '_')
        return start;
      start -= digits + 1;
    }
}

static void
free_suffixes (gpointer suffixes)
{
  g_ptr_array_unref (suffixes);
}

/* Builds each name's position key: level by level, its stem and the rank
 * of its suffix among the suffixes of that stem under the same parent
 * (by position key) on the same side. */
static void
build_positions (GArray *side)
{
  guint depth = 0;

  for (guint i = 0; i < side->len; i++)
    {
      Unmatched *u = &g_array_index (side, Unmatched, i);

      /* The first character says op or special row. */
      u->levels = g_strsplit_set (u->key + 1, "/\x1f", -1);
      u->position = g_string_new_len (u->key, 1);
      depth = MAX (depth, g_strv_length (u->levels));
    }

  for (guint level = 0; level < depth; level++)
    {
      g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_suffixes);
      g_autofree char **group_keys = g_new0 (char *, side->len);
      GHashTableIter iter;
      gpointer value;

      for (guint i = 0; i < side->len; i++)
        {
          Unmatched *u = &g_array_index (side, Unmatched, i);
          GPtrArray *group;
          gsize stem_len;

          if (level >= g_strv_length (u->levels))
            continue;
          stem_len = suffix_start (u->levels[level]);
          group_keys[i] = g_strdup_printf ("%s\x1e%.*s", u->position->str, (int) stem_len, u->levels[level]);
          group = g_hash_table_lookup (groups, group_keys[i]);
          if (group == NULL)
            {
              group = g_ptr_array_new ();
              g_hash_table_insert (groups, g_strdup (group_keys[i]), group);
            }
          g_ptr_array_add (group, u->levels[level] + stem_len);
        }

      /* Each group's suffixes sorted, each once. */
      g_hash_table_iter_init (&iter, groups);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          GPtrArray *group = value;
          guint kept = 0;

          g_ptr_array_sort (group, compare_suffix_ptrs);
          for (guint k = 0; k < group->len; k++)
            if (kept == 0 || compare_suffixes (group->pdata[k], group->pdata[kept - 1]) != 0)
              group->pdata[kept++] = group->pdata[k];
          g_ptr_array_set_size (group, kept);
        }

      for (guint i = 0; i < side->len; i++)
        {
          Unmatched *u = &g_array_index (side, Unmatched, i);
          GPtrArray *group;
          gsize stem_len;
          guint rank = 0, hi;

          if (group_keys[i] == NULL)
            continue;
          group = g_hash_table_lookup (groups, group_keys[i]);
          stem_len = suffix_start (u->levels[level]);
          /* Binary search: the suffix is there. */
          for (hi = group->len; rank < hi;)
            {
              guint mid = rank + (hi - rank) / 2;

              if (compare_suffixes (group->pdata[mid], u->levels[level] + stem_len) < 0)
                rank = mid + 1;
              else
                hi = mid;
            }
          g_string_append_c (u->position, '\x1f');
          g_string_append_len (u->position, u->levels[level], (gssize) stem_len);
          g_string_append_printf (u->position, "\x1e%u", rank);
          g_free (group_keys[i]);
        }
    }
}

/* The names the exact match left without a partner, on either side, are
 * matched when they differ only in numeric suffixes and hold the same
 * position among their siblings: the current entry is folded into the
 * baseline's, which takes the current name and is marked renumbered. */
static void
match_renumbered (GHashTable *table,
                  GPtrArray  *entries)
{
  g_autoptr(GArray) gone = g_array_new (FALSE, TRUE, sizeof (Unmatched));
  g_autoptr(GArray) added = g_array_new (FALSE, TRUE, sizeof (Unmatched));
  g_autoptr(GHashTable) by_position = NULL;
  GHashTableIter iter;
  gpointer key, value;

  g_array_set_clear_func (gone, unmatched_clear);
  g_array_set_clear_func (added, unmatched_clear);

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      TmCompareEntry *entry = value;
      Unmatched u = { key, entry, NULL, NULL };

      if (entry->special || entry->status == TM_COMPARE_CHANGED)
        continue;
      g_array_append_val (entry->status == TM_COMPARE_GONE ? gone : added, u);
    }
  if (gone->len == 0 || added->len == 0)
    return;

  /* In the order of their keys, so that the outcome never depends on the
   * hash table's. */
  g_array_sort (gone, compare_unmatched);
  g_array_sort (added, compare_unmatched);
  build_positions (gone);
  build_positions (added);

  by_position = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < added->len; i++)
    {
      Unmatched *u = &g_array_index (added, Unmatched, i);

      if (!g_hash_table_contains (by_position, u->position->str))
        g_hash_table_insert (by_position, u->position->str, u->entry);
    }

  for (guint i = 0; i < gone->len; i++)
    {
      Unmatched *u = &g_array_index (gone, Unmatched, i);
      TmCompareEntry *before = u->entry;
      TmCompareEntry *after = g_hash_table_lookup (by_position, u->position->str);

      if (after == NULL)
        continue;
      g_hash_table_remove (by_position, u->position->str);
      before->baseline_name = g_steal_pointer (&before->name);
      before->name = g_steal_pointer (&after->name);
      before->current_bytes = after->current_bytes;
      before->current_occurrences = after->current_occurrences;
      before->status = TM_COMPARE_CHANGED;
      before->renumbered = TRUE;
    }

  /* Drop the current entries folded in (their names were taken). */
  {
    guint kept = 0;

    for (guint i = 0; i < entries->len; i++)
      {
        TmCompareEntry *entry = g_ptr_array_index (entries, i);

        if (entry->name == NULL)
          entry_free (entry);
        else
          entries->pdata[kept++] = entry;
      }
    g_ptr_array_set_free_func (entries, NULL);
    g_ptr_array_set_size (entries, kept);
    g_ptr_array_set_free_func (entries, entry_free);
  }
}

static void
add_rows (GHashTable *table,
          GPtrArray  *entries,
          GPtrArray  *rows,
          gboolean    baseline)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);
      /* A special row never shares its entry with an op of the same name. */
      g_autofree char *key = match_key (row->special ? "s" : "o", row->op_name);

      /* A merged row stands for n_occurrences allocations of its size. */
      add_to_entry (table, entries, key, row->op_name, 0, row->special, baseline,
                    tm_sat_mul (row->allocation_bytes, (gint64) row->n_occurrences), row->n_occurrences);
    }
}

static GPtrArray *
op_diff (TmAnalysis *baseline,
         TmAnalysis *current)
{
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GPtrArray *entries = g_ptr_array_new_with_free_func (entry_free);

  add_rows (table, entries, tm_analysis_get_peak_breakdown (baseline), TRUE);
  add_rows (table, entries, tm_analysis_get_peak_breakdown (current), FALSE);
  match_renumbered (table, entries);
  finish_entries (entries);
  return entries;
}

static void
add_scope_nodes (GHashTable        *table,
                 GPtrArray         *entries,
                 TmScopeTree       *tree,
                 const TmScopeNode *node,
                 gboolean           baseline)
{
  for (guint i = 0; i < node->n_children; i++)
    {
      const TmScopeNode *child = node->children[i];
      g_autoptr(TmScope) scope = tm_scope_tree_get_scope (tree, child);
      g_autofree char *joined = g_strjoinv ("\x1f", scope->parts);
      g_autofree char *key = match_key (scope->special ? "s" : "o", joined);
      g_autofree char *name = g_strjoinv ("/", scope->parts);

      add_to_entry (table, entries, key, name, child->depth, child->special, baseline,
                    child->bytes, child->n_allocations);
      add_scope_nodes (table, entries, tree, child, baseline);
    }
}

static GPtrArray *
scope_diff (TmAnalysis *baseline,
            TmAnalysis *current)
{
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(TmScopeTree) before = tm_scope_tree_new (tm_analysis_get_peak_breakdown (baseline), TM_SCOPE_GROUPING_NAME);
  g_autoptr(TmScopeTree) after = tm_scope_tree_new (tm_analysis_get_peak_breakdown (current), TM_SCOPE_GROUPING_NAME);
  GPtrArray *entries = g_ptr_array_new_with_free_func (entry_free);

  add_scope_nodes (table, entries, before, tm_scope_tree_get_root (before), TRUE);
  add_scope_nodes (table, entries, after, tm_scope_tree_get_root (after), FALSE);
  match_renumbered (table, entries);
  finish_entries (entries);
  return entries;
}

static gboolean
is_replica (const char *name)
{
  return strncmp (name, "replica_", 8) == 0 && name[8] != '\0' &&
         strspn (name + 8, "0123456789") == strlen (name + 8);
}

const TmScopeNode *
tm_compare_match_scope (TmScopeTree   *tree,
                        const TmScope *scope)
{
  const TmScopeNode *node;

  g_return_val_if_fail (TM_IS_SCOPE_TREE (tree), NULL);
  g_return_val_if_fail (scope != NULL, NULL);

  if ((node = tm_scope_tree_find (tree, scope)) != NULL)
    return node;

  node = tm_scope_tree_get_root (tree);
  for (guint i = 0; scope->parts[i] != NULL && node != NULL; i++)
    {
      const TmScopeNode *next = NULL;

      for (guint c = 0; c < node->n_children && next == NULL; c++)
        {
          const TmScopeNode *child = node->children[c];

          if (i == 0 && child->special != scope->special)
            continue;
          if (g_str_equal (child->name, scope->parts[i]) ||
              (is_replica (child->name) && is_replica (scope->parts[i])))
            next = child;
        }
      node = next;
    }
  return node;
}

/* ------------------------------------------------------------------ */
/* Alignment                                                            */

gint64
tm_compare_anchor_of (TmMemoryStore      *store,
                      TmCompareAlignment  alignment)
{
  const TmSummary *s;
  const gint64 *times;
  guint n;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), 0);

  s = tm_memory_store_get_summary (store);
  n = tm_memory_store_get_n_snapshots (store);
  if (n == 0)
    return 0;

  switch (alignment)
    {
    case TM_COMPARE_ALIGN_PEAK:
      return s->peak_time_ps;

    case TM_COMPARE_ALIGN_FIRST_STEP:
      /* docs/compare.md, "Alignment": the first snapshot whose step id
       * (docs/analysis.md step 3) differs from the first snapshot's. */
      times = tm_memory_store_get_times (store);
      {
        guint end = 0;
        gint64 first = tm_memory_store_get_step_run (store, 0, &end);

        while (end < n)
          {
            guint i = end;

            if (tm_memory_store_get_step_run (store, i, &end) != first)
              return times[i];
          }
      }
      return times[0];

    case TM_COMPARE_ALIGN_START:
    default:
      return tm_memory_store_get_times (store)[0];
    }
}

TmScope *
tm_compare_lookup_renumbered_scope (TmCompare     *self,
                                    const TmScope *scope)
{
  g_autofree char *name = NULL;
  const char *baseline_name;
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);
  g_return_val_if_fail (scope != NULL, NULL);

  /* The scope diff is of name scopes; special rows are never renumbered. */
  if (scope->grouping != TM_SCOPE_GROUPING_NAME || scope->special)
    return NULL;
  name = g_strjoinv ("/", scope->parts);
  baseline_name = g_hash_table_lookup (self->renumbered_scopes, name);
  if (baseline_name == NULL)
    return NULL;
  parts = g_strsplit (baseline_name, "/", -1);
  return tm_scope_new (TM_SCOPE_GROUPING_NAME, FALSE, (const char * const *) parts);
}

const char *
tm_compare_alignment_to_string (TmCompareAlignment alignment)
{
  switch (alignment)
    {
    case TM_COMPARE_ALIGN_PEAK:
      return "peak";
    case TM_COMPARE_ALIGN_FIRST_STEP:
      return "first-step";
    case TM_COMPARE_ALIGN_START:
    default:
      return "start";
    }
}

/* ------------------------------------------------------------------ */
/* Public API                                                           */

TmCompare *
tm_compare_new (TmAnalysis     *baseline,
                TmAllocations  *baseline_allocations,
                TmAnalysis     *current,
                TmAllocations  *current_allocations,
                GError        **error)
{
  g_autoptr(TmCompare) self = NULL;
  gint64 before[G_N_ELEMENTS (figure_keys)], after[G_N_ELEMENTS (figure_keys)];
  double frag_before, frag_after;

  g_return_val_if_fail (TM_IS_ANALYSIS (baseline), NULL);
  g_return_val_if_fail (TM_IS_ANALYSIS (current), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!collect_figures (baseline, baseline_allocations, before, &frag_before, error) ||
      !collect_figures (current, current_allocations, after, &frag_after, error))
    return NULL;

  self = g_object_new (TM_TYPE_COMPARE, NULL);
  self->baseline = g_object_ref (baseline);
  self->current = g_object_ref (current);

  self->figures = g_array_sized_new (FALSE, TRUE, sizeof (TmCompareFigure), G_N_ELEMENTS (figure_keys));
  for (guint i = 0; i < G_N_ELEMENTS (figure_keys); i++)
    {
      TmCompareFigure f = { figure_keys[i].key, figure_keys[i].kind, before[i], after[i], after[i] - before[i], 0, 0, 0 };

      if (f.kind == TM_COMPARE_FIGURE_FRACTION)
        {
          f.baseline_fraction = frag_before;
          f.current_fraction = frag_after;
          f.delta_fraction = frag_after - frag_before;
        }
      g_array_append_val (self->figures, f);
    }

  self->op_diff = op_diff (baseline, current);
  self->scope_diff = scope_diff (baseline, current);
  self->renumbered_scopes = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < self->scope_diff->len; i++)
    {
      const TmCompareEntry *e = g_ptr_array_index (self->scope_diff, i);

      if (e->renumbered)
        g_hash_table_insert (self->renumbered_scopes, e->name, e->baseline_name);
    }

  for (guint a = 0; a < TM_COMPARE_N_ALIGNMENTS; a++)
    {
      self->anchors[0][a] = tm_compare_anchor_of (tm_analysis_get_store (baseline), a);
      self->anchors[1][a] = tm_compare_anchor_of (tm_analysis_get_store (current), a);
    }

  return g_steal_pointer (&self);
}

TmAnalysis *
tm_compare_get_baseline (TmCompare *self)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);
  return self->baseline;
}

TmAnalysis *
tm_compare_get_current (TmCompare *self)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);
  return self->current;
}

const TmCompareFigure *
tm_compare_get_figures (TmCompare *self,
                        guint     *n_figures)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);

  if (n_figures != NULL)
    *n_figures = self->figures->len;
  return (const TmCompareFigure *) (gpointer) self->figures->data;
}

const TmCompareFigure *
tm_compare_lookup_figure (TmCompare  *self,
                          const char *key)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < self->figures->len; i++)
    {
      const TmCompareFigure *f = &g_array_index (self->figures, TmCompareFigure, i);

      if (g_str_equal (f->key, key))
        return f;
    }
  return NULL;
}

GPtrArray *
tm_compare_get_op_diff (TmCompare *self)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);
  return self->op_diff;
}

GPtrArray *
tm_compare_get_scope_diff (TmCompare *self)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), NULL);
  return self->scope_diff;
}

gint64
tm_compare_get_anchor (TmCompare          *self,
                       TmCompareAlignment  alignment,
                       gboolean            baseline)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), 0);
  g_return_val_if_fail (alignment < TM_COMPARE_N_ALIGNMENTS, 0);

  return self->anchors[baseline ? 0 : 1][alignment];
}

gint64
tm_compare_get_shift (TmCompare          *self,
                      TmCompareAlignment  alignment)
{
  g_return_val_if_fail (TM_IS_COMPARE (self), 0);
  g_return_val_if_fail (alignment < TM_COMPARE_N_ALIGNMENTS, 0);

  return self->anchors[1][alignment] - self->anchors[0][alignment];
}
