/* tm-allocations-view.c — every allocation of the range shown, as a table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The column view's model is a TmAllocationList inside a
 * GtkSingleSelection, with no sort or filter model over it: those would
 * need an item per allocation. Its sorter only says which column the user
 * asked for (GTK 4.8 has no getter for it: one comparison of two probes
 * tells, each column's sorter noting that it was asked); a worker then
 * filters and sorts the index (tm_alloc_list_query) and the list takes
 * the answer.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocation-cells.h"
#include "tm-allocation-figures.h"
#include "tm-allocations-query.h"
#include "tm-allocations-view.h"
#include "tm-snapshot-columns.h"
#include "tm-format.h"

/* Zooming and panning move the range many times a second: the rows follow
 * once it rests. */
#define RANGE_SETTLE_MS 120

typedef struct
{
  TmAllocations    *allocations;
  TmAllocShapes    *shapes;   /* the index's (kept with it), or NULL */
  TmAllocShapes    *built;    /* made by the worker when the query needs them */
  TmAllocListQuery  query;
  char             *text;
  GArray           *indices;
  TmAllocStats     *stats;
  guint             n_in_range;
  gint64            started;   /* monotonic µs, for the debug log */
  gint64            worked;    /* when the worker was done */
} ListJob;

static void
list_job_free (ListJob *job)
{
  g_clear_object (&job->allocations);
  g_clear_pointer (&job->built, tm_alloc_shapes_free);
  g_free (job->text);
  g_clear_pointer (&job->indices, g_array_unref);
  g_clear_pointer (&job->stats, tm_alloc_stats_free);
  g_free (job);
}

/* A column's sorter answers a probe with the column it is. */
typedef struct
{
  struct _TmAllocationsView *view;
  TmAllocListSort            sort;
} Probe;

struct _TmAllocationsView
{
  TmView               parent_instance;

  GtkWidget           *box;
  GtkLabel            *heading;
  GtkLabel            *count;
  GtkWidget           *busy;
  GtkSearchEntry      *search;
  GtkDropDown         *kind_dropdown;
  TmAllocationFigures *figures;
  GtkStack            *stack;
  GtkLabel            *status;
  GtkColumnView       *column_view;
  TmAllocationList    *list;
  GtkSingleSelection  *selection;

  GSignalGroup        *allocations_signals;
  GSignalGroup        *viewport_signals;
  GCancellable        *cancellable;
  guint                settle_source;
  guint                scroll_source;
  TmAllocStats        *stats;

  TmAllocListKind      kind;
  char                *text;
  TmAllocListSort      probed;

  gboolean             dirty;
  gboolean             syncing;
  gboolean             setting_entry;
  gboolean             setting_kinds;
};

G_DEFINE_FINAL_TYPE (TmAllocationsView, tm_allocations_view, TM_TYPE_VIEW)

enum {
  PROP_0,
  PROP_KIND,
  PROP_FILTER_TEXT,
  PROP_TEMPORARY_PS,
  PROP_PENDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void refresh (TmAllocationsView *self);

/* The "Show" choices, in TmAllocListKind's order. */
static const char *kind_names[] = {
  N_("All"), N_("Never freed"), N_("Temporary"), N_("Freed in the same step"),
};

/* ------------------------------------------------------------------ */
/* Sorting                                                              */

static int
probe_compare (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  Probe *probe = user_data;

  probe->view->probed = probe->sort;
  return GTK_ORDERING_SMALLER;
}

/* The column and direction the column view's sorter asks for. */
static TmAllocListSort
current_sort (TmAllocationsView *self,
              gboolean          *descending)
{
  GtkSorter *sorter = gtk_column_view_get_sorter (self->column_view);
  g_autoptr(GObject) a = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) b = g_object_new (G_TYPE_OBJECT, NULL);
  GtkOrdering order;

  self->probed = TM_ALLOC_LIST_SORT_INDEX;
  order = gtk_sorter_compare (sorter, a, b);
  *descending = order == GTK_ORDERING_LARGER;
  return order == GTK_ORDERING_EQUAL ? TM_ALLOC_LIST_SORT_INDEX : self->probed;
}

/* ------------------------------------------------------------------ */
/* Headings and states                                                  */

