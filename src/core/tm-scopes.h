/* tm-scopes.h — where the memory goes: the live allocations as a tree of scopes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Groups the rows of a breakdown (at the peak, or live at a time t:
 * tm-analysis) into a tree: by name scope (the op name split at '/'), or
 * by region type, data type or shape with the name scopes below. Special
 * rows ("stack", "unused preallocated device memory", "memory allocated
 * before the profile") are top-level nodes of their own. Also the bytes of
 * one scope over time, at every snapshot, and the tree as collapsed stacks.
 * The rules are in docs/scopes.md. Uses tm-analysis; immutable results,
 * safe from any thread.
 */
#pragma once

#include <gio/gio.h>

#include "tm-analysis.h"

G_BEGIN_DECLS

typedef enum
{
  TM_SCOPE_GROUPING_NAME,       /* op name split at '/' */
  TM_SCOPE_GROUPING_REGION,     /* region type, then the name scopes */
  TM_SCOPE_GROUPING_DATA_TYPE,  /* data type, then the name scopes */
  TM_SCOPE_GROUPING_SHAPE,      /* shape, then the name scopes */
} TmScopeGrouping;

#define TM_SCOPE_N_GROUPINGS 4

/* ------------------------------------------------------------------ */
/* A scope: a node's place in the tree of one grouping                  */

#define TM_TYPE_SCOPE (tm_scope_get_type ())

typedef struct
{
  TmScopeGrouping grouping;
  gboolean        special;  /* a special row: parts[0] is its name */
  char          **parts;    /* from the top level down; never empty */
} TmScope;

GType      tm_scope_get_type      (void) G_GNUC_CONST;
TmScope   *tm_scope_new           (TmScopeGrouping       grouping,
                                   gboolean              special,
                                   const char * const   *parts);
TmScope   *tm_scope_copy          (const TmScope        *scope);
void       tm_scope_free          (TmScope              *scope);
gboolean   tm_scope_equal         (const TmScope        *a,
                                   const TmScope        *b);
/* Whether an allocation with these strings lies in scope (at any depth
 * below it). special: the strings are those of a special row. */
gboolean   tm_scope_contains      (const TmScope        *scope,
                                   gboolean              special,
                                   const char           *op_name,
                                   const char           *region_type,
                                   const char           *data_type,
                                   const char           *shape);
gboolean   tm_scope_contains_row  (const TmScope        *scope,
                                   const TmBreakdownRow *row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmScope, tm_scope_free)

/* ------------------------------------------------------------------ */
/* The tree                                                             */

typedef struct _TmScopeNode TmScopeNode;

struct _TmScopeNode
{
  const char   *name;           /* this level's label; "" for an op without a name */
  TmScopeNode  *parent;         /* NULL for the root */
  TmScopeNode **children;       /* by bytes (largest first), then name */
  guint         n_children;
  guint         depth;          /* root 0, top-level nodes 1 */
  gboolean      special;        /* a special row's node */
  gint64        bytes;          /* allocation bytes, this node and below */
  gint64        requested_bytes;
  gint64        self_bytes;     /* allocation bytes of ops named exactly this scope */
  guint64       n_allocations;  /* occurrences of the rows below */
};

#define TM_TYPE_SCOPE_TREE (tm_scope_tree_get_type ())

G_DECLARE_FINAL_TYPE (TmScopeTree, tm_scope_tree, TM, SCOPE_TREE, GObject)

/* The rows' tree (TmBreakdownRow, as tm-analysis returns them; not kept). */
TmScopeTree       *tm_scope_tree_new            (GPtrArray          *rows,
                                                 TmScopeGrouping     grouping);
/* The tree of what the breakdown table shows: at the peak
 * (tm_analysis_get_peak_breakdown) or live at t_ps
 * (tm_analysis_breakdown_at). */
TmScopeTree       *tm_scope_tree_new_at         (TmAnalysis         *analysis,
                                                 gboolean            at_peak,
                                                 gint64              t_ps,
                                                 TmScopeGrouping     grouping);

