/* tm-scope-view.c — where the memory goes: scopes as a tree table and an icicle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table is a GtkColumnView over a GtkTreeListModel whose child lists
 * are the tree's nodes, each list sorted by itself in the column view's
 * order (bytes, largest first, until a header is clicked): no sort model
 * sits over the tree list, so sorting never moves rows out from under
 * their expanders, and a new order rebuilds the lists.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-comparison-query.h"
#include "tm-format.h"
#include "tm-palette.h"
#include "tm-scope-index-query.h"
#include "tm-scope-search.h"
#include "tm-scope-view.h"

/* ------------------------------------------------------------------ */
/* One node as a list item                                              */

#define TM_TYPE_SCOPE_ITEM (tm_scope_item_get_type ())
G_DECLARE_FINAL_TYPE (TmScopeItem, tm_scope_item, TM, SCOPE_ITEM, GObject)

struct _TmScopeItem
{
  GObject            parent_instance;
  TmScopeTree       *tree;
  const TmScopeNode *node;
};

G_DEFINE_FINAL_TYPE (TmScopeItem, tm_scope_item, G_TYPE_OBJECT)

static void
tm_scope_item_finalize (GObject *object)
{
  g_clear_object (&TM_SCOPE_ITEM (object)->tree);
  G_OBJECT_CLASS (tm_scope_item_parent_class)->finalize (object);
}

static void
tm_scope_item_class_init (TmScopeItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_scope_item_finalize;
}

static void
tm_scope_item_init (TmScopeItem *self)
{
}

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      sorter)
{
  return gtk_sorter_compare (sorter, (gpointer) a, (gpointer) b);
}

/* The children of node as items, in the tree's order (bytes, largest
 * first) or, with a sorter, in its order. Each level is sorted by itself,
 * so rows never move out from under their expanders (no sort model sits
 * over the tree list). */
static GListModel *
children_model (TmScopeTree       *tree,
                const TmScopeNode *node,
                GtkSorter         *sorter)
{
  GListStore *store = g_list_store_new (TM_TYPE_SCOPE_ITEM);

  for (guint i = 0; i < node->n_children; i++)
    {
      g_autoptr(TmScopeItem) item = g_object_new (TM_TYPE_SCOPE_ITEM, NULL);

      item->tree = g_object_ref (tree);
      item->node = node->children[i];
      g_list_store_append (store, item);
    }
  if (sorter != NULL && gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
    g_list_store_sort (store, compare_items, sorter);
  return G_LIST_MODEL (store);
}

static GListModel *
create_children (gpointer item,
                 gpointer sorter)
{
  TmScopeItem *self = item;

  if (self->node->n_children == 0)
    return NULL;
  return children_model (self->tree, self->node, sorter);
}

/* ------------------------------------------------------------------ */
/* The view                                                             */

struct _TmScopeView
{
  TmView              parent_instance;

  /* On the session's scope index query: a rebuild when an index arrives. */
  GSignalGroup       *index_signals;
  TmScopeGrouping     grouping;
  TmScopeTree        *tree;
  gboolean            dirty;
  gboolean            syncing;

  GtkWidget          *box;
  GtkLabel           *heading;
  GtkDropDown        *grouping_dropdown;
  GtkWidget          *computing;  /* "Computing scopes…" while the scope index is built */
  GtkBox             *breadcrumb;
  TmIcicle           *icicle;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *delta_column;   /* shown while comparing */
  GtkTreeListModel   *tree_model;
  GtkSingleSelection *selection;

  /* What was never freed instead of what is live (docs/scopes.md, "Never
   * freed"), from the session's allocation index and scope index. */
  gboolean            never_freed;
  GtkToggleButton    *never_freed_button;
  GSignalGroup       *allocations_signals;
  TmScopeSearch      *search;
};

G_DEFINE_FINAL_TYPE (TmScopeView, tm_scope_view, TM_TYPE_VIEW)

enum {
  PROP_0,
  PROP_GROUPING,
  PROP_NEVER_FREED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_breadcrumb (TmScopeView *self);
static void rebuild_rows      (TmScopeView *self);
static void reveal_matches    (TmScopeView *self);
static int  compare_siblings  (const TmScopeNode *a,
                               const TmScopeNode *b,
                               gpointer           user_data);

static void
set_selected_node (TmScopeView       *self,
                   const TmScopeNode *node)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  g_autoptr(TmScope) scope = NULL;

  if (session == NULL || self->tree == NULL)
    return;
  if (node != NULL && node->depth > 0)
    scope = tm_scope_tree_get_scope (self->tree, node);
  tm_session_set_selected_scope (session, scope);
}

/* The table's row of node, expanding its ancestors; G_MAXUINT if none. */
static guint
reveal_row (TmScopeView       *self,
            const TmScopeNode *node)
{
  const TmScopeNode *chain[64];
  guint depth = 0;
  guint start = 0;

  for (const TmScopeNode *n = node; n != NULL && n->depth > 0 && depth < G_N_ELEMENTS (chain); n = n->parent)
    chain[depth++] = n;

  while (depth-- > 0)
    {
      guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->tree_model));
      guint found = G_MAXUINT;

      for (guint i = start; i < n_items && found == G_MAXUINT; i++)
        {
          g_autoptr(GtkTreeListRow) row = gtk_tree_list_model_get_row (self->tree_model, i);
          g_autoptr(TmScopeItem) item = gtk_tree_list_row_get_item (row);

          if (item->node == chain[depth])
            {
              found = i;
              if (depth > 0)
                gtk_tree_list_row_set_expanded (row, TRUE);
            }
        }
      if (found == G_MAXUINT)
        return G_MAXUINT;
      if (depth == 0)
        return found;
      start = found + 1;
    }
  return G_MAXUINT;
}

