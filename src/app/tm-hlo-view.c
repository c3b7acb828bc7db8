/* tm-hlo-view.c — the table of HLO modules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One TmHloItem per module of the session's profile in a GListStore,
 * sorted by the column view's sorter (start time first by default),
 * selected with a GtkSingleSelection.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-hlo-view.h"

/* ------------------------------------------------------------------ */
/* Row items                                                           */

#define TM_TYPE_HLO_ITEM (tm_hlo_item_get_type ())

G_DECLARE_FINAL_TYPE (TmHloItem, tm_hlo_item, TM, HLO_ITEM, GObject)

struct _TmHloItem
{
  GObject  parent_instance;

  guint    index;      /* in the modules array */
  gint64   id;
  char    *name;
  char    *device;
  gint64   start_ps;
  gint64   end_ps;
};

G_DEFINE_FINAL_TYPE (TmHloItem, tm_hlo_item, G_TYPE_OBJECT)

enum {
  ITEM_PROP_0,
  ITEM_PROP_ID,
  ITEM_PROP_NAME,
  ITEM_PROP_DEVICE,
  ITEM_PROP_START,
  ITEM_PROP_END,
  ITEM_PROP_DURATION,
  N_ITEM_PROPS
};

static GParamSpec *item_properties[N_ITEM_PROPS];

static void
tm_hlo_item_finalize (GObject *object)
{
  TmHloItem *self = TM_HLO_ITEM (object);

  g_free (self->name);
  g_free (self->device);

  G_OBJECT_CLASS (tm_hlo_item_parent_class)->finalize (object);
}

