/* tm-window-actions.c — the window's actions and its Open dialog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-window-private.h"

/* What the Open dialogs and drops open: the first file in this window,
 * the others in windows of their own, by the application's one path. */
void
_tm_window_open_files (TmWindow  *self,
                       GFile    **files,
                       guint      n_files)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  g_return_if_fail (TM_IS_APPLICATION (app));

  tm_application_open_files (TM_APPLICATION (app), files, n_files, GTK_WINDOW (self));
}

static void
chooser_response_cb (TmWindow             *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) array = NULL;
  guint n;

  if (response != GTK_RESPONSE_ACCEPT)
    goto out;

  files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
  n = g_list_model_get_n_items (files);
  array = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));

  if (array->len == 0)
    goto out;

  _tm_window_open_files (self, (GFile **) array->pdata, array->len);

out:
  if (self->chooser == GTK_NATIVE_DIALOG (chooser))
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }
}

static void
add_filter (GtkFileChooser     *chooser,
            const char         *name,
            const char * const *patterns,
            gboolean            select)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);

  gtk_file_chooser_add_filter (chooser, filter);
  if (select)
    gtk_file_chooser_set_filter (chooser, filter);
}

static GFile *
tm_window_initial_folder (TmWindow *self,
                          gboolean  for_folder)
{
  TmWindowContent *current = _tm_window_current (self);
  g_autofree char *uri = NULL;

  /* Choosing a run: start beside the run shown. */
  if (for_folder && current->run_directory != NULL)
    return g_file_get_parent (current->run_directory);

  if (current->file != NULL)
    return g_file_get_parent (current->file);

  if (self->settings != NULL)
    uri = g_settings_get_string (self->settings, "last-folder");

  if (uri != NULL && uri[0] != '\0')
    {
      g_autoptr(GFile) folder = g_file_new_for_uri (uri);

      if (g_file_query_file_type (folder, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        return g_steal_pointer (&folder);
    }

  return NULL;
}

/* The window's one open dialog: shows the one already there if it does
 * the same thing (and returns NULL), or replaces it with a new one. */
static GtkFileChooserNative *
new_chooser (TmWindow             *self,
             GtkFileChooserAction  action,
             const char           *title)
{
  GtkFileChooserNative *chooser;

  if (self->chooser != NULL &&
      gtk_file_chooser_get_action (GTK_FILE_CHOOSER (self->chooser)) == action)
    {
      gtk_native_dialog_show (self->chooser);
      return NULL;
    }

  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  return chooser;
}

static void
show_chooser (TmWindow             *self,
              GtkFileChooserNative *chooser,
              gboolean              for_folder)
{
  g_autoptr(GFile) folder = NULL;

  if ((folder = tm_window_initial_folder (self, for_folder)))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);

  g_signal_connect_object (chooser, "response",
                           G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);

  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

void
tm_window_choose_files (TmWindow *self)
{
  static const char * const profile_patterns[] = {
    "*.xplane.pb", "*.pb", "*.json", "*.json.gz", "*.jsonl", "*.pickle", "*.pkl", "*.pickle.gz", "*.pkl.gz", NULL
  };
  static const char * const xspace_patterns[] = { "*.xplane.pb", "*.pb", NULL };
  static const char * const json_patterns[] = { "*.json", "*.json.gz", NULL };
  static const char * const all_patterns[] = { "*", NULL };
  GtkFileChooserNative *chooser;

  g_return_if_fail (TM_IS_WINDOW (self));

  if ((chooser = new_chooser (self, GTK_FILE_CHOOSER_ACTION_OPEN, _("Open Memory Profile"))) == NULL)
    return;
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);

  add_filter (GTK_FILE_CHOOSER (chooser), _("Memory Profiles"), profile_patterns, TRUE);
  add_filter (GTK_FILE_CHOOSER (chooser), _("XSpace Profiles (*.xplane.pb)"), xspace_patterns, FALSE);
  add_filter (GTK_FILE_CHOOSER (chooser), _("XProf Memory-Profile JSON"), json_patterns, FALSE);
  add_filter (GTK_FILE_CHOOSER (chooser), _("All Files"), all_patterns, FALSE);

  show_chooser (self, chooser, FALSE);
}

/* Chooses a run directory (plugins/profile/<run>/) or a log directory;
 * it opens like a dropped one: one window for all its hosts. */
static void
tm_window_choose_folder (TmWindow *self)
{
  GtkFileChooserNative *chooser;

  if ((chooser = new_chooser (self, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("Open Run Folder"))) != NULL)
    show_chooser (self, chooser, TRUE);
}

static void
open_folder_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  tm_window_choose_folder (TM_WINDOW (user_data));
}

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  tm_window_choose_files (TM_WINDOW (user_data));
}

