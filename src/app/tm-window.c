/* tm-window.c — a window showing one profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A GtkStack holds the window's states: empty, loading, error, no memory
 * data and the profile view (summary cards, the timeline area and the
 * breakdown table in a GtkPaned). Loading runs on a worker thread
 * (tm_profile_load_async); a new load cancels the previous one, and a load
 * that finishes after it was replaced is ignored.
 *
 * A window shows one file, or a multi-host run directory: then the host
 * dropdown lists its hosts, a host is loaded when first shown, and what
 * loading gave (profile or error) is kept per host.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-format.h"
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

/* Loads that finish sooner than this never show the loading page. */
#define SHOW_LOADING_DELAY_MS 120

typedef struct
{
  TmWindow     *self;
  GCancellable *cancellable;
  /* For a host of a run: the window's hosts and which one (else NULL). */
  GPtrArray    *hosts;
  guint         host_index;
} LoadJob;

static void
load_job_clear (LoadJob *job)
{
  g_clear_object (&job->self);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->hosts, g_ptr_array_unref);
}

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

static const char * const profile_suffixes[] = {
  ".xplane.pb",
  ".memory_profile.json.gz",
  ".memory_profile.json",
};

/* A host's name: its file name without .xplane.pb (or the JSON suffix). */
static char *
host_name_for_file (GFile *file)
{
  g_autofree char *raw = g_file_get_basename (file);
  g_autofree char *basename = g_filename_display_name (raw);
  gsize len = strlen (basename);

  for (guint i = 0; i < G_N_ELEMENTS (profile_suffixes); i++)
    {
      gsize suffix_len = strlen (profile_suffixes[i]);

      if (len > suffix_len && g_str_has_suffix (basename, profile_suffixes[i]))
        return g_strndup (basename, len - suffix_len);
    }

  return g_steal_pointer (&basename);
}

static int
compare_hosts (gconstpointer a,
               gconstpointer b)
{
  const TmWindowHost *host_a = *(TmWindowHost * const *) a;
  const TmWindowHost *host_b = *(TmWindowHost * const *) b;
  g_autofree char *key_a = g_utf8_collate_key_for_filename (host_a->name, -1);
  g_autofree char *key_b = g_utf8_collate_key_for_filename (host_b->name, -1);
  int cmp = strcmp (key_a, key_b);

  return cmp != 0 ? cmp : strcmp (host_a->name, host_b->name);
}

static TmWindowHost *
tm_window_get_current_host (TmWindow *self)
{
  if (self->hosts == NULL || self->host_index >= self->hosts->len)
    return NULL;

  return g_ptr_array_index (self->hosts, self->host_index);
}

static void
load_job_unref (gpointer data)
{
  g_rc_box_release_full (data, (GDestroyNotify) load_job_clear);
}

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

static char *
display_basename (GFile *file)
{
  g_autofree char *parse_name = g_file_get_parse_name (file);

  return g_path_get_basename (parse_name);
}

static char *
display_dirname (GFile *file)
{
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = NULL;

  if (parent == NULL)
    return NULL;

  if (g_file_equal (parent, home))
    return g_strdup ("~");

  if ((relative = g_file_get_relative_path (home, parent)))
    return g_build_filename ("~", relative, NULL);

  return g_file_get_parse_name (parent);
}

static void
tm_window_update_title (TmWindow *self)
{
  g_autofree char *basename = NULL;
  g_autofree char *dirname = NULL;

  if (self->file == NULL)
    {
      gtk_label_set_label (self->title_label, _("Tidemark"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Tidemark"));
      return;
    }

  basename = display_basename (self->file);

  /* A run: the run directory is the title, the host's file the subtitle. */
  if (self->run_directory != NULL)
    {
      g_autofree char *run_name = display_basename (self->run_directory);
      g_autofree char *run_dirname = display_dirname (self->run_directory);
      g_autofree char *tooltip = run_dirname ? g_build_filename (run_dirname, run_name, NULL) : g_strdup (run_name);

      gtk_label_set_label (self->title_label, run_name);
      gtk_window_set_title (GTK_WINDOW (self), run_name);
      gtk_label_set_label (self->subtitle_label, basename);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), tooltip);
      return;
    }

  dirname = display_dirname (self->file);

  gtk_label_set_label (self->title_label, basename);
  gtk_window_set_title (GTK_WINDOW (self), basename);
  gtk_label_set_label (self->subtitle_label, dirname ? dirname : "");
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), dirname != NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), basename);
}