static void
tm_hlo_item_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TmHloItem *self = TM_HLO_ITEM (object);

  switch (prop_id)
    {
    case ITEM_PROP_ID:
      g_value_set_int64 (value, self->id);
      break;

    case ITEM_PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case ITEM_PROP_DEVICE:
      g_value_set_string (value, self->device);
      break;

    case ITEM_PROP_START:
      g_value_set_int64 (value, self->start_ps);
      break;

    case ITEM_PROP_END:
      g_value_set_int64 (value, self->end_ps);
      break;

    case ITEM_PROP_DURATION:
      g_value_set_int64 (value, self->end_ps - self->start_ps);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_hlo_item_class_init (TmHloItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_hlo_item_finalize;
  object_class->get_property = tm_hlo_item_get_property;

  item_properties[ITEM_PROP_ID] =
    g_param_spec_int64 ("id", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  item_properties[ITEM_PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  item_properties[ITEM_PROP_DEVICE] =
    g_param_spec_string ("device", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  item_properties[ITEM_PROP_START] =
    g_param_spec_int64 ("start", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  item_properties[ITEM_PROP_END] =
    g_param_spec_int64 ("end", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  item_properties[ITEM_PROP_DURATION] =
    g_param_spec_int64 ("duration", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_ITEM_PROPS, item_properties);
}

static void
tm_hlo_item_init (TmHloItem *self)
{
}

static TmHloItem *
tm_hlo_item_new (guint              index,
                 const TmHloModule *module)
{
  TmHloItem *self = g_object_new (TM_TYPE_HLO_ITEM, NULL);

  self->index = index;
  self->id = module->id;
  self->name = g_strdup (module->name != NULL ? module->name : "");
  self->device = g_strdup (module->device != NULL ? module->device : "");
  self->start_ps = module->start_ps;
  self->end_ps = module->end_ps;

  return self;
}

/* ------------------------------------------------------------------ */
/* The view                                                            */

typedef enum
{
  COLUMN_ID,
  COLUMN_NAME,
  COLUMN_DEVICE,
  COLUMN_START,
  COLUMN_END,
  COLUMN_DURATION,
  N_COLUMNS
} Column;

struct _TmHloView
{
  GtkWidget           parent_instance;

  GtkWidget          *header;
  GtkWidget          *count_label;
  GtkWidget          *scroller;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *columns[N_COLUMNS];

  GListStore         *items;
  GtkSortListModel   *sort_model;
  GtkFilterListModel *filter_model;
  GtkCustomFilter    *filter;
  GtkWidget          *filter_entry;
  char               *filter_text;     /* casefolded; NULL: everything */
  GtkSingleSelection *selection;

  GArray             *modules;
};

G_DEFINE_FINAL_TYPE (TmHloView, tm_hlo_view, TM_TYPE_VIEW)

static void
setup_cell_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  GtkWidget *inscription = gtk_inscription_new (NULL);
  gboolean numeric = column != COLUMN_NAME && column != COLUMN_DEVICE;

  gtk_inscription_set_xalign (GTK_INSCRIPTION (inscription), numeric ? 1.0f : 0.0f);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (inscription),
                                     column == COLUMN_NAME ? GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_MIDDLE
                                                           : GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_min_chars (GTK_INSCRIPTION (inscription), column == COLUMN_NAME ? 16 : 4);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (inscription), column == COLUMN_NAME ? 40 : 12);
  if (numeric)
    gtk_widget_add_css_class (inscription, "tm-numeric");
  gtk_list_item_set_child (list_item, inscription);
}

static void
bind_cell_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  TmHloItem *item = gtk_list_item_get_item (list_item);
  GtkInscription *inscription = GTK_INSCRIPTION (gtk_list_item_get_child (list_item));
  g_autofree char *text = NULL;

  switch (column)
    {
    case COLUMN_ID:
      text = g_strdup_printf ("%" G_GINT64_FORMAT, item->id);
      break;
    case COLUMN_NAME:
      /* Translators: the HLO table's name of a module the file does not name */
      text = g_strdup (item->name[0] != '\0' ? item->name : _("unnamed module"));
      break;
    case COLUMN_DEVICE:
      text = g_strdup (item->device);
      break;
    case COLUMN_START:
      text = tm_format_time_ms (item->start_ps);
      break;
    case COLUMN_END:
      text = tm_format_time_ms (item->end_ps);
      break;
    case COLUMN_DURATION:
    case N_COLUMNS:
    default:
      text = tm_format_duration (item->end_ps - item->start_ps);
      break;
    }

  gtk_inscription_set_text (inscription, text);
  if (column == COLUMN_NAME)
    {
      gtk_widget_set_tooltip_text (GTK_WIDGET (inscription), text);
      if (item->name[0] == '\0')
        gtk_widget_add_css_class (GTK_WIDGET (inscription), "dim-label");
      else
        gtk_widget_remove_css_class (GTK_WIDGET (inscription), "dim-label");
    }
}

/* A module matches the filter when its name (or "unnamed module") or its
 * id contains the filter text, ignoring case. */
static gboolean
filter_match_cb (gpointer object,
                 gpointer user_data)
{
  TmHloView *self = user_data;
  TmHloItem *item = object;
  g_autofree char *name = NULL;
  g_autofree char *id = NULL;

  if (self->filter_text == NULL)
    return TRUE;

  name = g_utf8_casefold (item->name[0] != '\0' ? item->name : _("unnamed module"), -1);
  id = g_strdup_printf ("%" G_GINT64_FORMAT, item->id);
  return strstr (name, self->filter_text) != NULL || strstr (id, self->filter_text) != NULL;
}

static void
update_count (TmHloView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  g_autofree char *total = tm_format_count (n);
  g_autofree char *count = NULL;

  if (shown == n)
    count = g_strdup (total);
  else
    {
      g_autofree char *part = tm_format_count (shown);

      /* Translators: the HLO table's count while filtered: "3 of 120" */
      count = g_strdup_printf (_("%s of %s"), part, total);
    }
  gtk_label_set_text (GTK_LABEL (self->count_label), count);
}

static void
filter_changed_cb (TmHloView *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));

  g_clear_pointer (&self->filter_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->filter_text = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
selection_changed_cb (TmHloView *self)
{
  TmHloItem *item = gtk_single_selection_get_selected_item (self->selection);
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (item != NULL && session != NULL)
    tm_viewport_zoom_to (tm_session_get_viewport (session), item->start_ps, item->end_ps);
}

/* Lists the HLO modules of the session's profile. */
static void
sync_modules (TmHloView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  GArray *modules = session != NULL && tm_session_get_profile (session) != NULL
                    ? tm_profile_get_hlo_modules (tm_session_get_profile (session)) : NULL;
  g_autoptr(GPtrArray) items = NULL;
  guint n;

  if (modules != NULL)
    g_array_ref (modules);
  g_clear_pointer (&self->modules, g_array_unref);
  self->modules = modules;
  n = modules != NULL ? modules->len : 0;

  items = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, tm_hlo_item_new (i, &g_array_index (modules, TmHloModule, i)));

  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);

  update_count (self);
  /* Three rows at least when there are more, so that a long list shows
   * as one (docs/ui.md, "Layout"); a short one no taller than it is. */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scroller), n > 3 ? 96 : 40);
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
}

static void
session_changed (TmView    *view,
                 TmSession *old_session)
{
  sync_modules (TM_HLO_VIEW (view));
}

static void
tm_hlo_view_dispose (GObject *object)
{
  TmHloView *self = TM_HLO_VIEW (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);

  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->filter_text, g_free);
  g_clear_object (&self->items);
  g_clear_pointer (&self->modules, g_array_unref);

  G_OBJECT_CLASS (tm_hlo_view_parent_class)->dispose (object);
}

static void
tm_hlo_view_class_init (TmHloViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_hlo_view_dispose;
  /* The session: whose profile's HLO modules the table lists and whose
   * viewport selecting a module zooms. */
  view_class->session_changed = session_changed;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "hloview");
}