static TmAllocations *
session_allocations (TmAllocationsView *self,
                     gboolean          *pending)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocationsQuery *query;

  *pending = FALSE;
  if (session == NULL || tm_session_get_memory_store (session) == NULL)
    return NULL;
  query = tm_allocations_query_get_for_session (session);
  *pending = tm_allocations_query_get_pending (query);
  return tm_allocations_query_get_allocations (query);
}

static void
update_heading (TmAllocationsView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmViewport *viewport;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *text = NULL;

  if (session == NULL || tm_session_get_memory_store (session) == NULL)
    {
      gtk_label_set_label (self->heading, _("Allocations"));
      return;
    }
  viewport = tm_session_get_viewport (session);
  from = tm_format_time_ms (tm_viewport_get_start (viewport));
  to = tm_format_time_ms (tm_viewport_get_end (viewport));
  /* Translators: heading of the allocations table; two times */
  text = g_strdup_printf (_("Allocations live in %s – %s"), from, to);
  gtk_label_set_label (self->heading, text);
}

static void
update_count (TmAllocationsView *self,
              guint              n_in_range)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->list));
  g_autofree char *shown = tm_format_count (n);
  g_autofree char *total = tm_format_count (n_in_range);
  g_autofree char *text = NULL;

  if (n == n_in_range)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s allocation", "%s allocations", n), shown);
  else
    /* Translators: rows kept by the filter of those in the range */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s allocation", "%s of %s allocations", n_in_range),
                            shown, total);
  gtk_label_set_label (self->count, text);
}

/* A PyTorch snapshot has no steps: no figures per step and no "freed in
 * the same step" to show; its table's columns hold the stack, the action
 * and the stream (tm-snapshot-columns.h), and the filter says so. */
static void
set_snapshot_words (TmAllocationsView *self,
                    gboolean           snapshot)
{
  guint n_kinds = snapshot ? TM_ALLOC_LIST_SAME_STEP : G_N_ELEMENTS (kind_names);

  tm_allocation_figures_set_has_steps (self->figures, !snapshot);
  if (g_list_model_get_n_items (gtk_drop_down_get_model (self->kind_dropdown)) != n_kinds)
    {
      g_autoptr(GtkStringList) kinds = gtk_string_list_new (NULL);

      for (guint i = 0; i < n_kinds; i++)
        gtk_string_list_append (kinds, _(kind_names[i]));
      self->setting_kinds = TRUE;
      gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (kinds));
      if (self->kind >= n_kinds)
        {
          self->kind = TM_ALLOC_LIST_ALL;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
        }
      gtk_drop_down_set_selected (self->kind_dropdown, self->kind);
      self->setting_kinds = FALSE;
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->kind_dropdown),
                               snapshot ? _("Every allocation, or only those never freed, or the temporary ones")
                                        : _("Every allocation, or only those never freed, the temporary ones, or those freed in the step that made them"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search),
                               snapshot ? _("Keep the allocations whose stack frames, action, stream or address (0x…) hold this text")
                                        : _("Keep the allocations whose op, region, data type, shape or address (0x…) holds this text"));
}

/* The table, or a line saying why there is none. */
static void
show_status (TmAllocationsView *self,
             const char        *status)
{
  if (status == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "table");
      return;
    }
  gtk_label_set_label (self->status, status);
  gtk_stack_set_visible_child_name (self->stack, "status");
}

static void
set_pending (TmAllocationsView *self,
             gboolean           pending)
{
  if (gtk_widget_get_visible (self->busy) == pending)
    return;
  gtk_widget_set_visible (self->busy, pending);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

/* ------------------------------------------------------------------ */
/* Selection                                                            */

/* The column view's list scrolls to the selected row (GTK 4.8 has no
 * scroll_to), once it has laid out its rows: scrolled right after its
 * model changed, as when the tab is first shown with an allocation
 * selected elsewhere, GTK 4.8's list drew one row and left the rest of
 * the list blank. */
static gboolean
scroll_to_selected (gpointer data)
{
  TmAllocationsView *self = data;
  guint position = gtk_single_selection_get_selected (self->selection);

  self->scroll_source = 0;
  if (position == GTK_INVALID_LIST_POSITION || !gtk_widget_get_mapped (GTK_WIDGET (self->column_view)))
    return G_SOURCE_REMOVE;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
  return G_SOURCE_REMOVE;
}

/* Selects the row of the session's selected allocation, if it is listed. */
static void
sync_selection (TmAllocationsView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint index = session != NULL ? tm_session_get_selected_allocation (session) : TM_ALLOCATIONS_NONE;
  guint position = GTK_INVALID_LIST_POSITION;

  if (index != TM_ALLOCATIONS_NONE &&
      tm_allocation_list_get_allocations (self->list) == tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)))
    position = tm_allocation_list_find (self->list, index);

  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  g_clear_handle_id (&self->scroll_source, g_source_remove);
  if (position != GTK_INVALID_LIST_POSITION)
    self->scroll_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, scroll_to_selected, self, NULL);
}

