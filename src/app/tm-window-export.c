/* tm-window-export.c — Export: XProf's memory-profile JSON and the table as CSV
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The save dialog runs on the main thread; writing runs in a GTask thread
 * that owns a reference to the (immutable) profile and the rows it writes.
 * The memory-only profile (docs/formats.md, section 4) reads the file again, with a
 * progress window that can cancel it.
 * After any export a toast says where it went (tm-window-toast.c); the
 * timeline's PNG has a title line and can be light when the window is
 * dark (docs/ui.md, "Export"); its SVG is drawn by the chart layers
 * (tm-chart-export), shapes and text, no picture.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-axis.h"
#include "tm-chart-export.h"
#include "tm-export.h"
#include "tm-format.h"
#include "tm-legend-layer.h"
#include "tm-output.h"
#include "tm-palette.h"
#include "tm-scopes.h"
#include "tm-window-private.h"
#include "tm-xspace-writer.h"

typedef enum
{
  EXPORT_XPROF_JSON,
  EXPORT_CSV,
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_COLLAPSED,
  EXPORT_MEMORY_XPLANE,
  EXPORT_NEVER_FREED,
} ExportKind;

typedef struct
{
  ExportKind       kind;
  TmProfile       *profile;
  GPtrArray       *rows;      /* for CSV (taken when the user said where) and collapsed stacks */
  TmMemoryStore   *store;     /* for what was never freed, of profile */
  GskRenderNode   *node;      /* for PNG: drawn on the main thread */
  TmChart         *chart;     /* for SVG: made on the main thread, drawn in the worker */
  char            *title;
  TmChartPalette   palette;
  PangoFontDescription *font;
  int              width;
  int              height;
  GFile           *dest;
  /* The memory-only profile: the file it reads, the progress window. */
  GFile           *input;
  GCancellable    *cancellable;
  GtkWidget       *progress_window;
  GtkProgressBar  *progress_bar;
  guint            progress_timeout;
  int              permille;   /* atomic: set by the worker */
} ExportJob;

static void
export_job_free (ExportJob *job)
{
  g_clear_object (&job->input);
  g_clear_object (&job->cancellable);
  g_clear_object (&job->profile);
  g_clear_pointer (&job->rows, g_ptr_array_unref);
  g_clear_object (&job->store);
  g_clear_pointer (&job->node, gsk_render_node_unref);
  g_clear_object (&job->chart);
  g_clear_pointer (&job->title, g_free);
  g_clear_pointer (&job->font, pango_font_description_free);
  g_clear_object (&job->dest);
  g_free (job);
}

typedef struct
{
  GOutputStream *out;
  GError        *error;   /* the first write that failed, with its reason */
} PngSink;

static cairo_status_t
write_to_stream (void                *closure,
                 const unsigned char *data,
                 unsigned int         length)
{
  PngSink *sink = closure;

  if (sink->error == NULL &&
      g_output_stream_write_all (sink->out, data, length, NULL, NULL, &sink->error))
    return CAIRO_STATUS_SUCCESS;
  return CAIRO_STATUS_WRITE_ERROR;
}

/* Paints the timeline's render node at twice its size (for HiDPI screens
 * and documents) on an opaque background. */
static gboolean
write_png (ExportJob      *job,
           GOutputStream  *out,
           GError        **error)
{
  const int scale = 2;
  PngSink sink = { out, NULL };
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, job->width * scale, job->height * scale);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  gsk_render_node_draw (job->node, cr);
  cairo_destroy (cr);

  status = cairo_surface_write_to_png_stream (surface, write_to_stream, &sink);
  cairo_surface_destroy (surface);

  if (sink.error != NULL)
    {
      g_propagate_error (error, sink.error);
      return FALSE;
    }
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s", cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/* Called in the worker. */
static void
memory_progress_cb (guint64  done,
                    guint64  total,
                    gpointer user_data)
{
  ExportJob *job = user_data;

  g_atomic_int_set (&job->permille, total > 0 ? (int) (done * 1000 / total) : 0);
}