TmScopeGrouping    tm_scope_tree_get_grouping   (TmScopeTree        *self);
/* The root: all rows; its bytes are the total, the share's denominator. */
const TmScopeNode *tm_scope_tree_get_root       (TmScopeTree        *self);
/* The node of scope (same grouping), or NULL when the tree has none. */
const TmScopeNode *tm_scope_tree_find           (TmScopeTree        *self,
                                                 const TmScope      *scope);
/* The scope of node (not the root). */
TmScope           *tm_scope_tree_get_scope      (TmScopeTree        *self,
                                                 const TmScopeNode  *node);
/* The nodes whose name holds text, ignoring case (docs/scopes.md,
 * "Finding a scope"), depth first in the tree's order; a new array of
 * const TmScopeNode *, empty for an empty text. */
GPtrArray         *tm_scope_tree_search         (TmScopeTree        *self,
                                                 const char         *text);
/* bytes / the root's bytes, in [0, 1]. */
double             tm_scope_tree_get_share      (TmScopeTree        *self,
                                                 const TmScopeNode  *node);

/* The tree of some allocations only, without special rows: those whose
 * allocation events are the snapshots of store (ascending, each an
 * allocation), such as the ones never freed (tm-allocations; docs/scopes.md,
 * "Never freed"). Decodes each of them from the file; fails only when the
 * mapped file changed or when cancelled. */
TmScopeTree       *tm_scope_tree_new_for_allocations (TmMemoryStore   *store,
                                                   const guint     *snapshots,
                                                   guint            n_snapshots,
                                                   TmScopeGrouping  grouping,
                                                   GCancellable    *cancellable,
                                                   GError         **error);

/* Collapsed stacks (docs/scopes.md): one "a;b;c BYTES" line per node with
 * self bytes, sorted byte-wise; the numbers sum to the root's bytes. */
void               tm_scope_tree_append_collapsed (TmScopeTree      *self,
                                                   GString          *out);
gboolean           tm_scope_tree_write_collapsed  (TmScopeTree      *self,
                                                   GOutputStream    *out,
                                                   GCancellable     *cancellable,
                                                   GError          **error);

/* ------------------------------------------------------------------ */
/* A scope over time                                                    */

/* Every allocation of a store once decoded, with its group key: built in
 * one pass over the file (slow on a large profile: build it off the main
 * thread), then any scope's series is quick. Immutable. */
#define TM_TYPE_SCOPE_INDEX (tm_scope_index_get_type ())

G_DECLARE_FINAL_TYPE (TmScopeIndex, tm_scope_index, TM, SCOPE_INDEX, GObject)

TmScopeIndex      *tm_scope_index_new           (TmMemoryStore      *store,
                                                 TmScopeGrouping     grouping,
                                                 GCancellable       *cancellable,
                                                 GError            **error);
TmScopeGrouping    tm_scope_index_get_grouping  (TmScopeIndex       *self);
TmMemoryStore     *tm_scope_index_get_store     (TmScopeIndex       *self);
/* Bytes of scope (same grouping) at every snapshot, n_snapshots values
 * (g_free). Special scopes: "stack" is the stack; the others the heap that
 * the tracked allocations do not account for. */
gint64            *tm_scope_index_series        (TmScopeIndex       *self,
                                                 const TmScope      *scope);
/* The tree live at t_ps: the same as tm_scope_tree_new_at (analysis,
 * FALSE, t_ps, grouping), without decoding anything. */
TmScopeTree       *tm_scope_index_tree_at       (TmScopeIndex       *self,
                                                 gint64              t_ps);
/* The same as tm_scope_tree_new_for_allocations (store, snapshots,
 * n_snapshots, grouping), without decoding anything. */
TmScopeTree       *tm_scope_index_tree_for_allocations (TmScopeIndex *self,
                                                     const guint  *snapshots,
                                                     guint         n_snapshots);
/* Bytes of heap the index uses. */
gsize              tm_scope_index_get_memory_size (TmScopeIndex     *self);

G_END_DECLS