/* Shows the session's selected scope in the picture and the table. */
static void
sync_selection (TmScopeView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmScope *scope = session != NULL ? tm_session_get_selected_scope (session) : NULL;
  const TmScopeNode *node = NULL;
  guint position;

  if (self->tree != NULL && scope != NULL)
    node = tm_scope_tree_find (self->tree, scope);

  tm_icicle_set_selected (self->icicle, node);

  self->syncing = TRUE;
  position = node != NULL ? reveal_row (self, node) : G_MAXUINT;
  /* No scope (All): no row stays highlighted. GtkSingleSelection's
   * unselect_all() leaves its row selected in GTK 4.8. */
  gtk_single_selection_set_selected (self->selection, position != G_MAXUINT ? position : GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
}

/* "Never freed — 553 allocations, 2.05 GiB" once the allocation index is
 * there. */
static char *
never_freed_heading (TmSession *session)
{
  TmAllocations *allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  guint n;
  g_autofree char *count = NULL;
  g_autofree char *bytes = NULL;

  if (allocations == NULL)
    return g_strdup (_("Never freed"));
  n = tm_allocations_get_n_never_freed (allocations);
  count = tm_format_count (n);
  bytes = tm_format_bytes (tm_allocations_get_never_freed_bytes (allocations));
  /* Translators: heading of the scope view showing what was never freed:
   * a count of allocations, then their size */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Never freed — %s allocation, %s",
                                       "Never freed — %s allocations, %s", n),
                          count, bytes);
}

/* The tree of what was never freed; NULL while the indices are built. */
static TmScopeTree *
never_freed_tree (TmScopeView *self,
                  TmSession   *session)
{
  TmAllocationsQuery *query = tm_allocations_query_get_for_session (session);
  TmAllocations *allocations = tm_allocations_query_get_allocations (query);
  g_autoptr(GArray) events = NULL;

  if (allocations == NULL && tm_allocations_query_get_pending (query))
    return NULL;
  events = allocations != NULL ? tm_allocations_query_never_freed_events (allocations)
                               : g_array_new (FALSE, FALSE, sizeof (guint));
  return tm_scope_index_query_tree_for_allocations (tm_scope_index_query_get_for_session (session),
                                                    self->grouping, events);
}

static void
update_heading (TmScopeView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;
  g_autofree char *text = NULL;

  if (store == NULL)
    text = g_strdup (_("Scopes"));
  else if (self->never_freed)
    text = never_freed_heading (session);
  else
    {
      g_autofree char *time = tm_format_time_ms (tm_session_get_shown_time (session));

      if (!tm_session_get_has_selected_time (session))
        /* Translators: heading of the scope view; %s is a time such as "1 938.413 ms" */
        text = g_strdup_printf (_("Scopes at peak — %s"), time);
      else
        /* Translators: heading of the scope view; %s is a time */
        text = g_strdup_printf (_("Scopes at %s"), time);
    }
  gtk_label_set_label (self->heading, text);
}