static gboolean
progress_tick_cb (gpointer user_data)
{
  ExportJob *job = user_data;

  gtk_progress_bar_set_fraction (job->progress_bar, g_atomic_int_get (&job->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static gboolean
progress_close_cb (GtkWindow *window,
                   gpointer   user_data)
{
  ExportJob *job = user_data;

  g_cancellable_cancel (job->cancellable);
  return TRUE;  /* it goes when the worker has stopped */
}

static void
progress_cancel_cb (GtkButton *button,
                    gpointer   user_data)
{
  ExportJob *job = user_data;

  g_cancellable_cancel (job->cancellable);
  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
}

/* A small modal window while the memory-only profile is written. */
static void
show_progress (TmWindow  *self,
               ExportJob *job)
{
  g_autofree char *name = g_file_get_basename (job->dest);
  GtkWidget *box, *label, *bar, *button;

  job->progress_window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (job->progress_window), _("Save Memory-Only Profile"));
  gtk_window_set_transient_for (GTK_WINDOW (job->progress_window), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (job->progress_window), TRUE);
  gtk_window_set_resizable (GTK_WINDOW (job->progress_window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (job->progress_window), 420, -1);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  {
    /* Translators: while saving; %s is the file name */
    g_autofree char *text = g_strdup_printf (_("Saving “%s”…"), name);

    label = gtk_label_new (text);
  }
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  bar = gtk_progress_bar_new ();
  gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (bar), TRUE);
  button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_set_halign (button, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), button);
  gtk_window_set_child (GTK_WINDOW (job->progress_window), box);

  job->progress_bar = GTK_PROGRESS_BAR (bar);
  g_signal_connect (button, "clicked", G_CALLBACK (progress_cancel_cb), job);
  g_signal_connect (job->progress_window, "close-request", G_CALLBACK (progress_close_cb), job);
  job->progress_timeout = g_timeout_add (100, progress_tick_cb, job);
  gtk_window_present (GTK_WINDOW (job->progress_window));
}

static void
export_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  ExportJob *job = task_data;
  g_autoptr(TmOutput) out = NULL;
  g_autoptr(GError) error = NULL;
  GOutputStream *stream;
  gboolean ok;

  /* It writes to a temporary file and replaces dest only when done. */
  if (job->kind == EXPORT_MEMORY_XPLANE)
    {
      if (tm_xspace_save_memory_only (job->input, job->dest, memory_progress_cb, job, cancellable, &error))
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Written beside dest and renamed over it when complete (tm-output.h). */
  out = tm_output_open_file (job->dest, &error);
  if (out == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  stream = tm_output_get_stream (out);

  if (job->kind == EXPORT_XPROF_JSON)
    ok = tm_export_xprof_json (job->profile, stream, cancellable, &error);
  else if (job->kind == EXPORT_CSV)
    ok = tm_export_breakdown_csv (job->rows, stream, cancellable, &error);
  else if (job->kind == EXPORT_COLLAPSED)
    {
      /* The name scopes of the table's rows (docs/scopes.md). */
      g_autoptr(TmScopeTree) tree = tm_scope_tree_new (job->rows, TM_SCOPE_GROUPING_NAME);

      ok = tm_scope_tree_write_collapsed (tree, stream, cancellable, &error);
    }
  else if (job->kind == EXPORT_NEVER_FREED)
    /* The allocation index: the profile builds it, or waits for the build
     * under way. */
    ok = tm_export_never_freed_collapsed (job->profile, job->store, stream, NULL, cancellable, &error);
  else if (job->kind == EXPORT_SVG)
    ok = tm_chart_write_svg (job->chart, job->title, &job->palette, job->font, G_OUTPUT_STREAM (out),
                             cancellable, &error);
  else
    ok = write_png (job, stream, &error);

  if (!tm_output_finish (out, ok, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  TmWindow *self = TM_WINDOW (object);
  ExportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&job->progress_timeout, g_source_remove);
  if (job->progress_window != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&job->progress_window)));

  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *name = g_file_get_parse_name (job->dest);
      GtkWidget *dialog;

      dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                       GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                       GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                       _("Could not export to “%s”"), name);
      gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
      g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
      gtk_window_present (GTK_WINDOW (dialog));
      return;
    }

  tm_window_show_saved (self, job->dest);
}

