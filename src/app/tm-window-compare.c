/* tm-window-compare.c — comparing the shown profile with a baseline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window keeps where the baseline comes from (a TmWindowContent: the
 * file, or the run and host, and the loaded profile) so that Swap can show
 * it; the session keeps the baseline memory id and the alignment, and the
 * views draw from the session.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-comparison-query.h"
#include "tm-format.h"
#include "tm-op-diff-view.h"
#include "tm-window-compare.h"
#include "tm-window-private.h"

struct _TmWindowCompare
{
  TmWindowContent  baseline;      /* where the baseline comes from; file NULL: none */
  GCancellable    *cancellable;   /* a baseline load in progress */
  char            *message;       /* what the bar says */
  gboolean         is_error;

  GtkRevealer     *revealer;
  GtkLabel        *label;
  GtkSpinner      *spinner;
  GtkDropDown     *alignment;
  GtkWidget       *swap_button;
  GtkWidget       *end_button;
  GtkStackPage    *diff_page;
  GtkWidget       *dialog;
  GtkFileChooserNative *chooser;
};

/* ------------------------------------------------------------------ */
/* The bar and the title                                                */

/* "GPU_6_bfc of run.xplane.pb", or of a host of a run. */
static char *
describe (TmWindowContent *content,
          TmMemoryStore   *store)
{
  g_autofree char *where = NULL;

  if (content->hosts != NULL)
    where = g_strdup (((TmWindowHost *) g_ptr_array_index (content->hosts, content->host_index))->name);
  else
    where = _tm_window_display_basename (content->file);
  /* Translators: a memory id of a file or host, e.g. "GPU_4_bfc of run.xplane.pb" */
  return g_strdup_printf (_("%s of %s"), tm_memory_store_get_id (store), where);
}

static void
set_message (TmWindow   *self,
             const char *message,
             gboolean    is_error,
             gboolean    loading)
{
  TmWindowCompare *c = self->compare;
  gboolean comparing = tm_session_get_baseline (self->session) != NULL;

  g_free (c->message);
  c->message = g_strdup (message);
  c->is_error = is_error;
  gtk_label_set_label (c->label, message != NULL ? message : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (c->label), message);
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (c->label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (c->label), "error");
  gtk_spinner_set_spinning (c->spinner, loading);
  gtk_widget_set_visible (GTK_WIDGET (c->spinner), loading);
  gtk_widget_set_visible (GTK_WIDGET (c->alignment), comparing && !is_error && !loading);
  gtk_widget_set_visible (c->swap_button, comparing && !is_error && !loading);
  gtk_button_set_label (GTK_BUTTON (c->end_button),
                        comparing && !is_error ? _("_End Comparison") : _("_Close"));
  gtk_revealer_set_reveal_child (c->revealer, message != NULL);
}

void
_tm_window_compare_update_title (TmWindow *self)
{
  TmWindowCompare *c = self->compare;
  TmMemoryStore *baseline = tm_session_get_baseline (self->session);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;

  if (c == NULL || baseline == NULL || tm_session_get_memory_store (self->session) == NULL || c->baseline.file == NULL ||
      self->load_cancellable != NULL)
    return;

  before = describe (&c->baseline, baseline);
  after = describe (&self->shown, tm_session_get_memory_store (self->session));
  /* Translators: the window title while comparing: "GPU_6_bfc of a.xplane.pb compared with GPU_4_bfc of b.xplane.pb" */
  title = g_strdup_printf (_("%s compared with %s"), after, before);
  gtk_window_set_title (GTK_WINDOW (self), title);
  /* Translators: the header's subtitle while comparing */
  subtitle = g_strdup_printf (_("compared with %s"), before);
  gtk_label_set_label (self->subtitle_label, subtitle);
  gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
}

/* The Difference page is there only while comparing; when it goes, the
 * table takes its place (GTK would show whichever page comes first). */
static void
show_diff_page (TmWindow *self,
                gboolean  visible)
{
  TmWindowCompare *c = self->compare;

  if (!visible && gtk_stack_get_visible_child (self->lower_stack) == gtk_stack_page_get_child (c->diff_page))
    gtk_stack_set_visible_child_name (self->lower_stack, "table");
  gtk_stack_page_set_visible (c->diff_page, visible);
}

