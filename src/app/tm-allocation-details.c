/* tm-allocation-details.c — the selected allocation, with its stack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/ui.md, "The details pane". The allocation comes from the session's
 * selection and the allocation index its query holds; what it is, from
 * the store's decoder (TmActivity, and tm_memory_store_get_call_stack()): a
 * snapshot's stack as the file records it (every frame, whole file
 * names), or an op name split at its name scopes.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-allocation-details.h"
#include "tm-allocations-query.h"
#include "tm-format.h"

struct _TmAllocationDetails
{
  TmView        parent_instance;

  GtkWidget    *scroller;
  GtkWidget    *content;
  GtkGrid      *facts;
  GtkLabel     *top_title;
  GtkLabel     *top;
  GtkLabel     *stack_title;
  GtkLabel     *stack;
  guint         n_facts;
  GSignalGroup *allocations_signals;
};

G_DEFINE_FINAL_TYPE (TmAllocationDetails, tm_allocation_details, TM_TYPE_VIEW)

static GtkLabel *
new_label (const char *css_class,
           gboolean    selectable)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (label, 0.0f);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (label, selectable);
  if (css_class != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (label), css_class);
  return label;
}

/* One "key value" line of the facts. */
static void
add_fact (TmAllocationDetails *self,
          const char          *key,
          const char          *value)
{
  GtkLabel *k = new_label ("dim-label", FALSE);
  GtkLabel *v = new_label (NULL, TRUE);

  /* One line each: a grid measures wrapped lines badly. */
  gtk_label_set_wrap (k, FALSE);
  gtk_label_set_wrap (v, FALSE);
  gtk_label_set_ellipsize (v, PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (GTK_WIDGET (v), value);

  gtk_label_set_label (k, key);
  gtk_label_set_label (v, value);
  gtk_widget_set_valign (GTK_WIDGET (k), GTK_ALIGN_START);
  gtk_widget_set_hexpand (GTK_WIDGET (v), TRUE);
  gtk_grid_attach (self->facts, GTK_WIDGET (k), 0, (int) self->n_facts, 1, 1);
  gtk_grid_attach (self->facts, GTK_WIDGET (v), 1, (int) self->n_facts, 1, 1);
  self->n_facts++;
}

static void
clear_facts (TmAllocationDetails *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->facts))) != NULL)
    gtk_grid_remove (self->facts, child);
  self->n_facts = 0;
}

/* Without a selection the pane hides, and the table has the room. */
static void
show_nothing (TmAllocationDetails *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/* At least this wide, and this wide when there is room: the table beside
 * it keeps what it needs in a narrow window (docs/ui.md, "The details
 * pane"). */
#define MIN_WIDTH     120
#define NATURAL_WIDTH 260

/* Shows the pane. In a GtkPaned whose handle the user has not moved, the
 * first time it gives the pane its natural width where the other side
 * keeps its minimum (a paned gives a new end child only its minimum). */
static void
show_pane (TmAllocationDetails *self)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self));
  gboolean position_set = TRUE;
  int width, start_min = 0;

  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  if (!GTK_IS_PANED (parent))
    return;
  g_object_get (parent, "position-set", &position_set, NULL);
  width = gtk_widget_get_width (parent);
  if (position_set || width <= 0)
    return;
  if (gtk_paned_get_start_child (GTK_PANED (parent)) != NULL)
    gtk_widget_measure (gtk_paned_get_start_child (GTK_PANED (parent)), GTK_ORIENTATION_HORIZONTAL, -1,
                        &start_min, NULL, NULL, NULL);
  gtk_paned_set_position (GTK_PANED (parent), MAX (start_min, width - NATURAL_WIDTH));
}

static void
update (TmAllocationDetails *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = session != NULL
                               ? tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session))
                               : NULL;
  guint index = session != NULL ? tm_session_get_selected_allocation (session) : TM_ALLOCATIONS_NONE;
  const TmAllocation *a;
  g_autoptr(GError) error = NULL;
  TmActivity act = { 0 };
  g_autofree char *stack = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *exact = NULL;
  g_autofree char *requested = NULL;
  g_autofree char *address = NULL;
  g_autofree char *start = NULL;
  g_autofree char *end = NULL;

  clear_facts (self);
  if (allocations == NULL || index == TM_ALLOCATIONS_NONE || index >= tm_allocations_get_n (allocations) ||
      !tm_memory_store_get_activity (tm_allocations_get_store (allocations),
                                     tm_allocations_get_event (allocations, index), &act, &error))
    {
      tm_activity_clear (&act);
      show_nothing (self);
      return;
    }
  a = tm_allocations_get (allocations, index);
  stack = tm_memory_store_get_call_stack (tm_allocations_get_store (allocations), tm_allocations_get_event (allocations, index));

  bytes = tm_format_bytes (TM_ALLOCATION_BYTES (a));
  exact = tm_format_bytes_exact (TM_ALLOCATION_BYTES (a));
  requested = tm_format_bytes_exact (act.requested_bytes);
  add_fact (self, _("Size"), bytes);
  add_fact (self, _("Bytes"), exact);
  add_fact (self, _("Requested"), requested);
  address = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", a->address);
  add_fact (self, _("Address"), address);
  start = tm_format_time_ms (tm_allocations_get_start_time (allocations, index));
  add_fact (self, _("Allocated at"), start);
  if (a->end == TM_ALLOCATIONS_OPEN)
    end = g_strdup (_("never freed"));
  else
    end = tm_format_time_ms (tm_allocations_get_end_time (allocations, index));
  add_fact (self, _("Freed at"), end);

  if (stack != NULL)
    {
      /* A PyTorch snapshot: its entry's action (or where an allocation
       * live from the start was found), its stream, its frames. */
      const char *newline = strchr (stack, '\n');
      g_autofree char *top = newline != NULL ? g_strndup (stack, newline - stack) : g_strdup (stack);

      add_fact (self, _("Found as"), act.region_type);
      add_fact (self, _("Stream"), g_str_has_prefix (act.shape, "stream ") ? act.shape + 7 : act.shape);
      gtk_label_set_label (self->top_title, _("Top frame"));
      gtk_label_set_label (self->top, *top != '\0' ? top : _("No Python frame was recorded for it."));
      gtk_label_set_label (self->stack_title, _("Stack, innermost first"));
      gtk_label_set_label (self->stack, stack);
      gtk_widget_set_visible (GTK_WIDGET (self->stack_title), *stack != '\0');
      gtk_widget_set_visible (GTK_WIDGET (self->stack), *stack != '\0');
    }
  else
    {
      /* An XLA profile: the op and its name scopes. */
      g_auto(GStrv) scopes = g_strsplit (act.op_name, "/", -1);
      guint n = g_strv_length (scopes);
      g_autofree char *path = NULL;
      g_autofree char *step = g_strdup_printf ("%" G_GINT64_FORMAT, act.step_id);

      add_fact (self, _("Region"), act.region_type);
      add_fact (self, _("Data type"), act.data_type);
      add_fact (self, _("Shape"), act.shape);
      add_fact (self, _("Step"), step);
      gtk_label_set_label (self->top_title, _("Op"));
      gtk_label_set_label (self->top, n > 0 ? scopes[n - 1] : act.op_name);
      if (n > 0)
        {
          g_free (scopes[n - 1]);
          scopes[n - 1] = NULL;
        }
      path = g_strjoinv ("\n", scopes);
      gtk_label_set_label (self->stack_title, _("Name scopes, outermost first"));
      gtk_label_set_label (self->stack, path);
      gtk_widget_set_visible (GTK_WIDGET (self->stack_title), *path != '\0');
      gtk_widget_set_visible (GTK_WIDGET (self->stack), *path != '\0');
    }
  show_pane (self);
  tm_activity_clear (&act);
}