static void
rebuild (TmScopeView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAnalysis *analysis = session != NULL ? tm_session_get_analysis (session) : NULL;
  g_autoptr(TmScope) focus_scope = NULL;
  g_autoptr(TmScopeTree) tree = NULL;
  const TmScopeNode *focus = tm_icicle_get_focus (self->icicle);

  self->dirty = FALSE;
  update_heading (self);

  if (self->tree != NULL && focus != NULL && focus->depth > 0)
    focus_scope = tm_scope_tree_get_scope (self->tree, focus);

  if (analysis != NULL && self->never_freed)
    tree = never_freed_tree (self, session);
  else if (analysis != NULL)
    {
      if (!tm_session_get_has_selected_time (session))
        tree = tm_scope_tree_new_at (analysis, TRUE, 0, self->grouping);
      else
        {
          /* The index is built in a worker; until it is there the view
           * says so (and rebuilds on its "index"). Only if it cannot be
           * built do the rows of the table give the tree. */
          TmScopeIndexQuery *query = tm_scope_index_query_get_for_session (session);
          TmScopeIndex *index = tm_scope_index_query_get_index (query, self->grouping);

          if (index != NULL)
            tree = tm_scope_index_tree_at (index, tm_session_get_shown_time (session));
          else if (!tm_scope_index_query_get_pending (query))
            tree = tm_scope_tree_new_at (analysis, FALSE, tm_session_get_shown_time (session), self->grouping);
        }
    }
  gtk_widget_set_visible (self->computing, analysis != NULL && tree == NULL);

  g_set_object (&self->tree, tree);
  tm_icicle_set_tree (self->icicle, tree);
  tm_icicle_set_never_freed (self->icicle, self->never_freed);
  if (tree != NULL && focus_scope != NULL)
    tm_icicle_set_focus (self->icicle, tm_scope_tree_find (tree, focus_scope));
  tm_scope_search_set_tree (self->search, tree);
  tm_icicle_set_matches (self->icicle, tm_scope_search_get_matches (self->search));

  rebuild_rows (self);
  update_breadcrumb (self);
}

/* The table's rows for the tree, each level in the column view's order. */
static void
rebuild_rows (TmScopeView *self)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  g_autoptr(GListModel) root = NULL;

  self->syncing = TRUE;
  root = self->tree != NULL ? children_model (self->tree, tm_scope_tree_get_root (self->tree), sorter)
                            : G_LIST_MODEL (g_list_store_new (TM_TYPE_SCOPE_ITEM));
  g_clear_object (&self->tree_model);
  self->tree_model = gtk_tree_list_model_new (g_steal_pointer (&root), FALSE, FALSE, create_children,
                                              g_object_ref (sorter), g_object_unref);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->tree_model));
  tm_scope_search_set_order (self->search, compare_siblings, self);
  reveal_matches (self);
  self->syncing = FALSE;
  sync_selection (self);
}