static void
update_bar (TmWindow *self)
{
  TmWindowCompare *c = self->compare;
  TmMemoryStore *baseline = tm_session_get_baseline (self->session);
  TmCompare *compare = tm_comparison_query_get_comparison (tm_comparison_query_get_for_session (self->session));
  g_autofree char *message = NULL;

  show_diff_page (self, baseline != NULL);
  if (baseline == NULL)
    {
      if (!c->is_error && c->cancellable == NULL)
        set_message (self, NULL, FALSE, FALSE);
      return;
    }
  /* In the middle of a swap. */
  if (c->baseline.file == NULL)
    return;

  if (compare != NULL && tm_session_get_memory_store (self->session) != NULL)
    {
      const TmCompareFigure *peak = tm_compare_lookup_figure (compare, "peak_bytes_in_use");
      g_autofree char *before = describe (&c->baseline, baseline);
      g_autofree char *delta = tm_format_bytes_delta (peak->delta);
      g_autofree char *change = tm_format_percent_change (peak->delta, peak->baseline);
      g_autofree char *was = tm_format_bytes (peak->baseline);

      /* Translators: the comparison bar: the baseline, its peak, and how the peak changed,
       * e.g. "Baseline: GPU_4_bfc of a.xplane.pb (peak 5.78 GiB). The peak changed by +1.20 MiB (+0.02 %)." */
      message = g_strdup_printf (_("Baseline: %s (peak %s). The peak changed by %s (%s)."),
                                 before, was, delta, change != NULL ? change : "—");
    }
  set_message (self, message, FALSE, FALSE);
  _tm_window_compare_update_title (self);
}

/* ------------------------------------------------------------------ */
/* Starting and ending                                                  */

static void
cancel_baseline_load (TmWindow *self)
{
  TmWindowCompare *c = self->compare;

  if (c->cancellable == NULL)
    return;
  g_cancellable_cancel (c->cancellable);
  g_clear_object (&c->cancellable);
}

void
tm_window_end_comparison (TmWindow *self)
{
  TmWindowCompare *c;

  g_return_if_fail (TM_IS_WINDOW (self));

  c = self->compare;
  cancel_baseline_load (self);
  _tm_window_content_clear (&c->baseline);
  c->is_error = FALSE;
  tm_session_set_baseline (self->session, NULL, NULL);
  set_message (self, NULL, FALSE, FALSE);
  show_diff_page (self, FALSE);
  /* The title without the comparison. */
  _tm_window_update (self, _tm_window_current (self)->state, _tm_window_current (self)->file);
}

void
_tm_window_compare_end (TmWindow *self)
{
  if (self->compare != NULL && (self->compare->baseline.file != NULL || self->compare->cancellable != NULL ||
                                self->compare->message != NULL))
    tm_window_end_comparison (self);
}

/* Compares with profile (the content's), picking the memory id of the
 * shown one's name, else its busiest. Takes content. */
static void
start_with (TmWindow        *self,
            TmWindowContent *content,
            TmMemoryStore   *store)
{
  TmWindowCompare *c = self->compare;
  gboolean was_comparing = tm_session_get_baseline (self->session) != NULL;

  if (store == NULL && tm_session_get_memory_store (self->session) != NULL)
    store = tm_profile_lookup_memory_store (content->profile, tm_memory_store_get_id (tm_session_get_memory_store (self->session)));
  if (store == NULL && tm_profile_get_n_memory_ids (content->profile) > 0)
    store = tm_profile_get_memory_store (content->profile, tm_profile_get_busiest_index (content->profile));

  if (store == NULL)
    {
      g_autofree char *name = _tm_window_display_basename (content->file);
      /* Translators: %s is a file name */
      g_autofree char *message = g_strdup_printf (_("“%s” has no memory data to compare with."), name);

      _tm_window_content_clear (content);
      tm_window_end_comparison (self);
      set_message (self, message, TRUE, FALSE);
      return;
    }

  _tm_window_content_clear (&c->baseline);
  c->baseline = *content;
  memset (content, 0, sizeof *content);
  c->is_error = FALSE;
  tm_session_set_baseline (self->session, c->baseline.profile, store);
  /* The op diff answers the question first. */
  if (!was_comparing)
    gtk_stack_set_visible_child_name (self->lower_stack, "difference");
  update_bar (self);
}

typedef struct
{
  TmWindow        *self;
  GCancellable    *cancellable;
  TmWindowContent  content;
} BaselineJob;