/* ------------------------------------------------------------------ */
/* State                                                               */

static void
tm_window_set_memory_store (TmWindow      *self,
                            TmMemoryStore *store)
{
  TmAnalysis *analysis;

  if (!g_set_object (&self->memory_store, store))
    return;

  if (store != NULL)
    {
      g_free (self->wanted_memory_id);
      self->wanted_memory_id = g_strdup (tm_memory_store_get_id (store));
    }

  analysis = store != NULL ? tm_profile_lookup_analysis (self->profile, store) : NULL;
  tm_summary_cards_set_store (self->summary_cards, store, analysis);
  tm_breakdown_view_set_store (self->breakdown_view, store, analysis);
  tm_timeline_set_store (self->timeline, store);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY_STORE]);
}

static void
tm_window_set_state (TmWindow      *self,
                     TmWindowState  state)
{
  gboolean changed = self->state != state;

  self->state = state;

  /* The loading page shows after a short delay (see tm_window_open). */
  if (state != TM_WINDOW_STATE_LOADING)
    {
      g_clear_handle_id (&self->show_loading_source, g_source_remove);
      gtk_stack_set_visible_child_name (self->main_stack, page_for_state (state));
    }

  gtk_widget_set_visible (GTK_WIDGET (self->memory_dropdown),
                          state == TM_WINDOW_STATE_PROFILE &&
                          g_list_model_get_n_items (G_LIST_MODEL (self->memory_ids)) > 0);
  /* Visible in every state, so that a host that failed or loads slowly
   * can be left for another. */
  gtk_widget_set_visible (GTK_WIDGET (self->host_dropdown),
                          self->hosts != NULL && self->hosts->len > 1);

  _tm_window_actions_update (self);

  /* Focus something useful (and not the selectable error text, which
   * would then show as selected). */
  if (changed && state == TM_WINDOW_STATE_PROFILE)
    gtk_widget_grab_focus (GTK_WIDGET (tm_breakdown_view_get_column_view (self->breakdown_view)));
  else if (changed && state == TM_WINDOW_STATE_ERROR)
    gtk_widget_grab_focus (self->error_open_button);

  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
tm_window_set_file (TmWindow *self,
                    GFile    *file)
{
  if (self->file == file || (self->file && file && g_file_equal (self->file, file)))
    {
      g_set_object (&self->file, file);
      return;
    }

  g_set_object (&self->file, file);
  tm_window_update_title (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
}

static void
tm_window_set_profile (TmWindow  *self,
                       TmProfile *profile)
{
  if (!g_set_object (&self->profile, profile))
    return;

  tm_hlo_view_set_modules (self->hlo_view, profile != NULL ? tm_profile_get_hlo_modules (profile) : NULL);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
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

  if (self->profile != NULL &&
      selected != GTK_INVALID_LIST_POSITION &&
      selected < tm_profile_get_n_memory_ids (self->profile))
    store = tm_profile_get_memory_store (self->profile, selected);

  tm_window_set_memory_store (self, store);
}

static char *
memory_id_label (TmMemoryStore *store)
{
  const char *id = tm_memory_store_get_id (store);
  g_autofree char *peak = tm_format_bytes (tm_memory_store_get_summary (store)->peak_bytes_in_use);

  /* Translators: a memory-id dropdown item: "GPU_6_bfc · 5.78 GiB" */
  return g_strdup_printf (_("%s · %s"), id && *id ? id : _("(no id)"), peak);
}

/* Fills the dropdown; selects keep_id if the profile has it, else the
 * busiest memory id. */
static void
tm_window_fill_memory_ids (TmWindow   *self,
                           const char *keep_id)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->memory_ids));
  guint n = self->profile ? tm_profile_get_n_memory_ids (self->profile) : 0;
  guint selected = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < n; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (self->profile, i);

      g_ptr_array_add (labels, memory_id_label (store));
      if (keep_id != NULL && g_strcmp0 (keep_id, tm_memory_store_get_id (store)) == 0)
        selected = i;
    }
  g_ptr_array_add (labels, NULL);

  if (selected == GTK_INVALID_LIST_POSITION && n > 0)
    selected = tm_profile_get_busiest_index (self->profile);

  g_signal_handlers_block_by_func (self->memory_dropdown, memory_dropdown_selected_cb, self);
  gtk_string_list_splice (self->memory_ids, 0, n_old, (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->memory_dropdown, selected);
  g_signal_handlers_unblock_by_func (self->memory_dropdown, memory_dropdown_selected_cb, self);

  memory_dropdown_selected_cb (self, NULL, self->memory_dropdown);
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */

static void
tm_window_show_loading_page (TmWindow *self)
{
  gtk_stack_set_visible_child_name (self->main_stack, "loading");
}

static gboolean
show_loading_timeout_cb (gpointer data)
{
  TmWindow *self = data;

  self->show_loading_source = 0;
  if (self->state == TM_WINDOW_STATE_LOADING)
    tm_window_show_loading_page (self);

  return G_SOURCE_REMOVE;
}

static void
load_progress_cb (guint64  done,
                  guint64  total,
                  gpointer user_data)
{
  LoadJob *job = user_data;
  TmWindow *self = job->self;
  g_autofree char *detail = NULL;

  if (job->cancellable != self->load_cancellable)
    return;

  if (total > 0)
    {
      g_autofree char *done_text = tm_format_bytes ((gint64) MIN (done, total));
      g_autofree char *total_text = tm_format_bytes ((gint64) total);

      gtk_progress_bar_set_fraction (self->loading_progress, CLAMP ((double) done / (double) total, 0.0, 1.0));
      if (done >= total)
        detail = g_strdup (_("Analysing…"));
      else
        /* Translators: progress while reading: "120 MiB of 1.00 GiB" */
        detail = g_strdup_printf (_("%s of %s"), done_text, total_text);
    }
  else
    {
      gtk_progress_bar_pulse (self->loading_progress);
      detail = g_strdup (_("Reading…"));
    }

  gtk_label_set_label (self->loading_detail, detail);
}

static void
tm_window_show_error (TmWindow   *self,
                      GFile      *file,
                      const char *message)
{
  g_autofree char *basename = display_basename (file);
  g_autofree char *title = NULL;

  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Could Not Open “%s”"), basename);
  gtk_label_set_label (self->error_title, title);
  gtk_label_set_label (self->error_message, message);

  g_free (self->error_message_text);
  self->error_message_text = g_strdup (message);

  tm_window_set_memory_store (self, NULL);
  tm_window_set_profile (self, NULL);
  tm_window_fill_memory_ids (self, NULL);
  tm_window_set_file (self, file);
  tm_window_set_state (self, TM_WINDOW_STATE_ERROR);
}

static void
tm_window_update_no_data (TmWindow *self)
{
  const char *message;

  if (tm_profile_get_format (self->profile) == TM_PROFILE_FORMAT_XPROF_JSON)
    message = _("This memory-profile JSON lists no memory ids, so there is nothing to show.");
  else if (!tm_profile_has_host_plane (self->profile))
    message = _("This profile has no host trace (no <tt>/host:CPU</tt> plane), which is where the profiler records memory allocations and deallocations.\n\n"
                "Capture the profile again with host tracing on, with <tt>host_tracer_level</tt> set to 2 or higher.");
  else
    message = _("The host trace has no <tt>MemoryAllocation</tt> or <tt>MemoryDeallocation</tt> events. The profiler records them only when <tt>host_tracer_level</tt> is 2 or higher, and only for allocators that report them, such as the BFC allocator TensorFlow and XLA use on GPUs and TPUs.\n\n"
                "Capture the profile again with, for example, <tt>tf.profiler.experimental.ProfilerOptions(host_tracer_level=2)</tt>.");

  gtk_label_set_markup (self->no_data_message, message);
}

static void
tm_window_show_profile (TmWindow  *self,
                        GFile     *file,
                        TmProfile *profile)
{
  g_autofree char *keep_id = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GFile) parent = NULL;
  gboolean complete = TRUE;
  guint n;

  /* Reloading the same file keeps the memory id the user picked; so does
   * going to another host of a run, when it has that memory id. */
  if (self->hosts != NULL)
    keep_id = g_strdup (self->wanted_memory_id);
  else if (self->memory_store != NULL && self->file_before_loading != NULL &&
           g_file_equal (self->file_before_loading, file))
    keep_id = g_strdup (tm_memory_store_get_id (self->memory_store));

  g_clear_pointer (&self->error_message_text, g_free);

  tm_window_set_memory_store (self, NULL);
  tm_window_set_profile (self, profile);
  tm_window_set_file (self, file);

  n = tm_profile_get_n_memory_ids (profile);
  for (guint i = 0; i < n; i++)
    complete &= tm_memory_store_is_complete (tm_profile_get_memory_store (profile, i));
  gtk_widget_set_visible (self->sampled_banner,
                          tm_profile_get_format (profile) == TM_PROFILE_FORMAT_XPROF_JSON || !complete);

  tm_window_fill_memory_ids (self, keep_id);

  if (n == 0)
    {
      tm_window_update_no_data (self);
      tm_window_set_state (self, TM_WINDOW_STATE_NO_DATA);
    }
  else
    {
      tm_window_set_state (self, TM_WINDOW_STATE_PROFILE);
    }

  /* For a run, the run directory is what to open again. */
  uri = g_file_get_uri (self->run_directory != NULL ? self->run_directory : file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);

  if (self->settings != NULL &&
      (parent = g_file_get_parent (self->run_directory != NULL ? self->run_directory : file)))
    {
      g_autofree char *parent_uri = g_file_get_uri (parent);

      g_settings_set_string (self->settings, "last-folder", parent_uri);
    }
}

