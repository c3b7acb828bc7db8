/* tm-scopes.c — where the memory goes: the live allocations as a tree of scopes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rules (which allocations, how names split, the special rows, the
 * collapsed-stack format) are in docs/scopes.md.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-scopes.h"

/* What an op without a name is called in collapsed stacks. */
#define UNNAMED_FRAME "(no op name)"

/* ------------------------------------------------------------------ */
/* Name scopes                                                          */

/* The next component of an op name at *p (empty components skipped);
 * FALSE at the end. */
static gboolean
next_component (const char **p,
                const char **start,
                gsize       *len)
{
  const char *s = *p;

  while (*s == '/')
    s++;
  if (*s == '\0')
    {
      *p = s;
      return FALSE;
    }
  *start = s;
  while (*s != '\0' && *s != '/')
    s++;
  *len = s - *start;
  *p = s;
  return TRUE;
}

/* Whether the op's name scopes begin with parts (every part matched). An
 * op with no component at all has the one component "". */
static gboolean
op_has_prefix (const char         *op,
               const char * const *parts)
{
  const char *p = op;
  const char *start;
  gsize len;
  gboolean any = FALSE;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (!next_component (&p, &start, &len))
        return !any && i == 0 && parts[0][0] == '\0' && parts[1] == NULL;
      any = TRUE;
      if (strlen (parts[i]) != len || memcmp (parts[i], start, len) != 0)
        return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* TmScope                                                              */

G_DEFINE_BOXED_TYPE (TmScope, tm_scope, tm_scope_copy, tm_scope_free)

TmScope *
tm_scope_new (TmScopeGrouping     grouping,
              gboolean            special,
              const char * const *parts)
{
  TmScope *scope;

  g_return_val_if_fail (parts != NULL && parts[0] != NULL, NULL);

  scope = g_new0 (TmScope, 1);
  scope->grouping = grouping;
  scope->special = special;
  scope->parts = g_strdupv ((char **) parts);
  return scope;
}

TmScope *
tm_scope_copy (const TmScope *scope)
{
  g_return_val_if_fail (scope != NULL, NULL);
  return tm_scope_new (scope->grouping, scope->special, (const char * const *) scope->parts);
}

void
tm_scope_free (TmScope *scope)
{
  if (scope == NULL)
    return;
  g_strfreev (scope->parts);
  g_free (scope);
}

gboolean
tm_scope_equal (const TmScope *a,
                const TmScope *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->grouping == b->grouping && !a->special == !b->special &&
         g_strv_equal ((const char * const *) a->parts, (const char * const *) b->parts);
}

static const char *
group_value (TmScopeGrouping grouping,
             const char     *region_type,
             const char     *data_type,
             const char     *shape)
{
  switch (grouping)
    {
    case TM_SCOPE_GROUPING_REGION:
      return region_type;
    case TM_SCOPE_GROUPING_DATA_TYPE:
      return data_type;
    case TM_SCOPE_GROUPING_SHAPE:
      return shape;
    case TM_SCOPE_GROUPING_NAME:
    default:
      return NULL;
    }
}

gboolean
tm_scope_contains (const TmScope *scope,
                   gboolean       special,
                   const char    *op_name,
                   const char    *region_type,
                   const char    *data_type,
                   const char    *shape)
{
  const char *value;

  g_return_val_if_fail (scope != NULL, FALSE);

  if (!scope->special != !special)
    return FALSE;
  if (special)
    return scope->parts[1] == NULL && g_strcmp0 (scope->parts[0], op_name) == 0;

  value = group_value (scope->grouping, region_type, data_type, shape);
  if (scope->grouping == TM_SCOPE_GROUPING_NAME)
    return op_has_prefix (op_name != NULL ? op_name : "", (const char * const *) scope->parts);
  if (g_strcmp0 (scope->parts[0], value != NULL ? value : "") != 0)
    return FALSE;
  return scope->parts[1] == NULL ||
         op_has_prefix (op_name != NULL ? op_name : "", (const char * const *) scope->parts + 1);
}

gboolean
tm_scope_contains_row (const TmScope        *scope,
                       const TmBreakdownRow *row)
{
  g_return_val_if_fail (row != NULL, FALSE);
  return tm_scope_contains (scope, row->special, row->op_name, row->region_type, row->data_type, row->shape);
}

/* ------------------------------------------------------------------ */
/* TmScopeTree                                                          */

/* A node while the tree is built: children by name, in a hash table. */
typedef struct
{
  TmScopeNode  node;  /* first: a Build * is a TmScopeNode * */
  GHashTable  *child_map;
  GPtrArray   *child_list;
} Build;

struct _TmScopeTree
{
  GObject          parent_instance;

  TmScopeGrouping  grouping;
  GStringChunk    *names;
  Build           *root;
  GPtrArray       *all;     /* every Build, the root first */
  GHashTable      *leaves;  /* while building: strings -> Build */
  GString         *key;     /* while building */
};

G_DEFINE_FINAL_TYPE (TmScopeTree, tm_scope_tree, G_TYPE_OBJECT)

static void
build_free (Build *b)
{
  g_free (b->node.children);
  g_clear_pointer (&b->child_map, g_hash_table_unref);
  g_clear_pointer (&b->child_list, g_ptr_array_unref);
  g_free (b);
}

static void
tm_scope_tree_finalize (GObject *object)
{
  TmScopeTree *self = (TmScopeTree *) object;

  g_clear_pointer (&self->all, g_ptr_array_unref);
  g_clear_pointer (&self->names, g_string_chunk_free);
  g_clear_pointer (&self->leaves, g_hash_table_unref);
  if (self->key != NULL)
    g_string_free (g_steal_pointer (&self->key), TRUE);

  G_OBJECT_CLASS (tm_scope_tree_parent_class)->finalize (object);
}

static void
tm_scope_tree_class_init (TmScopeTreeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_scope_tree_finalize;
}

static void
tm_scope_tree_init (TmScopeTree *self)
{
  self->names = g_string_chunk_new (4096);
  self->all = g_ptr_array_new_with_free_func ((GDestroyNotify) build_free);
}

static Build *
build_child (TmScopeTree *self,
             Build       *parent,
             const char  *name,
             gsize        len,
             gboolean     special)
{
  g_autofree char *key = g_strndup (name, len);
  Build *child;

  if (parent->child_map == NULL)
    {
      parent->child_map = g_hash_table_new (g_str_hash, g_str_equal);
      parent->child_list = g_ptr_array_new ();
    }
  else if ((child = g_hash_table_lookup (parent->child_map, key)) != NULL &&
           !child->node.special == !special)
    return child;

  child = g_new0 (Build, 1);
  child->node.name = g_string_chunk_insert_const (self->names, key);
  child->node.parent = &parent->node;
  child->node.depth = parent->node.depth + 1;
  child->node.special = special;
  /* A special row never shares a node with an op of the same name; the
   * map keeps the op's node. */
  if (!special || !g_hash_table_contains (parent->child_map, key))
    g_hash_table_insert (parent->child_map, (char *) child->node.name, child);
  g_ptr_array_add (parent->child_list, child);
  g_ptr_array_add (self->all, child);
  return child;
}

/* The node of an allocation's (or a special row's) strings, made on first
 * use. */
static Build *
leaf_for (TmScopeTree *self,
          gboolean     special,
          const char  *op_name,
          const char  *value)
{
  Build *b = self->root;
  const char *p, *start;
  gsize len;
  gboolean any = FALSE;

  if (special)
    return build_child (self, b, op_name, strlen (op_name), TRUE);

  if (value != NULL)
    b = build_child (self, b, value, strlen (value), FALSE);

  p = op_name;
  while (next_component (&p, &start, &len))
    {
      b = build_child (self, b, start, len, FALSE);
      any = TRUE;
    }
  if (!any)
    b = build_child (self, b, "", 0, FALSE);
  return b;
}

static int
compare_nodes (gconstpointer a,
               gconstpointer b)
{
  const TmScopeNode *x = *(const TmScopeNode * const *) a;
  const TmScopeNode *y = *(const TmScopeNode * const *) b;
  int c;

  if (x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if ((c = strcmp (x->name, y->name)) != 0)
    return c;
  return (int) x->special - (int) y->special;
}

/* Sums children into parents (children come after their parent in
 * self->all), then freezes the child lists into sorted arrays. */
static void
finish_tree (TmScopeTree *self)
{
  for (guint i = self->all->len; i-- > 1;)
    {
      Build *b = g_ptr_array_index (self->all, i);
      TmScopeNode *parent = b->node.parent;

      parent->bytes += b->node.bytes;
      parent->requested_bytes += b->node.requested_bytes;
      parent->n_allocations += b->node.n_allocations;
    }

  for (guint i = 0; i < self->all->len; i++)
    {
      Build *b = g_ptr_array_index (self->all, i);

      if (b->child_list == NULL)
        continue;
      g_ptr_array_sort (b->child_list, compare_nodes);
      b->node.n_children = b->child_list->len;
      b->node.children = (TmScopeNode **) g_ptr_array_free (g_steal_pointer (&b->child_list), FALSE);
      g_clear_pointer (&b->child_map, g_hash_table_unref);
    }
  g_clear_pointer (&self->leaves, g_hash_table_unref);
  g_string_free (g_steal_pointer (&self->key), TRUE);
}

static TmScopeTree *
tree_new (TmScopeGrouping grouping)
{
  TmScopeTree *self = g_object_new (TM_TYPE_SCOPE_TREE, NULL);

  self->grouping = grouping;
  self->root = g_new0 (Build, 1);
  self->root->node.name = "";
  g_ptr_array_add (self->all, self->root);
  self->leaves = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->key = g_string_new (NULL);
  return self;
}

/* Adds bytes to the node of these strings. Equal strings end in the same
 * node: the node is looked up by the strings first, and a name is split
 * only the first time. */
static void
tree_add (TmScopeTree *self,
          gboolean     special,
          const char  *op_name,
          const char  *region_type,
          const char  *data_type,
          const char  *shape,
          gint64       bytes,
          gint64       requested_bytes,
          guint64      n_allocations)
{
  const char *value = special ? NULL : group_value (self->grouping, region_type, data_type, shape);
  GString *key = self->key;
  Build *leaf;

  g_string_truncate (key, 0);
  g_string_append_c (key, special ? '\1' : '\2');
  if (value != NULL)
    {
      g_string_append (key, value);
      g_string_append_c (key, '\3');
    }
  g_string_append (key, op_name);

  leaf = g_hash_table_lookup (self->leaves, key->str);
  if (leaf == NULL)
    {
      leaf = leaf_for (self, special, op_name, value);
      g_hash_table_insert (self->leaves, g_strdup (key->str), leaf);
    }
  leaf->node.self_bytes += bytes;
  leaf->node.bytes += bytes;
  leaf->node.requested_bytes += requested_bytes;
  leaf->node.n_allocations += n_allocations;
}

TmScopeTree *
tm_scope_tree_new (GPtrArray       *rows,
                   TmScopeGrouping  grouping)
{
  TmScopeTree *self;

  g_return_val_if_fail (rows != NULL, NULL);
  g_return_val_if_fail (grouping < TM_SCOPE_N_GROUPINGS, NULL);

  self = tree_new (grouping);
  for (guint i = 0; i < rows->len; i++)
    {
      const TmBreakdownRow *row = g_ptr_array_index (rows, i);

      tree_add (self, row->special, row->op_name, row->region_type, row->data_type, row->shape,
                row->allocation_bytes * (gint64) row->n_occurrences,
                row->requested_bytes * (gint64) row->n_occurrences,
                row->n_occurrences);
    }
  finish_tree (self);
  return self;
}

TmScopeTree *
tm_scope_tree_new_at (TmAnalysis      *analysis,
                      gboolean         at_peak,
                      gint64           t_ps,
                      TmScopeGrouping  grouping)
{
  g_autoptr(GPtrArray) rows = NULL;

  g_return_val_if_fail (TM_IS_ANALYSIS (analysis), NULL);

  if (at_peak)
    return tm_scope_tree_new (tm_analysis_get_peak_breakdown (analysis), grouping);
  rows = tm_analysis_breakdown_at (tm_analysis_get_store (analysis), t_ps);
  return tm_scope_tree_new (rows, grouping);
}

TmScopeTree *
tm_scope_tree_new_for_allocations (TmMemoryStore    *store,
                                   const guint      *snapshots,
                                   guint             n_snapshots,
                                   TmScopeGrouping   grouping,
                                   GCancellable     *cancellable,
                                   GError          **error)
{
  g_autoptr(TmScopeTree) self = NULL;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);
  g_return_val_if_fail (snapshots != NULL || n_snapshots == 0, NULL);
  g_return_val_if_fail (grouping < TM_SCOPE_N_GROUPINGS, NULL);

  self = tree_new (grouping);
  for (guint i = 0; i < n_snapshots; i++)
    {
      TmActivity act;

      if ((i % 16384) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!tm_memory_store_get_activity (store, snapshots[i], &act, error))
        return NULL;
      tree_add (self, FALSE, act.op_name, act.region_type, act.data_type, act.shape,
                act.allocation_bytes, act.requested_bytes, 1);
      tm_activity_clear (&act);
    }
  finish_tree (self);
  return g_steal_pointer (&self);
}

TmScopeGrouping
tm_scope_tree_get_grouping (TmScopeTree *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), TM_SCOPE_GROUPING_NAME);
  return self->grouping;
}