static void
baseline_ready_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  BaselineJob *job = user_data;
  TmWindow *self = job->self;
  TmWindowCompare *c = self->compare;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmProfile) profile = tm_profile_load_finish (result, &error);

  if (c == NULL || job->cancellable != c->cancellable)
    goto out;
  g_clear_object (&c->cancellable);

  if (profile == NULL)
    {
      g_autofree char *name = _tm_window_display_basename (job->content.file);
      /* Translators: the comparison bar when the baseline could not be read: a file name, then why */
      g_autofree char *message = g_strdup_printf (_("Could not compare with “%s”: %s"), name, error->message);

      /* The shown profile stays; the comparison, if any, ends. */
      tm_window_end_comparison (self);
      set_message (self, message, TRUE, FALSE);
      goto out;
    }

  /* A host keeps what loading it gave, as when it is shown. */
  if (job->content.hosts != NULL)
    g_set_object (&((TmWindowHost *) g_ptr_array_index (job->content.hosts, job->content.host_index))->profile, profile);
  job->content.profile = g_steal_pointer (&profile);
  start_with (self, &job->content, NULL);

out:
  _tm_window_content_clear (&job->content);
  g_clear_object (&job->cancellable);
  g_object_unref (job->self);
  g_free (job);
}

/* Loads content's file on a worker, then compares with it. Takes content. */
static void
load_baseline (TmWindow        *self,
               TmWindowContent *content)
{
  TmWindowCompare *c = self->compare;
  BaselineJob *job = g_new0 (BaselineJob, 1);
  g_autofree char *name = _tm_window_display_basename (content->file);
  /* Translators: the comparison bar while the baseline loads; %s is a file name */
  g_autofree char *message = g_strdup_printf (_("Loading “%s” to compare with…"), name);

  cancel_baseline_load (self);
  c->cancellable = g_cancellable_new ();
  job->self = g_object_ref (self);
  job->cancellable = g_object_ref (c->cancellable);
  job->content = *content;
  memset (content, 0, sizeof *content);
  c->is_error = FALSE;
  set_message (self, message, FALSE, TRUE);
  tm_profile_load_async (job->content.file, NULL, NULL, NULL, c->cancellable, baseline_ready_cb, job);
}

