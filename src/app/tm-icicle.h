/* tm-icicle.h — a scope tree drawn as an icicle picture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row per depth, below the shown node (the "focus", full width at the
 * top); each node as wide as its share of the focus's bytes, in its name's
 * colour (tm_palette_color_for_name), labelled where the label fits. Hover
 * shows a tooltip; a click or Enter activates a node (the scope view then
 * zooms into it); arrow keys move the selection, Backspace activates the
 * focus's parent. A drawing helper of the scope view: it knows a tree, not
 * the session.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-scopes.h"

G_BEGIN_DECLS

#define TM_TYPE_ICICLE (tm_icicle_get_type ())

G_DECLARE_FINAL_TYPE (TmIcicle, tm_icicle, TM, ICICLE, GtkWidget)

#define TM_ICICLE_ROW_HEIGHT 24

GtkWidget         *tm_icicle_new               (void);
/* The tree drawn (referenced; NULL: nothing); resets focus and selection. */
void               tm_icicle_set_tree          (TmIcicle          *self,
                                                TmScopeTree       *tree);
TmScopeTree       *tm_icicle_get_tree          (TmIcicle          *self);
/* The node at the top, full width (NULL: the root). A node of the tree. */
void               tm_icicle_set_focus         (TmIcicle          *self,
                                                const TmScopeNode *node);
const TmScopeNode *tm_icicle_get_focus         (TmIcicle          *self);
/* The highlighted node (NULL: none). */
void               tm_icicle_set_selected      (TmIcicle          *self,
                                                const TmScopeNode *node);
const TmScopeNode *tm_icicle_get_selected      (TmIcicle          *self);
/* Found by a search (docs/scopes.md, "Finding a scope"): the matches are
 * outlined, and the nodes that neither lie in a match nor hold one are
 * dimmed. NULL or none: nothing is. The nodes must be of the tree drawn;
 * a new tree drops them. */
void               tm_icicle_set_matches       (TmIcicle          *self,
                                                GPtrArray         *nodes);
/* Whether the tree is what was never freed (docs/scopes.md, "Never
 * freed"), which the top bar and the tooltips name. */
void               tm_icicle_set_never_freed   (TmIcicle          *self,
                                                gboolean           never_freed);
/* The node drawn at (x, y), or NULL. */
const TmScopeNode *tm_icicle_node_at           (TmIcicle          *self,
                                                double             x,
                                                double             y);
/* The tooltip of node (of the tree shown): its scope, bytes, share,
 * allocations and requested bytes. */
char              *tm_icicle_describe_node     (TmIcicle          *self,
                                                const TmScopeNode *node);
/* The name of node of tree for people: translated for a special row,
 * "unknown" for what the file does not name (tm_op_label_display_name). */
char              *tm_icicle_node_name         (TmScopeTree       *tree,
                                                const TmScopeNode *node);
/* Where node is drawn; FALSE when it is not. */
gboolean           tm_icicle_get_node_area     (TmIcicle          *self,
                                                const TmScopeNode *node,
                                                graphene_rect_t   *area);

G_END_DECLS
