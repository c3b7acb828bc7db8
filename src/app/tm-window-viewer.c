/* tm-window-viewer.c — the Memory Viewer page of the window and its switch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Beside the Memory Profile (the "profile" page of the window's stack, or
 * "no-data"), the "memory-viewer" page shows the compiler's plans
 * (TmMemoryViewerView, docs/ui.md, "Memory Viewer"). Two toggles at the
 * start of the header bar switch between them (the stateful action
 * "win.show-page", "memory-profile" or "memory-viewer"; Alt+1 and Alt+2).
 * The toggles show only for a profile with XLA modules: HloProtos inside
 * it, executions on its XLA Modules line, a sidecar opened by itself, or
 * sidecar files beside it (looked for in a worker after the profile
 * shows, never before). An XSpace the document portal gave by itself (in
 * a sandbox the folder beside it cannot be read) shows them too: the page
 * then says how to reach its modules' plans, rather than nothing. A
 * sidecar opened by itself, having no memory ids, opens on the Memory
 * Viewer.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-memory-viewer-query.h"
#include "tm-memory-viewer-view.h"
#include "tm-portal.h"
#include "tm-static-selection.h"
#include "tm-window-private.h"

struct _TmWindowViewer
{
  GtkWidget    *switcher;
  GtkWidget    *view;           /* the page, once it was first shown */
  GSimpleAction *action;
  TmProfile    *profile;        /* the one the toggles were decided for */
  gboolean      has_modules;
  GCancellable *cancellable;    /* the look for sidecars */
};

static gboolean
wants_viewer (TmWindow *self)
{
  g_autoptr(GVariant) state = g_action_get_state (G_ACTION (self->viewer->action));

  return g_str_equal (g_variant_get_string (state, NULL), "memory-viewer");
}

static void
set_page (TmWindow   *self,
          const char *page)
{
  g_simple_action_set_state (self->viewer->action, g_variant_new_string (page));
}

/* Which page of the stack the state shows: the Memory Viewer when asked
 * for and the profile has modules. */
void
_tm_window_viewer_update (TmWindow *self)
{
  TmWindowViewer *v = self->viewer;
  TmWindowState state = _tm_window_current (self)->state;
  const char *shown = gtk_stack_get_visible_child_name (self->main_stack);
  gboolean here = (state == TM_WINDOW_STATE_PROFILE || state == TM_WINDOW_STATE_NO_DATA) && !self->showing_overview;

  gtk_widget_set_visible (v->switcher, here && v->has_modules);
  if (!here || (g_strcmp0 (shown, "profile") != 0 && g_strcmp0 (shown, "no-data") != 0 &&
                g_strcmp0 (shown, "memory-viewer") != 0))
    return;
  if (v->has_modules && wants_viewer (self))
    {
      /* Made when first shown: a window that never shows it (most
       * profiles have no modules) does not build it. */
      if (v->view == NULL)
        {
          v->view = tm_memory_viewer_view_new (self->session);
          gtk_stack_add_named (self->main_stack, v->view, "memory-viewer");
        }
      gtk_stack_set_visible_child_name (self->main_stack, "memory-viewer");
    }
  else
    gtk_stack_set_visible_child_name (self->main_stack, state == TM_WINDOW_STATE_PROFILE ? "profile" : "no-data");
}

static void
show_page_change_state (GSimpleAction *action,
                        GVariant      *value,
                        TmWindow      *self)
{
  const char *page = g_variant_get_string (value, NULL);

  if (!g_str_equal (page, "memory-profile") && !g_str_equal (page, "memory-viewer"))
    return;
  g_simple_action_set_state (action, value);
  _tm_window_viewer_update (self);
}

static void
sidecars_thread (GTask        *task,
                 gpointer      source,
                 gpointer      data,
                 GCancellable *cancellable)
{
  g_autoptr(GArray) entries = tm_profile_list_hlo_entries (data);

  g_task_return_boolean (task, entries->len > 0);
}

/* The task holds the window weakly: a window closed while a folder is
 * listed goes at once, with its session. */
static void
sidecars_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TmWindow) self = g_weak_ref_get (user_data);

  if (self == NULL || self->viewer == NULL || g_task_get_cancellable (G_TASK (result)) != self->viewer->cancellable)
    return;
  g_clear_object (&self->viewer->cancellable);
  if (g_task_propagate_boolean (G_TASK (result), NULL))
    {
      self->viewer->has_modules = TRUE;
      _tm_window_viewer_update (self);
    }
}