static void host_dropdown_selected_cb (TmWindow    *self,
                                       GParamSpec  *pspec,
                                       GtkDropDown *dropdown);

/* Fills the host dropdown from self->hosts and selects self->host_index,
 * without reacting to the selection. */
static void
tm_window_fill_hosts (TmWindow *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  guint n_old = g_list_model_get_n_items (G_LIST_MODEL (self->host_names));
  guint n = self->hosts != NULL ? self->hosts->len : 0;

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (names, ((TmWindowHost *) g_ptr_array_index (self->hosts, i))->name);
  g_ptr_array_add (names, NULL);

  g_signal_handlers_block_by_func (self->host_dropdown, host_dropdown_selected_cb, self);
  gtk_string_list_splice (self->host_names, 0, n_old, (const char * const *) names->pdata);
  gtk_drop_down_set_selected (self->host_dropdown, n > 0 ? self->host_index : GTK_INVALID_LIST_POSITION);
  g_signal_handlers_unblock_by_func (self->host_dropdown, host_dropdown_selected_cb, self);

  gtk_widget_set_visible (GTK_WIDGET (self->host_dropdown), n > 1);
}

/* Makes the window show a run (hosts not NULL) or a single file. Takes a
 * reference to hosts. */
static void
tm_window_set_hosts (TmWindow  *self,
                     GFile     *run_directory,
                     GPtrArray *hosts,
                     guint      host_index)
{
  if (hosts != self->hosts)
    {
      g_clear_pointer (&self->hosts, g_ptr_array_unref);
      self->hosts = hosts != NULL ? g_ptr_array_ref (hosts) : NULL;
      self->host_index = host_index;
      tm_window_fill_hosts (self);
    }
  else if (hosts != NULL && gtk_drop_down_get_selected (self->host_dropdown) != host_index)
    {
      self->host_index = host_index;
      g_signal_handlers_block_by_func (self->host_dropdown, host_dropdown_selected_cb, self);
      gtk_drop_down_set_selected (self->host_dropdown, host_index);
      g_signal_handlers_unblock_by_func (self->host_dropdown, host_dropdown_selected_cb, self);
    }
  else
    {
      self->host_index = host_index;
    }
  g_set_object (&self->run_directory, run_directory);

  tm_window_update_title (self);
  _tm_window_actions_update (self);
}