void
tm_window_compare_with_file (TmWindow *self,
                             GFile    *file)
{
  TmWindowContent content = { 0 };

  g_return_if_fail (TM_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  content.file = g_object_ref (file);
  content.size = -1;
  load_baseline (self, &content);
}

gboolean
tm_window_compare_with_memory_id (TmWindow   *self,
                                  const char *memory_id)
{
  TmWindowContent content = { 0 };
  TmMemoryStore *store;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (memory_id != NULL, FALSE);

  if (tm_session_get_profile (self->session) == NULL ||
      (store = tm_profile_lookup_memory_store (tm_session_get_profile (self->session), memory_id)) == NULL)
    return FALSE;

  cancel_baseline_load (self);
  content.file = g_object_ref (self->shown.file);
  content.run_directory = self->shown.run_directory != NULL ? g_object_ref (self->shown.run_directory) : NULL;
  content.hosts = self->shown.hosts != NULL ? g_ptr_array_ref (self->shown.hosts) : NULL;
  content.host_index = self->shown.host_index;
  content.profile = g_object_ref (tm_session_get_profile (self->session));
  content.size = -1;
  start_with (self, &content, store);
  return TRUE;
}

gboolean
tm_window_compare_with_host (TmWindow   *self,
                             const char *host)
{
  TmWindowContent content = { 0 };
  GPtrArray *hosts;

  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (host != NULL, FALSE);

  hosts = self->shown.hosts;
  for (guint i = 0; hosts != NULL && i < hosts->len; i++)
    {
      TmWindowHost *h = g_ptr_array_index (hosts, i);

      if (g_strcmp0 (h->name, host) != 0)
        continue;
      content.file = g_object_ref (h->file);
      content.run_directory = g_object_ref (self->shown.run_directory);
      content.hosts = g_ptr_array_ref (hosts);
      content.host_index = i;
      content.size = -1;
      if (h->profile != NULL)
        {
          cancel_baseline_load (self);
          content.profile = g_object_ref (h->profile);
          start_with (self, &content, NULL);
        }
      else
        load_baseline (self, &content);
      return TRUE;
    }
  return FALSE;
}

void
tm_window_swap_comparison (TmWindow *self)
{
  TmWindowCompare *c;
  TmMemoryStore *baseline;
  g_autoptr(TmMemoryStore) old_store = NULL;
  g_autofree char *baseline_id = NULL;
  TmWindowContent next = { 0 };
  TmWindowContent old = { 0 };

  g_return_if_fail (TM_IS_WINDOW (self));

  c = self->compare;
  baseline = tm_session_get_baseline (self->session);
  if (baseline == NULL || tm_session_get_memory_store (self->session) == NULL || tm_session_get_profile (self->session) == NULL)
    return;

  old_store = g_object_ref (tm_session_get_memory_store (self->session));
  baseline_id = g_strdup (tm_memory_store_get_id (baseline));

  /* Two memory ids of the shown profile: only the memory id changes. */
  if (c->baseline.profile == tm_session_get_profile (self->session))
    {
      tm_window_select_memory_id (self, baseline_id);
      tm_session_set_baseline (self->session, tm_session_get_profile (self->session), old_store);
      update_bar (self);
      return;
    }

  old.file = g_object_ref (self->shown.file);
  old.run_directory = self->shown.run_directory != NULL ? g_object_ref (self->shown.run_directory) : NULL;
  old.hosts = self->shown.hosts != NULL ? g_ptr_array_ref (self->shown.hosts) : NULL;
  old.host_index = self->shown.host_index;
  old.profile = g_object_ref (tm_session_get_profile (self->session));
  old.mtime_us = self->shown.mtime_us;
  old.size = self->shown.size;

  next = c->baseline;
  memset (&c->baseline, 0, sizeof c->baseline);
  next.state = TM_WINDOW_STATE_PROFILE;
  _tm_window_show (self, &next);
  tm_window_select_memory_id (self, baseline_id);

  c->baseline = old;
  tm_session_set_baseline (self->session, old.profile, old_store);
  update_bar (self);
}

const char *
tm_window_get_comparison_message (TmWindow *self,
                                  gboolean *is_error)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), NULL);

  if (is_error != NULL)
    *is_error = self->compare->is_error;
  return self->compare->message;
}

gboolean
tm_window_get_comparison_loading (TmWindow *self)
{
  g_return_val_if_fail (TM_IS_WINDOW (self), FALSE);

  return self->compare->cancellable != NULL;
}

/* ------------------------------------------------------------------ */
/* Compare With…                                                        */

static void
file_chosen_cb (TmWindow             *self,
                int                   response,
                GtkFileChooserNative *chooser)
{
  TmWindowCompare *c = self->compare;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        tm_window_compare_with_file (self, file);
    }
  if (c->chooser == chooser)
    {
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (c->chooser));
      g_clear_object (&c->chooser);
    }
}

static void
choose_file (TmWindow *self)
{
  TmWindowCompare *c = self->compare;

  if (c->chooser == NULL)
    {
      c->chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_WINDOW (self),
                                                GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (c->chooser), TRUE);
      g_signal_connect_object (c->chooser, "response", G_CALLBACK (file_chosen_cb), self, G_CONNECT_SWAPPED);
    }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (c->chooser));
}

static void
close_dialog (TmWindow *self)
{
  if (self->compare->dialog != NULL)
    gtk_window_destroy (GTK_WINDOW (self->compare->dialog));
}

static void
row_activated_cb (TmWindow      *self,
                  GtkListBoxRow *row)
{
  const char *memory_id = g_object_get_data (G_OBJECT (row), "tm-memory-id");
  const char *host = g_object_get_data (G_OBJECT (row), "tm-host");
  gboolean other_file = g_object_get_data (G_OBJECT (row), "tm-other-file") != NULL;
  g_autofree char *id = g_strdup (memory_id);
  g_autofree char *h = g_strdup (host);

  close_dialog (self);
  if (id != NULL)
    tm_window_compare_with_memory_id (self, id);
  else if (h != NULL)
    tm_window_compare_with_host (self, h);
  else if (other_file)
    choose_file (self);
}

static GtkWidget *
add_row (GtkListBox *list,
         const char *title,
         const char *detail)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_append (GTK_BOX (box), label);
  if (detail != NULL)
    {
      label = gtk_label_new (detail);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_append (list, row);
  return row;
}