static void
queue_rebuild (TmScopeView *self)
{
  update_heading (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    rebuild (self);
  else
    self->dirty = TRUE;
}

/* Only the tree at a selected time, and what was never freed while it
 * waits for it, come from the index. */
static void
index_changed_cb (TmScopeView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (session != NULL && (self->never_freed ? self->tree == NULL : tm_session_get_has_selected_time (session)))
    queue_rebuild (self);
}

/* What was never freed waits for the allocation index. */
static void
allocations_changed_cb (TmScopeView *self)
{
  if (self->never_freed && self->tree == NULL)
    queue_rebuild (self);
}

/* What was never freed does not depend on the time shown. */
static void
time_changed_cb (TmScopeView *self)
{
  if (self->never_freed)
    update_heading (self);
  else
    queue_rebuild (self);
}

static void
never_freed_toggled_cb (TmScopeView *self)
{
  tm_scope_view_set_never_freed (self, gtk_toggle_button_get_active (self->never_freed_button));
}

/* ------------------------------------------------------------------ */
/* Finding scopes (docs/scopes.md, "Finding a scope")                   */

/* Siblings in the table's order, for the search. */
static int
compare_siblings (const TmScopeNode *a,
                  const TmScopeNode *b,
                  gpointer           user_data)
{
  TmScopeView *self = user_data;
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  g_autoptr(TmScopeItem) x = NULL;
  g_autoptr(TmScopeItem) y = NULL;

  if (self->tree == NULL || gtk_sorter_get_order (sorter) == GTK_SORTER_ORDER_NONE)
    return 0;
  x = g_object_new (TM_TYPE_SCOPE_ITEM, NULL);
  y = g_object_new (TM_TYPE_SCOPE_ITEM, NULL);
  x->tree = g_object_ref (self->tree);
  x->node = a;
  y->tree = g_object_ref (self->tree);
  y->node = b;
  return gtk_sorter_compare (sorter, x, y);
}

/* The parents of the first matches expanded, so that their rows show. */
static void
reveal_matches (TmScopeView *self)
{
  GPtrArray *matches = tm_scope_search_get_matches (self->search);

  for (guint i = 0; i < MIN (matches->len, 64); i++)
    reveal_row (self, g_ptr_array_index (matches, i));
}

/* The column view's list scrolls to the selected row (GTK 4.8 has no
 * scroll_to). */
static void
scroll_to_selected (TmScopeView *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  if (position == GTK_INVALID_LIST_POSITION)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

static void
matches_changed_cb (TmScopeView *self)
{
  tm_icicle_set_matches (self->icicle, tm_scope_search_get_matches (self->search));
  /* The rows again, to draw the matches in bold. */
  rebuild_rows (self);
}

/* Selects the current match (as a click on its row would), zooming the
 * picture out when it lies outside the scope shown. */
static void
current_match_cb (TmScopeView       *self,
                  const TmScopeNode *node)
{
  const TmScopeNode *focus = tm_icicle_get_focus (self->icicle);
  const TmScopeNode *n = node;

  while (n != NULL && n != focus)
    n = n->parent;
  if (n == NULL || node == focus)
    {
      tm_icicle_set_focus (self->icicle, node->parent);
      update_breadcrumb (self);
    }
  reveal_row (self, node);
  set_selected_node (self, node);
  sync_selection (self);
  scroll_to_selected (self);
}

static void
tm_scope_view_map (GtkWidget *widget)
{
  TmScopeView *self = TM_SCOPE_VIEW (widget);

  GTK_WIDGET_CLASS (tm_scope_view_parent_class)->map (widget);
  if (self->dirty)
    rebuild (self);
}

/* ------------------------------------------------------------------ */
/* Breadcrumb and picture                                               */

static void
crumb_clicked_cb (GtkButton   *button,
                  TmScopeView *self)
{
  const TmScopeNode *node = g_object_get_data (G_OBJECT (button), "tm-node");

  tm_icicle_set_focus (self->icicle, node);
  set_selected_node (self, node);
  update_breadcrumb (self);
}

static void
update_breadcrumb (TmScopeView *self)
{
  const TmScopeNode *focus = tm_icicle_get_focus (self->icicle);
  const TmScopeNode *chain[64];
  guint depth = 0;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumb))) != NULL)
    gtk_box_remove (self->breadcrumb, child);

  for (const TmScopeNode *n = focus; n != NULL && depth < G_N_ELEMENTS (chain); n = n->parent)
    chain[depth++] = n;
  /* Deep scopes: the first crumb and the last ones. */
  while (depth-- > 0)
    {
      const TmScopeNode *n = chain[depth];
      g_autofree char *name = n->depth == 0 ? g_strdup (_("All")) : tm_icicle_node_name (self->tree, n);
      GtkWidget *button;

      if (n->depth > 0)
        {
          GtkWidget *sep = gtk_label_new ("/");

          gtk_widget_add_css_class (sep, "dim-label");
          gtk_box_append (self->breadcrumb, sep);
        }
      button = gtk_button_new_with_label (name);
      gtk_widget_add_css_class (button, "flat");
      gtk_label_set_ellipsize (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), 18);
      if (n == focus)
        gtk_widget_add_css_class (button, "tm-crumb-current");
      g_object_set_data (G_OBJECT (button), "tm-node", (gpointer) n);
      g_signal_connect (button, "clicked", G_CALLBACK (crumb_clicked_cb), self);
      gtk_widget_set_tooltip_text (button, n->depth == 0 ? _("Show every scope") : _("Zoom to this scope"));
      gtk_box_append (self->breadcrumb, button);
    }
}

static void
node_activated_cb (TmScopeView       *self,
                   const TmScopeNode *node,
                   TmIcicle          *icicle)
{
  /* A click zooms into a scope that has scopes below it; a click on the
   * top bar zooms out one level. */
  if (node == tm_icicle_get_focus (icicle) && node->parent != NULL)
    tm_icicle_set_focus (icicle, node->parent);
  else if (node->n_children > 0)
    tm_icicle_set_focus (icicle, node);
  update_breadcrumb (self);
  set_selected_node (self, node);
}

static void
node_selected_cb (TmScopeView       *self,
                  const TmScopeNode *node,
                  TmIcicle          *icicle)
{
  set_selected_node (self, node);
}