static void
save_response_cb (GtkNativeDialog *chooser,
                  int              response,
                  gpointer         user_data)
{
  ExportJob *job = user_data;
  TmWindow *self = TM_WINDOW (gtk_native_dialog_get_transient_for (chooser));
  g_autoptr(GTask) task = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    {
      export_job_free (job);
      gtk_native_dialog_destroy (chooser);
      g_object_unref (chooser);
      return;
    }

  job->dest = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (job->kind == EXPORT_CSV)
    {
      const char *only_shown = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "shown");

      job->rows = tm_window_dup_csv_rows (self, g_strcmp0 (only_shown, "false") != 0);
    }
  else if (job->kind == EXPORT_PNG)
    {
      const char *light = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "light");

      job->node = tm_window_build_timeline_image (self, g_strcmp0 (light, "false") != 0,
                                                  &job->width, &job->height);
    }
  else if (job->kind == EXPORT_SVG)
    {
      const char *light = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "light");

      job->chart = tm_window_build_timeline_chart (self, g_strcmp0 (light, "false") != 0, &job->palette);
      job->title = tm_window_dup_timeline_title (self);
      job->font = pango_font_description_copy (pango_context_get_font_description (
                                                 gtk_widget_get_pango_context (GTK_WIDGET (self->timeline))));
      if (job->chart == NULL)
        {
          export_job_free (job);
          gtk_native_dialog_destroy (chooser);
          g_object_unref (chooser);
          return;
        }
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);

  task = g_task_new (self, job->cancellable, export_done_cb, NULL);
  g_task_set_source_tag (task, save_response_cb);
  g_task_set_name (task, "[tidemark] export");
  g_task_set_task_data (task, job, (GDestroyNotify) export_job_free);
  if (job->kind == EXPORT_MEMORY_XPLANE)
    show_progress (self, job);
  g_task_run_in_thread (task, export_thread);
}

static GtkFileChooserNative *
ask_where (TmWindow   *self,
           ExportJob  *job,
           const char *title,
           const char *suggested_name,
           const char *filter_name,
           const char *pattern)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GFile) folder = NULL;
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), suggested_name);

  gtk_file_filter_set_name (filter, filter_name);
  gtk_file_filter_add_pattern (filter, pattern);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);

  /* Next to the profile, where people look for it. */
  if (self->shown.file != NULL && (folder = g_file_get_parent (self->shown.file)) != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);

  g_signal_connect (chooser, "response", G_CALLBACK (save_response_cb), job);
  return chooser;
}

/* "host1.xplane.pb" → "host1" */
static char *
profile_stem (TmWindow *self)
{
  g_autofree char *basename = self->shown.file != NULL ? g_file_get_basename (self->shown.file) : g_strdup ("profile");
  static const char * const suffixes[] = {
    ".xplane.pb", ".memory_profile.json.gz", ".memory_profile.json", ".json.gz", ".json", ".pb",
  };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (basename, suffixes[i]))
      return g_strndup (basename, strlen (basename) - strlen (suffixes[i]));

  return g_steal_pointer (&basename);
}

void
_tm_window_export_xprof_json (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  ExportJob *job;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL)
    return;

  stem = profile_stem (self);
  name = g_strconcat (stem, ".memory_profile.json", NULL);
  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_XPROF_JSON;
  job->profile = g_object_ref (tm_session_get_profile (self->session));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (ask_where (self, job, _("Export XProf Memory Profile"), name,
                                                        _("XProf Memory-Profile JSON"), "*.json")));
}

/* "2 112.837 ms" → "2112.837ms", for file names. */
static char *
time_for_file_name (gint64 time_ps)
{
  g_autofree char *text = tm_format_time_ms (time_ps);
  GString *str = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_isdigit (c) || c == '.')
        g_string_append_unichar (str, c);
      else if (c == 0x2212)  /* minus */
        g_string_append_c (str, '-');
    }
  g_string_append (str, "ms");
  return g_string_free (str, FALSE);
}

GPtrArray *
tm_window_dup_csv_rows (TmWindow *self,
                        gboolean  only_shown)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL)
    return NULL;

  /* What the table shows: its filter, its sort. */
  if (only_shown)
    return tm_breakdown_view_dup_shown_rows (self->breakdown_view);

  /* The whole table at the time it shows, in the core's order. */
  if (!tm_session_get_has_selected_time (self->session))
    return g_ptr_array_ref (tm_analysis_get_peak_breakdown (tm_session_get_analysis (self->session)));
  return tm_analysis_breakdown_at (tm_session_get_memory_store (self->session), tm_session_get_selected_time (self->session));
}

