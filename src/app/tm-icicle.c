/* tm-icicle.c — a scope tree drawn as an icicle picture
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-icicle.h"
#include "tm-op-label.h"
#include "tm-palette.h"

/* Narrower nodes are not drawn (their bytes still widen their parent). */
#define MIN_NODE_WIDTH   1.0
/* Narrower nodes get no label. */
#define MIN_LABEL_WIDTH  28.0
#define GAP              1.0

/* A box is a chain of scopes drawn as one row: from first (the top of the
 * chain) down to node, the one whose children are drawn below
 * (docs/scopes.md, "The view"). Usually first == node. */
typedef struct
{
  const TmScopeNode *node;
  const TmScopeNode *first;
  graphene_rect_t    area;
} Box;

/* Whether box draws node: node is in its chain. */
static gboolean
box_holds (const Box         *box,
           const TmScopeNode *node)
{
  for (const TmScopeNode *n = box->node; n != NULL && node != NULL && n->depth >= box->first->depth; n = n->parent)
    if (n == node)
      return TRUE;
  return FALSE;
}

/* The end of the chain that starts at node, drawn width pixels wide: a
 * node goes on into its largest child while everything else in it (its
 * own bytes and the other children) would be narrower than a drawn node,
 * so that the row would show that child alone. The root and special rows
 * never merge. */
static const TmScopeNode *
chain_end (const TmScopeNode *node,
           double             width)
{
  if (node->depth == 0)
    return node;
  while (!node->special && node->n_children > 0 && node->bytes > 0 &&
         width * (double) (node->bytes - node->children[0]->bytes) / (double) node->bytes < MIN_NODE_WIDTH)
    node = node->children[0];
  return node;
}

struct _TmIcicle
{
  GtkWidget          parent_instance;

  TmScopeTree       *tree;
  const TmScopeNode *focus;
  const TmScopeNode *selected;
  const TmScopeNode *hovered;
  GArray            *boxes;  /* Box, laid out for boxes_width × boxes_height */
  int                boxes_width;
  int                boxes_height;
  GHashTable        *matches;    /* a search's nodes (NULL: no search) */
  GHashTable        *holders;    /* their ancestors */
  gboolean           never_freed;
};

G_DEFINE_FINAL_TYPE (TmIcicle, tm_icicle, GTK_TYPE_WIDGET)

enum {
  NODE_ACTIVATED,
  NODE_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Layout                                                              */

static void
place (TmIcicle          *self,
       const TmScopeNode *node,
       double             x,
       double             width,
       guint              row,
       int                height)
{
  Box box;
  double cx = x;

  if (width < MIN_NODE_WIDTH || (int) (row + 1) * TM_ICICLE_ROW_HEIGHT > height)
    return;

  box.first = node;
  box.node = node = chain_end (node, width);
  graphene_rect_init (&box.area, x, row * TM_ICICLE_ROW_HEIGHT, width, TM_ICICLE_ROW_HEIGHT);
  g_array_append_val (self->boxes, box);

  if (node->bytes <= 0)
    return;
  for (guint i = 0; i < node->n_children; i++)
    {
      const TmScopeNode *child = node->children[i];
      double cw = width * (double) child->bytes / (double) node->bytes;

      place (self, child, cx, cw, row + 1, height);
      cx += cw;
    }
}

static void
ensure_layout (TmIcicle *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));

  if (self->boxes->len > 0 && self->boxes_width == width && self->boxes_height == height)
    return;

  g_array_set_size (self->boxes, 0);
  self->boxes_width = width;
  self->boxes_height = height;
  if (self->tree == NULL || width <= 0)
    return;
  place (self, self->focus, 0, width, 0, height);
}

static void
relayout (TmIcicle *self)
{
  g_array_set_size (self->boxes, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const TmScopeNode *
tm_icicle_node_at (TmIcicle *self,
                   double    x,
                   double    y)
{
  g_return_val_if_fail (TM_IS_ICICLE (self), NULL);

  ensure_layout (self);
  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);

      if (graphene_rect_contains_point (&box->area, &GRAPHENE_POINT_INIT (x, y)))
        return box->node;
    }
  return NULL;
}

