/* tm-application.c — the application: actions, windows, opening files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-application.h"
#include "tm-window.h"

struct _TmApplication
{
  GtkApplication  parent_instance;

  GDBusProxy     *portal_settings;
  GCancellable   *portal_cancellable;
};

G_DEFINE_FINAL_TYPE (TmApplication, tm_application, GTK_TYPE_APPLICATION)

GSettings *
tm_application_create_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;

  schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    return NULL;

  return g_settings_new_full (schema, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Dark style: GTK 4.8 does not follow the desktop's colour scheme by   */
/* itself, so ask the settings portal (as libadwaita does).            */

static void
tm_application_apply_color_scheme (TmApplication *self,
                                   GVariant      *value)
{
  g_autoptr(GVariant) unboxed = g_variant_ref (value);
  GtkSettings *settings;

  while (g_variant_is_of_type (unboxed, G_VARIANT_TYPE_VARIANT))
    {
      GVariant *inner = g_variant_get_variant (unboxed);

      g_variant_unref (unboxed);
      unboxed = inner;
    }

  if (!g_variant_is_of_type (unboxed, G_VARIANT_TYPE_UINT32))
    return;

  if ((settings = gtk_settings_get_default ()) == NULL)
    return;

  /* 0: no preference, 1: prefer dark, 2: prefer light */
  g_object_set (settings,
                "gtk-application-prefer-dark-theme", g_variant_get_uint32 (unboxed) == 1,
                NULL);
}

static void
portal_setting_changed_cb (GDBusProxy    *proxy,
                           const char    *sender_name,
                           const char    *signal_name,
                           GVariant      *parameters,
                           TmApplication *self)
{
  const char *namespace;
  const char *key;
  g_autoptr(GVariant) value = NULL;

  if (g_strcmp0 (signal_name, "SettingChanged") != 0 ||
      !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(ssv)")))
    return;

  g_variant_get (parameters, "(&s&sv)", &namespace, &key, &value);
  if (g_strcmp0 (namespace, "org.freedesktop.appearance") == 0 &&
      g_strcmp0 (key, "color-scheme") == 0)
    tm_application_apply_color_scheme (self, value);
}

static void
portal_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TmApplication) self = user_data;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) value = NULL;

  reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (object), result, NULL);
  if (reply == NULL || !g_variant_is_of_type (reply, G_VARIANT_TYPE ("(v)")))
    return;

  g_variant_get (reply, "(v)", &value);
  tm_application_apply_color_scheme (self, value);
}

static void
portal_proxy_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TmApplication) self = user_data;
  g_autoptr(GDBusProxy) proxy = NULL;
  g_autofree char *owner = NULL;

  proxy = g_dbus_proxy_new_for_bus_finish (result, NULL);
  if (proxy == NULL)
    return;

  /* No portal running: nothing to follow. */
  if ((owner = g_dbus_proxy_get_name_owner (proxy)) == NULL)
    return;

  self->portal_settings = g_steal_pointer (&proxy);
  g_signal_connect_object (self->portal_settings, "g-signal",
                           G_CALLBACK (portal_setting_changed_cb), self, 0);

  /* Read (not ReadOne) works with every version of the interface. */
  g_dbus_proxy_call (self->portal_settings,
                     "Read",
                     g_variant_new ("(ss)", "org.freedesktop.appearance", "color-scheme"),
                     G_DBUS_CALL_FLAGS_NONE,
                     2000,
                     self->portal_cancellable,
                     portal_read_cb,
                     g_object_ref (self));
}

static void
tm_application_follow_color_scheme (TmApplication *self)
{
  /* An explicit theme variant (GTK_THEME=Adwaita:dark) wins. */
  if (g_getenv ("GTK_THEME") != NULL)
    return;

  self->portal_cancellable = g_cancellable_new ();
  g_dbus_proxy_new_for_bus (G_BUS_TYPE_SESSION,
                            G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                            G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
                            NULL,
                            "org.freedesktop.portal.Desktop",
                            "/org/freedesktop/portal/desktop",
                            "org.freedesktop.portal.Settings",
                            self->portal_cancellable,
                            portal_proxy_cb,
                            g_object_ref (self));
}

