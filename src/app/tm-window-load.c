/* tm-window-load.c — loading a file into the window, and what it shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window holds two TmWindowContents: "shown" and, while a load runs,
 * "loading". Starting a load fills "loading" (the title, host dropdown and
 * state follow it); when the load is done, "loading" becomes "shown",
 * whether it gave a profile or an error. Cancelling drops "loading", so
 * the window shows what it showed before by construction.
 *
 * Loading runs on a worker thread (tm_profile_load_async); a new load
 * cancels the previous one, and a load that finishes after it was
 * replaced is ignored.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-window-private.h"

/* Loads that finish sooner than this never show the loading page. */
#define SHOW_LOADING_DELAY_MS 120

/* The loading page's progress changes at most this often: each change is
 * a frame of the window, whose CPU (tens of milliseconds with software
 * rendering) the loader's threads would otherwise have. */
#define PROGRESS_INTERVAL_US (200 * G_TIME_SPAN_MILLISECOND)

/* A load holds its window weakly: a window closed while it loads goes at
 * once, and its dispose cancels the load (and the run overview's hosts). */
typedef struct
{
  GWeakRef      self;
  GCancellable *cancellable;
} LoadJob;

static void
load_job_clear (LoadJob *job)
{
  g_weak_ref_clear (&job->self);
  g_clear_object (&job->cancellable);
}

static void
load_job_unref (gpointer data)
{
  g_rc_box_release_full (data, (GDestroyNotify) load_job_clear);
}

void
_tm_window_content_clear (TmWindowContent *content)
{
  g_clear_object (&content->file);
  g_clear_object (&content->run_directory);
  g_clear_pointer (&content->hosts, g_ptr_array_unref);
  g_clear_object (&content->profile);
  g_clear_pointer (&content->error_message, g_free);
  content->host_index = 0;
  content->state = TM_WINDOW_STATE_EMPTY;
  content->mtime_us = 0;
  content->size = -1;
}

/* The file's modification time and size now (0 and -1 if unknown). */
static void
query_file_info (GFile   *file,
                 guint64 *mtime_us,
                 goffset *size)
{
  g_autoptr(GFileInfo) info = NULL;

  *mtime_us = 0;
  *size = -1;

  info = g_file_query_info (file,
                            G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                            G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC ","
                            G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL)
    return;

  *mtime_us =
    g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * G_USEC_PER_SEC +
    g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  *size = g_file_info_get_size (info);
}

/* Stops the load in progress, if any, and forgets what it would show. */
static void
tm_window_stop_load (TmWindow *self)
{
  if (self->load_cancellable == NULL)
    return;

  /* The worker stops at its next check and its result is ignored. */
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  _tm_window_content_clear (&self->loading);
}

static gboolean
show_loading_timeout_cb (gpointer data)
{
  TmWindow *self = data;

  self->show_loading_source = 0;
  if (tm_window_get_state (self) == TM_WINDOW_STATE_LOADING && !self->showing_overview)
    gtk_stack_set_visible_child_name (self->main_stack, "loading");

  return G_SOURCE_REMOVE;
}