gboolean
tm_icicle_get_node_area (TmIcicle          *self,
                         const TmScopeNode *node,
                         graphene_rect_t   *area)
{
  g_return_val_if_fail (TM_IS_ICICLE (self), FALSE);

  ensure_layout (self);
  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);

      if (box_holds (box, node))
        {
          *area = box->area;
          return TRUE;
        }
    }
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Drawing                                                             */

char *
tm_icicle_node_name (TmScopeTree       *tree,
                     const TmScopeNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);

  /* A data type group of data type 0 is one the file did not give. */
  if (tree != NULL && node->depth == 1 && !node->special &&
      tm_scope_tree_get_grouping (tree) == TM_SCOPE_GROUPING_DATA_TYPE)
    return g_strdup (tm_op_label_display_value (node->name));
  return tm_op_label_display_name (node->name, node->special);
}

/* The names of first down to node, joined by separator. */
static char *
chain_names (TmScopeTree       *tree,
             const TmScopeNode *first,
             const TmScopeNode *node,
             const char        *separator)
{
  GString *out = g_string_new (NULL);
  const TmScopeNode *chain[256];
  guint n = 0;

  for (const TmScopeNode *c = node; c != NULL && n < G_N_ELEMENTS (chain); c = c->parent)
    {
      chain[n++] = c;
      if (c == first)
        break;
    }
  while (n-- > 0)
    {
      g_autofree char *name = NULL;

      if (chain[n]->depth == 0)
        continue;
      if (out->len > 0)
        g_string_append (out, separator);
      name = tm_icicle_node_name (tree, chain[n]);
      g_string_append (out, name);
    }
  return g_string_free (out, FALSE);
}

static char *
node_label (TmIcicle  *self,
            const Box *box)
{
  g_autofree char *bytes = tm_format_bytes (box->node->bytes);
  g_autofree char *name = NULL;

  if (box->node->depth == 0 && self->never_freed)
    /* Translators: the icicle's top bar at the root of what was never
     * freed; %s is a size */
    return g_strdup_printf (_("All never-freed memory — %s"), bytes);
  if (box->node->depth == 0)
    /* Translators: the icicle's top bar at the tree's root; %s is a size */
    return g_strdup_printf (_("All live memory — %s"), bytes);
  name = chain_names (self->tree, box->first, box->node, "/");
  /* Translators: a node of the icicle: its name and size */
  return g_strdup_printf (_("%s — %s"), name, bytes);
}

static void
node_color (const TmScopeNode *node,
            const TmPalette   *palette,
            GdkRGBA           *fill)
{
  if (node->depth == 0 || node->special)
    {
      /* The root and the special rows (not ops): neutral. */
      *fill = palette->dim;
      fill->alpha = node->depth == 0 ? 0.30f : 0.45f;
      return;
    }
  tm_palette_color_for_name (node->name, palette->dark, fill);
}

/* Whether a node of box's chain is a match. */
static gboolean
box_matches (TmIcicle  *self,
             const Box *box)
{
  if (self->matches == NULL)
    return FALSE;
  for (const TmScopeNode *n = box->node; n != NULL && n->depth >= box->first->depth; n = n->parent)
    if (g_hash_table_contains (self->matches, n))
      return TRUE;
  return FALSE;
}

/* Whether box lies in a match or holds one: it is not dimmed. */
static gboolean
box_lit (TmIcicle  *self,
         const Box *box)
{
  for (const TmScopeNode *n = box->node; n != NULL; n = n->parent)
    if (g_hash_table_contains (self->matches, n))
      return TRUE;
  for (const TmScopeNode *n = box->node; n != NULL && n->depth >= box->first->depth; n = n->parent)
    if (g_hash_table_contains (self->holders, n))
      return TRUE;
  return FALSE;
}