/* ------------------------------------------------------------------ */
/* Windows and files                                                   */

static TmWindow *
tm_application_new_window (TmApplication *self)
{
  return tm_window_new (self);
}

/* A single file, or a run directory with the profiles of its hosts. */
typedef struct
{
  GFile     *file;
  GFile     *run_directory;
  GPtrArray *hosts;
} OpenItem;

static void
open_item_free (gpointer data)
{
  OpenItem *item = data;

  g_clear_object (&item->file);
  g_clear_object (&item->run_directory);
  g_clear_pointer (&item->hosts, g_ptr_array_unref);
  g_free (item);
}

/* Single files open in a window of their own, not in a run's window. */
static TmWindow *
find_window_for_file (TmApplication *self,
                      GFile         *file)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    {
      GFile *shown;

      if (!TM_IS_WINDOW (l->data) || tm_window_get_run_directory (l->data) != NULL)
        continue;

      shown = tm_window_get_file (l->data);
      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }

  return NULL;
}

static TmWindow *
find_window_for_run (TmApplication *self,
                     GFile         *run_directory)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    {
      GFile *shown;

      if (!TM_IS_WINDOW (l->data))
        continue;

      shown = tm_window_get_run_directory (l->data);
      if (shown != NULL && g_file_equal (shown, run_directory))
        return l->data;
    }

  return NULL;
}

static TmWindow *
find_empty_window (TmApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l; l = l->next)
    {
      if (TM_IS_WINDOW (l->data) &&
          tm_window_get_state (l->data) == TM_WINDOW_STATE_EMPTY)
        return l->data;
    }

  return NULL;
}

static int
compare_files (gconstpointer a,
               gconstpointer b)
{
  g_autofree char *path_a = g_file_get_uri (*(GFile **) a);
  g_autofree char *path_b = g_file_get_uri (*(GFile **) b);

  return g_strcmp0 (path_a, path_b);
}

static gboolean
is_json_profile_name (const char *name)
{
  return g_str_has_suffix (name, ".memory_profile.json") ||
         g_str_has_suffix (name, ".memory_profile.json.gz");
}

/* The profiles of a run directory: its *.xplane.pb (one per host; its XProf
 * memory-profile JSON files when it has none), or, for a log directory,
 * those of the newest run in plugins/profile/. *run_directory is set to
 * the directory that holds them. */
static void
collect_run_directory (GFile      *dir,
                       GPtrArray  *out,
                       GFile     **run_directory,
                       guint       depth)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) xspaces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) jsons = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *profiles;
  g_autofree char *newest_run = NULL;
  gboolean has_plugins = FALSE;

  enumerator = g_file_enumerate_children (dir,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (enumerator == NULL)
    return;

  for (;;)
    {
      GFileInfo *info = NULL;
      const char *name;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, NULL, NULL) || info == NULL)
        break;

      name = g_file_info_get_name (info);
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY)
        {
          if (depth == 0 && g_strcmp0 (name, "plugins") == 0)
            has_plugins = TRUE;
          else if (depth == 2 && (newest_run == NULL || g_strcmp0 (name, newest_run) > 0))
            {
              g_free (newest_run);
              newest_run = g_strdup (name);
            }
        }
      else if (g_str_has_suffix (name, ".xplane.pb"))
        {
          g_ptr_array_add (xspaces, g_file_get_child (dir, name));
        }
      else if (is_json_profile_name (name))
        {
          g_ptr_array_add (jsons, g_file_get_child (dir, name));
        }
    }

  profiles = xspaces->len > 0 ? xspaces : jsons;
  if (profiles->len > 0)
    {
      g_ptr_array_sort (profiles, compare_files);
      for (guint i = 0; i < profiles->len; i++)
        g_ptr_array_add (out, g_object_ref (g_ptr_array_index (profiles, i)));
      g_set_object (run_directory, dir);
      return;
    }

  if (depth == 0 && has_plugins)
    {
      g_autoptr(GFile) profile_dir = g_file_resolve_relative_path (dir, "plugins/profile");

      collect_run_directory (profile_dir, out, run_directory, 2);
    }
  else if (depth == 2 && newest_run != NULL)
    {
      g_autoptr(GFile) run = g_file_get_child (dir, newest_run);

      collect_run_directory (run, out, run_directory, 3);
    }
}