static void
tm_window_forget_before_loading (TmWindow *self)
{
  g_clear_object (&self->file_before_loading);
  g_clear_object (&self->run_directory_before_loading);
  g_clear_pointer (&self->hosts_before_loading, g_ptr_array_unref);
}

static void
tm_window_restore_after_cancel (TmWindow *self)
{
  g_autoptr(GFile) file = g_steal_pointer (&self->file_before_loading);
  g_autoptr(GFile) run_directory = g_steal_pointer (&self->run_directory_before_loading);
  g_autoptr(GPtrArray) hosts = g_steal_pointer (&self->hosts_before_loading);

  tm_window_set_hosts (self, run_directory, hosts, self->host_index_before_loading);
  tm_window_set_file (self, file);
  tm_window_update_title (self);
  tm_window_set_state (self, self->state_before_loading);
}

static void
load_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  LoadJob *job = user_data;
  TmWindow *self = job->self;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;

  profile = tm_profile_load_finish (result, &error);

  /* Replaced by a newer load, cancelled, or the window went away. */
  if (job->cancellable != self->load_cancellable)
    goto out;

  g_clear_object (&self->load_cancellable);
  file = g_object_ref (self->file);

  if (profile == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      tm_window_restore_after_cancel (self);
    }
  else
    {
      /* A host keeps what loading it gave. */
      if (job->hosts != NULL)
        {
          TmWindowHost *host = g_ptr_array_index (job->hosts, job->host_index);

          g_set_object (&host->profile, profile);
          g_free (host->error_message);
          host->error_message = profile == NULL ? g_strdup (error->message) : NULL;
        }

      if (profile == NULL)
        tm_window_show_error (self, file, error->message);
      else
        tm_window_show_profile (self, file, profile);
    }

  tm_window_forget_before_loading (self);