static void
tm_icicle_snapshot (GtkWidget   *widget,
                    GtkSnapshot *snapshot)
{
  TmIcicle *self = TM_ICICLE (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  TmPalette palette;
  GdkRGBA dark_text = { 0, 0, 0, 0.87f };
  GdkRGBA light_text = { 1, 1, 1, 0.95f };

  tm_palette_init_for_widget (&palette, widget);
  ensure_layout (self);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const Box *box = &g_array_index (self->boxes, Box, i);
      graphene_rect_t r = box->area;
      GdkRGBA fill;
      double lum;

      node_color (box->node, &palette, &fill);
      r.size.width = MAX (r.size.width - GAP, 1.0);
      r.size.height -= GAP;
      gtk_snapshot_append_color (snapshot, &fill, &r);
      if (box_holds (box, self->hovered))
        {
          GdkRGBA glow = palette.dark ? (GdkRGBA) { 1, 1, 1, 0.18f } : (GdkRGBA) { 1, 1, 1, 0.35f };

          gtk_snapshot_append_color (snapshot, &glow, &r);
        }
      if (self->matches != NULL && !box_lit (self, box))
        {
          GdkRGBA veil = palette.background;

          veil.alpha = 0.7f;
          gtk_snapshot_append_color (snapshot, &veil, &r);
        }
      if (box_matches (self, box))
        {
          GskRoundedRect outline;
          float w = 2.0f;

          gsk_rounded_rect_init_from_rect (&outline, &r, 0);
          gtk_snapshot_append_border (snapshot, &outline, (float[]) { w, w, w, w },
                                      (GdkRGBA[]) { palette.accent, palette.accent, palette.accent, palette.accent });
        }
      if (box_holds (box, self->selected))
        {
          GskRoundedRect outline;
          float w = 2.0f;

          gsk_rounded_rect_init_from_rect (&outline, &r, 0);
          gtk_snapshot_append_border (snapshot, &outline, (float[]) { w, w, w, w },
                                      (GdkRGBA[]) { palette.fg, palette.fg, palette.fg, palette.fg });
        }

      if (r.size.width < MIN_LABEL_WIDTH)
        continue;
      {
        g_autofree char *label = node_label (self, box);
        int text_height;

        /* Text dark on light fills, light on dark ones. */
        lum = 0.2126 * fill.red + 0.7152 * fill.green + 0.0722 * fill.blue;
        if (fill.alpha < 0.9f)
          lum = palette.dark ? 0.0 : 1.0;
        pango_layout_set_text (layout, label, -1);
        pango_layout_set_width (layout, (int) ((r.size.width - 8) * PANGO_SCALE));
        pango_layout_get_pixel_size (layout, NULL, &text_height);
        gtk_snapshot_save (snapshot);
        gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (r.origin.x + 4,
                                                                r.origin.y + (r.size.height - text_height) / 2));
        gtk_snapshot_append_layout (snapshot, layout, lum > 0.5 ? &dark_text : &light_text);
        gtk_snapshot_restore (snapshot);
      }
    }

  if (gtk_widget_has_visible_focus (widget) && self->selected != NULL)
    {
      graphene_rect_t area;

      if (tm_icicle_get_node_area (self, self->selected, &area))
        {
          GskRoundedRect outline;
          GdkRGBA accent;
          float w = 1.0f;

          tm_palette_get_color (TM_PALETTE_ACCENT, palette.dark, &accent);
          graphene_rect_inset (&area, -1, -1);
          gsk_rounded_rect_init_from_rect (&outline, &area, 0);
          gtk_snapshot_append_border (snapshot, &outline, (float[]) { w, w, w, w },
                                      (GdkRGBA[]) { accent, accent, accent, accent });
        }
    }
}

static void
tm_icicle_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  relayout (TM_ICICLE (widget));
}

static void
tm_icicle_measure (GtkWidget      *widget,
                   GtkOrientation  orientation,
                   int             for_size,
                   int            *minimum,
                   int            *natural,
                   int            *minimum_baseline,
                   int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 120;
  else
    {
      *minimum = 2 * TM_ICICLE_ROW_HEIGHT;
      *natural = 6 * TM_ICICLE_ROW_HEIGHT;
    }
}

/* ------------------------------------------------------------------ */
/* Input                                                               */

static void
set_hovered (TmIcicle          *self,
             const TmScopeNode *node)
{
  if (self->hovered == node)
    return;
  self->hovered = node;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), node != NULL ? "pointer" : NULL);
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
motion_cb (TmIcicle                 *self,
           double                    x,
           double                    y,
           GtkEventControllerMotion *controller)
{
  set_hovered (self, tm_icicle_node_at (self, x, y));
}