/* ------------------------------------------------------------------ */
/* The table                                                            */

static void
selection_changed_cb (TmScopeView *self)
{
  GtkTreeListRow *row;
  TmScopeItem *item;

  if (self->syncing)
    return;
  row = gtk_single_selection_get_selected_item (self->selection);
  if (row == NULL)
    {
      set_selected_node (self, NULL);
      return;
    }
  item = gtk_tree_list_row_get_item (row);
  set_selected_node (self, item->node);
  g_object_unref (item);
}

static void
swatch_draw (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  const TmScopeNode *node = g_object_get_data (G_OBJECT (area), "tm-node");
  TmPalette palette;
  GdkRGBA fill;

  if (node == NULL)
    return;
  tm_palette_init_for_widget (&palette, GTK_WIDGET (area));
  if (node->special)
    {
      fill = palette.dim;
      fill.alpha = 0.45f;
    }
  else
    tm_palette_color_for_name (node->name, palette.dark, &fill);
  gdk_cairo_set_source_rgba (cr, &fill);
  cairo_rectangle (cr, 0, (height - 12) / 2.0, 12, 12);
  cairo_fill (cr);
}

static void
setup_name_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), swatch_draw, NULL, NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), swatch);
  gtk_box_append (GTK_BOX (box), label);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_name_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *box = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  GtkWidget *swatch = gtk_widget_get_first_child (box);
  GtkWidget *label = gtk_widget_get_last_child (box);
  g_autoptr(TmScopeItem) item = gtk_tree_list_row_get_item (row);
  g_autofree char *name = tm_icicle_node_name (item->tree, item->node);
  TmScopeView *view = g_object_get_data (G_OBJECT (factory), "tm-view");
  g_autoptr(PangoAttrList) bold = NULL;

  /* A search's matches in bold. */
  if (tm_scope_search_is_match (view->search, item->node))
    {
      bold = pango_attr_list_new ();
      pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
    }
  gtk_label_set_attributes (GTK_LABEL (label), bold);
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_label (GTK_LABEL (label), name);
  gtk_widget_set_tooltip_text (label, name);
  g_object_set_data (G_OBJECT (swatch), "tm-node", (gpointer) item->node);
  gtk_widget_queue_draw (swatch);
}

typedef enum
{
  COLUMN_BYTES,
  COLUMN_SHARE,
  COLUMN_ALLOCATIONS,
  COLUMN_REQUESTED,
  COLUMN_DELTA,
} NumberColumn;

/* While comparing (docs/compare.md): the node's bytes minus the same
 * scope's in the baseline at the matching moment; NULL otherwise. */
static char *
format_scope_delta (TmScopeView *self,
                    TmScopeItem *item,
                    char       **exact)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmScopeTree *baseline;
  TmCompare *comparison;
  g_autoptr(TmScope) scope = NULL;
  const TmScopeNode *before;
  gint64 delta;
  g_autofree char *bytes = NULL;
  g_autofree char *change = NULL;

  if (session == NULL || item->node->depth == 0 ||
      (baseline = tm_comparison_query_get_baseline_scope_tree (tm_comparison_query_get_for_session (session),
                                                                  tm_scope_tree_get_grouping (item->tree))) == NULL)
    return NULL;
  scope = tm_scope_tree_get_scope (item->tree, item->node);
  before = tm_compare_match_scope (baseline, scope);
  comparison = tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (session));
  if (before == NULL && comparison != NULL)
    {
      /* A layer or model the baseline numbered otherwise (docs/compare.md). */
      g_autoptr(TmScope) renamed = tm_compare_lookup_renumbered_scope (comparison, scope);

      if (renamed != NULL)
        before = tm_compare_match_scope (baseline, renamed);
    }
  delta = item->node->bytes - (before != NULL ? before->bytes : 0);
  *exact = tm_format_bytes_exact (delta);
  bytes = tm_format_bytes_delta (delta);
  if (before == NULL)
    /* Translators: a scope's difference when the baseline has no such scope */
    return g_strdup_printf (_("%s (new)"), bytes);
  change = tm_format_percent_change (delta, before->bytes);
  return change != NULL ? g_strdup_printf ("%s (%s)", bytes, change) : g_steal_pointer (&bytes);
}