static void
reload_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  tm_window_reload (TM_WINDOW (user_data));
}

static void
find_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  TmWindow *self = TM_WINDOW (user_data);

  if (tm_window_get_state (self) == TM_WINDOW_STATE_PROFILE)
    tm_breakdown_view_focus_search (self->breakdown_view);
}

static void
cancel_action (GSimpleAction *action,
               GVariant      *param,
               gpointer       user_data)
{
  TmWindow *self = TM_WINDOW (user_data);

  if (tm_window_get_state (self) == TM_WINDOW_STATE_LOADING)
    gtk_widget_activate (self->cancel_button);
}

static void
step_memory_id (TmWindow *self,
                int       delta)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->memory_ids));
  guint selected = gtk_drop_down_get_selected (self->memory_dropdown);

  if (tm_window_get_state (self) != TM_WINDOW_STATE_PROFILE || n == 0 || selected == GTK_INVALID_LIST_POSITION)
    return;

  if (delta < 0 && selected > 0)
    gtk_drop_down_set_selected (self->memory_dropdown, selected - 1);
  else if (delta > 0 && selected + 1 < n)
    gtk_drop_down_set_selected (self->memory_dropdown, selected + 1);
}

static void
previous_memory_id_action (GSimpleAction *action,
                           GVariant      *param,
                           gpointer       user_data)
{
  step_memory_id (TM_WINDOW (user_data), -1);
}

static void
next_memory_id_action (GSimpleAction *action,
                       GVariant      *param,
                       gpointer       user_data)
{
  step_memory_id (TM_WINDOW (user_data), +1);
}

static void
previous_host_action (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  _tm_window_step_host (TM_WINDOW (user_data), -1);
}

static void
next_host_action (GSimpleAction *action,
                  GVariant      *param,
                  gpointer       user_data)
{
  _tm_window_step_host (TM_WINDOW (user_data), +1);
}

static void
export_xprof_json_action (GSimpleAction *action,
                          GVariant      *param,
                          gpointer       user_data)
{
  _tm_window_export_xprof_json (TM_WINDOW (user_data));
}

static void
export_collapsed_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  _tm_window_export_collapsed (TM_WINDOW (user_data));
}

static void
export_never_freed_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  _tm_window_export_never_freed (TM_WINDOW (user_data));
}

static void
export_csv_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  _tm_window_export_csv (TM_WINDOW (user_data));
}

static void
save_memory_only_action (GSimpleAction *action,
                         GVariant      *param,
                         gpointer       user_data)
{
  _tm_window_save_memory_only (TM_WINDOW (user_data));
}

static void
export_timeline_png_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       user_data)
{
  _tm_window_export_timeline_png (TM_WINDOW (user_data));
}

static void
export_timeline_svg_action (GSimpleAction *action,
                            GVariant      *param,
                            gpointer       user_data)
{
  _tm_window_export_timeline_svg (TM_WINDOW (user_data));
}

/* Zoom keys: the timeline's own actions, from anywhere in the window
 * (see _tm_window_actions_init for when a text entry has the focus). */
static void
timeline_action (TmWindow   *self,
                 const char *name)
{
  if (tm_window_get_state (self) == TM_WINDOW_STATE_PROFILE)
    gtk_widget_activate_action (GTK_WIDGET (self->timeline), name, NULL);
}

static void
zoom_in_action (GSimpleAction *action,
                GVariant      *param,
                gpointer       user_data)
{
  timeline_action (TM_WINDOW (user_data), "timeline.zoom-in");
}

static void
zoom_out_action (GSimpleAction *action,
                 GVariant      *param,
                 gpointer       user_data)
{
  timeline_action (TM_WINDOW (user_data), "timeline.zoom-out");
}

static void
zoom_reset_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  timeline_action (TM_WINDOW (user_data), "timeline.reset");
}

static void
back_to_peak_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  TmWindow *self = TM_WINDOW (user_data);

  tm_session_clear_selected_time (self->session);
}

static const GActionEntry window_actions[] = {
  { "zoom-in", zoom_in_action },
  { "zoom-out", zoom_out_action },
  { "zoom-reset", zoom_reset_action },
  { "back-to-peak", back_to_peak_action },
  { "open", open_action },
  { "open-folder", open_folder_action },
  { "reload", reload_action },
  { "find", find_action },
  { "cancel-load", cancel_action },
  { "previous-memory-id", previous_memory_id_action },
  { "next-memory-id", next_memory_id_action },
  { "previous-host", previous_host_action },
  { "next-host", next_host_action },
  { "export-xprof-json", export_xprof_json_action },
  { "export-csv", export_csv_action },
  { "export-collapsed", export_collapsed_action },
  { "export-never-freed", export_never_freed_action },
  { "export-timeline-png", export_timeline_png_action },
  { "export-timeline-svg", export_timeline_svg_action },
  { "save-memory-only", save_memory_only_action },
};