const TmScopeNode *
tm_scope_tree_get_root (TmScopeTree *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), NULL);
  return &self->root->node;
}

const TmScopeNode *
tm_scope_tree_find (TmScopeTree   *self,
                    const TmScope *scope)
{
  const TmScopeNode *node;

  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), NULL);
  g_return_val_if_fail (scope != NULL, NULL);

  if (scope->grouping != self->grouping)
    return NULL;

  node = &self->root->node;
  for (guint i = 0; scope->parts[i] != NULL; i++)
    {
      const TmScopeNode *next = NULL;

      for (guint c = 0; c < node->n_children && next == NULL; c++)
        if (strcmp (node->children[c]->name, scope->parts[i]) == 0 &&
            (i > 0 || !node->children[c]->special == !scope->special))
          next = node->children[c];
      if (next == NULL)
        return NULL;
      node = next;
    }
  return node;
}

TmScope *
tm_scope_tree_get_scope (TmScopeTree       *self,
                         const TmScopeNode *node)
{
  g_autofree const char **parts = NULL;
  const TmScopeNode *top = node;

  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), NULL);
  g_return_val_if_fail (node != NULL && node->depth > 0, NULL);

  parts = g_new0 (const char *, node->depth + 1);
  for (const TmScopeNode *n = node; n->depth > 0; n = n->parent)
    {
      parts[n->depth - 1] = n->name;
      top = n;
    }
  return tm_scope_new (self->grouping, top->special, parts);
}