static void
setup_number_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "tm-numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_number_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  NumberColumn column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "tm-column"));
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr(TmScopeItem) item = gtk_tree_list_row_get_item (row);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;
  g_autofree char *exact = NULL;

  switch (column)
    {
    case COLUMN_BYTES:
      text = tm_format_bytes (item->node->bytes);
      exact = tm_format_bytes_exact (item->node->bytes);
      break;
    case COLUMN_SHARE:
      text = tm_format_percent (tm_scope_tree_get_share (item->tree, item->node));
      break;
    case COLUMN_ALLOCATIONS:
      text = tm_format_count (item->node->n_allocations);
      break;
    case COLUMN_DELTA:
      text = format_scope_delta (g_object_get_data (G_OBJECT (factory), "tm-view"), item, &exact);
      break;
    case COLUMN_REQUESTED:
    default:
      text = tm_format_bytes (item->node->requested_bytes);
      exact = tm_format_bytes_exact (item->node->requested_bytes);
      break;
    }
  gtk_label_set_label (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, exact);
}

/* Column sorters: they compare TmScopeItems, for children_model(). */
static gint64
item_number (TmScopeItem  *item,
             NumberColumn  column)
{
  switch (column)
    {
    case COLUMN_ALLOCATIONS:
      return (gint64) item->node->n_allocations;
    case COLUMN_REQUESTED:
      return item->node->requested_bytes;
    case COLUMN_BYTES:
    case COLUMN_SHARE:
    default:
      return item->node->bytes;
    }
}

static int
compare_numbers (gconstpointer a,
                 gconstpointer b,
                 gpointer      column)
{
  gint64 x = item_number ((TmScopeItem *) a, GPOINTER_TO_INT (column));
  gint64 y = item_number ((TmScopeItem *) b, GPOINTER_TO_INT (column));

  if (x != y)
    return x < y ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
  /* Ties in the tree's own order (by name). */
  return gtk_ordering_from_cmpfunc (strcmp (((TmScopeItem *) a)->node->name, ((TmScopeItem *) b)->node->name));
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      column)
{
  int c = g_utf8_collate (((TmScopeItem *) a)->node->name, ((TmScopeItem *) b)->node->name);

  if (c != 0)
    return gtk_ordering_from_cmpfunc (c);
  return compare_numbers (a, b, GINT_TO_POINTER (COLUMN_BYTES));
}

static void
add_column (TmScopeView  *self,
            const char   *title,
            gboolean      name,
            NumberColumn  column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) col = NULL;

  g_object_set_data (G_OBJECT (factory), "tm-column", GINT_TO_POINTER (column));
  g_object_set_data (G_OBJECT (factory), "tm-view", self);
  g_signal_connect (factory, "setup", name ? G_CALLBACK (setup_name_cb) : G_CALLBACK (setup_number_cb), NULL);
  g_signal_connect (factory, "bind", name ? G_CALLBACK (bind_name_cb) : G_CALLBACK (bind_number_cb), NULL);
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (col, GTK_SORTER (gtk_custom_sorter_new (name ? compare_names : compare_numbers,
                                                                              GINT_TO_POINTER (column), NULL)));
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, name);
  gtk_column_view_append_column (self->column_view, col);
  if (column == COLUMN_DELTA)
    self->delta_column = col;
}

static void
baseline_changed (TmScopeView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  gtk_column_view_column_set_visible (self->delta_column,
                                      session != NULL && tm_session_get_baseline (session) != NULL);
  queue_rebuild (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
grouping_selected_cb (TmScopeView *self)
{
  tm_scope_view_set_grouping (self, gtk_drop_down_get_selected (self->grouping_dropdown));
}

static void
tm_scope_view_session_changed (TmView    *view,
                               TmSession *old_session)
{
  TmScopeView *self = TM_SCOPE_VIEW (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->index_signals,
                             session != NULL ? tm_scope_index_query_get_for_session (session) : NULL);
  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  baseline_changed (self);
}

static void
tm_scope_view_dispose (GObject *object)
{
  TmScopeView *self = TM_SCOPE_VIEW (object);

  /* Removing the columns changes the sorter: nothing to rebuild then. */
  if (self->column_view != NULL)
    g_signal_handlers_disconnect_by_data (gtk_column_view_get_sorter (self->column_view), self);
  self->column_view = NULL;
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->index_signals);
  g_clear_object (&self->allocations_signals);
  g_clear_object (&self->tree);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->selection);

  G_OBJECT_CLASS (tm_scope_view_parent_class)->dispose (object);
}