static void
leave_cb (TmIcicle                 *self,
          GtkEventControllerMotion *controller)
{
  set_hovered (self, NULL);
}

static void
released_cb (TmIcicle        *self,
             int              n_press,
             double           x,
             double           y,
             GtkGestureClick *gesture)
{
  const TmScopeNode *node = tm_icicle_node_at (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (node != NULL)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, node);
}

char *
tm_icicle_describe_node (TmIcicle          *self,
                         const TmScopeNode *node)
{
  g_autofree char *path = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *share = NULL;
  g_autofree char *count = NULL;
  g_autofree char *requested = NULL;

  g_return_val_if_fail (TM_IS_ICICLE (self), NULL);
  g_return_val_if_fail (node != NULL && self->tree != NULL, NULL);

  if (node->depth > 0)
    path = chain_names (self->tree, NULL, node, " / ");
  else if (self->never_freed)
    path = g_strdup (_("All never-freed memory"));
  else
    path = g_strdup (_("All live memory"));
  bytes = tm_format_bytes (node->bytes);
  exact = tm_format_bytes_exact (node->bytes);
  share = tm_format_percent (tm_scope_tree_get_share (self->tree, node));
  count = tm_format_count (node->n_allocations);
  requested = tm_format_bytes (node->requested_bytes);
  if (self->never_freed)
    /* Translators: the icicle's tooltip over what was never freed: scope;
     * size (exact), share of what was never freed; allocations; requested
     * size */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%s\n%s (%s), %s of what was never freed\n%s allocation, %s requested",
                                         "%s\n%s (%s), %s of what was never freed\n%s allocations, %s requested",
                                         (gulong) MIN (node->n_allocations, G_MAXULONG)),
                            path, bytes, exact, share, count, requested);
  /* Translators: the icicle's tooltip: scope; size (exact), share of the
   * memory in use; allocations; requested size */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s\n%s (%s), %s of the memory in use\n%s allocation, %s requested",
                                       "%s\n%s (%s), %s of the memory in use\n%s allocations, %s requested",
                                       (gulong) MIN (node->n_allocations, G_MAXULONG)),
                          path, bytes, exact, share, count, requested);
}