static void
search_below (const TmScopeNode *node,
              const char        *folded,
              GPtrArray         *out)
{
  for (guint i = 0; i < node->n_children; i++)
    {
      const TmScopeNode *child = node->children[i];
      g_autofree char *name = g_utf8_casefold (child->name, -1);

      if (strstr (name, folded) != NULL)
        g_ptr_array_add (out, (gpointer) child);
      search_below (child, folded, out);
    }
}

GPtrArray *
tm_scope_tree_search (TmScopeTree *self,
                      const char  *text)
{
  GPtrArray *out;
  g_autofree char *folded = NULL;

  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), NULL);

  out = g_ptr_array_new ();
  if (text == NULL || text[0] == '\0')
    return out;
  folded = g_utf8_casefold (text, -1);
  search_below (&self->root->node, folded, out);
  return out;
}

double
tm_scope_tree_get_share (TmScopeTree       *self,
                         const TmScopeNode *node)
{
  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), 0.0);
  g_return_val_if_fail (node != NULL, 0.0);

  if (self->root->node.bytes <= 0)
    return 0.0;
  return CLAMP ((double) node->bytes / (double) self->root->node.bytes, 0.0, 1.0);
}

/* ------------------------------------------------------------------ */
/* Collapsed stacks                                                     */

/* A frame as the format allows it: no ';' (the separator), no line
 * breaks; an empty name gets a visible one. */
