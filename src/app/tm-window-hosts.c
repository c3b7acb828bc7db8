/* tm-window-hosts.c — the hosts of a multi-host run in one window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run directory holds one profile per host. The window lists the hosts
 * in its host dropdown, loads a host when it is first shown and keeps what
 * loading gave (a profile or an error) in its TmWindowHost, so that going
 * back to it is immediate and a host that failed leaves the others alone.
 * At most two hosts keep their profile, the two shown last; the others
 * load again when shown.
 *
 * A run also opens on the run overview (tm-run-overview): the session's
 * run (tm-run-loader) summarises every host in parallel, and a row asks,
 * through the session's "open-host", for a host and memory id, which the
 * window then shows with a Back button to return. JSON Lines of summaries
 * open as the same overview, without a folder.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-run.h"
#include "tm-run-loader.h"
#include "tm-run-overview.h"
#include "tm-window-private.h"

static void
tm_window_host_free (gpointer data)
{
  TmWindowHost *host = data;

  g_clear_object (&host->file);
  g_clear_object (&host->profile);
  g_free (host->name);
  g_free (host->error_message);
  g_free (host);
}

static int
compare_hosts (gconstpointer a,
               gconstpointer b)
{
  const TmWindowHost *host_a = *(TmWindowHost * const *) a;
  const TmWindowHost *host_b = *(TmWindowHost * const *) b;

  return tm_run_compare_host_names (host_a->name, host_b->name);
}

const TmHostSummary *
_tm_window_host_summary (TmWindow  *self,
                         GPtrArray *hosts,
                         guint      index)
{
  TmRunLoader *run = tm_session_get_run (self->session);
  TmWindowHost *host;
  GFile *file;

  if (run == NULL || hosts == NULL || index >= hosts->len || hosts->len != tm_run_loader_get_n_hosts (run))
    return NULL;
  host = g_ptr_array_index (hosts, index);
  file = tm_run_loader_get_host_file (run, index);
  if (file == NULL || !g_file_equal (file, host->file))
    return NULL;
  return tm_run_loader_get_host_summary (run, index);
}

/* "worker-0 · 5.78 GiB": the peak of the host's busiest memory id, as the
 * memory-id dropdown shows it, from its profile once it is loaded, or from
 * the run overview, which reads every host; a host that could not be read
 * says so (docs/ui.md, "The host dropdown"). Else the name alone. */
static char *
host_label (TmWindow  *self,
            GPtrArray *hosts,
            guint      index)
{
  TmWindowHost *host = g_ptr_array_index (hosts, index);
  const TmHostSummary *summary = _tm_window_host_summary (self, hosts, index);
  g_autofree char *peak = NULL;

  if (host->error_message != NULL || (summary != NULL && summary->error != NULL))
    /* Translators: a host dropdown item for a host whose profile could not be read */
    return g_strdup_printf (_("%s · could not be read"), host->name);

  if (host->profile != NULL && tm_profile_get_n_memory_ids (host->profile) > 0)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (host->profile, tm_profile_get_busiest_index (host->profile));

      peak = tm_format_bytes (tm_memory_store_get_summary (store)->peak_bytes_in_use);
    }
  else if (summary != NULL && tm_host_summary_get_busiest (summary) >= 0)
    {
      const TmRunDevice *device = g_ptr_array_index (summary->devices, tm_host_summary_get_busiest (summary));

      peak = tm_format_bytes (device->peak_bytes);
    }
  else if ((host->profile != NULL && tm_profile_get_n_memory_ids (host->profile) == 0) ||
           (summary != NULL && summary->devices->len == 0))
    /* Translators: a host dropdown item for a host whose profile holds no memory events */
    return g_strdup_printf (_("%s · no memory data"), host->name);

  if (peak == NULL)
    return g_strdup (host->name);
  /* Translators: a memory-id dropdown item: "GPU_6_bfc · 5.78 GiB" */
  return g_strdup_printf (_("%s · %s"), host->name, peak);
}

