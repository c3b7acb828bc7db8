/* tm-window.c — a window showing one profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkStack holds the window's states: empty, loading, error, no memory
 * data and the profile view (summary cards, the timeline area and the
 * breakdown table in a GtkPaned), all of which show the window's
 * TmSession. Loading is in tm-window-load.c, the hosts of a multi-host
 * run in tm-window-hosts.c, actions and dialogs in tm-window-actions.c.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-data-notes.h"
#include "tm-format.h"
#include "tm-portal.h"
#include "tm-run.h"
#include "tm-window-private.h"

G_DEFINE_FINAL_TYPE (TmWindow, tm_window, GTK_TYPE_APPLICATION_WINDOW)

G_DEFINE_ENUM_TYPE (TmWindowState, tm_window_state,
  G_DEFINE_ENUM_VALUE (TM_WINDOW_STATE_EMPTY, "empty"),
  G_DEFINE_ENUM_VALUE (TM_WINDOW_STATE_LOADING, "loading"),
  G_DEFINE_ENUM_VALUE (TM_WINDOW_STATE_ERROR, "error"),
  G_DEFINE_ENUM_VALUE (TM_WINDOW_STATE_NO_DATA, "no-data"),
  G_DEFINE_ENUM_VALUE (TM_WINDOW_STATE_PROFILE, "profile"))

enum {
  PROP_0,
  PROP_STATE,
  PROP_FILE,
  PROP_PROFILE,
  PROP_MEMORY_STORE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
page_for_state (TmWindowState state)
{
  switch (state)
    {
    case TM_WINDOW_STATE_EMPTY:
      return "empty";

    case TM_WINDOW_STATE_LOADING:
      return "loading";

    case TM_WINDOW_STATE_ERROR:
      return "error";

    case TM_WINDOW_STATE_NO_DATA:
      return "no-data";

    case TM_WINDOW_STATE_PROFILE:
      return "profile";

    default:
      g_assert_not_reached ();
    }
}

/* ------------------------------------------------------------------ */
/* Title                                                               */

char *
_tm_window_display_basename (GFile *file)
{
  g_autofree char *parse_name = g_file_get_parse_name (file);

  return g_path_get_basename (parse_name);
}

static void tm_window_update_title (TmWindow *self);

static void
portal_answered_cb (gpointer object)
{
  tm_window_update_title (TM_WINDOW (object));
}

/* The folder of file for the subtitle; for a file that came through the
 * document portal, the folder on the host once the portal has told it
 * (the title is updated then), never the portal's own path. */
static char *
display_dirname (TmWindow *self,
                 GFile    *file)
{
  return tm_portal_display_folder (file, portal_answered_cb, G_OBJECT (self));
}

static void
tm_window_update_title (TmWindow *self)
{
  TmWindowContent *current = _tm_window_current (self);
  g_autofree char *basename = NULL;
  g_autofree char *dirname = NULL;

  if (current->file == NULL)
    {
      gtk_label_set_label (self->title_label, _("Tidemark"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Tidemark"));
      return;
    }

  basename = _tm_window_display_basename (current->file);

  /* A run: the run directory is the title, the host's file the subtitle. */
  if (current->run_directory != NULL)
    {
      g_autofree char *run_name = _tm_window_display_basename (current->run_directory);
      g_autofree char *run_dirname = display_dirname (self, current->run_directory);
      g_autofree char *tooltip = run_dirname ? g_build_filename (run_dirname, run_name, NULL) : g_strdup (run_name);

      gtk_label_set_label (self->title_label, run_name);
      gtk_window_set_title (GTK_WINDOW (self), run_name);
      gtk_label_set_label (self->subtitle_label, basename);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), tooltip);
      return;
    }

  dirname = display_dirname (self, current->file);

  gtk_label_set_label (self->title_label, basename);
  gtk_window_set_title (GTK_WINDOW (self), basename);
  gtk_label_set_label (self->subtitle_label, dirname ? dirname : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), dirname != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), basename);
}

/* ------------------------------------------------------------------ */
/* State                                                               */

/* The session holds what is shown: the window keeps no copy of the
 * profile or of the memory store, and its "profile" and "memory-store"
 * properties follow the session's. */
void
_tm_window_set_memory_store (TmWindow      *self,
                             TmMemoryStore *store)
{
  if (store == tm_session_get_memory_store (self->session))
    return;

  if (store != NULL)
    {
      g_free (self->wanted_memory_id);
      self->wanted_memory_id = g_strdup (tm_memory_store_get_id (store));
    }

  tm_session_set_memory_store (self->session, store);
}

static void
session_profile_cb (TmWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

static void
session_memory_store_cb (TmWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY_STORE]);
}