static void
append_frame (GString    *out,
              const char *name)
{
  if (name[0] == '\0')
    {
      g_string_append (out, UNNAMED_FRAME);
      return;
    }
  /* A name ending in a space and a number would read as a second count
   * (a differential line): then its spaces become '_'. */
  const char *end = name + strlen (name);
  const char *q = end;
  gboolean trailing_number;

  while (q > name && (g_ascii_isdigit (q[-1]) || q[-1] == '.'))
    q--;
  trailing_number = q < end && q > name && g_ascii_isspace (q[-1]);

  for (const char *p = name; *p != '\0'; p++)
    {
      char c = *p;

      if (c == ';')
        c = ':';
      else if (c == '\n' || c == '\r' || c == '\t')
        c = ' ';
      else if (((guchar) c < 0x20 || c == 0x7f) || ((guchar) p[0] == 0xc0 && (guchar) p[1] == 0x80))
        {
          /* ESC, BEL, DEL ... and a NUL kept in a name as \xHH
           * (docs/formats.md, section 5). */
          char one[3] = { p[0], (guchar) p[0] == 0xc0 ? p[1] : '\0', '\0' };

          tm_format_append_controls_escaped (out, one);
          p += one[1] != '\0' ? 1 : 0;
          continue;
        }
      if (c == ' ' && trailing_number)
        c = '_';
      g_string_append_c (out, c);
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

void
tm_scope_tree_append_collapsed (TmScopeTree *self,
                                GString     *out)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GPtrArray) path = g_ptr_array_new ();

  g_return_if_fail (TM_IS_SCOPE_TREE (self));
  g_return_if_fail (out != NULL);

  for (guint i = 1; i < self->all->len; i++)
    {
      const TmScopeNode *node = g_ptr_array_index (self->all, i);

      if (node->self_bytes <= 0)
        continue;

      g_ptr_array_set_size (path, 0);
      for (const TmScopeNode *n = node; n->depth > 0; n = n->parent)
        g_ptr_array_add (path, (gpointer) n->name);

      g_string_truncate (line, 0);
      for (guint k = path->len; k-- > 0;)
        {
          append_frame (line, g_ptr_array_index (path, k));
          if (k > 0)
            g_string_append_c (line, ';');
        }
      g_string_append_printf (line, " %" G_GINT64_FORMAT "\n", node->self_bytes);
      g_ptr_array_add (lines, g_strdup (line->str));
    }

  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    g_string_append (out, g_ptr_array_index (lines, i));
}