/* What to open: files as they are; a directory as the run it holds (one
 * window for all its hosts), or as its only profile. */
static GPtrArray *
expand_files (GFile **files,
              guint   n_files)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (open_item_free);

  for (guint i = 0; i < n_files; i++)
    {
      OpenItem *item = g_new0 (OpenItem, 1);

      if (g_file_query_file_type (files[i], G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        {
          g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func (g_object_unref);
          g_autoptr(GFile) run_directory = NULL;

          collect_run_directory (files[i], profiles, &run_directory, 0);
          if (profiles->len > 1)
            {
              item->run_directory = g_steal_pointer (&run_directory);
              item->hosts = g_steal_pointer (&profiles);
            }
          else if (profiles->len == 1)
            {
              item->file = g_object_ref (g_ptr_array_index (profiles, 0));
            }
        }

      /* A plain file, or a directory without profiles (the core then says
       * what is wrong with it). */
      if (item->file == NULL && item->hosts == NULL)
        item->file = g_object_ref (files[i]);

      g_ptr_array_add (out, item);
    }

  return out;
}

static void
open_item_in (TmWindow *window,
              OpenItem *item)
{
  if (item->hosts != NULL)
    tm_window_open_run (window, item->run_directory, (GFile **) item->hosts->pdata, item->hosts->len);
  else
    tm_window_open (window, item->file);
}

void
tm_application_open_files (TmApplication  *self,
                           GFile         **files,
                           guint           n_files,
                           GtkWindow      *target)
{
  g_autoptr(GPtrArray) expanded = NULL;

  g_return_if_fail (TM_IS_APPLICATION (self));
  g_return_if_fail (files != NULL || n_files == 0);
  g_return_if_fail (target == NULL || TM_IS_WINDOW (target));

  expanded = expand_files (files, n_files);

  for (guint i = 0; i < expanded->len; i++)
    {
      OpenItem *item = g_ptr_array_index (expanded, i);
      TmWindow *window;

      if (i == 0 && target != NULL)
        {
          window = TM_WINDOW (target);
          open_item_in (window, item);
        }
      else if ((window = item->hosts != NULL ? find_window_for_run (self, item->run_directory)
                                             : find_window_for_file (self, item->file)))
        {
          /* Opening a file (a run: its current host) again reloads it if
           * it changed on disk, or if it could not be opened before. */
          if (tm_window_get_state (window) != TM_WINDOW_STATE_LOADING &&
              (tm_window_get_file_changed (window) ||
               tm_window_get_state (window) == TM_WINDOW_STATE_ERROR))
            tm_window_reload (window);
        }
      else
        {
          if (!(window = find_empty_window (self)))
            window = tm_application_new_window (self);
          open_item_in (window, item);
        }

      gtk_window_present (GTK_WINDOW (window));
    }
}

/* ------------------------------------------------------------------ */
/* Actions                                                             */

static void
open_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  TmApplication *self = TM_APPLICATION (user_data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (!TM_IS_WINDOW (window))
    {
      window = GTK_WINDOW (tm_application_new_window (self));
      gtk_window_present (window);
    }

  tm_window_choose_files (TM_WINDOW (window));
}

static void
new_window_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  TmApplication *self = TM_APPLICATION (user_data);

  gtk_window_present (GTK_WINDOW (tm_application_new_window (self)));
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  TmApplication *self = TM_APPLICATION (user_data);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  const char *logo = gtk_icon_theme_has_icon (theme, APP_ID) ? APP_ID : APP_ID "-symbolic";

  gtk_show_about_dialog (window,
                         "program-name", _("Tidemark"),
                         "logo-icon-name", logo,
                         "version", PACKAGE_VERSION,
                         "comments", _("See how an accelerator’s memory was used: the peak, what was live then, and every allocation over time, from XLA, TensorFlow and JAX profiles."),
                         "copyright", _("© The Tidemark authors"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         /* Translators: put your names here, one per line */
                         "translator-credits", _("translator-credits"),
                         NULL);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  TmApplication *self = TM_APPLICATION (user_data);
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));

  /* Close each window so that it saves its size. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);

  g_application_quit (G_APPLICATION (self));
}

static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "new-window", new_window_action },
  { "about", about_action },
  { "quit", quit_action },
};

/* ------------------------------------------------------------------ */
/* GApplication                                                        */