static void
tm_scope_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TmScopeView *self = TM_SCOPE_VIEW (object);

  switch (prop_id)
    {
    case PROP_GROUPING:
      g_value_set_int (value, self->grouping);
      break;
    case PROP_NEVER_FREED:
      g_value_set_boolean (value, self->never_freed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_scope_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TmScopeView *self = TM_SCOPE_VIEW (object);

  switch (prop_id)
    {
    case PROP_GROUPING:
      tm_scope_view_set_grouping (self, g_value_get_int (value));
      break;
    case PROP_NEVER_FREED:
      tm_scope_view_set_never_freed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_scope_view_class_init (TmScopeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_scope_view_dispose;
  object_class->get_property = tm_scope_view_get_property;
  object_class->set_property = tm_scope_view_set_property;
  widget_class->map = tm_scope_view_map;
  view_class->session_changed = tm_scope_view_session_changed;

  properties[PROP_GROUPING] =
    g_param_spec_int ("grouping", NULL, NULL, 0, TM_SCOPE_N_GROUPINGS - 1, TM_SCOPE_GROUPING_NAME,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEVER_FREED] =
    g_param_spec_boolean ("never-freed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "scopeview");
}

static void
tm_scope_view_init (TmScopeView *self)
{
  const char *groupings[] = { N_("Name scope"), N_("Region type"), N_("Data type"), N_("Shape"), NULL };
  const char *translated[G_N_ELEMENTS (groupings)];
  GSignalGroup *session_signals;
  GtkWidget *header, *paned, *scrolled, *label;

  for (guint i = 0; i < G_N_ELEMENTS (groupings); i++)
    translated[i] = groupings[i] != NULL ? _(groupings[i]) : NULL;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->heading = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->heading, 0);
  gtk_label_set_ellipsize (self->heading, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->heading), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "heading");
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->heading));
  self->computing = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (self->computing), gtk_spinner_new ());
  gtk_spinner_start (GTK_SPINNER (gtk_widget_get_first_child (self->computing)));
  label = gtk_label_new (_("Computing scopes…"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (self->computing), label);
  gtk_widget_set_visible (self->computing, FALSE);
  gtk_box_append (GTK_BOX (header), self->computing);
  /* The search in the header, which is as tall anyway. */
  self->search = TM_SCOPE_SEARCH (tm_scope_search_new ());
  g_signal_connect_swapped (self->search, "matches-changed", G_CALLBACK (matches_changed_cb), self);
  g_signal_connect_swapped (self->search, "current-changed", G_CALLBACK (current_match_cb), self);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->search));
  self->never_freed_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Never Freed")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->never_freed_button),
                               _("Only the allocations never freed, whenever they were made: what is still live at the end "
                                 "of the profile, as a leak flame graph"));
  g_signal_connect_swapped (self->never_freed_button, "toggled", G_CALLBACK (never_freed_toggled_cb), self);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->never_freed_button));
  label = gtk_label_new_with_mnemonic (_("_Group by"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (header), label);
  self->grouping_dropdown = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (translated));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->grouping_dropdown));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->grouping_dropdown),
                               _("Group the live allocations by the op name split at “/”, or by region type, data type or shape"));
  g_signal_connect_swapped (self->grouping_dropdown, "notify::selected", G_CALLBACK (grouping_selected_cb), self);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->grouping_dropdown));
  gtk_box_append (GTK_BOX (self->box), header);

  self->breadcrumb = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0));
  gtk_widget_add_css_class (GTK_WIDGET (self->breadcrumb), "tm-breadcrumb");
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->breadcrumb));
  gtk_box_append (GTK_BOX (self->box), scrolled);

  self->icicle = TM_ICICLE (tm_icicle_new ());
  g_signal_connect_swapped (self->icicle, "node-activated", G_CALLBACK (node_activated_cb), self);
  g_signal_connect_swapped (self->icicle, "node-selected", G_CALLBACK (node_selected_cb), self);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (g_object_ref (GTK_SELECTION_MODEL (self->selection))));
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scopes"), -1);
  add_column (self, _("Scope"), TRUE, 0);
  add_column (self, _("Bytes"), FALSE, COLUMN_BYTES);
  add_column (self, _("Share"), FALSE, COLUMN_SHARE);
  add_column (self, _("Allocations"), FALSE, COLUMN_ALLOCATIONS);
  add_column (self, _("Requested"), FALSE, COLUMN_REQUESTED);
  /* Translators: the scope table's column while comparing */
  add_column (self, _("Δ Baseline"), FALSE, COLUMN_DELTA);
  gtk_column_view_column_set_visible (self->delta_column, FALSE);
  /* Sorted by bytes, largest first, until a header is clicked; a new
   * order rebuilds each level in it. */
  {
    g_autoptr(GtkColumnViewColumn) bytes = g_list_model_get_item (gtk_column_view_get_columns (self->column_view), 1);

    gtk_column_view_sort_by_column (self->column_view, bytes, GTK_SORT_DESCENDING);
  }
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (rebuild_rows), self, G_CONNECT_SWAPPED);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->column_view));
  gtk_widget_set_size_request (scrolled, -1, 60);

  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_paned_set_start_child (GTK_PANED (paned), GTK_WIDGET (self->icicle));
  gtk_paned_set_end_child (GTK_PANED (paned), scrolled);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 6 * TM_ICICLE_ROW_HEIGHT);
  gtk_box_append (GTK_BOX (self->box), paned);
  /* Shown, the tab puts the focus on the tree, not in the search entry
   * (which would take the zoom keys). */
  tm_view_set_first_focus (TM_VIEW (self), GTK_WIDGET (self->column_view));

  session_signals = tm_view_get_session_signals (TM_VIEW (self));
  g_signal_group_connect_swapped (session_signals, "notify::memory-store", G_CALLBACK (queue_rebuild), self);
  g_signal_group_connect_swapped (session_signals, "notify::has-selected-time", G_CALLBACK (time_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-time", G_CALLBACK (time_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-scope", G_CALLBACK (sync_selection), self);
  g_signal_group_connect_swapped (session_signals, "notify::baseline", G_CALLBACK (baseline_changed), self);
  g_signal_group_connect_swapped (session_signals, "notify::alignment", G_CALLBACK (queue_rebuild), self);
  self->index_signals = g_signal_group_new (TM_TYPE_SCOPE_INDEX_QUERY);
  g_signal_group_connect_swapped (self->index_signals, "notify::index", G_CALLBACK (index_changed_cb), self);
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations",
                                  G_CALLBACK (allocations_changed_cb), self);

  self->dirty = TRUE;
  update_heading (self);
}