static void
weak_ref_free (GWeakRef *ref)
{
  g_weak_ref_clear (ref);
  g_free (ref);
}

/* A file the document portal gave by itself: its folder is out of reach. */
static gboolean
is_lone_portal_document (TmProfile *profile)
{
  g_autofree char *path = g_file_get_path (tm_profile_get_file (profile));
  g_autofree char *below = NULL;

  return tm_portal_parse_document_path (path, g_get_user_runtime_dir (), NULL, &below) &&
         below != NULL && below[0] == '\0';
}

/* Another profile: are there modules, and which page does it open on? */
static void
profile_cb (TmWindow *self)
{
  TmWindowViewer *v = self->viewer;
  TmProfile *profile = tm_session_get_profile (self->session);

  if (profile == v->profile)
    return;
  g_cancellable_cancel (v->cancellable);
  g_clear_object (&v->cancellable);
  g_set_object (&v->profile, profile);
  v->has_modules = tm_static_selection_profile_has_modules (profile) ||
                   (profile != NULL && tm_profile_get_format (profile) == TM_INPUT_FORMAT_XSPACE &&
                    tm_profile_get_file (profile) != NULL && is_lone_portal_document (profile));
  set_page (self, profile != NULL && tm_profile_get_n_memory_ids (profile) == 0 && v->has_modules
                  ? "memory-viewer" : "memory-profile");
  if (profile != NULL && !v->has_modules && tm_profile_get_file (profile) != NULL)
    {
      g_autoptr(GTask) task = NULL;

      /* Sidecars beside it: a folder listing, in a worker. */
      GWeakRef *window = g_new0 (GWeakRef, 1);

      g_weak_ref_init (window, self);
      v->cancellable = g_cancellable_new ();
      task = g_task_new (NULL, v->cancellable, sidecars_done, window);
      g_task_set_task_data (task, g_object_ref (profile), g_object_unref);
      g_object_set_data_full (G_OBJECT (task), "window", window, (GDestroyNotify) weak_ref_free);
      g_task_set_priority (task, G_PRIORITY_LOW);
      g_task_run_in_thread (task, sidecars_thread);
    }
}

static GtkWidget *
toggle_new (const char *label,
            const char *page,
            const char *tooltip)
{
  GtkWidget *button = gtk_toggle_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.show-page");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", page);
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

void
_tm_window_viewer_init (TmWindow *self)
{
  TmWindowViewer *v = g_new0 (TmWindowViewer, 1);
  GtkWidget *header = gtk_window_get_titlebar (GTK_WINDOW (self));

  self->viewer = v;
  v->action = g_simple_action_new_stateful ("show-page", G_VARIANT_TYPE_STRING, g_variant_new_string ("memory-profile"));
  g_signal_connect (v->action, "change-state", G_CALLBACK (show_page_change_state), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (v->action));

  v->switcher = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (v->switcher, "linked");
  gtk_widget_set_visible (v->switcher, FALSE);
  gtk_box_append (GTK_BOX (v->switcher),
                  toggle_new (_("Memory _Profile"), "memory-profile",
                              _("What the allocator did over time (Alt+1)")));
  gtk_box_append (GTK_BOX (v->switcher),
                  toggle_new (_("Memory _Viewer"), "memory-viewer",
                              _("The compiler’s plan of an XLA module, in program order (Alt+2)")));
  gtk_accessible_update_property (GTK_ACCESSIBLE (v->switcher), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Page"), -1);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), v->switcher);

  /* The query hears of a new profile before the page does. */
  tm_memory_viewer_query_get_for_session (self->session);

  g_signal_connect_object (self->session, "notify::profile", G_CALLBACK (profile_cb), self, G_CONNECT_SWAPPED);
}

void
_tm_window_viewer_dispose (TmWindow *self)
{
  TmWindowViewer *v = self->viewer;

  if (v == NULL)
    return;
  g_cancellable_cancel (v->cancellable);
  g_clear_object (&v->cancellable);
  g_clear_object (&v->profile);
  g_clear_object (&v->action);
  g_clear_pointer (&self->viewer, g_free);
}