static void
tm_application_startup (GApplication *application)
{
  TmApplication *self = TM_APPLICATION (application);
  g_autoptr(GtkCssProvider) css = NULL;
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "win.open-folder", { "<Control><Shift>o", NULL } },
    { "app.new-window", { "<Control>n", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "app.about", { "F1", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.reload", { "<Control>r", "F5", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.cancel-load", { "Escape", NULL } },
    { "win.previous-memory-id", { "<Alt>Up", NULL } },
    { "win.next-memory-id", { "<Alt>Down", NULL } },
    { "win.previous-host", { "<Alt>Page_Up", NULL } },
    { "win.next-host", { "<Alt>Page_Down", NULL } },
    { "win.export-xprof-json", { "<Control>e", NULL } },
    { "win.export-csv", { "<Control><Shift>e", NULL } },
  };

  G_APPLICATION_CLASS (tm_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  gtk_window_set_default_icon_name (APP_ID);

  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, RESOURCE_PREFIX "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  tm_application_follow_color_scheme (self);
}

static void
tm_application_activate (GApplication *application)
{
  TmApplication *self = TM_APPLICATION (application);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (tm_application_new_window (self));

  gtk_window_present (window);
}

static void
tm_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  tm_application_open_files (TM_APPLICATION (application), files, (guint) n_files, NULL);
}

static void
tm_application_shutdown (GApplication *application)
{
  TmApplication *self = TM_APPLICATION (application);

  g_cancellable_cancel (self->portal_cancellable);
  g_clear_object (&self->portal_cancellable);
  g_clear_object (&self->portal_settings);

  G_APPLICATION_CLASS (tm_application_parent_class)->shutdown (application);
}

static void
tm_application_class_init (TmApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = tm_application_startup;
  app_class->activate = tm_application_activate;
  app_class->open = tm_application_open;
  app_class->shutdown = tm_application_shutdown;
}

static void
tm_application_init (TmApplication *self)
{
  /* Listed for --help only: main() hands these to the command line before
   * the application starts (src/cli), so they never reach it. */
  static const GOptionEntry headless_entries[] = {
    { "summary", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print the summary of every memory id and exit"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, NULL, N_("With --summary: print it as JSON with exact integers"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Write XProf's memory-profile JSON (xprof-json) or the peak breakdown (csv) and exit"), N_("FORMAT") },
    { "memory-id", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --export=csv: the memory id (default: the one with the highest peak)"), N_("ID") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, NULL, N_("Where to write the export (default or “-”: standard output)"), N_("PATH") },
    { NULL }
  };

  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Shows the memory profiles that the XLA, TensorFlow and JAX profilers write "
                                              "(*.xplane.pb) and XProf's memory-profile JSON."));
  g_application_add_main_option_entries (G_APPLICATION (self), headless_entries);
}

TmApplication *
tm_application_new (void)
{
  return g_object_new (TM_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", RESOURCE_PREFIX,
                       NULL);
}