gboolean
tm_scope_tree_write_collapsed (TmScopeTree    *self,
                               GOutputStream  *out,
                               GCancellable   *cancellable,
                               GError        **error)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_return_val_if_fail (TM_IS_SCOPE_TREE (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (out), FALSE);

  tm_scope_tree_append_collapsed (self, text);
  return g_output_stream_write_all (out, text->str, text->len, NULL, cancellable, error);
}

/* ------------------------------------------------------------------ */
/* TmScopeIndex                                                         */

typedef struct
{
  guint32 index;  /* snapshot of the allocation */
  guint32 key;    /* into keys */
  gint64  bytes;  /* allocation bytes */
  gint64  requested_bytes;
} Entry;

typedef struct
{
  char *value;    /* region, data type or shape (NULL for the name grouping) */
  char *op_name;
} Key;

struct _TmScopeIndex
{
  GObject          parent_instance;

  TmMemoryStore   *store;
  TmScopeGrouping  grouping;
  GArray          *entries;  /* Entry, by index */
  GArray          *keys;     /* Key */
};

G_DEFINE_FINAL_TYPE (TmScopeIndex, tm_scope_index, G_TYPE_OBJECT)

static void
key_clear (Key *key)
{
  g_free (key->value);
  g_free (key->op_name);
}

static void
tm_scope_index_finalize (GObject *object)
{
  TmScopeIndex *self = (TmScopeIndex *) object;

  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->keys, g_array_unref);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tm_scope_index_parent_class)->finalize (object);
}

static void
tm_scope_index_class_init (TmScopeIndexClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_scope_index_finalize;
}

static void
tm_scope_index_init (TmScopeIndex *self)
{
  self->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  self->keys = g_array_new (FALSE, FALSE, sizeof (Key));
  g_array_set_clear_func (self->keys, (GDestroyNotify) key_clear);
}