/* Whether host index of the shown run failed to load: when it was shown,
 * or in the run overview, which reads every host. */
static gboolean
host_failed (TmWindow *self,
             guint     index)
{
  TmWindowHost *host = g_ptr_array_index (self->shown.hosts, index);
  const TmHostSummary *summary = _tm_window_host_summary (self, self->shown.hosts, index);

  return host->error_message != NULL || (summary != NULL && summary->error != NULL);
}

static void
compare_with_action (GSimpleAction *action,
                     GVariant      *param,
                     gpointer       user_data)
{
  TmWindow *self = TM_WINDOW (user_data);
  TmWindowCompare *c = self->compare;
  GtkWidget *box, *list, *label, *scrolled;
  guint n_ids = tm_session_get_profile (self->session) != NULL ? tm_profile_get_n_memory_ids (tm_session_get_profile (self->session)) : 0;
  guint n_hosts = self->shown.hosts != NULL ? self->shown.hosts->len : 0;

  if (c->dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (c->dialog));
      return;
    }

  c->dialog = gtk_window_new ();
  g_object_add_weak_pointer (G_OBJECT (c->dialog), (gpointer *) &c->dialog);
  gtk_window_set_title (GTK_WINDOW (c->dialog), _("Compare With"));
  gtk_window_set_transient_for (GTK_WINDOW (c->dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (c->dialog), TRUE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (c->dialog), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (c->dialog), 420, -1);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  label = gtk_label_new (_("Compare the shown memory id with a baseline: another memory id of this profile, another host of this run, or another file."));
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);

  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_add_css_class (list, "frame");
  g_signal_connect_object (list, "row-activated", G_CALLBACK (row_activated_cb), self, G_CONNECT_SWAPPED);

  for (guint i = 0; i < n_ids; i++)
    {
      TmMemoryStore *store = tm_profile_get_memory_store (tm_session_get_profile (self->session), i);
      g_autofree char *peak = NULL;
      g_autofree char *detail = NULL;
      GtkWidget *row;

      if (store == tm_session_get_memory_store (self->session) ||
          !tm_profile_is_memory_id_ready (tm_session_get_profile (self->session), i))
        continue;
      peak = tm_format_bytes (tm_memory_store_get_summary (store)->peak_bytes_in_use);
      /* Translators: the detail of a memory id in Compare With: its peak */
      detail = g_strdup_printf (_("Memory id of this profile, peak %s"), peak);
      row = add_row (GTK_LIST_BOX (list), tm_memory_store_get_id (store), detail);
      g_object_set_data_full (G_OBJECT (row), "tm-memory-id", g_strdup (tm_memory_store_get_id (store)), g_free);
    }
  for (guint i = 0; i < n_hosts; i++)
    {
      TmWindowHost *host = g_ptr_array_index (self->shown.hosts, i);
      GtkWidget *row;

      /* A host that could not be read is no baseline. */
      if (i == self->shown.host_index || host_failed (self, i))
        continue;
      row = add_row (GTK_LIST_BOX (list), host->name, _("Host of this run"));
      g_object_set_data_full (G_OBJECT (row), "tm-host", g_strdup (host->name), g_free);
    }
  g_object_set_data (G_OBJECT (add_row (GTK_LIST_BOX (list), _("Other File…"), _("Another profile, e.g. the run before a fix"))),
                     "tm-other-file", GINT_TO_POINTER (1));

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 420);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_window_set_child (GTK_WINDOW (c->dialog), box);
  gtk_window_present (GTK_WINDOW (c->dialog));
}

static void
swap_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  tm_window_swap_comparison (TM_WINDOW (user_data));
}

static void
end_action (GSimpleAction *action,
            GVariant      *param,
            gpointer       user_data)
{
  tm_window_end_comparison (TM_WINDOW (user_data));
}

static const GActionEntry compare_actions[] = {
  { "compare-with", compare_with_action },
  { "swap-comparison", swap_action },
  { "end-comparison", end_action },
};

static void
session_changed_cb (TmWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "compare-with");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), tm_session_get_memory_store (self->session) != NULL);
  if (tm_session_get_baseline (self->session) != NULL)
    update_bar (self);
  else
    show_diff_page (self, FALSE);
}

static void
alignment_selected_cb (TmWindow *self)
{
  guint selected = gtk_drop_down_get_selected (self->compare->alignment);

  if (selected < TM_COMPARE_N_ALIGNMENTS)
    tm_session_set_alignment (self->session, selected);
}