static void
load_progress_cb (guint64  done,
                  guint64  total,
                  gpointer user_data)
{
  LoadJob *job = user_data;
  g_autoptr(TmWindow) self = g_weak_ref_get (&job->self);
  g_autofree char *detail = NULL;

  if (self == NULL || job->cancellable != self->load_cancellable)
    return;

  /* Reading ends with done = total ("Analysing…"), never skipped. */
  if ((total == 0 || done < total) &&
      g_get_monotonic_time () - self->progress_shown_us < PROGRESS_INTERVAL_US)
    return;
  self->progress_shown_us = g_get_monotonic_time ();

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
tm_window_update_no_data (TmWindow *self)
{
  TmProfile *profile = tm_session_get_profile (self->session);
  const char *message;

  if (tm_profile_get_format (profile) == TM_INPUT_FORMAT_XPROF_JSON)
    message = _("This memory-profile JSON lists no memory ids, so there is nothing to show.");
  else if (!tm_profile_has_host_plane (profile))
    message = _("This profile has no host trace (no <tt>/host:CPU</tt> plane), which is where the profiler records memory allocations and deallocations.\n\n"
                "Capture the profile again with host tracing on, with <tt>host_tracer_level</tt> set to 2 or higher.");
  else
    message = _("The host trace has no <tt>MemoryAllocation</tt> or <tt>MemoryDeallocation</tt> events. The profiler records them only when <tt>host_tracer_level</tt> is 2 or higher, and only for allocators that report them, such as the BFC allocator TensorFlow and XLA use on GPUs and TPUs.\n\n"
                "Capture the profile again with, for example, <tt>tf.profiler.experimental.ProfilerOptions(host_tracer_level=2)</tt>.");

  gtk_label_set_markup (self->no_data_message, message);
}

static void
tm_window_show_error_page (TmWindow *self)
{
  g_autofree char *basename = _tm_window_display_basename (self->shown.file);
  g_autofree char *title = NULL;

  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Could Not Open “%s”"), basename);
  gtk_label_set_label (self->error_title, title);
  gtk_label_set_label (self->error_message, self->shown.error_message);
}

static void
tm_window_remember_opened (TmWindow *self)
{
  /* For a run, the run directory is what to open again. */
  GFile *opened = self->shown.run_directory != NULL ? self->shown.run_directory : self->shown.file;
  g_autofree char *uri = g_file_get_uri (opened);
  g_autoptr(GFile) parent = NULL;

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);

  if (self->settings != NULL && (parent = g_file_get_parent (opened)))
    {
      g_autofree char *parent_uri = g_file_get_uri (parent);

      g_settings_set_string (self->settings, "last-folder", parent_uri);
    }
}

/* A memory id of the shown profile is ready after the profile was shown
 * with its busiest (tm_profile_is_memory_id_ready()): its dropdown item
 * says so, and it is shown if it is the one picked. */
static void
memory_id_ready_cb (TmProfile *profile,
                    guint      index,
                    TmWindow  *self)
{
  guint selected = gtk_drop_down_get_selected (self->memory_dropdown);
  const char *keep_id = NULL;

  if (profile != tm_session_get_profile (self->session))
    return;
  if (selected != GTK_INVALID_LIST_POSITION && selected < tm_profile_get_n_memory_ids (profile))
    keep_id = tm_memory_store_get_id (tm_profile_get_memory_store (profile, selected));
  _tm_window_fill_memory_ids (self, keep_id);
}

/* Shows content (a profile, or an error when it has none) in place of
 * what was shown; any load in progress stops. Takes what content holds
 * and leaves it empty (content may be the window's "loading"). */