static void host_dropdown_selected_cb (TmWindow    *self,
                                       GParamSpec  *pspec,
                                       GtkDropDown *dropdown);

/* Makes the host dropdown list the current content's hosts and select its
 * host, without reacting to the selection. */
void
_tm_window_sync_hosts (TmWindow *self)
{
  TmWindowContent *current = _tm_window_current (self);
  guint n = current->hosts != NULL ? current->hosts->len : 0;

  g_signal_handlers_block_by_func (self->host_dropdown, host_dropdown_selected_cb, self);

  /* Each host's label gets its peak once it has been analysed (hosts are
   * loaded when first shown); nothing is made up for the others. */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
    guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->host_names));
    gboolean same = current->hosts == self->listed_hosts && n_old == n;

    for (guint i = 0; i < n; i++)
      {
        char *label = host_label (self, current->hosts, i);

        same = same && g_strcmp0 (label, gtk_string_list_get_string (self->host_names, i)) == 0;
        g_ptr_array_add (labels, label);
      }
    g_ptr_array_add (labels, NULL);

    if (!same)
      gtk_string_list_splice (self->host_names, 0, n_old, (const char * const *) labels->pdata);
    if (current->hosts != self->listed_hosts)
      {
        g_clear_pointer (&self->listed_hosts, g_ptr_array_unref);
        self->listed_hosts = current->hosts != NULL ? g_ptr_array_ref (current->hosts) : NULL;
      }
  }

  if (gtk_drop_down_get_selected (self->host_dropdown) != (n > 0 ? current->host_index : GTK_INVALID_LIST_POSITION))
    gtk_drop_down_set_selected (self->host_dropdown, n > 0 ? current->host_index : GTK_INVALID_LIST_POSITION);

  g_signal_handlers_unblock_by_func (self->host_dropdown, host_dropdown_selected_cb, self);

  /* Visible in every state, so that a host that failed or loads slowly
   * can be left for another. */
  gtk_widget_set_visible (GTK_WIDGET (self->host_dropdown), n > 1);
}

void
tm_window_open_run (TmWindow  *self,
                    GFile     *run_directory,
                    GFile    **host_files,
                    guint      n_host_files)
{
  g_autoptr(GPtrArray) hosts = NULL;
  TmWindowHost *first;

  g_return_if_fail (TM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (run_directory));
  g_return_if_fail (host_files != NULL && n_host_files > 0);

  _tm_window_compare_end (self);
  hosts = g_ptr_array_new_full (n_host_files, tm_window_host_free);
  for (guint i = 0; i < n_host_files; i++)
    {
      TmWindowHost *host = g_new0 (TmWindowHost, 1);

      host->file = g_object_ref (host_files[i]);
      host->name = tm_run_host_name (host_files[i]);
      host->size = -1;
      g_ptr_array_add (hosts, host);
    }
  g_ptr_array_sort (hosts, compare_hosts);

  /* A new run starts with the busiest memory id. */
  g_clear_pointer (&self->wanted_memory_id, g_free);

  /* The overview summarises every host; the first host loads behind it. */
  {
    g_autoptr(GPtrArray) files = g_ptr_array_new ();
    g_autoptr(TmRunLoader) run = NULL;

    for (guint i = 0; i < hosts->len; i++)
      g_ptr_array_add (files, ((TmWindowHost *) g_ptr_array_index (hosts, i))->file);
    run = tm_run_loader_new (run_directory, (GFile **) files->pdata, files->len);
    tm_session_set_run (self->session, run);
    tm_run_loader_start (run, 0);
    self->showing_overview = TRUE;
  }

  first = g_ptr_array_index (hosts, 0);
  _tm_window_start_load (self, first->file, run_directory, hosts, 0);
}

/* Shows host index of the current run: at once if it was shown before,
 * else by loading it. */