out:
  load_job_unref (job);
}

static void
tm_window_remember_file_info (TmWindow *self,
                              GFile    *file)
{
  g_autoptr(GFileInfo) info = NULL;

  self->file_mtime_us = 0;
  self->file_size = -1;

  info = g_file_query_info (file,
                            G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC ","
                            G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL)
    return;

  self->file_mtime_us =
    g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * G_USEC_PER_SEC +
    g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  self->file_size = g_file_info_get_size (info);
}

/* Before a new load: cancels the one running, or else remembers what the
 * window shows, to go back to it if the new load is cancelled. */
static void
tm_window_replace_load (TmWindow *self)
{
  if (self->load_cancellable != NULL)
    {
      g_cancellable_cancel (self->load_cancellable);
      g_clear_object (&self->load_cancellable);
      return;
    }

  tm_window_forget_before_loading (self);
  g_set_object (&self->file_before_loading, self->file);
  self->state_before_loading = self->state;
  g_set_object (&self->run_directory_before_loading, self->run_directory);
  self->hosts_before_loading = self->hosts != NULL ? g_ptr_array_ref (self->hosts) : NULL;
  self->host_index_before_loading = self->host_index;
}

/* Loads file: a single file, or (with hosts) the current host's. */
static void
tm_window_load (TmWindow *self,
                GFile    *file)
{
  TmWindowHost *host = tm_window_get_current_host (self);
  g_autofree char *basename = NULL;
  g_autofree char *title = NULL;
  LoadJob *job;

  self->load_cancellable = g_cancellable_new ();
  tm_window_remember_file_info (self, file);
  tm_window_set_file (self, file);

  if (host != NULL)
    {
      host->mtime_us = self->file_mtime_us;
      host->size = self->file_size;
    }

  basename = display_basename (file);
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Opening “%s”"), basename);
  gtk_label_set_label (self->loading_title, title);
  gtk_label_set_label (self->loading_detail, _("Reading…"));
  gtk_progress_bar_set_fraction (self->loading_progress, 0.0);

  tm_window_set_state (self, TM_WINDOW_STATE_LOADING);

  if (self->show_loading_source == 0 &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "loading") != 0)
    self->show_loading_source = g_timeout_add (SHOW_LOADING_DELAY_MS, show_loading_timeout_cb, self);

  job = g_rc_box_new0 (LoadJob);
  job->self = g_object_ref (self);
  job->cancellable = g_object_ref (self->load_cancellable);
  if (host != NULL)
    {
      job->hosts = g_ptr_array_ref (self->hosts);
      job->host_index = self->host_index;
    }

  tm_profile_load_async (file,
                         load_progress_cb,
                         g_rc_box_acquire (job),
                         load_job_unref,
                         self->load_cancellable,
                         load_ready_cb,
                         job);
}