void
_tm_window_export_csv (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  g_autofree char *shown_text = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *choice = NULL;
  GtkFileChooserNative *chooser;
  ExportJob *job;
  guint n_shown, n_total;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL)
    return;

  stem = profile_stem (self);
  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_CSV;
  job->profile = g_object_ref (tm_session_get_profile (self->session));

  if (!tm_session_get_has_selected_time (self->session))
    name = g_strdup_printf ("%s-%s-peak.csv", stem, tm_memory_store_get_id (tm_session_get_memory_store (self->session)));
  else
    {
      g_autofree char *t = time_for_file_name (tm_session_get_selected_time (self->session));

      name = g_strdup_printf ("%s-%s-at-%s.csv", stem, tm_memory_store_get_id (tm_session_get_memory_store (self->session)), t);
    }

  /* The dialog says what is written: the rows shown, filtered and in
   * their order (the default), or the whole table. */
  n_shown = g_list_model_get_n_items (tm_breakdown_view_get_model (self->breakdown_view));
  n_total = tm_breakdown_view_get_n_rows (self->breakdown_view);
  shown_text = tm_format_count (n_shown);
  total_text = tm_format_count (n_total);
  /* Translators: a check box in the CSV export dialog; "48 of 555" */
  choice = g_strdup_printf (_("Only the rows shown (%s of %s), filtered and sorted as in the table"),
                            shown_text, total_text);

  chooser = ask_where (self, job, _("Export Table as CSV"), name, _("CSV Files"), "*.csv");
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "shown", choice, NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "shown", "true");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_tm_window_export_collapsed (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  ExportJob *job;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL)
    return;

  stem = profile_stem (self);
  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_COLLAPSED;
  job->profile = g_object_ref (tm_session_get_profile (self->session));

  /* The allocations of the table at the time it shows. */
  if (!tm_session_get_has_selected_time (self->session))
    {
      job->rows = g_ptr_array_ref (tm_analysis_get_peak_breakdown (tm_session_get_analysis (self->session)));
      name = g_strdup_printf ("%s-%s-peak.folded", stem, tm_memory_store_get_id (tm_session_get_memory_store (self->session)));
    }
  else
    {
      gint64 t = tm_session_get_selected_time (self->session);

      job->rows = tm_analysis_breakdown_at (tm_session_get_memory_store (self->session), t);
      g_autofree char *ms = time_for_file_name (t);

      name = g_strdup_printf ("%s-%s-at-%s.folded", stem, tm_memory_store_get_id (tm_session_get_memory_store (self->session)), ms);
    }

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (ask_where (self, job, _("Export Scopes as Collapsed Stacks"), name,
                                                        _("Collapsed Stacks"), "*.folded")));
}

/* What was never freed, by name scope (docs/scopes.md, "Never freed"). */
void
_tm_window_export_never_freed (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  ExportJob *job;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL)
    return;

  stem = profile_stem (self);
  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_NEVER_FREED;
  job->profile = g_object_ref (tm_session_get_profile (self->session));
  job->store = g_object_ref (tm_session_get_memory_store (self->session));
  name = g_strdup_printf ("%s-%s-never-freed.folded", stem, tm_memory_store_get_id (job->store));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (ask_where (self, job, _("Export Never-Freed Scopes as Collapsed Stacks"),
                                                        name, _("Collapsed Stacks"), "*.folded")));
}

#define TITLE_HEIGHT 32

char *
tm_window_dup_timeline_title (TmWindow *self)
{
  TmWindowContent *shown;
  TmViewport *viewport;
  g_autofree char *file = NULL;
  g_autofree char *start = NULL;
  g_autofree char *end = NULL;
  GString *title;
  gint64 span;

  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  shown = &self->shown;
  if (shown->file == NULL || tm_session_get_memory_store (self->session) == NULL)
    return NULL;

  viewport = tm_session_get_viewport (self->session);
  span = tm_viewport_get_span (viewport);
  file = _tm_window_display_basename (shown->run_directory != NULL ? shown->run_directory : shown->file);
  start = tm_axis_format_time (tm_viewport_get_start (viewport), span);
  end = tm_axis_format_time (tm_viewport_get_end (viewport), span);

  /* "run · host worker-1 · GPU_0_bfc · 2 100.000 ms – 2 588.000 ms" */
  title = g_string_new (file);
  if (shown->hosts != NULL && shown->host_index < shown->hosts->len)
    {
      TmWindowHost *host = g_ptr_array_index (shown->hosts, shown->host_index);

      g_string_append (title, " · ");
      /* Translators: the host in the title line of an exported timeline */
      g_string_append_printf (title, _("host %s"), host->name);
    }
  g_string_append_printf (title, " · %s · %s – %s", tm_memory_store_get_id (tm_session_get_memory_store (self->session)), start, end);
  return g_string_free (title, FALSE);
}

