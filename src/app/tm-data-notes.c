/* tm-data-notes.c — what the data cannot tell, said once under the cards
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-data-notes.h"
#include "tm-format.h"

struct _TmDataNotes
{
  TmView        parent_instance;

  GtkWidget    *box;
  /* On the session's allocations query: whether any allocation is named. */
  GSignalGroup *allocations_signals;
};

G_DEFINE_FINAL_TYPE (TmDataNotes, tm_data_notes, TM_TYPE_VIEW)

/* A line each (two in a narrow window), to keep the charts' room; the
 * tooltip says more. */
static void
add_note (TmDataNotes *self,
          const char  *text,
          const char  *more)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-information-symbolic");
  GtkWidget *label = gtk_label_new (text);
  g_autofree char *tooltip = g_strdup_printf ("%s\n\n%s", text, more);

  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (label), 2);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), 20);
  gtk_widget_set_tooltip_text (row, tooltip);
  gtk_box_append (GTK_BOX (row), icon);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (self->box), row);
}

/* Whether the allocation index names no op at all (and has allocations). */
static gboolean
no_op_names (TmAllocations *allocations)
{
  if (allocations == NULL || tm_allocations_get_n (allocations) == 0)
    return FALSE;
  for (guint i = 0; i < tm_allocations_get_n_labels (allocations); i++)
    if (tm_allocations_get_label (allocations, i)->op_name[0] != '\0')
      return FALSE;
  return TRUE;
}

static void
update (TmDataNotes *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->box)) != NULL)
    gtk_box_remove (GTK_BOX (self->box), child);

  if (store != NULL && tm_memory_store_get_summary (store)->peak_stack_bytes > 0)
    {
      g_autofree char *stack = tm_format_bytes (tm_memory_store_get_summary (store)->peak_stack_bytes);
      /* Translators: a note under the cards; %s is the stack at the peak, e.g. "1.83 GiB" */
      g_autofree char *text = g_strdup_printf (_("%s of the peak is “stack”: on TPU, memory XLA reserves for the "
                                                 "whole program when it is loaded, so it stays flat while the "
                                                 "program runs."),
                                               stack);

      add_note (self, text,
                _("XLA reserves it all at once, not allocation by allocation, and it changes only when another "
                  "program is loaded; the heap above it holds the arrays the program allocates."));
    }

  if (store != NULL &&
      no_op_names (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))))
    add_note (self,
              _("This profile’s memory events carry no op names, so every allocation reads “unknown”: "
                "TensorFlow names its ops’ allocations, XLA programs run from JAX do not."),
              _("The profiler records the name the framework gives an allocation while an op runs. To see "
                "which op holds what, profile the model run by TensorFlow, or look at the XLA program’s "
                "buffer assignment."));

  gtk_widget_set_visible (GTK_WIDGET (self), gtk_widget_get_first_child (self->box) != NULL);
}

GStrv
tm_data_notes_dup_notes (TmDataNotes *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (TM_IS_DATA_NOTES (self), NULL);

  for (GtkWidget *row = gtk_widget_get_first_child (self->box); row != NULL; row = gtk_widget_get_next_sibling (row))
    g_strv_builder_add (builder, gtk_label_get_label (GTK_LABEL (gtk_widget_get_last_child (row))));
  return g_strv_builder_end (builder);
}

static void
tm_data_notes_session_changed (TmView    *view,
                               TmSession *old_session)
{
  TmDataNotes *self = TM_DATA_NOTES (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  update (self);
}

static void
tm_data_notes_dispose (GObject *object)
{
  TmDataNotes *self = TM_DATA_NOTES (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->allocations_signals);

  G_OBJECT_CLASS (tm_data_notes_parent_class)->dispose (object);
}

static void
tm_data_notes_class_init (TmDataNotesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_data_notes_dispose;
  view_class->session_changed = tm_data_notes_session_changed;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tmdatanotes");
}

static void
tm_data_notes_init (TmDataNotes *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_add_css_class (self->box, "tm-data-notes");
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)), "notify::memory-store",
                                  G_CALLBACK (update), self);
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations", G_CALLBACK (update), self);
  update (self);
}

GtkWidget *
tm_data_notes_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_DATA_NOTES, "session", session, NULL);
}