static void
selection_changed_cb (TmAllocationsView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint position = gtk_single_selection_get_selected (self->selection);

  if (self->syncing || session == NULL)
    return;
  tm_session_select_allocation (session, position != GTK_INVALID_LIST_POSITION
                                         ? tm_allocation_list_get_index (self->list, position)
                                         : TM_ALLOCATIONS_NONE);
}

/* Enter or a double click: the timeline zooms to its lifetime. */
static void
activate_cb (TmAllocationsView *self,
             guint              position)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = tm_allocation_list_get_allocations (self->list);
  guint index;

  if (session == NULL || allocations == NULL || position >= g_list_model_get_n_items (G_LIST_MODEL (self->list)))
    return;
  index = tm_allocation_list_get_index (self->list, position);
  tm_viewport_zoom_to (tm_session_get_viewport (session), tm_allocations_get_start_time (allocations, index),
                      tm_allocations_get_end_time (allocations, index));
}

/* ------------------------------------------------------------------ */
/* The rows, from a worker                                              */

static void
list_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  ListJob *job = task_data;
  GError *error = NULL;
  TmAllocShapes *shapes = job->shapes;

  /* The worker reads only its job and the immutable index. */
  if (shapes == NULL && tm_alloc_list_needs_shapes (&job->query))
    {
      job->built = tm_alloc_shapes_new (job->allocations, cancellable, &error);
      if (job->built == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      shapes = job->built;
    }
  job->indices = tm_alloc_list_query (job->allocations, shapes, &job->query, cancellable, &error);
  if (job->indices == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->query.kind == TM_ALLOC_LIST_ALL && job->text == NULL)
    job->n_in_range = job->indices->len;
  else
    {
      g_autoptr(GArray) all = tm_allocations_query (job->allocations, job->query.start_ps, job->query.end_ps,
                                                    0, G_MAXUINT64);

      job->n_in_range = all->len;
    }
  job->stats = tm_alloc_stats_new (job->allocations, job->query.start_ps, job->query.end_ps,
                                   job->query.temporary_ps, cancellable, &error);
  if (job->stats == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  job->worked = g_get_monotonic_time ();
  g_task_return_boolean (task, TRUE);
}

static void
list_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (source);
  ListJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  /* Shapes are kept with their index, whoever asked for them. */
  if (job->built != NULL &&
      g_object_get_data (G_OBJECT (job->allocations), TM_ALLOCATION_LIST_SHAPES_KEY) == NULL)
    g_object_set_data_full (G_OBJECT (job->allocations), TM_ALLOCATION_LIST_SHAPES_KEY,
                            g_steal_pointer (&job->built), (GDestroyNotify) tm_alloc_shapes_free);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_object (&self->cancellable);
          set_pending (self, FALSE);
          show_status (self, error->message);
        }
      return;
    }
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);

  /* The selection stays the session's: a row that goes is no choice. */
  g_debug ("allocations list: worker done in %.1f ms, handed over after %.1f ms",
           (job->worked - job->started) / 1000.0, (g_get_monotonic_time () - job->started) / 1000.0);
  self->syncing = TRUE;
  /* Unselected first: GtkSingleSelection would look for its item among
   * every new row, making each of them. */
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  tm_allocation_list_set (self->list, job->allocations, g_steal_pointer (&job->indices));
  self->syncing = FALSE;
  g_clear_pointer (&self->stats, tm_alloc_stats_free);
  self->stats = g_steal_pointer (&job->stats);
  tm_allocation_figures_set_stats (self->figures, self->stats);
  update_count (self, job->n_in_range);
  g_debug ("allocations list: %u of %u rows in %.1f ms", g_list_model_get_n_items (G_LIST_MODEL (self->list)),
           job->n_in_range, (g_get_monotonic_time () - job->started) / 1000.0);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->list)) > 0)
    show_status (self, NULL);
  else
    show_status (self, job->n_in_range > 0 ? _("No allocation in the range matches") : _("No allocation is live in the range"));
  sync_selection (self);
  set_pending (self, FALSE);
}