TmScopeIndex *
tm_scope_index_new (TmMemoryStore    *store,
                    TmScopeGrouping   grouping,
                    GCancellable     *cancellable,
                    GError          **error)
{
  g_autoptr(TmScopeIndex) self = NULL;
  g_autoptr(GHashTable) ids = NULL;
  g_autoptr(GString) key = g_string_new (NULL);
  guint n;

  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);
  g_return_val_if_fail (grouping < TM_SCOPE_N_GROUPINGS, NULL);

  self = g_object_new (TM_TYPE_SCOPE_INDEX, NULL);
  self->store = g_object_ref (store);
  self->grouping = grouping;

  ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  n = tm_memory_store_get_n_snapshots (store);
  for (guint i = 0; i < n; i++)
    {
      TmActivity act;
      const char *value;
      gpointer id;
      Entry e;

      if ((i % 16384) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (tm_memory_store_get_kind (store, i) != TM_ACTIVITY_ALLOCATION)
        continue;
      if (!tm_memory_store_get_activity (store, i, &act, error))
        return NULL;

      value = group_value (grouping, act.region_type, act.data_type, act.shape);
      g_string_truncate (key, 0);
      if (value != NULL)
        {
          g_string_append (key, value);
          g_string_append_c (key, '\3');
        }
      g_string_append (key, act.op_name);

      if (!g_hash_table_lookup_extended (ids, key->str, NULL, &id))
        {
          Key k = { g_strdup (value), g_strdup (act.op_name) };

          id = GUINT_TO_POINTER (self->keys->len);
          g_array_append_val (self->keys, k);
          g_hash_table_insert (ids, g_strdup (key->str), id);
        }

      e.index = i;
      e.key = GPOINTER_TO_UINT (id);
      e.bytes = act.allocation_bytes;
      e.requested_bytes = act.requested_bytes;
      g_array_append_val (self->entries, e);
      tm_activity_clear (&act);
    }

  return g_steal_pointer (&self);
}

TmScopeGrouping
tm_scope_index_get_grouping (TmScopeIndex *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_INDEX (self), TM_SCOPE_GROUPING_NAME);
  return self->grouping;
}

TmMemoryStore *
tm_scope_index_get_store (TmScopeIndex *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_INDEX (self), NULL);
  return self->store;
}

gint64 *
tm_scope_index_series (TmScopeIndex  *self,
                       const TmScope *scope)
{
  g_autofree gboolean *match = NULL;
  const guint32 *partners;
  const gint64 *stack, *heap;
  gint64 *series;
  gint64 sum = 0;
  guint n;

  g_return_val_if_fail (TM_IS_SCOPE_INDEX (self), NULL);
  g_return_val_if_fail (scope != NULL, NULL);

  n = tm_memory_store_get_n_snapshots (self->store);
  series = g_new0 (gint64, MAX (n, 1));
  stack = tm_memory_store_get_stack (self->store);
  heap = tm_memory_store_get_heap (self->store);

  if (scope->special && g_strcmp0 (scope->parts[0], "stack") == 0)
    {
      memcpy (series, stack, n * sizeof (gint64));
      return series;
    }

  /* Which keys lie in the scope: decided once per key, not per event. */
  match = g_new0 (gboolean, MAX (self->keys->len, 1));
  for (guint k = 0; k < self->keys->len; k++)
    {
      const Key *key = &g_array_index (self->keys, Key, k);
      const char *value = key->value;

      match[k] = scope->special ||
                 tm_scope_contains (scope, FALSE, key->op_name, value, value, value);
    }

  /* +bytes where an allocation begins, -bytes where it ends, then the
   * running sum: live at j means index <= j < end. */
  partners = tm_memory_store_get_partners (self->store);
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);
      guint32 end = partners[e->index];

      if (!match[e->key])
        continue;
      series[e->index] += e->bytes;
      if (end != TM_MEMORY_STORE_NO_PARTNER && end < n)
        series[end] -= e->bytes;
    }
  for (guint j = 0; j < n; j++)
    {
      sum += series[j];
      series[j] = sum;
    }

  /* The other special rows: the heap that no tracked allocation holds. */
  if (scope->special)
    for (guint j = 0; j < n; j++)
      series[j] = MAX (heap[j] - series[j], 0);

  return series;
}

gsize
tm_scope_index_get_memory_size (TmScopeIndex *self)
{
  gsize size;

  g_return_val_if_fail (TM_IS_SCOPE_INDEX (self), 0);

  size = sizeof *self + self->entries->len * sizeof (Entry) + self->keys->len * sizeof (Key);
  for (guint k = 0; k < self->keys->len; k++)
    {
      const Key *key = &g_array_index (self->keys, Key, k);

      size += (key->value != NULL ? strlen (key->value) + 1 : 0) + strlen (key->op_name) + 1;
    }
  return size;
}