void
tm_window_open (TmWindow *self,
                GFile    *file)
{
  g_return_if_fail (TM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  /* A new load replaces the running one. */
  tm_window_replace_load (self);
  tm_window_set_hosts (self, NULL, NULL, 0);
  tm_window_load (self, file);
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

  hosts = g_ptr_array_new_full (n_host_files, tm_window_host_free);
  for (guint i = 0; i < n_host_files; i++)
    {
      TmWindowHost *host = g_new0 (TmWindowHost, 1);

      host->file = g_object_ref (host_files[i]);
      host->name = host_name_for_file (host_files[i]);
      host->size = -1;
      g_ptr_array_add (hosts, host);
    }
  g_ptr_array_sort (hosts, compare_hosts);

  tm_window_replace_load (self);
  /* A new run starts with the busiest memory id. */
  g_clear_pointer (&self->wanted_memory_id, g_free);
  tm_window_set_hosts (self, run_directory, hosts, 0);

  first = g_ptr_array_index (hosts, 0);
  tm_window_load (self, first->file);
}

/* Shows host index of the run: at once if it was shown before, else by
 * loading it. */
static void
tm_window_show_host (TmWindow *self,
                     guint     index)
{
  TmWindowHost *host;

  if (self->hosts == NULL || index >= self->hosts->len)
    return;

  host = g_ptr_array_index (self->hosts, index);

  if (host->profile == NULL && host->error_message == NULL)
    {
      tm_window_replace_load (self);
      tm_window_set_hosts (self, self->run_directory, self->hosts, index);
      tm_window_load (self, host->file);
      return;
    }

  /* Kept from before: a load of another host stops. */
  if (self->load_cancellable != NULL)
    {
      g_cancellable_cancel (self->load_cancellable);
      g_clear_object (&self->load_cancellable);
    }
  tm_window_forget_before_loading (self);

  tm_window_set_hosts (self, self->run_directory, self->hosts, index);
  self->file_mtime_us = host->mtime_us;
  self->file_size = host->size;

  if (host->profile != NULL)
    tm_window_show_profile (self, host->file, host->profile);
  else
    tm_window_show_error (self, host->file, host->error_message);
}

static void
host_dropdown_selected_cb (TmWindow    *self,
                           GParamSpec  *pspec,
                           GtkDropDown *dropdown)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->hosts == NULL || selected == GTK_INVALID_LIST_POSITION || selected == self->host_index)
    return;

  tm_window_show_host (self, selected);
}