GskRenderNode *
tm_window_build_timeline_image (TmWindow *self,
                                gboolean  light,
                                int      *width,
                                int      *height)
{
  g_autoptr(GskRenderNode) content = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree char *title = NULL;
  PangoFontDescription *font;
  GtkSnapshot *snapshot;
  TmPalette palette;
  GdkRGBA bg;
  gboolean dark;
  int w, h;

  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);
  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL || self->timeline == NULL)
    return NULL;

  /* What the user sees: the timeline's current size, zoom and selection,
   * in the window's colours or light ones. */
  w = MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline)), 640);
  h = MAX (gtk_widget_get_height (GTK_WIDGET (self->timeline)), 240);
  dark = !light && tm_palette_is_dark_style (GTK_WIDGET (self->timeline));
  if (dark || !tm_palette_is_dark_style (GTK_WIDGET (self->timeline)))
    tm_palette_init_for_widget (&palette, GTK_WIDGET (self->timeline));
  else
    {
      GdkRGBA fg = { 0.0f, 0.0f, 0.0f, 0.8f };

      tm_palette_init (&palette, &fg, FALSE);
    }
  content = tm_timeline_render_node_with_palette (self->timeline, w, h, &palette);
  if (content == NULL)
    return NULL;
  gdk_rgba_parse (&bg, dark ? "#242424" : "#ffffff");

  title = tm_window_dup_timeline_title (self);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->timeline), title);
  font = pango_font_description_new ();
  pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_width (layout, (w - 2 * 12) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_MIDDLE);

  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &bg, &GRAPHENE_RECT_INIT (0, 0, w, h + TITLE_HEIGHT));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (12, 8));
  gtk_snapshot_append_layout (snapshot, layout, &palette.fg);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, TITLE_HEIGHT));
  gtk_snapshot_append_node (snapshot, content);

  *width = w;
  *height = h + TITLE_HEIGHT;
  return gtk_snapshot_free_to_node (snapshot);
}

void
_tm_window_export_timeline_png (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;
  ExportJob *job;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL || self->timeline == NULL)
    return;

  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_PNG;
  job->profile = g_object_ref (tm_session_get_profile (self->session));

  stem = profile_stem (self);
  name = g_strdup_printf ("%s-%s-timeline.png", stem, tm_memory_store_get_id (tm_session_get_memory_store (self->session)));
  chooser = ask_where (self, job, _("Export Timeline as PNG"), name, _("PNG Images"), "*.png");
  /* Translators: a check box in the PNG export dialog */
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "light", _("Light background"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "light", "true");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* The timeline as the user sees it (size, zoom, scale, hidden series,
 * selections, HLO band, scope, baseline, range read-out) as chart layers,
 * for the vector export: the timeline's own (tm_timeline_build_chart()). */
TmChart *
tm_window_build_timeline_chart (TmWindow       *self,
                                gboolean        light,
                                TmChartPalette *palette)
{
  TmPalette widget_palette;

  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  if (tm_session_get_profile (self->session) == NULL || self->timeline == NULL)
    return NULL;

  if (light || !tm_palette_is_dark_style (GTK_WIDGET (self->timeline)))
    tm_chart_palette_init_default (palette, FALSE);
  else
    {
      tm_palette_init_for_widget (&widget_palette, GTK_WIDGET (self->timeline));
      tm_palette_to_chart (&widget_palette, palette);
    }
  return tm_timeline_build_chart (self->timeline,
                                  MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline)), 640),
                                  MAX (gtk_widget_get_height (GTK_WIDGET (self->timeline)), 240));
}

void
_tm_window_export_timeline_svg (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;
  ExportJob *job;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL || tm_session_get_memory_store (self->session) == NULL ||
      self->timeline == NULL)
    return;

  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_SVG;
  job->profile = g_object_ref (tm_session_get_profile (self->session));

  stem = profile_stem (self);
  name = g_strdup_printf ("%s-%s-timeline.svg", stem, tm_memory_store_get_id (tm_session_get_memory_store (self->session)));
  chooser = ask_where (self, job, _("Export Timeline as SVG"), name, _("SVG Images"), "*.svg");
  /* Translators: a check box in the PNG export dialog */
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "light", _("Light background"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "light", "true");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_tm_window_save_memory_only (TmWindow *self)
{
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;
  GtkFileChooserNative *chooser;
  ExportJob *job;

  g_return_if_fail (TM_IS_WINDOW (self));
  if (tm_session_get_profile (self->session) == NULL || !(tm_profile_get_features (tm_session_get_profile (self->session)) & TM_INPUT_HAS_MEMORY_ONLY_EXPORT))
    return;

  stem = profile_stem (self);
  name = g_strconcat (stem, ".memory-only.xplane.pb", NULL);
  job = g_new0 (ExportJob, 1);
  job->kind = EXPORT_MEMORY_XPLANE;
  job->profile = g_object_ref (tm_session_get_profile (self->session));
  job->input = g_object_ref (tm_profile_get_file (tm_session_get_profile (self->session)));
  job->cancellable = g_cancellable_new ();
  chooser = ask_where (self, job, _("Save Memory-Only Profile"), name, _("XSpace Profiles"), "*.xplane.pb");
  gtk_file_chooser_native_set_accept_label (chooser, _("_Save"));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