static GtkColumnViewColumn *
add_column (TmHloView  *self,
            Column      column,
            const char *title,
            const char *property,
            gboolean    numeric)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;
  GtkExpression *expression;
  GtkSorter *sorter;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell_cb), GINT_TO_POINTER (column));

  col = gtk_column_view_column_new (title, factory);
  expression = gtk_property_expression_new (TM_TYPE_HLO_ITEM, NULL, property);
  if (numeric)
    sorter = GTK_SORTER (gtk_numeric_sorter_new (expression));
  else
    sorter = GTK_SORTER (gtk_string_sorter_new (expression));
  gtk_column_view_column_set_sorter (col, sorter);
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (column == COLUMN_NAME)
    gtk_column_view_column_set_expand (col, TRUE);

  gtk_column_view_append_column (self->column_view, col);
  self->columns[column] = col;
  g_object_unref (col);

  return col;
}

static void
tm_hlo_view_init (TmHloView *self)
{
  GtkWidget *title;
  GtkWidget *hint;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 4);

  self->header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_parent (self->header, GTK_WIDGET (self));
  title = gtk_label_new (_("HLO Modules"));
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_box_append (GTK_BOX (self->header), title);
  self->count_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->count_label, "dim-label");
  gtk_widget_add_css_class (self->count_label, "caption");
  gtk_box_append (GTK_BOX (self->header), self->count_label);
  self->filter_entry = gtk_search_entry_new ();
  g_object_set (self->filter_entry,
                /* Translators: the HLO table's filter */
                "placeholder-text", _("Filter modules"),
                NULL);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->filter_entry), 16);
  gtk_widget_set_tooltip_text (self->filter_entry, _("Show only modules whose name or id contains this text"));
  gtk_widget_set_margin_start (self->filter_entry, 8);
  gtk_widget_add_css_class (self->filter_entry, "tm-compact-entry");
  g_signal_connect_swapped (self->filter_entry, "search-changed", G_CALLBACK (filter_changed_cb), self);
  gtk_box_append (GTK_BOX (self->header), self->filter_entry);
  hint = gtk_label_new (_("Select a module to zoom the timeline to it"));
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_add_css_class (hint, "caption");
  gtk_widget_set_hexpand (hint, TRUE);
  gtk_label_set_xalign (GTK_LABEL (hint), 1.0f);
  gtk_label_set_ellipsize (GTK_LABEL (hint), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (self->header), hint);

  self->items = g_list_store_new (TM_TYPE_HLO_ITEM);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  gtk_column_view_set_reorderable (self->column_view, FALSE);

  add_column (self, COLUMN_ID, _("ID"), "id", TRUE);
  add_column (self, COLUMN_NAME, _("Module"), "name", FALSE);
  add_column (self, COLUMN_DEVICE, _("Device"), "device", FALSE);
  add_column (self, COLUMN_START, _("Start"), "start", TRUE);
  add_column (self, COLUMN_END, _("End"), "end", TRUE);
  add_column (self, COLUMN_DURATION, _("Duration"), "duration", TRUE);

  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->items)),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->filter = gtk_custom_filter_new (filter_match_cb, self, NULL);
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->sort_model)),
                                                  GTK_FILTER (g_object_ref (self->filter)));
  g_signal_connect_swapped (self->filter_model, "items-changed", G_CALLBACK (update_count), self);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->column_view, self->columns[COLUMN_START], GTK_SORT_ASCENDING);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* In a pane of its own: as tall as the user drags it (natural: four
   * rows), down to three rows (sync_modules). */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (self->scroller), 40);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->scroller), 140);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (self->scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->column_view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));

  g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)), "notify::profile",
                                  G_CALLBACK (sync_modules), self);

  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tm_hlo_view_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_HLO_VIEW, "session", session, NULL);
}

guint
tm_hlo_view_get_n_modules (TmHloView *self)
{
  g_return_val_if_fail (TM_IS_HLO_VIEW (self), 0);

  return self->modules != NULL ? self->modules->len : 0;
}

void
tm_hlo_view_select_module (TmHloView *self,
                           guint      index)
{
  guint n;

  g_return_if_fail (TM_IS_HLO_VIEW (self));

  if (index == G_MAXUINT)
    {
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      return;
    }

  n = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  for (guint pos = 0; pos < n; pos++)
    {
      g_autoptr(TmHloItem) item = g_list_model_get_item (G_LIST_MODEL (self->filter_model), pos);

      if (item->index == index)
        {
          gtk_single_selection_set_selected (self->selection, pos);
          return;
        }
    }
}

void
tm_hlo_view_set_filter (TmHloView  *self,
                        const char *text)
{
  g_return_if_fail (TM_IS_HLO_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), text != NULL ? text : "");
  /* At once, not after the search entry's delay. */
  filter_changed_cb (self);
}

guint
tm_hlo_view_get_n_shown (TmHloView *self)
{
  g_return_val_if_fail (TM_IS_HLO_VIEW (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
}

char *
tm_hlo_view_dup_shown_name (TmHloView *self,
                            guint      position)
{
  g_autoptr(TmHloItem) item = NULL;

  g_return_val_if_fail (TM_IS_HLO_VIEW (self), NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->filter_model), position);
  if (item == NULL)
    return NULL;
  return g_strdup (item->name[0] != '\0' ? item->name : _("unnamed module"));
}
