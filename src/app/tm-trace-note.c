/* tm-trace-note.c — why a memory id's timeline is flat: no trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/pytorch.md, "In the views": a snapshot taken while PyTorch was not
 * recording allocations has segments and blocks but no trace entries. The
 * views show its blocks, all live from the start, at one moment; this
 * banner says so above them.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-trace-note.h"

struct _TmTraceNote
{
  TmView    parent_instance;

  GtkLabel *label;
};

G_DEFINE_FINAL_TYPE (TmTraceNote, tm_trace_note, TM_TYPE_VIEW)

static void
update (TmTraceNote *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmProfile *profile = session != NULL ? tm_session_get_profile (session) : NULL;
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;
  TmSegments *segments = profile != NULL && store != NULL ? tm_profile_lookup_segments (profile, store) : NULL;
  const TmSegmentsState *state = segments != NULL ? tm_segments_get_state (segments) : NULL;
  gboolean flat = state != NULL && state->n_trace_entries == 0;

  if (flat)
    {
      g_autofree char *text = g_strdup_printf (ngettext ("This snapshot holds no trace: PyTorch was not recording "
                                                         "allocations (torch.cuda.memory._record_memory_history) "
                                                         "when it was taken. It shows the state at snapshot time, "
                                                         "%u block live from the start, so the timeline is flat.",
                                                         "This snapshot holds no trace: PyTorch was not recording "
                                                         "allocations (torch.cuda.memory._record_memory_history) "
                                                         "when it was taken. It shows the state at snapshot time, "
                                                         "%u blocks live from the start, so the timeline is flat.",
                                                         state->n_initially_allocated),
                                               state->n_initially_allocated);

      gtk_label_set_label (self->label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self), flat);
}

static void
tm_trace_note_session_changed (TmView    *view,
                               TmSession *old_session)
{
  update (TM_TRACE_NOTE (view));
}

/* The label wraps: its height depends on the width it gets. */
static GtkSizeRequestMode
tm_trace_note_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tm_trace_note_class_init (TmTraceNoteClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  TM_VIEW_CLASS (klass)->session_changed = tm_trace_note_session_changed;
  widget_class->get_request_mode = tm_trace_note_get_request_mode;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tmtracenote");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_NOTE);
}

static void
tm_trace_note_init (TmTraceNote *self)
{
  GSignalGroup *signals = tm_view_get_session_signals (TM_VIEW (self));
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-information-symbolic");

  /* As the window's other banners (style.css, "tm-banner"): never taller
   * than three lines, however narrow. */
  gtk_widget_add_css_class (grid, "tm-banner");
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->label, TRUE);
  gtk_label_set_lines (self->label, 3);
  gtk_label_set_ellipsize (self->label, PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (self->label, 30);
  gtk_label_set_xalign (self->label, 0.0f);
  gtk_widget_set_hexpand (GTK_WIDGET (self->label), TRUE);
  gtk_grid_attach (GTK_GRID (grid), icon, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->label), 1, 0, 1, 1);
  gtk_widget_set_parent (grid, GTK_WIDGET (self));

  g_signal_group_connect_swapped (signals, "notify::memory-store", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (signals, "notify::profile", G_CALLBACK (update), self);
  update (self);
}

GtkWidget *
tm_trace_note_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_TRACE_NOTE, "session", session, NULL);
}