/* Starts making the rows for what the session and the view say now
 * (only while shown; later otherwise). */
static void
refresh (TmAllocationsView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations;
  g_autoptr(GTask) task = NULL;
  TmViewport *viewport;
  gboolean pending;
  ListJob *job;

  g_clear_handle_id (&self->settle_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  update_heading (self);

  allocations = session_allocations (self, &pending);
  if (allocations == NULL)
    {
      self->syncing = TRUE;
      gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
      tm_allocation_list_set (self->list, NULL, NULL);
      self->syncing = FALSE;
      g_clear_pointer (&self->stats, tm_alloc_stats_free);
      tm_allocation_figures_set_stats (self->figures, NULL);
      gtk_label_set_label (self->count, "");
      set_pending (self, FALSE);
      show_status (self, pending ? _("Indexing allocations…")
                                 : session != NULL && tm_session_get_memory_store (session) != NULL
                                 ? _("The allocations could not be read: the file changed on disk")
                                 : _("No memory id is shown"));
      return;
    }
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }
  self->dirty = FALSE;
  tm_snapshot_columns_apply (self->column_view, session, tm_allocations_get_store (allocations));
  set_snapshot_words (self, tm_profile_lookup_segments (tm_session_get_profile (session),
                                                        tm_allocations_get_store (allocations)) != NULL);

  viewport = tm_session_get_viewport (session);
  job = g_new0 (ListJob, 1);
  job->allocations = g_object_ref (allocations);
  job->shapes = g_object_get_data (G_OBJECT (allocations), TM_ALLOCATION_LIST_SHAPES_KEY);
  job->text = self->text != NULL && self->text[0] != '\0' ? g_strdup (self->text) : NULL;
  job->query.start_ps = tm_viewport_get_start (viewport);
  job->query.end_ps = tm_viewport_get_end (viewport);
  job->query.kind = self->kind;
  job->query.temporary_ps = tm_allocation_figures_get_temporary_ps (self->figures);
  job->query.text = job->text;
  job->query.sort = current_sort (self, &job->query.descending);
  job->started = g_get_monotonic_time ();

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, list_done, NULL);
  g_task_set_source_tag (task, refresh);
  g_task_set_name (task, "[tidemark] allocations list");
  g_task_set_task_data (task, job, (GDestroyNotify) list_job_free);
  g_task_run_in_thread (task, list_thread);
  set_pending (self, TRUE);
}

static gboolean
settled_cb (gpointer data)
{
  TmAllocationsView *self = data;

  self->settle_source = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

static void
range_changed_cb (TmAllocationsView *self)
{
  update_heading (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }
  g_clear_handle_id (&self->settle_source, g_source_remove);
  self->settle_source = g_timeout_add (RANGE_SETTLE_MS, settled_cb, self);
}

static void
search_changed_cb (TmAllocationsView *self)
{
  /* (Setting the entry's text empties it first, which it says at once.) */
  if (self->setting_entry)
    return;
  tm_allocations_view_set_filter_text (self, gtk_editable_get_text (GTK_EDITABLE (self->search)));
}

static void
kind_selected_cb (TmAllocationsView *self)
{
  if (self->setting_kinds)
    return;
  tm_allocations_view_set_kind (self, gtk_drop_down_get_selected (self->kind_dropdown));
}

static void
threshold_changed_cb (TmAllocationsView *self)
{
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEMPORARY_PS]);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
tm_allocations_view_map (GtkWidget *widget)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (widget);

  GTK_WIDGET_CLASS (tm_allocations_view_parent_class)->map (widget);
  if (self->dirty)
    refresh (self);
}

static void
tm_allocations_view_session_changed (TmView    *view,
                                     TmSession *old_session)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  g_signal_group_set_target (self->viewport_signals, session != NULL ? tm_session_get_viewport (session) : NULL);
  refresh (self);
}

static void
tm_allocations_view_dispose (GObject *object)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (object);

  g_clear_handle_id (&self->settle_source, g_source_remove);
  g_clear_handle_id (&self->scroll_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->allocations_signals);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->selection);
  g_clear_object (&self->list);
  g_clear_pointer (&self->stats, tm_alloc_stats_free);
  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (tm_allocations_view_parent_class)->dispose (object);
}