/* Makes the window show its current content (the load's while one runs):
 * title, hosts, page, actions. old_state and old_file are what it showed
 * before, to tell what changed. */
void
_tm_window_update (TmWindow      *self,
                   TmWindowState  old_state,
                   GFile         *old_file)
{
  TmWindowContent *current = _tm_window_current (self);
  TmWindowState state = current->state;
  gboolean changed = old_state != state;

  _tm_window_sync_hosts (self);
  tm_window_update_title (self);
  _tm_window_compare_update_title (self);

  /* The loading page shows after a short delay (see
   * _tm_window_start_load). */
  if (state != TM_WINDOW_STATE_LOADING)
    {
      g_clear_handle_id (&self->show_loading_source, g_source_remove);
      gtk_stack_set_visible_child_name (self->main_stack, page_for_state (state));
    }

  gtk_widget_set_visible (GTK_WIDGET (self->memory_dropdown),
                          state == TM_WINDOW_STATE_PROFILE &&
                          g_list_model_get_n_items (G_LIST_MODEL (self->memory_ids)) > 0);

  _tm_window_hosts_update_page (self);
  _tm_window_viewer_update (self);
  _tm_window_actions_update (self);

  /* Focus something useful (and not the selectable error text, which
   * would then show as selected). */
  if (changed && state == TM_WINDOW_STATE_PROFILE)
    gtk_widget_grab_focus (GTK_WIDGET (tm_breakdown_view_get_column_view (self->breakdown_view)));
  else if (changed && state == TM_WINDOW_STATE_ERROR)
    gtk_widget_grab_focus (self->error_open_button);

  if (old_file != current->file && (old_file == NULL || current->file == NULL || !g_file_equal (old_file, current->file)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* ------------------------------------------------------------------ */
/* Memory ids                                                          */

static void
memory_dropdown_selected_cb (TmWindow    *self,
                             GParamSpec  *pspec,
                             GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);
  TmMemoryStore *store = NULL;

  if (tm_session_get_profile (self->session) != NULL &&
      selected != GTK_INVALID_LIST_POSITION &&
      selected < tm_profile_get_n_memory_ids (tm_session_get_profile (self->session)))
    {
      /* One still being analysed is shown once it is ready
       * (_tm_window_memory_id_ready); what is shown stays until then. */
      if (!tm_profile_is_memory_id_ready (tm_session_get_profile (self->session), selected))
        return;
      store = tm_profile_get_memory_store (tm_session_get_profile (self->session), selected);
    }

  _tm_window_set_memory_store (self, store);
}

static char *
memory_id_label (TmProfile *profile,
                 guint      index)
{
  TmMemoryStore *store = tm_profile_get_memory_store (profile, index);
  const char *id = tm_memory_store_get_id (store);
  g_autofree char *peak = tm_format_bytes (tm_memory_store_get_summary (store)->peak_bytes_in_use);

  if (!tm_profile_is_memory_id_ready (profile, index))
    /* Translators: a memory-id dropdown item still being analysed after the
     * window shows the busiest one: "GPU_1_bfc · 5.78 GiB · analysing…" */
    return g_strdup_printf (_("%s · %s · analysing…"), id && *id ? id : _("(no id)"), peak);
  /* Translators: a memory-id dropdown item: "GPU_6_bfc · 5.78 GiB" */
  return g_strdup_printf (_("%s · %s"), id && *id ? id : _("(no id)"), peak);
}

/* Fills the dropdown; selects keep_id if the profile has it, else the
 * busiest memory id. */
void
_tm_window_fill_memory_ids (TmWindow   *self,
                            const char *keep_id)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->memory_ids));
  guint n = tm_session_get_profile (self->session) ? tm_profile_get_n_memory_ids (tm_session_get_profile (self->session)) : 0;
  guint selected = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (tm_session_get_profile (self->session), i);

      g_ptr_array_add (labels, memory_id_label (tm_session_get_profile (self->session), i));
      if (keep_id != NULL && g_strcmp0 (keep_id, tm_memory_store_get_id (store)) == 0)
        selected = i;
    }
  g_ptr_array_add (labels, NULL);

  if (selected == GTK_INVALID_LIST_POSITION && n > 0)
    selected = tm_profile_get_busiest_index (tm_session_get_profile (self->session));

  g_signal_handlers_block_by_func (self->memory_dropdown, memory_dropdown_selected_cb, self);
  gtk_string_list_splice (self->memory_ids, 0, n_old, (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->memory_dropdown, selected);
  g_signal_handlers_unblock_by_func (self->memory_dropdown, memory_dropdown_selected_cb, self);

  memory_dropdown_selected_cb (self, NULL, self->memory_dropdown);
}

