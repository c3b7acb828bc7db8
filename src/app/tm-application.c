/* tm-application.c — the application: actions, windows, opening files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-application.h"
#include "tm-renderer.h"
#include "tm-run.h"
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

static void
open_item_in (TmWindow  *window,
              TmRunItem *item)
{
  if (item->hosts != NULL)
    tm_window_open_run (window, item->run_directory, (GFile **) item->hosts->pdata, item->hosts->len);
  else if (item->summaries)
    tm_window_open_summaries (window, item->file);
  else
    tm_window_open (window, item->file);
}

/* Opens what the paths expanded to: the first item in target (if set and
 * still there), each other one in its window, an empty one or a new one. */
static void
tm_application_open_items (TmApplication *self,
                           GPtrArray     *items,
                           TmWindow      *target)
{
  for (guint i = 0; i < items->len; i++)
    {
      TmRunItem *item = g_ptr_array_index (items, i);
      TmWindow *window;

      if (i == 0 && target != NULL)
        {
          window = target;
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

typedef struct
{
  TmApplication *self;
  GWeakRef       target;
} OpenJob;

static void
open_job_free (OpenJob *job)
{
  g_clear_object (&job->self);
  g_weak_ref_clear (&job->target);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpenJob, open_job_free)

static void
expand_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(OpenJob) job = user_data;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GtkWindow) target = g_weak_ref_get (&job->target);
  g_autoptr(GError) error = NULL;

  items = tm_run_expand_finish (result, &error);

  /* Only cancelled expansions fail, and nothing cancels them: the paths
   * whose folders could not be listed are opened as they are. */
  if (items != NULL)
    {
      /* A target closed meanwhile: open as if there were none. */
      if (target != NULL && g_list_find (gtk_application_get_windows (GTK_APPLICATION (job->self)), target) == NULL)
        g_clear_object (&target);
      tm_application_open_items (job->self, items, target != NULL ? TM_WINDOW (target) : NULL);
    }

  g_application_unmark_busy (G_APPLICATION (job->self));
  g_application_release (G_APPLICATION (job->self));
}

void
tm_application_open_files (TmApplication  *self,
                           GFile         **files,
                           guint           n_files,
                           GtkWindow      *target)
{
  OpenJob *job;

  g_return_if_fail (TM_IS_APPLICATION (self));
  g_return_if_fail (files != NULL || n_files == 0);
  g_return_if_fail (target == NULL || TM_IS_WINDOW (target));

  if (n_files == 0)
    return;

  /* Listing folders may be slow (network mounts): a worker does it. The
   * application stays alive and busy meanwhile, even without a window
   * (opening from the command line). */
  g_application_hold (G_APPLICATION (self));
  g_application_mark_busy (G_APPLICATION (self));

  job = g_new0 (OpenJob, 1);
  job->self = g_object_ref (self);
  g_weak_ref_init (&job->target, target);

  tm_run_expand_async (files, n_files, NULL, expand_ready_cb, job);
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
    /* F1 is Help in GNOME: here, the keyboard shortcuts. */
    { "win.show-help-overlay", { "F1", "<Control>question", NULL } },
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
    { "win.export-timeline-png", { "<Control><Alt>e", NULL } },
    { "win.back-to-peak", { "<Alt>Home", NULL } },
    { "win.show-page::memory-profile", { "<Alt>1", NULL } },
    { "win.show-page::memory-viewer", { "<Alt>2", NULL } },
  };

  G_APPLICATION_CLASS (tm_application_parent_class)->startup (application);

  /* Before any window is realized: GTK picks a window's renderer then. */
  tm_renderer_choose (gdk_display_get_default ());

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
    { "json", 0, 0, G_OPTION_ARG_NONE, NULL, N_("With --summary: print one line of JSON per host (JSON Lines), with exact integers"), NULL },
    { "export", 0, 0, G_OPTION_ARG_STRING, NULL, N_("Write XProf's memory-profile JSON (xprof-json), the peak breakdown (csv), every allocation (allocations), the scopes as collapsed stacks (collapsed), the memory-only profile (memory-xplane), the timeline (svg) or the memory map (memory-map-svg) as a vector SVG, and exit"), N_("FORMAT") },
    { "memory-id", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --export=csv, allocations, collapsed, svg or memory-map-svg: the memory id (default: the one with the highest peak)"), N_("ID") },
    { "at", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --export=collapsed: the time in milliseconds (default: the peak)"), N_("MS") },
    { "never-freed", 0, 0, G_OPTION_ARG_NONE, NULL, N_("With --export=collapsed: the scopes of the allocations never freed (a leak flame graph) instead of those live at a time"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, NULL, N_("Where to write the export (default or “-”: standard output)"), N_("PATH") },
    { "compare", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Print how FILE differs from BASELINE (tidemark --compare [--json] [--memory-id=ID] BASELINE FILE) and exit"), NULL },
    { "baseline-memory-id", 0, 0, G_OPTION_ARG_STRING, NULL, N_("With --compare and --memory-id: the baseline’s memory id, when it is another one"), N_("ID") },
    { NULL }
  };

  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Shows the memory profiles that the XLA, TensorFlow and JAX profilers write "
                                              "(*.xplane.pb), XProf's memory-profile JSON and PyTorch's memory snapshots "
                                              "(*.pickle)."));
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