static void
tm_allocations_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_int (value, self->kind);
      break;
    case PROP_FILTER_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_TEMPORARY_PS:
      g_value_set_int64 (value, tm_allocations_view_get_temporary_ps (self));
      break;
    case PROP_PENDING:
      g_value_set_boolean (value, tm_allocations_view_get_pending (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_allocations_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TmAllocationsView *self = TM_ALLOCATIONS_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      tm_allocations_view_set_kind (self, g_value_get_int (value));
      break;
    case PROP_FILTER_TEXT:
      tm_allocations_view_set_filter_text (self, g_value_get_string (value));
      break;
    case PROP_TEMPORARY_PS:
      tm_allocations_view_set_temporary_ps (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_allocations_view_class_init (TmAllocationsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_allocations_view_dispose;
  object_class->get_property = tm_allocations_view_get_property;
  object_class->set_property = tm_allocations_view_set_property;
  widget_class->map = tm_allocations_view_map;
  view_class->session_changed = tm_allocations_view_session_changed;

  properties[PROP_KIND] =
    g_param_spec_int ("kind", NULL, NULL, TM_ALLOC_LIST_ALL, TM_ALLOC_LIST_SAME_STEP, TM_ALLOC_LIST_ALL,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILTER_TEXT] =
    g_param_spec_string ("filter-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEMPORARY_PS] =
    g_param_spec_int64 ("temporary-ps", NULL, NULL, 0, G_MAXINT64, TM_ALLOC_STATS_DEFAULT_TEMPORARY_PS,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PENDING] =
    g_param_spec_boolean ("pending", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "allocationsview");
}

static void
add_column (TmAllocationsView *self,
            TmAllocationCell   cell,
            const char        *title,
            int                fixed_width)
{
  g_autoptr(GtkColumnViewColumn) column = NULL;
  Probe *probe = g_new0 (Probe, 1);

  probe->view = self;
  probe->sort = TM_ALLOC_LIST_SORT_INDEX + 1 + cell;
  column = gtk_column_view_column_new (title, tm_allocation_cell_factory_new (cell));
  gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_custom_sorter_new (probe_compare, probe, g_free)));
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, cell == TM_ALLOCATION_CELL_OP);
  if (fixed_width > 0)
    gtk_column_view_column_set_fixed_width (column, fixed_width);
  gtk_column_view_append_column (self->column_view, column);
}

static void
tm_allocations_view_init (TmAllocationsView *self)
{
  const char *translated[G_N_ELEMENTS (kind_names) + 1] = { NULL };
  GtkWidget *header, *label, *scrolled, *status_box;

  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    translated[i] = _(kind_names[i]);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->heading = GTK_LABEL (gtk_label_new (_("Allocations")));
  gtk_label_set_xalign (self->heading, 0);
  gtk_label_set_ellipsize (self->heading, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "heading");
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->heading));
  self->count = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count), "dim-label");
  gtk_widget_set_hexpand (GTK_WIDGET (self->count), TRUE);
  gtk_label_set_xalign (self->count, 0);
  gtk_label_set_ellipsize (self->count, PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->count));
  self->busy = gtk_spinner_new ();
  gtk_spinner_start (GTK_SPINNER (self->busy));
  gtk_widget_set_tooltip_text (self->busy, _("Listing the allocations…"));
  gtk_widget_set_visible (self->busy, FALSE);
  gtk_box_append (GTK_BOX (header), self->busy);

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search, "placeholder-text", _("Filter allocations"), NULL);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->search), 16);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search),
                               _("Keep the allocations whose op, region, data type, shape or address (0x…) holds this text"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter allocations"), -1);
  g_signal_connect_swapped (self->search, "search-changed", G_CALLBACK (search_changed_cb), self);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->search));

  label = gtk_label_new_with_mnemonic (_("_Show"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (header), label);
  self->kind_dropdown = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (translated));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->kind_dropdown));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->kind_dropdown),
                               _("Every allocation, or only those never freed, the temporary ones, or those freed in the step that made them"));
  g_signal_connect_swapped (self->kind_dropdown, "notify::selected", G_CALLBACK (kind_selected_cb), self);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->kind_dropdown));
  gtk_box_append (GTK_BOX (self->box), header);

  self->figures = TM_ALLOCATION_FIGURES (tm_allocation_figures_new ());
  g_signal_connect_swapped (self->figures, "notify::temporary-ps", G_CALLBACK (threshold_changed_cb), self);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->figures));

  self->list = tm_allocation_list_new ();
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->list)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (g_object_ref (GTK_SELECTION_MODEL (self->selection))));
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Allocations"), -1);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (activate_cb), self);
  /* The op name takes the width first; narrow, the table scrolls sideways. */
  add_column (self, TM_ALLOCATION_CELL_OP, _("Op Name"), 240);
  add_column (self, TM_ALLOCATION_CELL_SIZE, _("Size"), 80);
  add_column (self, TM_ALLOCATION_CELL_REGION, _("Region"), 80);
  add_column (self, TM_ALLOCATION_CELL_DATA_TYPE, _("Data Type"), 90);
  add_column (self, TM_ALLOCATION_CELL_SHAPE, C_("column", "Shape"), 100);
  add_column (self, TM_ALLOCATION_CELL_ADDRESS, _("Address"), 125);
  add_column (self, TM_ALLOCATION_CELL_ALLOCATED_AT, _("Allocated At"), 130);
  add_column (self, TM_ALLOCATION_CELL_FREED_AT, _("Freed At"), 110);
  add_column (self, TM_ALLOCATION_CELL_LIFETIME, _("Lifetime"), 85);
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed",
                           G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->column_view));
  gtk_widget_set_size_request (scrolled, -1, 60);
  gtk_stack_add_named (self->stack, scrolled, "table");
  status_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->status), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_box_append (GTK_BOX (status_box), GTK_WIDGET (self->status));
  gtk_stack_add_named (self->stack, status_box, "status");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->stack));
  /* Shown, the tab puts the focus on the list, not in the filter entry
   * (which would take the zoom keys). */
  tm_view_set_first_focus (TM_VIEW (self), GTK_WIDGET (self->column_view));

  g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)), "notify::memory-store",
                                  G_CALLBACK (refresh), self);
  g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)), "notify::selected-allocation",
                                  G_CALLBACK (sync_selection), self);
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations", G_CALLBACK (refresh), self);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::pending", G_CALLBACK (refresh), self);
  self->viewport_signals = g_signal_group_new (TM_TYPE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (range_changed_cb), self);

  self->dirty = TRUE;
  refresh (self);
}

