/* tm-scope-search.c — finding scopes by name: an entry, a count, next and previous
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-scope-search.h"

#define MAX_DEPTH 256

struct _TmScopeSearch
{
  GtkWidget           parent_instance;

  GtkWidget          *box;
  GtkSearchEntry     *entry;
  GtkLabel           *count;
  GtkWidget          *previous;
  GtkWidget          *next;

  TmScopeTree        *tree;
  GPtrArray          *matches;  /* const TmScopeNode *, in the table's order */
  GHashTable         *match_set;
  guint               current;  /* index in matches; G_MAXUINT: none */
  TmScopeSearchOrder  order;
  gpointer            order_data;
};

G_DEFINE_FINAL_TYPE (TmScopeSearch, tm_scope_search, GTK_TYPE_WIDGET)

enum {
  MATCHES_CHANGED,
  CURRENT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The position of node among its parent's children (the tree's order). */
static guint
position_of (const TmScopeNode *node)
{
  for (guint i = 0; node->parent != NULL && i < node->parent->n_children; i++)
    if (node->parent->children[i] == node)
      return i;
  return 0;
}

/* Depth first in the table's order: an ancestor before what it holds,
 * siblings by the view's order (ties and no order: the tree's). */
static int
compare_matches (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  TmScopeSearch *self = user_data;
  const TmScopeNode *x = *(const TmScopeNode * const *) a;
  const TmScopeNode *y = *(const TmScopeNode * const *) b;
  const TmScopeNode *px[MAX_DEPTH], *py[MAX_DEPTH];
  guint nx = 0, ny = 0;
  int c;

  for (const TmScopeNode *n = x; n != NULL && n->depth > 0 && nx < MAX_DEPTH; n = n->parent)
    px[nx++] = n;
  for (const TmScopeNode *n = y; n != NULL && n->depth > 0 && ny < MAX_DEPTH; n = n->parent)
    py[ny++] = n;
  /* From the top down to where they part. */
  while (nx > 0 && ny > 0 && px[nx - 1] == py[ny - 1])
    {
      nx--;
      ny--;
    }
  if (nx == 0 || ny == 0)
    return nx == ny ? 0 : nx == 0 ? -1 : 1;
  if (self->order != NULL && (c = self->order (px[nx - 1], py[ny - 1], self->order_data)) != 0)
    return c;
  return (int) position_of (px[nx - 1]) - (int) position_of (py[ny - 1]);
}

static void
update_count (TmScopeSearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  g_autofree char *label = NULL;
  gboolean any = self->matches->len > 0;

  if (text[0] == '\0')
    label = g_strdup ("");
  else if (!any)
    label = g_strdup (_("No match"));
  else
    {
      g_autofree char *at = tm_format_count (self->current != G_MAXUINT ? self->current + 1 : 0);
      g_autofree char *of = tm_format_count (self->matches->len);

      /* Translators: the scope search's place among its matches, "3 of 12" */
      label = g_strdup_printf (_("%s of %s"), at, of);
    }
  gtk_label_set_label (self->count, label);
  gtk_widget_set_visible (GTK_WIDGET (self->count), label[0] != '\0');
  gtk_widget_set_sensitive (self->previous, any);
  gtk_widget_set_sensitive (self->next, any);
}

/* Searches the tree for the entry's text; the current match stays where
 * it was in the list, as far as the new list goes. */
static void
research (TmScopeSearch *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry));
  guint had = self->current;

  g_ptr_array_set_size (self->matches, 0);
  g_hash_table_remove_all (self->match_set);
  if (self->tree != NULL && text[0] != '\0')
    {
      g_autoptr(GPtrArray) found = tm_scope_tree_search (self->tree, text);

      g_ptr_array_extend (self->matches, found, NULL, NULL);
      g_ptr_array_sort_with_data (self->matches, compare_matches, self);
      for (guint i = 0; i < self->matches->len; i++)
        g_hash_table_add (self->match_set, g_ptr_array_index (self->matches, i));
    }
  self->current = self->matches->len == 0 ? G_MAXUINT : had == G_MAXUINT ? 0 : MIN (had, self->matches->len - 1);
  update_count (self);
}

static void
search_changed_cb (TmScopeSearch *self)
{
  self->current = G_MAXUINT;
  research (self);
  g_signal_emit (self, signals[MATCHES_CHANGED], 0);
  if (self->current != G_MAXUINT)
    g_signal_emit (self, signals[CURRENT_CHANGED], 0, g_ptr_array_index (self->matches, self->current));
}

static void
next_cb (TmScopeSearch *self)
{
  tm_scope_search_move (self, TRUE);
}

static void
previous_cb (TmScopeSearch *self)
{
  tm_scope_search_move (self, FALSE);
}

static void
stop_search_cb (TmScopeSearch *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
}

/* Shift+Enter goes back (Enter is "activate", forward). */
static gboolean
key_pressed_cb (TmScopeSearch   *self,
                guint            keyval,
                guint            keycode,
                GdkModifierType  state)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter || keyval == GDK_KEY_ISO_Enter) &&
      (state & GDK_SHIFT_MASK) != 0)
    {
      tm_scope_search_move (self, FALSE);
      return TRUE;
    }
  return FALSE;
}