static void
tm_window_show_host (TmWindow *self,
                     guint     index)
{
  TmWindowContent *current = _tm_window_current (self);
  TmWindowContent content = { 0 };
  TmWindowHost *host;

  if (current->hosts == NULL || index >= current->hosts->len)
    return;

  host = g_ptr_array_index (current->hosts, index);

  if (host->profile == NULL && host->error_message == NULL)
    {
      _tm_window_start_load (self, host->file, current->run_directory, current->hosts, index);
      return;
    }

  host->shown_serial = ++self->host_serial;

  /* Kept from before: a load of another host stops. */
  content.file = g_object_ref (host->file);
  content.run_directory = g_object_ref (current->run_directory);
  content.hosts = g_ptr_array_ref (current->hosts);
  content.host_index = index;
  content.profile = host->profile != NULL ? g_object_ref (host->profile) : NULL;
  content.error_message = g_strdup (host->error_message);
  content.mtime_us = host->mtime_us;
  content.size = host->size;

  _tm_window_show (self, &content);
}

static void
host_dropdown_selected_cb (TmWindow    *self,
                           GParamSpec  *pspec,
                           GtkDropDown *dropdown)
{
  TmWindowContent *current = _tm_window_current (self);
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (current->hosts == NULL || selected == GTK_INVALID_LIST_POSITION || selected == current->host_index)
    return;

  self->showing_overview = FALSE;
  tm_window_show_host (self, selected);
}

void
_tm_window_step_host (TmWindow *self,
                      int       delta)
{
  TmWindowContent *current = _tm_window_current (self);
  guint n = current->hosts != NULL ? current->hosts->len : 0;

  if (n < 2)
    return;

  if (delta < 0 && current->host_index > 0)
    gtk_drop_down_set_selected (self->host_dropdown, current->host_index - 1);
  else if (delta > 0 && current->host_index + 1 < n)
    gtk_drop_down_set_selected (self->host_dropdown, current->host_index + 1);
}

/* ------------------------------------------------------------------ */
/* The run overview                                                    */

/* Whether the window's hosts are those of run. */
static gboolean
content_is_run (TmWindowContent *content,
                TmRunLoader     *run)
{
  return run != NULL && content->hosts != NULL && content->run_directory != NULL &&
         content->hosts->len == tm_run_loader_get_n_hosts (run) &&
         g_file_equal (content->run_directory, tm_run_loader_get_source (run));
}

static const char *
page_name (TmWindowState state)
{
  switch (state)
    {
    case TM_WINDOW_STATE_LOADING:
      return "loading";
    case TM_WINDOW_STATE_ERROR:
      return "error";
    case TM_WINDOW_STATE_NO_DATA:
      return "no-data";
    case TM_WINDOW_STATE_PROFILE:
      return "profile";
    case TM_WINDOW_STATE_EMPTY:
    default:
      return "empty";
    }
}

/* The page, title and buttons for the overview, or for the host shown
 * instead of it. */
void
_tm_window_hosts_update_page (TmWindow *self)
{
  TmRunLoader *run = tm_session_get_run (self->session);
  gboolean overview = run != NULL && self->showing_overview;

  gtk_widget_set_visible (self->back_button, run != NULL && !self->showing_overview);

  if (overview)
    {
      g_autofree char *name = _tm_window_display_basename (tm_run_loader_get_source (run));
      guint n = tm_run_loader_get_n_hosts (run);
      g_autofree char *subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Overview of %u host", "Overview of %u hosts", n), n);

      gtk_stack_set_visible_child_name (self->main_stack, "run");
      gtk_widget_set_visible (GTK_WIDGET (self->memory_dropdown), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->host_dropdown), FALSE);
      gtk_label_set_label (self->title_label, name);
      gtk_window_set_title (GTK_WINDOW (self), name);
      gtk_label_set_label (self->subtitle_label, subtitle);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
    }
  else if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "run") == 0)
    gtk_stack_set_visible_child_name (self->main_stack, page_name (_tm_window_current (self)->state));
}