static void
set_enabled (TmWindow   *self,
             const char *name,
             gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  if (action != NULL)
    g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
_tm_window_actions_update (TmWindow *self)
{
  TmWindowContent *current = _tm_window_current (self);
  gboolean profile = current->state == TM_WINDOW_STATE_PROFILE;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->memory_ids));

  set_enabled (self, "reload", current->file != NULL);
  set_enabled (self, "find", profile);
  set_enabled (self, "cancel-load", current->state == TM_WINDOW_STATE_LOADING);
  set_enabled (self, "previous-memory-id", profile && n > 1);
  set_enabled (self, "next-memory-id", profile && n > 1);
  /* In every state, like the host dropdown. */
  set_enabled (self, "previous-host", current->hosts != NULL && current->host_index > 0);
  set_enabled (self, "next-host", current->hosts != NULL && current->host_index + 1 < current->hosts->len);
  /* Not for a PyTorch snapshot: the file holds nothing of XProf's. */
  set_enabled (self, "export-xprof-json", profile && tm_session_get_profile (self->session) != NULL &&
               (tm_profile_get_features (tm_session_get_profile (self->session)) & TM_INPUT_HAS_XPROF_JSON_EXPORT));
  set_enabled (self, "export-csv", profile && tm_session_get_memory_store (self->session) != NULL);
  set_enabled (self, "export-collapsed", profile && tm_session_get_memory_store (self->session) != NULL);
  /* Every event's pairing (docs/scopes.md, "Never freed"). */
  set_enabled (self, "export-never-freed", profile && tm_session_get_memory_store (self->session) != NULL &&
               tm_memory_store_is_complete (tm_session_get_memory_store (self->session)) &&
               (tm_profile_get_features (tm_session_get_profile (self->session)) & TM_INPUT_HAS_ALLOCATIONS));
  set_enabled (self, "export-timeline-png", profile && tm_session_get_memory_store (self->session) != NULL);
  set_enabled (self, "export-timeline-svg", profile && tm_session_get_memory_store (self->session) != NULL);
  set_enabled (self, "save-memory-only", profile && tm_session_get_profile (self->session) != NULL &&
               (tm_profile_get_features (tm_session_get_profile (self->session)) & TM_INPUT_HAS_MEMORY_ONLY_EXPORT));
  set_enabled (self, "zoom-in", profile && tm_session_get_memory_store (self->session) != NULL);
  set_enabled (self, "zoom-out", profile && tm_session_get_memory_store (self->session) != NULL);
  set_enabled (self, "zoom-reset", profile && tm_session_get_memory_store (self->session) != NULL);
  set_enabled (self, "back-to-peak", profile && tm_session_get_memory_store (self->session) != NULL);

  gtk_widget_set_visible (self->error_retry_button, current->file != NULL);
}

/* GTK's shortcut labels show Page_Up and Page_Down as key names: the
 * shortcuts window says them in words. */
static void
fix_key_names (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child))
        {
          const char *text = gtk_label_get_label (GTK_LABEL (child));

          if (g_strcmp0 (text, "Page_Up") == 0)
            /* Translators: a key, in the shortcuts window */
            gtk_label_set_label (GTK_LABEL (child), C_("key", "Page Up"));
          else if (g_strcmp0 (text, "Page_Down") == 0)
            /* Translators: a key, in the shortcuts window */
            gtk_label_set_label (GTK_LABEL (child), C_("key", "Page Down"));
        }
      fix_key_names (child);
    }
}

static void
application_changed_cb (TmWindow *self)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self));

  if (overlay != NULL)
    g_signal_connect (overlay, "map", G_CALLBACK (fix_key_names), NULL);
}

/* The timeline's series, shown or hidden: the timeline's hidden-series as
 * check items of the main menu, the keyboard's way to the legend's
 * toggles (docs/ui.md, "Legend"). A PyTorch snapshot's are named as its
 * legend names them, and it has no stack or fragmentation: the actions
 * of the other kind are disabled, which hides their items. */
static const struct
{
  const char    *name;
  TmSeriesFlags  series;
  gboolean       caching_allocator;
} series_actions[] = {
  { "show-stack", TM_SERIES_FLAG_STACK, FALSE },
  { "show-heap", TM_SERIES_FLAG_HEAP, FALSE },
  { "show-free", TM_SERIES_FLAG_FREE, FALSE },
  { "show-fragmentation", TM_SERIES_FLAG_FRAGMENTATION, FALSE },
  { "show-allocated", TM_SERIES_FLAG_HEAP, TRUE },
  { "show-not-allocated", TM_SERIES_FLAG_FREE, TRUE },
};