static void
tm_scope_search_dispose (GObject *object)
{
  TmScopeSearch *self = TM_SCOPE_SEARCH (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->tree);
  g_clear_pointer (&self->matches, g_ptr_array_unref);
  g_clear_pointer (&self->match_set, g_hash_table_unref);

  G_OBJECT_CLASS (tm_scope_search_parent_class)->dispose (object);
}

static void
tm_scope_search_class_init (TmScopeSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_scope_search_dispose;

  /* The text changed: the matches are new (the current one follows). */
  signals[MATCHES_CHANGED] =
    g_signal_new ("matches-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The current match is another node (a pointer of the tree). */
  signals[CURRENT_CHANGED] =
    g_signal_new ("current-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "scopesearch");
}

static GtkWidget *
arrow_button (const char *icon,
              const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_set_sensitive (button, FALSE);
  return button;
}

static void
tm_scope_search_init (TmScopeSearch *self)
{
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkWidget *buttons;

  self->matches = g_ptr_array_new ();
  self->match_set = g_hash_table_new (NULL, NULL);
  self->current = G_MAXUINT;

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->entry, "placeholder-text", _("Find a scope"), NULL);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->entry), 10);
  gtk_widget_add_css_class (GTK_WIDGET (self->entry), "tm-compact-entry");
  gtk_widget_set_valign (GTK_WIDGET (self->entry), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->entry),
                               _("Find the scopes whose name holds this text; Enter goes to the next, Shift+Enter to the previous"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Find a scope"), -1);
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->entry, "next-match", G_CALLBACK (next_cb), self);
  g_signal_connect_swapped (self->entry, "previous-match", G_CALLBACK (previous_cb), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (stop_search_cb), self);
  gtk_event_controller_set_propagation_phase (key, GTK_PHASE_CAPTURE);
  g_signal_connect_swapped (key, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), key);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->entry));

  self->count = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "tm-numeric");
  gtk_widget_set_visible (GTK_WIDGET (self->count), FALSE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->count));

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (buttons, "linked");
  gtk_widget_add_css_class (buttons, "tm-compact-buttons");
  gtk_widget_set_valign (buttons, GTK_ALIGN_CENTER);
  self->previous = arrow_button ("go-up-symbolic", _("Previous match"));
  g_signal_connect_swapped (self->previous, "clicked", G_CALLBACK (previous_cb), self);
  gtk_box_append (GTK_BOX (buttons), self->previous);
  self->next = arrow_button ("go-down-symbolic", _("Next match"));
  g_signal_connect_swapped (self->next, "clicked", G_CALLBACK (next_cb), self);
  gtk_box_append (GTK_BOX (buttons), self->next);
  gtk_box_append (GTK_BOX (self->box), buttons);
}

GtkWidget *
tm_scope_search_new (void)
{
  return g_object_new (TM_TYPE_SCOPE_SEARCH, NULL);
}

void
tm_scope_search_set_order (TmScopeSearch      *self,
                           TmScopeSearchOrder  order,
                           gpointer            user_data)
{
  const TmScopeNode *current;

  g_return_if_fail (TM_IS_SCOPE_SEARCH (self));

  current = tm_scope_search_get_current (self);
  self->order = order;
  self->order_data = user_data;
  g_ptr_array_sort_with_data (self->matches, compare_matches, self);
  /* The same node stays current. */
  for (guint i = 0; current != NULL && i < self->matches->len; i++)
    if (g_ptr_array_index (self->matches, i) == current)
      self->current = i;
  update_count (self);
}

void
tm_scope_search_set_tree (TmScopeSearch *self,
                          TmScopeTree   *tree)
{
  g_return_if_fail (TM_IS_SCOPE_SEARCH (self));

  g_set_object (&self->tree, tree);
  research (self);
}

GPtrArray *
tm_scope_search_get_matches (TmScopeSearch *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_SEARCH (self), NULL);
  return self->matches;
}

gboolean
tm_scope_search_is_match (TmScopeSearch     *self,
                          const TmScopeNode *node)
{
  g_return_val_if_fail (TM_IS_SCOPE_SEARCH (self), FALSE);
  return node != NULL && g_hash_table_contains (self->match_set, node);
}

const TmScopeNode *
tm_scope_search_get_current (TmScopeSearch *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_SEARCH (self), NULL);
  return self->current != G_MAXUINT ? g_ptr_array_index (self->matches, self->current) : NULL;
}

void
tm_scope_search_move (TmScopeSearch *self,
                      gboolean       forward)
{
  guint n;

  g_return_if_fail (TM_IS_SCOPE_SEARCH (self));

  n = self->matches->len;
  if (n == 0)
    return;
  if (self->current == G_MAXUINT)
    self->current = forward ? 0 : n - 1;
  else
    self->current = forward ? (self->current + 1) % n : (self->current + n - 1) % n;
  update_count (self);
  g_signal_emit (self, signals[CURRENT_CHANGED], 0, g_ptr_array_index (self->matches, self->current));
}

GtkEditable *
tm_scope_search_get_entry (TmScopeSearch *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_SEARCH (self), NULL);
  return GTK_EDITABLE (self->entry);
}