static void
trim_profiles (TmWindow  *self,
               GPtrArray *hosts)
{
  guint64 first = 0, second = 0;

  for (guint i = 0; hosts != NULL && i < hosts->len; i++)
    {
      TmWindowHost *host = g_ptr_array_index (hosts, i);

      if (host->profile == NULL)
        continue;
      if (host->shown_serial > first)
        {
          second = first;
          first = host->shown_serial;
        }
      else if (host->shown_serial > second)
        second = host->shown_serial;
    }

  for (guint i = 0; hosts != NULL && i < hosts->len; i++)
    {
      TmWindowHost *host = g_ptr_array_index (hosts, i);

      if (host->profile != NULL && host->shown_serial < second)
        g_clear_object (&host->profile);
    }
}

/* A host finished loading: it is the one shown last. */
void
_tm_window_hosts_loaded (TmWindow     *self,
                         TmWindowHost *host)
{
  host->shown_serial = ++self->host_serial;
  trim_profiles (self, self->loading.hosts);
}

void
_tm_window_hosts_leave_run (TmWindow *self)
{
  self->showing_overview = FALSE;
  tm_session_set_run (self->session, NULL);
}

/* The window's hosts for the hosts of run; a gathered host without a
 * path gets one that cannot be read, so that it says so. */
static GPtrArray *
hosts_for_run (TmRunLoader *run)
{
  guint n = tm_run_loader_get_n_hosts (run);
  GPtrArray *hosts = g_ptr_array_new_full (n, tm_window_host_free);

  for (guint i = 0; i < n; i++)
    {
      TmWindowHost *host = g_new0 (TmWindowHost, 1);
      GFile *file = tm_run_loader_get_host_file (run, i);

      host->file = file != NULL ? g_object_ref (file) : g_file_new_for_path (tm_run_loader_get_host_name (run, i));
      host->name = g_strdup (tm_run_loader_get_host_name (run, i));
      host->size = -1;
      g_ptr_array_add (hosts, host);
    }
  return hosts;
}

static void
open_host_cb (TmWindow   *self,
              guint       index,
              const char *memory_id,
              TmSession  *session)
{
  TmRunLoader *run = tm_session_get_run (session);
  TmWindowContent *current = _tm_window_current (self);

  self->showing_overview = FALSE;
  g_free (self->wanted_memory_id);
  self->wanted_memory_id = g_strdup (memory_id);

  if (!content_is_run (current, run))
    {
      g_autoptr(GPtrArray) hosts = hosts_for_run (run);
      TmWindowHost *host = g_ptr_array_index (hosts, index);

      _tm_window_start_load (self, host->file, tm_run_loader_get_source (run), hosts, index);
      return;
    }

  if (index != current->host_index)
    {
      gtk_drop_down_set_selected (self->host_dropdown, index);
      return;
    }

  /* The host shown: only the memory id changes. */
  if (self->load_cancellable == NULL && tm_session_get_profile (self->session) != NULL && memory_id != NULL)
    _tm_window_fill_memory_ids (self, memory_id);
  _tm_window_update (self, current->state, current->file);
}

static void
back_clicked_cb (TmWindow *self)
{
  tm_window_show_run_overview (self);
}

void
tm_window_show_run_overview (TmWindow *self)
{
  TmWindowContent *current;

  g_return_if_fail (TM_IS_WINDOW (self));

  if (tm_session_get_run (self->session) == NULL)
    return;

  current = _tm_window_current (self);
  self->showing_overview = TRUE;
  _tm_window_update (self, current->state, current->file);
}

gboolean
tm_window_get_showing_overview (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);

  return self->showing_overview && tm_session_get_run (self->session) != NULL;
}