static gboolean
query_tooltip_cb (TmIcicle   *self,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip)
{
  const TmScopeNode *node = keyboard ? self->selected : tm_icicle_node_at (self, x, y);
  g_autofree char *text = NULL;

  if (node == NULL || self->tree == NULL)
    return FALSE;

  text = tm_icicle_describe_node (self, node);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
select_and_notify (TmIcicle          *self,
                   const TmScopeNode *node)
{
  if (node == NULL)
    return;
  tm_icicle_set_selected (self, node);
  g_signal_emit (self, signals[NODE_SELECTED], 0, node);
}

static const TmScopeNode *
sibling (const TmScopeNode *node,
         int                delta)
{
  const TmScopeNode *parent = node->parent;

  if (parent == NULL)
    return NULL;
  for (guint i = 0; i < parent->n_children; i++)
    if (parent->children[i] == node)
      {
        int j = (int) i + delta;

        return j >= 0 && j < (int) parent->n_children ? parent->children[j] : NULL;
      }
  return NULL;
}

static gboolean
key_pressed_cb (TmIcicle              *self,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                GtkEventControllerKey *controller)
{
  const TmScopeNode *at = self->selected != NULL ? self->selected : self->focus;

  if (self->tree == NULL || at == NULL)
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      select_and_notify (self, sibling (at, -1));
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      select_and_notify (self, sibling (at, +1));
      return TRUE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      select_and_notify (self, at->n_children > 0 ? at->children[0] : NULL);
      return TRUE;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      if (at != self->focus && at->parent != NULL)
        select_and_notify (self, at->parent);
      return TRUE;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      g_signal_emit (self, signals[NODE_ACTIVATED], 0, at);
      return TRUE;
    case GDK_KEY_BackSpace:
      if (self->focus != NULL && self->focus->parent != NULL)
        g_signal_emit (self, signals[NODE_ACTIVATED], 0, self->focus->parent);
      return TRUE;
    default:
      return FALSE;
    }
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
tm_icicle_dispose (GObject *object)
{
  TmIcicle *self = TM_ICICLE (object);

  g_clear_object (&self->tree);
  g_clear_pointer (&self->boxes, g_array_unref);
  g_clear_pointer (&self->matches, g_hash_table_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);

  G_OBJECT_CLASS (tm_icicle_parent_class)->dispose (object);
}

static void
tm_icicle_class_init (TmIcicleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_icicle_dispose;
  widget_class->snapshot = tm_icicle_snapshot;
  widget_class->size_allocate = tm_icicle_size_allocate;
  widget_class->measure = tm_icicle_measure;

  /* A node was clicked or Enter was pressed on it. */
  signals[NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* The keyboard moved the selection to a node. */
  signals[NODE_SELECTED] =
    g_signal_new ("node-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_css_name (widget_class, "icicle");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_icicle_init (TmIcicle *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->boxes = g_array_new (FALSE, FALSE, sizeof (Box));

  g_signal_connect_swapped (motion, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect_swapped (motion, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, motion);
  g_signal_connect_swapped (click, "released", G_CALLBACK (released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (click));
  g_signal_connect_swapped (key, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (widget, key);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Scopes picture"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Each scope as wide as its memory; click to zoom in, Backspace to zoom out"),
                                  -1);
}

GtkWidget *
tm_icicle_new (void)
{
  return g_object_new (TM_TYPE_ICICLE, NULL);
}

void
tm_icicle_set_tree (TmIcicle    *self,
                    TmScopeTree *tree)
{
  g_return_if_fail (TM_IS_ICICLE (self));

  g_set_object (&self->tree, tree);
  g_clear_pointer (&self->matches, g_hash_table_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);
  self->focus = tree != NULL ? tm_scope_tree_get_root (tree) : NULL;
  self->selected = NULL;
  self->hovered = NULL;
  relayout (self);
}

TmScopeTree *
tm_icicle_get_tree (TmIcicle *self)
{
  g_return_val_if_fail (TM_IS_ICICLE (self), NULL);
  return self->tree;
}

void
tm_icicle_set_focus (TmIcicle          *self,
                     const TmScopeNode *node)
{
  g_return_if_fail (TM_IS_ICICLE (self));

  if (self->tree == NULL)
    return;
  self->focus = node != NULL ? node : tm_scope_tree_get_root (self->tree);
  self->hovered = NULL;
  relayout (self);
}

const TmScopeNode *
tm_icicle_get_focus (TmIcicle *self)
{
  g_return_val_if_fail (TM_IS_ICICLE (self), NULL);
  return self->focus;
}

void
tm_icicle_set_selected (TmIcicle          *self,
                        const TmScopeNode *node)
{
  g_return_if_fail (TM_IS_ICICLE (self));

  if (self->selected == node)
    return;
  self->selected = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const TmScopeNode *
tm_icicle_get_selected (TmIcicle *self)
{
  g_return_val_if_fail (TM_IS_ICICLE (self), NULL);
  return self->selected;
}

void
tm_icicle_set_matches (TmIcicle  *self,
                       GPtrArray *nodes)
{
  g_return_if_fail (TM_IS_ICICLE (self));

  g_clear_pointer (&self->matches, g_hash_table_unref);
  g_clear_pointer (&self->holders, g_hash_table_unref);
  if (nodes != NULL && nodes->len > 0)
    {
      self->matches = g_hash_table_new (NULL, NULL);
      self->holders = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < nodes->len; i++)
        {
          const TmScopeNode *node = g_ptr_array_index (nodes, i);

          g_hash_table_add (self->matches, (gpointer) node);
          for (const TmScopeNode *n = node->parent; n != NULL && g_hash_table_add (self->holders, (gpointer) n);
               n = n->parent)
            ;
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tm_icicle_set_never_freed (TmIcicle *self,
                           gboolean  never_freed)
{
  g_return_if_fail (TM_IS_ICICLE (self));

  if (self->never_freed == !!never_freed)
    return;
  self->never_freed = !!never_freed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