void
_tm_window_show (TmWindow        *self,
                 TmWindowContent *content)
{
  TmWindowContent *current = _tm_window_current (self);
  TmWindowState old_state = current->state;
  g_autoptr(GFile) old_file = current->file != NULL ? g_object_ref (current->file) : NULL;
  TmWindowContent next = *content;
  g_autoptr(TmProfile) profile = g_steal_pointer (&next.profile);
  g_autofree char *keep_id = NULL;
  gboolean complete = TRUE;
  guint n;

  g_assert (next.file != NULL);
  memset (content, 0, sizeof *content);
  _tm_window_content_clear (content);

  /* Reloading the same file keeps the memory id the user picked; so does
   * going to another host of a run, when it has that memory id. */
  if (next.hosts != NULL)
    keep_id = g_strdup (self->wanted_memory_id);
  else if (tm_session_get_memory_store (self->session) != NULL && self->shown.file != NULL &&
           g_file_equal (self->shown.file, next.file))
    keep_id = g_strdup (tm_memory_store_get_id (tm_session_get_memory_store (self->session)));

  /* Another file (not a reload, nor another host of the same run) starts
   * without the last one's filters: the table's text and never-freed
   * filter, the map's never-freed highlight and filter. */
  if (self->shown.file == NULL ||
      (!g_file_equal (self->shown.file, next.file) &&
       (self->shown.run_directory == NULL || next.run_directory == NULL ||
        !g_file_equal (self->shown.run_directory, next.run_directory))))
    {
      tm_breakdown_view_set_filter_text (self->breakdown_view, NULL);
      tm_breakdown_view_set_never_freed (self->breakdown_view, FALSE);
      tm_memory_map_set_highlight_never_freed (self->memory_map, FALSE);
      tm_memory_map_set_never_freed_only (self->memory_map, FALSE);
    }

  tm_window_stop_load (self);
  _tm_window_set_memory_store (self, NULL);
  _tm_window_content_clear (&self->shown);
  self->shown = next;
  /* The profile is the session's, not the content's. */
  tm_session_set_profile (self->session, profile);

  if (profile == NULL)
    {
      self->shown.state = TM_WINDOW_STATE_ERROR;
      tm_window_show_error_page (self);
      _tm_window_fill_memory_ids (self, NULL);
      _tm_window_update (self, old_state, old_file);
      return;
    }

  n = tm_profile_get_n_memory_ids (profile);
  for (guint i = 0; i < n; i++)
    complete &= tm_memory_store_is_complete (tm_profile_get_memory_store (profile, i));
  gtk_widget_set_visible (self->sampled_banner,
                          !(tm_profile_get_features (profile) & TM_INPUT_COMPLETE) || !complete);

  /* Connected before the dropdown reads which ids are ready: an id that
   * becomes ready while it is filled (filling shows the busiest id, which
   * can take a while) is said on the main context after this returns, and
   * would be left "analysing…" if the check came after the fill. */
  if (!tm_profile_is_complete (profile))
    g_signal_connect_object (profile, "memory-id-ready", G_CALLBACK (memory_id_ready_cb), self, 0);
  _tm_window_fill_memory_ids (self, keep_id);

  if (n == 0)
    {
      tm_window_update_no_data (self);
      self->shown.state = TM_WINDOW_STATE_NO_DATA;
    }
  else
    {
      self->shown.state = TM_WINDOW_STATE_PROFILE;
    }
  _tm_window_update (self, old_state, old_file);

  tm_window_remember_opened (self);
}

void
_tm_window_cancel_load (TmWindow *self)
{
  TmWindowState old_state;
  g_autoptr(GFile) old_file = NULL;

  if (self->load_cancellable == NULL)
    return;

  old_state = self->loading.state;
  old_file = self->loading.file != NULL ? g_object_ref (self->loading.file) : NULL;

  /* What was shown is still there: show it again at once. */
  tm_window_stop_load (self);
  _tm_window_update (self, old_state, old_file);
}

static void
load_ready_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  LoadJob *job = user_data;
  g_autoptr(TmWindow) self = g_weak_ref_get (&job->self);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;

  profile = tm_profile_load_finish (result, &error);

  /* Replaced by a newer load, cancelled, or the window went away. */
  if (self == NULL || job->cancellable != self->load_cancellable)
    goto out;

  if (profile == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      _tm_window_cancel_load (self);
      goto out;
    }

  /* The load is done: its cancellable is no longer the window's, so that
   * showing it (which stops the window's load) does not cancel what its
   * loader still finishes, the memory ids after the busiest. */
  g_set_object (&self->load_cancellable, g_cancellable_new ());
  g_object_unref (self->load_cancellable);
  self->loading.profile = g_steal_pointer (&profile);
  self->loading.error_message = self->loading.profile == NULL ? g_strdup (error->message) : NULL;

  /* A host keeps what loading it gave. */
  if (self->loading.hosts != NULL)
    {
      TmWindowHost *host = g_ptr_array_index (self->loading.hosts, self->loading.host_index);

      g_set_object (&host->profile, self->loading.profile);
      g_free (host->error_message);
      host->error_message = g_strdup (self->loading.error_message);
      host->mtime_us = self->loading.mtime_us;
      host->size = self->loading.size;
      _tm_window_hosts_loaded (self, host);
    }

  /* Profile or error, the content loaded becomes the shown one. */
  _tm_window_show (self, &self->loading);