GtkWidget *
tm_allocations_view_new (void)
{
  return g_object_new (TM_TYPE_ALLOCATIONS_VIEW, NULL);
}

TmAllocListKind
tm_allocations_view_get_kind (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), TM_ALLOC_LIST_ALL);
  return self->kind;
}

void
tm_allocations_view_set_kind (TmAllocationsView *self,
                              TmAllocListKind    kind)
{
  g_return_if_fail (TM_IS_ALLOCATIONS_VIEW (self));
  g_return_if_fail (kind <= TM_ALLOC_LIST_SAME_STEP);

  if (self->kind == kind)
    return;
  self->kind = kind;
  gtk_drop_down_set_selected (self->kind_dropdown, kind);
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

const char *
tm_allocations_view_get_filter_text (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), NULL);
  return self->text;
}

void
tm_allocations_view_set_filter_text (TmAllocationsView *self,
                                     const char        *text)
{
  g_return_if_fail (TM_IS_ALLOCATIONS_VIEW (self));

  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search)), text != NULL ? text : "") != 0)
    {
      self->setting_entry = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->search), text != NULL ? text : "");
      self->setting_entry = FALSE;
    }
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTER_TEXT]);
}

gint64
tm_allocations_view_get_temporary_ps (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), 0);
  return tm_allocation_figures_get_temporary_ps (self->figures);
}

void
tm_allocations_view_set_temporary_ps (TmAllocationsView *self,
                                      gint64             temporary_ps)
{
  g_return_if_fail (TM_IS_ALLOCATIONS_VIEW (self));
  tm_allocation_figures_set_temporary_ps (self->figures, temporary_ps);
}

gboolean
tm_allocations_view_get_pending (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), FALSE);
  return self->cancellable != NULL || self->settle_source != 0 || self->dirty;
}

TmAllocationList *
tm_allocations_view_get_list (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), NULL);
  return self->list;
}

GtkColumnView *
tm_allocations_view_get_column_view (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), NULL);
  return self->column_view;
}

const TmAllocStats *
tm_allocations_view_get_stats (TmAllocationsView *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_VIEW (self), NULL);
  return self->stats;
}