TmScopeTree *
tm_scope_index_tree_at (TmScopeIndex *self,
                        gint64        t_ps)
{
  g_autofree gint64 *bytes = NULL;
  g_autofree gint64 *requested = NULL;
  g_autofree guint64 *count = NULL;
  const guint32 *partners;
  const gint64 *times, *stack, *heap;
  TmScopeTree *tree;
  gint64 live = 0;
  guint n, at, end;

  g_return_val_if_fail (TM_IS_SCOPE_INDEX (self), NULL);

  tree = tree_new (self->grouping);
  n = tm_memory_store_get_n_snapshots (self->store);
  times = tm_memory_store_get_times (self->store);
  if (n == 0 || t_ps < times[0])
    {
      finish_tree (tree);
      return tree;
    }

  /* The allocations live at t, as in tm_analysis_breakdown_at(): made at
   * or before the last snapshot at t, and not ended by it. Summed per key
   * first: a key's strings go into the tree once. */
  at = tm_memory_store_find_at_or_before (self->store, t_ps);
  end = at + 1;
  partners = tm_memory_store_get_partners (self->store);
  bytes = g_new0 (gint64, MAX (self->keys->len, 1));
  requested = g_new0 (gint64, MAX (self->keys->len, 1));
  count = g_new0 (guint64, MAX (self->keys->len, 1));
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);
      guint32 p;

      if (e->index >= end)
        break;
      p = partners[e->index];
      if (p != TM_MEMORY_STORE_NO_PARTNER && p < end)
        continue;
      bytes[e->key] += e->bytes;
      requested[e->key] += e->requested_bytes;
      count[e->key]++;
      live += e->bytes;
    }

  for (guint k = 0; k < self->keys->len; k++)
    {
      const Key *key = &g_array_index (self->keys, Key, k);

      if (count[k] > 0)
        tree_add (tree, FALSE, key->op_name, key->value, key->value, key->value,
                  bytes[k], requested[k], count[k]);
    }

  /* The special rows of tm_analysis_breakdown_at(), by the same names. */
  stack = tm_memory_store_get_stack (self->store);
  heap = tm_memory_store_get_heap (self->store);
  if (heap[at] - live > 0)
    tree_add (tree, TRUE, _("memory allocated before the profile"), NULL, NULL, NULL,
              heap[at] - live, heap[at] - live, 1);
  if (stack[at] > 0)
    tree_add (tree, TRUE, "stack", NULL, NULL, NULL, stack[at], stack[at], 1);

  finish_tree (tree);
  return tree;
}

/* Sums the entries of the index whose snapshots are in snapshots (both
 * ascending) per key, then adds each key once, as tm_scope_index_tree_at
 * does. */
TmScopeTree *
tm_scope_index_tree_for_allocations (TmScopeIndex *self,
                                     const guint  *snapshots,
                                     guint         n_snapshots)
{
  g_autofree gint64 *bytes = NULL;
  g_autofree gint64 *requested = NULL;
  g_autofree guint64 *count = NULL;
  TmScopeTree *tree;
  guint k = 0;

  g_return_val_if_fail (TM_IS_SCOPE_INDEX (self), NULL);
  g_return_val_if_fail (snapshots != NULL || n_snapshots == 0, NULL);

  tree = tree_new (self->grouping);
  bytes = g_new0 (gint64, MAX (self->keys->len, 1));
  requested = g_new0 (gint64, MAX (self->keys->len, 1));
  count = g_new0 (guint64, MAX (self->keys->len, 1));
  for (guint i = 0; i < self->entries->len && k < n_snapshots; i++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, i);

      while (k < n_snapshots && snapshots[k] < e->index)
        k++;
      if (k == n_snapshots || snapshots[k] != e->index)
        continue;
      bytes[e->key] += e->bytes;
      requested[e->key] += e->requested_bytes;
      count[e->key]++;
    }

  for (guint j = 0; j < self->keys->len; j++)
    {
      const Key *key = &g_array_index (self->keys, Key, j);

      if (count[j] > 0)
        tree_add (tree, FALSE, key->op_name, key->value, key->value, key->value,
                  bytes[j], requested[j], count[j]);
    }
  finish_tree (tree);
  return tree;
}