void
_tm_window_step_host (TmWindow *self,
                      int       delta)
{
  guint n = self->hosts != NULL ? self->hosts->len : 0;

  if (n < 2)
    return;

  if (delta < 0 && self->host_index > 0)
    gtk_drop_down_set_selected (self->host_dropdown, self->host_index - 1);
  else if (delta > 0 && self->host_index + 1 < n)
    gtk_drop_down_set_selected (self->host_dropdown, self->host_index + 1);
}

void
tm_window_reload (TmWindow *self)
{
  g_autoptr(GFile) file = NULL;

  g_return_if_fail (TM_IS_WINDOW (self));

  if (self->file == NULL)
    return;

  file = g_object_ref (self->file);

  /* In a run, the current host loads again; the others keep theirs. */
  if (tm_window_get_current_host (self) != NULL)
    {
      tm_window_replace_load (self);
      tm_window_load (self, file);
      return;
    }

  tm_window_open (self, file);
}

static void
cancel_clicked_cb (TmWindow  *self,
                   GtkButton *button)
{
  if (self->load_cancellable == NULL)
    return;

  /* Show the previous state at once; the worker stops at its next check
   * and its result is ignored. */
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  tm_window_restore_after_cancel (self);
}

/* ------------------------------------------------------------------ */
/* Layout                                                              */

/* The first time the paned has a size, give the timeline a bit less than
 * half of it; afterwards the user's position stays. */
static void
paned_max_position_cb (TmWindow   *self,
                       GParamSpec *pspec,
                       GtkPaned   *paned)
{
  int max_position = 0;

  g_object_get (paned, "max-position", &max_position, NULL);
  if (max_position <= 0)
    return;

  gtk_paned_set_position (paned, MAX (max_position * 45 / 100, 260));
  g_clear_signal_handler (&self->paned_position_handler, paned);
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
  g_clear_handle_id (&self->show_loading_source, g_source_remove);

  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_WINDOW);

  g_clear_object (&self->memory_store);
  g_clear_object (&self->profile);
  g_clear_object (&self->file);
  tm_window_forget_before_loading (self);
  g_clear_object (&self->run_directory);
  g_clear_pointer (&self->hosts, g_ptr_array_unref);
  g_clear_pointer (&self->wanted_memory_id, g_free);
  g_clear_object (&self->host_names);
  g_clear_object (&self->memory_ids);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->error_message_text, g_free);

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
      g_value_set_enum (value, self->state);
      break;

    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;

    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_MEMORY_STORE:
      g_value_set_object (value, self->memory_store);
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
  g_type_ensure (TM_TYPE_BREAKDOWN_VIEW);
  g_type_ensure (TM_TYPE_TIMELINE);
  g_type_ensure (TM_TYPE_OVERVIEW);
  g_type_ensure (TM_TYPE_HLO_VIEW);

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
  gtk_widget_class_bind_template_child (widget_class, TmWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, timeline_area);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, overview);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, hlo_view);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, breakdown_view);
  gtk_widget_class_bind_template_child (widget_class, TmWindow, drop_revealer);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
}

