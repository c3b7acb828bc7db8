/* tm-scope-search.h — finding scopes by name: an entry, a count, next and previous
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The scope view's search (docs/scopes.md, "Finding a scope"): a search
 * entry, "3 of 12" and buttons for the previous and the next match, over
 * a tree of scopes (tm_scope_tree_search). The matches are in the order
 * of the view's table: depth first, siblings compared by the function the
 * view gives. Typing, Enter, Shift+Enter and the buttons move the current
 * match, and "current-changed" says so; the view then reveals and selects
 * it. A drawing helper of the scope view: it knows a tree, not the session.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-scopes.h"

G_BEGIN_DECLS

#define TM_TYPE_SCOPE_SEARCH (tm_scope_search_get_type ())

G_DECLARE_FINAL_TYPE (TmScopeSearch, tm_scope_search, TM, SCOPE_SEARCH, GtkWidget)

/* Compares two sibling nodes as the table orders them (< 0: a first). */
typedef int (*TmScopeSearchOrder) (const TmScopeNode *a,
                                   const TmScopeNode *b,
                                   gpointer           user_data);

GtkWidget         *tm_scope_search_new          (void);
/* The order of siblings (NULL: the tree's own); the matches are sorted
 * again. */
void               tm_scope_search_set_order    (TmScopeSearch      *self,
                                                 TmScopeSearchOrder  order,
                                                 gpointer            user_data);
/* Searches tree (NULL: none) for the text there is; keeps the current
 * match's place in the list when it can. Emits nothing. */
void               tm_scope_search_set_tree     (TmScopeSearch      *self,
                                                 TmScopeTree        *tree);
/* The matches in order (const TmScopeNode *; never NULL). */
GPtrArray         *tm_scope_search_get_matches  (TmScopeSearch      *self);
gboolean           tm_scope_search_is_match     (TmScopeSearch      *self,
                                                 const TmScopeNode  *node);
/* The current match, NULL when there is none. */
const TmScopeNode *tm_scope_search_get_current  (TmScopeSearch      *self);
/* Moves to the next (forward) or previous match, wrapping at the ends;
 * emits "current-changed". */
void               tm_scope_search_move         (TmScopeSearch      *self,
                                                 gboolean            forward);
/* The entry, for tests and focus. */
GtkEditable       *tm_scope_search_get_entry    (TmScopeSearch      *self);

G_END_DECLS