GtkWidget *
tm_scope_view_new (void)
{
  return g_object_new (TM_TYPE_SCOPE_VIEW, NULL);
}

TmScopeGrouping
tm_scope_view_get_grouping (TmScopeView *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_VIEW (self), TM_SCOPE_GROUPING_NAME);
  return self->grouping;
}

void
tm_scope_view_set_grouping (TmScopeView     *self,
                            TmScopeGrouping  grouping)
{
  TmSession *session;
  const TmScope *selected;

  g_return_if_fail (TM_IS_SCOPE_VIEW (self));
  g_return_if_fail (grouping < TM_SCOPE_N_GROUPINGS);

  session = tm_view_get_session (TM_VIEW (self));

  if (self->grouping == grouping)
    return;
  self->grouping = grouping;
  gtk_drop_down_set_selected (self->grouping_dropdown, grouping);
  /* A scope of another grouping is not in the new tree. */
  selected = session != NULL ? tm_session_get_selected_scope (session) : NULL;
  if (selected != NULL && selected->grouping != grouping)
    tm_session_set_selected_scope (session, NULL);
  tm_icicle_set_tree (self->icicle, NULL);
  g_clear_object (&self->tree);
  queue_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROUPING]);
}

TmScopeTree *
tm_scope_view_get_tree (TmScopeView *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_VIEW (self), NULL);
  return self->tree;
}

TmIcicle *
tm_scope_view_get_icicle (TmScopeView *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_VIEW (self), NULL);
  return self->icicle;
}

GtkColumnView *
tm_scope_view_get_column_view (TmScopeView *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_VIEW (self), NULL);
  return self->column_view;
}

gboolean
tm_scope_view_get_never_freed (TmScopeView *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_VIEW (self), FALSE);
  return self->never_freed;
}

void
tm_scope_view_set_never_freed (TmScopeView *self,
                               gboolean     never_freed)
{
  g_return_if_fail (TM_IS_SCOPE_VIEW (self));

  never_freed = !!never_freed;
  if (self->never_freed == never_freed)
    return;
  self->never_freed = never_freed;
  gtk_toggle_button_set_active (self->never_freed_button, never_freed);
  tm_icicle_set_tree (self->icicle, NULL);
  g_clear_object (&self->tree);
  queue_rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEVER_FREED]);
}

TmScopeSearch *
tm_scope_view_get_search (TmScopeView *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_VIEW (self), NULL);
  return self->search;
}