out:
  load_job_unref (job);
}

/* Loads file: a single file (hosts NULL), or the host host_index of a run.
 * Replaces a load in progress. Takes its own references. */
void
_tm_window_start_load (TmWindow  *self,
                       GFile     *file,
                       GFile     *run_directory,
                       GPtrArray *hosts,
                       guint      host_index)
{
  TmWindowContent *current = _tm_window_current (self);
  TmWindowState old_state = current->state;
  g_autoptr(GFile) old_file = current->file != NULL ? g_object_ref (current->file) : NULL;
  /* Hold them: they may be the load's that stops now. */
  g_autoptr(GFile) new_file = g_object_ref (file);
  g_autoptr(GFile) new_run_directory = run_directory != NULL ? g_object_ref (run_directory) : NULL;
  g_autoptr(GPtrArray) new_hosts = hosts != NULL ? g_ptr_array_ref (hosts) : NULL;
  g_autofree char *basename = NULL;
  g_autofree char *title = NULL;
  LoadJob *job;

  tm_window_stop_load (self);
  /* A single file ends the run the window showed. */
  if (hosts == NULL)
    _tm_window_hosts_leave_run (self);

  self->load_cancellable = g_cancellable_new ();
  self->loading.file = g_steal_pointer (&new_file);
  self->loading.run_directory = g_steal_pointer (&new_run_directory);
  self->loading.hosts = g_steal_pointer (&new_hosts);
  self->loading.host_index = host_index;
  self->loading.state = TM_WINDOW_STATE_LOADING;
  query_file_info (file, &self->loading.mtime_us, &self->loading.size);

  basename = _tm_window_display_basename (file);
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Opening “%s”"), basename);
  gtk_label_set_label (self->loading_title, title);
  gtk_label_set_label (self->loading_detail, _("Reading…"));
  gtk_progress_bar_set_fraction (self->loading_progress, 0.0);
  self->progress_shown_us = g_get_monotonic_time ();

  _tm_window_update (self, old_state, old_file);

  /* The delay keeps what is shown while a quick load runs; a window that
   * shows nothing yet (its start page) says what it opens at once, and
   * never paints its start page for a file opened with it. */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "empty") == 0 && !self->showing_overview)
    {
      g_clear_handle_id (&self->show_loading_source, g_source_remove);
      gtk_stack_set_visible_child_name (self->main_stack, "loading");
    }
  else if (self->show_loading_source == 0 &&
           g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "loading") != 0)
    self->show_loading_source = g_timeout_add (SHOW_LOADING_DELAY_MS, show_loading_timeout_cb, self);

  job = g_rc_box_new0 (LoadJob);
  g_weak_ref_init (&job->self, self);
  job->cancellable = g_object_ref (self->load_cancellable);

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

  _tm_window_compare_end (self);
  _tm_window_start_load (self, file, NULL, NULL, 0);
}

void
tm_window_reload (TmWindow *self)
{
  TmWindowContent *current;

  g_return_if_fail (TM_IS_WINDOW (self));

  current = _tm_window_current (self);
  if (current->file == NULL)
    return;

  /* In a run, the current host loads again; the others keep theirs. */
  _tm_window_start_load (self, current->file, current->run_directory, current->hosts, current->host_index);
}

gboolean
tm_window_get_file_changed (TmWindow *self)
{
  TmWindowContent *current;
  guint64 mtime_us;
  goffset size;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);

  current = _tm_window_current (self);
  if (current->file == NULL)
    return FALSE;

  query_file_info (current->file, &mtime_us, &size);

  return mtime_us != current->mtime_us || size != current->size;
}