static void
show_series_change_state (GSimpleAction *action,
                          GVariant      *value,
                          gpointer       user_data)
{
  TmWindow *self = user_data;
  TmSeriesFlags series = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (action), "tm-series"));
  TmSeriesFlags hidden = tm_timeline_get_hidden_series (self->timeline);

  tm_timeline_set_hidden_series (self->timeline,
                                 g_variant_get_boolean (value) ? hidden & ~series : hidden | series);
}

static void
hidden_series_changed_cb (TmWindow *self)
{
  TmSeriesFlags hidden = tm_timeline_get_hidden_series (self->timeline);

  for (guint i = 0; i < G_N_ELEMENTS (series_actions); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), series_actions[i].name);

      g_simple_action_set_state (G_SIMPLE_ACTION (action),
                                 g_variant_new_boolean ((hidden & series_actions[i].series) == 0));
    }
}

static void
series_words_changed_cb (TmWindow *self)
{
  TmProfile *profile = tm_session_get_profile (self->session);
  TmMemoryStore *store = tm_session_get_memory_store (self->session);
  gboolean snapshot = profile != NULL && store != NULL && tm_profile_lookup_segments (profile, store) != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (series_actions); i++)
    set_enabled (self, series_actions[i].name, !!series_actions[i].caching_allocator == !!snapshot);
}

static void
add_series_actions (TmWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (series_actions); i++)
    {
      g_autoptr(GSimpleAction) action =
        g_simple_action_new_stateful (series_actions[i].name, NULL, g_variant_new_boolean (TRUE));

      g_object_set_data (G_OBJECT (action), "tm-series", GUINT_TO_POINTER (series_actions[i].series));
      g_signal_connect (action, "change-state", G_CALLBACK (show_series_change_state), self);
      g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
    }
  g_signal_connect_object (self->timeline, "notify::hidden-series",
                           G_CALLBACK (hidden_series_changed_cb), self, G_CONNECT_SWAPPED);
  hidden_series_changed_cb (self);
  g_signal_connect_object (self->session, "notify::memory-store",
                           G_CALLBACK (series_words_changed_cb), self, G_CONNECT_SWAPPED);
  series_words_changed_cb (self);
}

/* The window's zoom keys on widget, in phase; Home (a list's first row)
 * only when with_home. */
static void
add_zoom_keys (GtkWidget           *widget,
               GtkPropagationPhase  phase,
               gboolean             with_home)
{
  static const struct {
    const char *trigger;
    const char *action;
  } zoom_keys[] = {
    { "plus", "win.zoom-in" },
    { "<Shift>plus", "win.zoom-in" },
    { "equal", "win.zoom-in" },
    { "KP_Add", "win.zoom-in" },
    { "minus", "win.zoom-out" },
    { "KP_Subtract", "win.zoom-out" },
    { "Home", "win.zoom-reset" },
  };
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();

  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_LOCAL);
  gtk_event_controller_set_propagation_phase (shortcuts, phase);
  for (guint i = 0; i < G_N_ELEMENTS (zoom_keys); i++)
    if (with_home || !g_str_equal (zoom_keys[i].trigger, "Home"))
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                            gtk_shortcut_new (gtk_shortcut_trigger_parse_string (zoom_keys[i].trigger),
                                                              gtk_named_action_new (zoom_keys[i].action)));
  gtk_widget_add_controller (widget, shortcuts);
}

void
_tm_window_actions_init (TmWindow *self)
{

  g_action_map_add_action_entries (G_ACTION_MAP (self),
                                   window_actions,
                                   G_N_ELEMENTS (window_actions),
                                   self);

  /* The timeline's y scale: the menu's radio items. */
  {
    g_autoptr(GPropertyAction) y_scale = g_property_action_new ("y-scale", self->timeline, "y-scale");

    g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (y_scale));
  }
  add_series_actions (self);

  /* Zoom keys work wherever the focus is, except in a text entry: in the
   * bubble phase, after the focused widget had the key (the application's
   * accelerators come before, and would take "+" from the filter). */
  add_zoom_keys (GTK_WIDGET (self), GTK_PHASE_BUBBLE, TRUE);
  /* The scope tree's expanders take + and − for themselves (GTK's tree
   * keys): there the zoom keys come first, and Shift+→, Shift+← and
   * Ctrl+Space expand and collapse (docs/ui.md, "Keys"). */
  add_zoom_keys (GTK_WIDGET (tm_scope_view_get_column_view (self->scope_view)), GTK_PHASE_CAPTURE, FALSE);

  g_signal_connect (self, "notify::application", G_CALLBACK (application_changed_cb), NULL);
}