static void
cancel_clicked_cb (TmWindow  *self,
                   GtkButton *button)
{
  _tm_window_cancel_load (self);
}

/* The cards' never-freed line: the table and the map show only what was
 * never freed (docs/ui.md, "Summary cards"). */
static void
show_never_freed_cb (TmWindow *self)
{
  tm_breakdown_view_set_never_freed (self->breakdown_view, TRUE);
  tm_memory_map_set_never_freed_only (self->memory_map, TRUE);
  gtk_stack_set_visible_child_name (self->lower_stack, "table");
}

/* ------------------------------------------------------------------ */
/* Settings                                                            */

static void
tm_window_load_window_state (TmWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  width = g_settings_get_int (self->settings, "window-width");
  height = g_settings_get_int (self->settings, "window-height");
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);

  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
tm_window_save_window_state (TmWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);

  g_settings_delay (self->settings);
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized",
                          gtk_window_is_maximized (GTK_WINDOW (self)));
  _tm_window_layout_save (self);
  g_settings_apply (self->settings);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static gboolean
tm_window_close_request (GtkWindow *window)
{
  TmWindow *self = TM_WINDOW (window);

  tm_window_save_window_state (self);

  return GTK_WINDOW_CLASS (tm_window_parent_class)->close_request (window);
}

static void
tm_window_dispose (GObject *object)
{
  TmWindow *self = (TmWindow *)object;

  if (self->load_cancellable != NULL)
    {
      g_cancellable_cancel (self->load_cancellable);
      g_clear_object (&self->load_cancellable);
    }
  _tm_window_content_clear (&self->loading);
  g_clear_handle_id (&self->show_loading_source, g_source_remove);
  _tm_window_compare_dispose (self);
  _tm_window_layout_dispose (self);
  _tm_window_toast_dispose (self);
  _tm_window_changed_dispose (self);
  _tm_window_viewer_dispose (self);

  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_WINDOW);

  _tm_window_content_clear (&self->shown);
  g_clear_pointer (&self->listed_hosts, g_ptr_array_unref);
  g_clear_pointer (&self->wanted_memory_id, g_free);
  g_clear_object (&self->host_names);
  g_clear_object (&self->run_signals);
  g_clear_object (&self->memory_ids);
  g_clear_object (&self->settings);
  /* The y-scale action holds the timeline; GTK may keep the window's
   * actions a while after the window: drop it here, so that the timeline
   * (and the session it shows, and a run overview still loading) goes with
   * the window. */
  g_action_map_remove_action (G_ACTION_MAP (self), "y-scale");
  g_clear_object (&self->session);

  G_OBJECT_CLASS (tm_window_parent_class)->dispose (object);
}

static void
tm_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TmWindow *self = TM_WINDOW (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, _tm_window_current (self)->state);
      break;

    case PROP_FILE:
      g_value_set_object (value, _tm_window_current (self)->file);
      break;

    case PROP_PROFILE:
      g_value_set_object (value, tm_session_get_profile (self->session));
      break;

    case PROP_MEMORY_STORE:
      g_value_set_object (value, tm_session_get_memory_store (self->session));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_window_class_init (TmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = tm_window_dispose;
  object_class->get_property = tm_window_get_property;

  window_class->close_request = tm_window_close_request;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       TM_TYPE_WINDOW_STATE,
                       TM_WINDOW_STATE_EMPTY,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         TM_TYPE_PROFILE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /**
   * TmWindow:memory-store:
   *
   * The store of the selected memory id; notified when the user picks
   * another memory id or a profile is opened or closed.
   */
  properties[PROP_MEMORY_STORE] =
    g_param_spec_object ("memory-store", NULL, NULL,
                         TM_TYPE_MEMORY_STORE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TM_TYPE_SUMMARY_CARDS);
  g_type_ensure (TM_TYPE_DATA_NOTES);
  g_type_ensure (TM_TYPE_BREAKDOWN_VIEW);
  g_type_ensure (TM_TYPE_TIMELINE);
  g_type_ensure (TM_TYPE_OVERVIEW);
  g_type_ensure (TM_TYPE_HLO_VIEW);
  g_type_ensure (TM_TYPE_SCOPE_VIEW);
  g_type_ensure (TM_TYPE_ALLOCATIONS_VIEW);
  g_type_ensure (TM_TYPE_MEMORY_MAP);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/tm-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TmWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, host_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, memory_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, loading_title);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, loading_progress);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, loading_detail);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, error_title);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, error_message);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, error_retry_button);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, error_open_button);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, no_data_title);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, no_data_message);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, sampled_banner);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, summary_cards);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, data_notes);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, timeline_area);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, memory_map);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, chart_paned);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, chart_scroller);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, timeline_paned);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, hlo_box);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, map_placeholder);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, map_placeholder_label);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, map_placeholder_button);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, table_toggle);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, hlo_view);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, breakdown_view);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, lower_stack);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, scope_view);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, allocations_view);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, drop_revealer);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, recent_box);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, toast_revealer);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, toast_label);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, toast_open_button);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, toast_close_button);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, changed_revealer);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, changed_reload_button);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
}