static void
summaries_loaded_cb (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(TmWindow) self = user_data;
  GFile *file = G_FILE (source);
  char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmRunLoader) run = NULL;
  TmWindowContent *current;

  if (g_file_load_contents_finish (file, result, &contents, &length, NULL, &error))
    {
      g_autoptr(GBytes) bytes = g_bytes_new_take (contents, length);

      run = tm_run_loader_new_for_gathered (file, bytes, &error);
    }

  if (run == NULL)
    {
      TmWindowContent content = { 0 };

      _tm_window_hosts_leave_run (self);
      content.file = g_object_ref (file);
      content.state = TM_WINDOW_STATE_ERROR;
      content.error_message = g_strdup (error->message);
      _tm_window_show (self, &content);
      return;
    }

  g_clear_pointer (&self->wanted_memory_id, g_free);
  tm_session_set_run (self->session, run);
  self->showing_overview = TRUE;
  current = _tm_window_current (self);
  _tm_window_update (self, current->state, current->file);
}

void
tm_window_open_summaries (TmWindow *self,
                          GFile    *file)
{
  g_return_if_fail (TM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_file_load_contents_async (file, NULL, summaries_loaded_cb, g_object_ref (self));
}

/* The overview read a host: its item in the host dropdown says what. */
static void
run_host_changed_cb (TmWindow *self)
{
  _tm_window_sync_hosts (self);
  /* The dropdown stays hidden while the overview is shown. */
  _tm_window_hosts_update_page (self);
}

void
_tm_window_hosts_init (TmWindow *self)
{
  GtkWidget *header_bar = gtk_window_get_titlebar (GTK_WINDOW (self));

  self->run_overview = tm_run_overview_new (self->session);
  gtk_stack_add_named (self->main_stack, self->run_overview, "run");

  self->back_button = gtk_button_new_from_icon_name ("go-previous-symbolic");
  gtk_widget_set_tooltip_text (self->back_button, _("Back to the run overview"));
  gtk_widget_set_visible (self->back_button, FALSE);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header_bar), self->back_button);
  g_signal_connect_object (self->back_button, "clicked", G_CALLBACK (back_clicked_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "open-host", G_CALLBACK (open_host_cb), self, G_CONNECT_SWAPPED);

  /* What the overview learns of a host shows in the host dropdown. */
  self->run_signals = g_signal_group_new (TM_TYPE_RUN_LOADER);
  g_signal_group_connect_swapped (self->run_signals, "host-changed", G_CALLBACK (run_host_changed_cb), self);
  g_object_bind_property (self->session, "run", self->run_signals, "target", G_BINDING_SYNC_CREATE);

  self->host_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->host_dropdown, G_LIST_MODEL (self->host_names));
  g_signal_connect_object (self->host_dropdown, "notify::selected",
                           G_CALLBACK (host_dropdown_selected_cb), self, G_CONNECT_SWAPPED);
}

GFile *
tm_window_get_run_directory (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return _tm_window_current (self)->run_directory;
}

guint
tm_window_get_n_hosts (TmWindow *self)
{
  GPtrArray *hosts;

  g_return_val_if_fail (TM_IS_WINDOW (self), 0);

  hosts = _tm_window_current (self)->hosts;
  return hosts != NULL ? hosts->len : 0;
}

const char *
tm_window_get_host_name (TmWindow *self,
                         guint     index)
{
  GPtrArray *hosts;

  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  hosts = _tm_window_current (self)->hosts;
  g_return_val_if_fail (hosts != NULL && index < hosts->len, NULL);

  return ((TmWindowHost *) g_ptr_array_index (hosts, index))->name;
}

gboolean
tm_window_select_host (TmWindow   *self,
                       const char *host)
{
  GPtrArray *hosts;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  hosts = _tm_window_current (self)->hosts;
  for (guint i = 0; hosts != NULL && i < hosts->len; i++)
    {
      if (g_strcmp0 (((TmWindowHost *) g_ptr_array_index (hosts, i))->name, host) == 0)
        {
          gtk_drop_down_set_selected (self->host_dropdown, i);
          return TRUE;
        }
    }

  return FALSE;
}