static void
alignment_changed_cb (TmWindow *self)
{
  gtk_drop_down_set_selected (self->compare->alignment, tm_session_get_alignment (self->session));
}

void
_tm_window_compare_init (TmWindow *self)
{
  TmWindowCompare *c = g_new0 (TmWindowCompare, 1);
  const char *alignments[] = { N_("Align at Start"), N_("Align at Peak"), N_("Align at First Step"), NULL };
  const char *translated[G_N_ELEMENTS (alignments)];
  GtkWidget *bar, *parent;
  TmOpDiffView *diff;

  self->compare = c;
  _tm_window_content_clear (&c->baseline);
  for (guint i = 0; i < G_N_ELEMENTS (alignments); i++)
    translated[i] = alignments[i] != NULL ? _(alignments[i]) : NULL;

  g_action_map_add_action_entries (G_ACTION_MAP (self), compare_actions, G_N_ELEMENTS (compare_actions), self);

  /* The bar under the header, over the cards. */
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_add_css_class (bar, "tm-banner");
  c->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (c->spinner));
  c->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (c->label, 0);
  gtk_label_set_wrap (c->label, TRUE);
  gtk_label_set_wrap_mode (c->label, PANGO_WRAP_WORD_CHAR);
  /* A long message (a baseline that failed) never takes more than three
   * lines from the panes; the tooltip has it whole. */
  gtk_label_set_lines (c->label, 3);
  gtk_label_set_ellipsize (c->label, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (c->label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (c->label), TRUE);
  gtk_widget_set_valign (GTK_WIDGET (c->label), GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (c->label));
  c->alignment = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (translated));
  gtk_widget_set_valign (GTK_WIDGET (c->alignment), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (c->alignment),
                               _("Where the baseline’s time axis is pinned to this profile’s: their first events, their peaks, or the start of their first step"));
  g_signal_connect_object (c->alignment, "notify::selected", G_CALLBACK (alignment_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (c->alignment));
  c->swap_button = gtk_button_new_with_mnemonic (_("_Swap"));
  gtk_widget_set_valign (c->swap_button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (c->swap_button, _("Show the baseline, and compare it with this profile"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (c->swap_button), "win.swap-comparison");
  gtk_box_append (GTK_BOX (bar), c->swap_button);
  c->end_button = gtk_button_new_with_mnemonic (_("_End Comparison"));
  gtk_widget_set_valign (c->end_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (c->end_button), "win.end-comparison");
  gtk_box_append (GTK_BOX (bar), c->end_button);

  c->revealer = GTK_REVEALER (gtk_revealer_new ());
  gtk_revealer_set_child (c->revealer, bar);
  parent = gtk_widget_get_parent (GTK_WIDGET (self->sampled_banner));
  gtk_box_insert_child_after (GTK_BOX (parent), GTK_WIDGET (c->revealer), GTK_WIDGET (self->sampled_banner));

  /* The op diff, next to the table, while comparing. */
  diff = TM_OP_DIFF_VIEW (tm_op_diff_view_new ());
  gtk_widget_set_margin_start (GTK_WIDGET (diff), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (diff), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (diff), 8);
  gtk_widget_set_margin_bottom (GTK_WIDGET (diff), 12);
  tm_view_set_session (TM_VIEW (diff), self->session);
  /* Translators: the page of the op diff, next to "Table" and "Scopes" */
  c->diff_page = gtk_stack_add_titled (self->lower_stack, GTK_WIDGET (diff), "difference", _("Difference"));
  gtk_stack_page_set_visible (c->diff_page, FALSE);

  g_signal_connect_object (self->session, "notify::memory-store", G_CALLBACK (session_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::baseline", G_CALLBACK (session_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::alignment", G_CALLBACK (alignment_changed_cb), self, G_CONNECT_SWAPPED);
  session_changed_cb (self);
}

void
_tm_window_compare_dispose (TmWindow *self)
{
  TmWindowCompare *c = self->compare;

  if (c == NULL)
    return;
  cancel_baseline_load (self);
  _tm_window_content_clear (&c->baseline);
  if (c->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (c->chooser));
  g_clear_object (&c->chooser);
  g_clear_pointer (&c->message, g_free);
  g_clear_pointer (&self->compare, g_free);
}