static void
tm_window_init (TmWindow *self)
{
  self->state = TM_WINDOW_STATE_EMPTY;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->memory_ids = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->memory_dropdown, G_LIST_MODEL (self->memory_ids));
  g_signal_connect_object (self->memory_dropdown, "notify::selected",
                           G_CALLBACK (memory_dropdown_selected_cb), self, G_CONNECT_SWAPPED);

  self->host_names = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->host_dropdown, G_LIST_MODEL (self->host_names));
  g_signal_connect_object (self->host_dropdown, "notify::selected",
                           G_CALLBACK (host_dropdown_selected_cb), self, G_CONNECT_SWAPPED);

  self->settings = tm_application_create_settings ();
  if (self->settings != NULL)
    {
      g_settings_bind (self->settings, "hide-small-allocations",
                       self->breakdown_view, "hide-small",
                       G_SETTINGS_BIND_DEFAULT);
      tm_window_load_window_state (self);
    }

  /* The timeline, its overview strip and the HLO table share one visible
   * range; a click on the timeline shows what was live then, Back to Peak
   * drops that selection. */
  tm_overview_set_timeline (self->overview, self->timeline);
  tm_hlo_view_set_timeline (self->hlo_view, self->timeline);
  g_signal_connect_object (self->timeline, "time-selected",
                           G_CALLBACK (tm_breakdown_view_show_time), self->breakdown_view, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->breakdown_view, "peak-requested",
                           G_CALLBACK (tm_timeline_clear_selection), self->timeline, G_CONNECT_SWAPPED);

  self->paned_position_handler =
    g_signal_connect_object (self->paned, "notify::max-position",
                             G_CALLBACK (paned_max_position_cb), self, G_CONNECT_SWAPPED);

  _tm_window_actions_init (self);
  _tm_window_dnd_init (self);
  tm_window_update_title (self);
  tm_window_set_state (self, TM_WINDOW_STATE_EMPTY);
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

  return self->state;
}

GFile *
tm_window_get_file (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->file;
}

TmProfile *
tm_window_get_profile (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->profile;
}

const char *
tm_window_get_error_message (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->state == TM_WINDOW_STATE_ERROR ? self->error_message_text : NULL;
}

gboolean
tm_window_get_file_changed (TmWindow *self)
{
  guint64 mtime_us;
  goffset size;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);

  if (self->file == NULL)
    return FALSE;

  mtime_us = self->file_mtime_us;
  size = self->file_size;
  tm_window_remember_file_info (self, self->file);

  return mtime_us != self->file_mtime_us || size != self->file_size;
}

TmMemoryStore *
tm_window_get_memory_store (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->memory_store;
}

gboolean
tm_window_select_memory_id (TmWindow   *self,
                            const char *memory_id)
{
  guint n;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (memory_id != NULL, FALSE);

  if (self->profile == NULL)
    return FALSE;

  n = tm_profile_get_n_memory_ids (self->profile);
  for (guint i = 0; i < n; i++)
    {
      if (g_strcmp0 (tm_memory_store_get_id (tm_profile_get_memory_store (self->profile, i)), memory_id) == 0)
        {
          gtk_drop_down_set_selected (self->memory_dropdown, i);
          return TRUE;
        }
    }

  return FALSE;
}

TmBreakdownView *
tm_window_get_breakdown_view (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->breakdown_view;
}

TmSummaryCards *
tm_window_get_summary_cards (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->summary_cards;
}

GtkDropDown *
tm_window_get_memory_dropdown (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->memory_dropdown;
}

GtkDropDown *
tm_window_get_host_dropdown (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->host_dropdown;
}

GFile *
tm_window_get_run_directory (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->run_directory;
}

guint
tm_window_get_n_hosts (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), 0);

  return self->hosts != NULL ? self->hosts->len : 0;
}

const char *
tm_window_get_host_name (TmWindow *self,
                         guint     index)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);
  g_return_val_if_fail (self->hosts != NULL && index < self->hosts->len, NULL);

  return ((TmWindowHost *) g_ptr_array_index (self->hosts, index))->name;
}

gboolean
tm_window_select_host (TmWindow   *self,
                       const char *host)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  for (guint i = 0; self->hosts != NULL && i < self->hosts->len; i++)
    {
      if (g_strcmp0 (((TmWindowHost *) g_ptr_array_index (self->hosts, i))->name, host) == 0)
        {
          gtk_drop_down_set_selected (self->host_dropdown, i);
          return TRUE;
        }
    }

  return FALSE;
}

GtkBox *
tm_window_get_timeline_area (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  return self->timeline_area;
}