static void
tm_window_init (TmWindow *self)
{
  _tm_window_content_clear (&self->shown);
  _tm_window_content_clear (&self->loading);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->session = tm_session_new ();
  /* The allocation index of each memory id shown is asked for after its
   * first frame. */
  tm_allocations_query_get_for_session (self->session);
  g_signal_connect_object (self->session, "notify::profile",
                           G_CALLBACK (session_profile_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::memory-store",
                           G_CALLBACK (session_memory_store_cb), self, G_CONNECT_SWAPPED);

  self->memory_ids = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->memory_dropdown, G_LIST_MODEL (self->memory_ids));
  g_signal_connect_object (self->memory_dropdown, "notify::selected",
                           G_CALLBACK (memory_dropdown_selected_cb), self, G_CONNECT_SWAPPED);

  _tm_window_hosts_init (self);

  self->settings = tm_application_create_settings ();
  _tm_window_layout_load (self);
  if (self->settings != NULL)
    {
      g_settings_bind (self->settings, "hide-small-allocations",
                       self->breakdown_view, "hide-small",
                       G_SETTINGS_BIND_DEFAULT);
      /* The Allocations tab's "temporary" threshold (docs/ui.md, "The
       * allocations"). */
      g_settings_bind (self->settings, "temporary-threshold",
                       self->allocations_view, "temporary-ps",
                       G_SETTINGS_BIND_DEFAULT);
      tm_window_load_window_state (self);
    }

  /* Every view of the profile page shows the session and changes it; a
   * click on the timeline selects a time, Back to Peak drops it. */
  tm_view_set_session (TM_VIEW (self->summary_cards), self->session);
  tm_view_set_session (TM_VIEW (self->data_notes), self->session);
  tm_view_set_session (TM_VIEW (self->breakdown_view), self->session);
  tm_view_set_session (TM_VIEW (self->timeline), self->session);
  tm_view_set_session (TM_VIEW (self->overview), self->session);
  tm_view_set_session (TM_VIEW (self->hlo_view), self->session);
  tm_view_set_session (TM_VIEW (self->scope_view), self->session);
  tm_view_set_session (TM_VIEW (self->allocations_view), self->session);
  tm_view_set_session (TM_VIEW (self->memory_map), self->session);
  g_signal_connect_object (self->summary_cards, "show-never-freed",
                           G_CALLBACK (show_never_freed_cb), self, G_CONNECT_SWAPPED);

  _tm_window_actions_init (self);
  _tm_window_layout_init (self);
  _tm_window_compare_init (self);
  _tm_window_dnd_init (self);
  _tm_window_recent_init (self);
  _tm_window_toast_init (self);
  _tm_window_changed_init (self);
  _tm_window_viewer_init (self);
  _tm_window_update (self, TM_WINDOW_STATE_EMPTY, NULL);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

TmWindow *
tm_window_new (TmApplication *app)
{
  g_return_val_if_fail (app == NULL || TM_IS_APPLICATION (app), NULL);

  return g_object_new (TM_TYPE_WINDOW,
                       "application", app,
                       NULL);
}

TmWindowState
tm_window_get_state (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), TM_WINDOW_STATE_EMPTY);

  return _tm_window_current (self)->state;
}

GFile *
tm_window_get_file (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return _tm_window_current (self)->file;
}

TmProfile *
tm_window_get_profile (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return tm_session_get_profile (self->session);
}

const char *
tm_window_get_error_message (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return tm_window_get_state (self) == TM_WINDOW_STATE_ERROR ? self->shown.error_message : NULL;
}

TmSession *
tm_window_get_session (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->session;
}

TmMemoryStore *
tm_window_get_memory_store (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return tm_session_get_memory_store (self->session);
}

gboolean
tm_window_select_memory_id (TmWindow   *self,
                            const char *memory_id)
{
  guint n;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (memory_id != NULL, FALSE);

  if (tm_session_get_profile (self->session) == NULL)
    return FALSE;

  n = tm_profile_get_n_memory_ids (tm_session_get_profile (self->session));
  for (guint i = 0; i < n; i++)
    {
      if (g_strcmp0 (tm_memory_store_get_id (tm_profile_get_memory_store (tm_session_get_profile (self->session), i)), memory_id) == 0)
        {
          gtk_drop_down_set_selected (self->memory_dropdown, i);
          return TRUE;
        }
    }

  return FALSE;
}