static void
tm_allocation_details_session_changed (TmView    *view,
                                       TmSession *old_session)
{
  TmAllocationDetails *self = TM_ALLOCATION_DETAILS (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  update (self);
}

static void
tm_allocation_details_dispose (GObject *object)
{
  TmAllocationDetails *self = (TmAllocationDetails *) object;

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->allocations_signals);

  G_OBJECT_CLASS (tm_allocation_details_parent_class)->dispose (object);
}

/* Its labels wrap: their height depends on the width they get. */
static GtkSizeRequestMode
tm_allocation_details_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
tm_allocation_details_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  TmAllocationDetails *self = TM_ALLOCATION_DETAILS (widget);

  gtk_widget_measure (self->scroller, orientation, for_size, minimum, natural, NULL, NULL);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (*minimum, MIN_WIDTH);
      *natural = MAX (*minimum, NATURAL_WIDTH);
    }
}

static void
tm_allocation_details_size_allocate (GtkWidget *widget,
                                     int        width,
                                     int        height,
                                     int        baseline)
{
  gtk_widget_allocate (TM_ALLOCATION_DETAILS (widget)->scroller, width, height, baseline, NULL);
}

static void
tm_allocation_details_class_init (TmAllocationDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_allocation_details_dispose;
  TM_VIEW_CLASS (klass)->session_changed = tm_allocation_details_session_changed;
  widget_class->get_request_mode = tm_allocation_details_get_request_mode;
  widget_class->measure = tm_allocation_details_measure;
  widget_class->size_allocate = tm_allocation_details_size_allocate;

  gtk_widget_class_set_css_name (widget_class, "tmallocationdetails");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tm_allocation_details_init (TmAllocationDetails *self)
{
  GSignalGroup *signals = tm_view_get_session_signals (TM_VIEW (self));
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkLabel *title = new_label ("heading", FALSE);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Selected allocation"), -1);
  gtk_label_set_label (title, _("Selected Allocation"));

  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->facts = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->facts, 12);
  gtk_grid_set_row_spacing (self->facts, 2);
  self->top_title = new_label ("heading", FALSE);
  self->top = new_label (NULL, TRUE);
  self->stack_title = new_label ("heading", FALSE);
  self->stack = new_label ("monospace", TRUE);
  /* Where it was made first: the top frame (or op), the stack (or name
   * scopes), then its figures. */
  gtk_widget_set_margin_top (GTK_WIDGET (self->stack_title), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->facts), 6);
  gtk_box_append (GTK_BOX (self->content), GTK_WIDGET (self->top_title));
  gtk_box_append (GTK_BOX (self->content), GTK_WIDGET (self->top));
  gtk_box_append (GTK_BOX (self->content), GTK_WIDGET (self->stack_title));
  gtk_box_append (GTK_BOX (self->content), GTK_WIDGET (self->stack));
  gtk_box_append (GTK_BOX (self->content), GTK_WIDGET (self->facts));

  gtk_box_append (GTK_BOX (outer), GTK_WIDGET (title));
  gtk_box_append (GTK_BOX (outer), self->content);
  gtk_widget_set_margin_start (outer, 12);
  gtk_widget_set_margin_end (outer, 12);
  gtk_widget_set_margin_top (outer, 8);
  gtk_widget_set_margin_bottom (outer, 8);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), outer);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));

  g_signal_group_connect_swapped (signals, "notify::selected-allocation", G_CALLBACK (update), self);
  g_signal_group_connect_swapped (signals, "notify::memory-store", G_CALLBACK (update), self);
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations", G_CALLBACK (update), self);
  show_nothing (self);
}

GtkWidget *
tm_allocation_details_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_ALLOCATION_DETAILS, "session", session, NULL);
}
