/* tm-breakdown-view.c — the table of allocations live at the peak or at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows (TmAllocationRow) live in a GListStore, filtered by op name and by
 * size (GtkEveryFilter over a GtkStringFilter and a GtkCustomFilter), then
 * sorted by the column view's sorter with the core's order as the tie
 * breaker, then selected with a GtkMultiSelection. The cells are
 * tm-breakdown-cells', so tens of thousands of rows scroll smoothly.
 */
#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "tm-allocation-row.h"
#include "tm-breakdown-cells.h"
#include "tm-breakdown-view.h"
#include "tm-snapshot-columns.h"
#include "tm-allocations-query.h"
#include "tm-format.h"
#include "tm-op-label.h"
#include "tm-static-selection.h"
#include "tm-wrap-box.h"

struct _TmBreakdownView
{
  GtkWidget            parent_instance;

  /* Template widgets */
  GtkLabel            *heading_label;
  GtkLabel            *count_label;
  GtkLabel            *total_label;
  GtkButton           *back_to_peak_button;
  GtkSearchEntry      *search_entry;
  GtkCheckButton      *hide_small_check;
  GtkStack            *table_stack;
  GtkScrolledWindow   *scroller;
  GtkColumnView       *column_view;
  GtkColumnViewColumn *allocation_column;
  GtkLabel            *empty_title;
  GtkLabel            *empty_description;

  GtkPopover          *context_menu;

  /* Models, from the rows to what the column view shows */
  GListStore          *rows;
  GtkStringFilter     *op_filter;
  GtkCustomFilter     *size_filter;
  GtkCustomFilter     *never_freed_filter;
  GtkCheckButton      *never_freed_check;
  GtkFilterListModel  *filter_model;
  GtkSortListModel    *sort_model;
  GtkMultiSelection   *selection;

  /* What the rows show: the session's memory store at time_ps (the peak
   * when at_peak). */
  TmMemoryStore       *store;
  gint64               time_ps;
  /* On the session's allocations query: the never-freed filter. */
  GSignalGroup        *allocations_signals;

  /* The op column takes the width first (fit_columns): the other
   * columns' widths from the template, and those last given them (a
   * column whose width differs was resized by the user, and is left). */
  int                  natural_widths[TM_BREAKDOWN_N_CELLS];
  int                  given_widths[TM_BREAKDOWN_N_CELLS];
  int                  fitted_width;
  guint                fit_source;

  guint                at_peak : 1;
  guint                hide_small : 1;
  guint                syncing_selection : 1;
};

G_DEFINE_FINAL_TYPE (TmBreakdownView, tm_breakdown_view, TM_TYPE_VIEW)

enum {
  PROP_0,
  PROP_AT_PEAK,
  PROP_TIME_PS,
  PROP_HIDE_SMALL,
  N_PROPS
};

enum {
  ALLOCATION_ACTIVATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void session_changed_cb (TmBreakdownView *self,
                                GParamSpec      *pspec,
                                TmSession       *session);

/* ------------------------------------------------------------------ */
/* Filtering, counts, headings                                         */

static gboolean
size_filter_func (gpointer item,
                  gpointer user_data)
{
  TmBreakdownView *self = user_data;
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  const TmScope *scope = session != NULL ? tm_session_get_selected_scope (session) : NULL;

  /* The selected scope (tm-scopes) keeps only its rows. */
  if (scope != NULL &&
      !tm_scope_contains (scope, tm_allocation_row_get_special (item), tm_allocation_row_get_op_name (item),
                          tm_allocation_row_get_region_type (item), tm_allocation_row_get_data_type (item),
                          tm_allocation_row_get_shape (item)))
    return FALSE;

  if (!self->hide_small)
    return TRUE;

  return tm_allocation_row_get_allocation_bytes (item) >= TM_BREAKDOWN_SMALL_BYTES;
}

static void
tm_breakdown_view_update_counts (TmBreakdownView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint n_total = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  g_autofree char *total = tm_format_count (n_total);
  g_autofree char *text = NULL;

  if (n_shown == n_total)
    {
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row", "%s rows", n_total), total);
    }
  else
    {
      g_autofree char *shown = tm_format_count (n_shown);

      /* Translators: "317 of 555 rows" */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s row", "%s of %s rows", n_total),
                              shown, total);
    }

  gtk_label_set_label (self->count_label, text);

  if (n_shown > 0)
    {
      gtk_stack_set_visible_child_name (self->table_stack, "table");
      return;
    }

  if (n_total == 0)
    {
      if (self->store == NULL)
        {
          gtk_label_set_label (self->empty_title, _("No Memory ID Selected"));
          gtk_label_set_label (self->empty_description, _("Open a profile to see which allocations are live."));
        }
      else
        {
          gtk_label_set_label (self->empty_title, _("Nothing Allocated"));
          gtk_label_set_label (self->empty_description,
                               self->at_peak
                               ? _("No allocation of this memory id was live at the peak.")
                               : _("No allocation of this memory id was live at this time."));
        }
    }
  else
    {
      const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
      g_autofree char *description = NULL;

      gtk_label_set_label (self->empty_title, _("No Matching Allocations"));

      if (gtk_check_button_get_active (self->never_freed_check) && session != NULL &&
          tm_allocations_query_get_pending (tm_allocations_query_get_for_session (session)))
        {
          gtk_label_set_label (self->empty_title, _("Indexing Allocations…"));
          description = g_strdup (_("The allocations never freed show here in a moment, once every allocation "
                                    "of this memory id is indexed."));
        }
      else if (gtk_check_button_get_active (self->never_freed_check) && search[0] == '\0')
        description = g_strdup (self->hide_small
                                ? _("No allocation here of 1 MiB or more is still live at the end of the profile.")
                                : _("No allocation here is still live at the end of the profile."));
      else if (search[0] != '\0')
        description = tm_snapshot_columns_describe_no_match (session, self->store, self->hide_small, search);
      else
        description = g_strdup (_("Every allocation here is smaller than 1 MiB. Turn off “Hide allocations under 1 MiB” to see them."));

      gtk_label_set_label (self->empty_description, description);
    }

  gtk_stack_set_visible_child_name (self->table_stack, "empty");
}

/* What the rows add up to, and, when that is not the memory in use at the
 * time shown, by how much: XProf's peak table leaves out bytes its
 * accounting cannot place (docs/analysis.md, "When the table does not add
 * up"), and says nothing of it. */
static void
tm_breakdown_view_update_total (TmBreakdownView *self,
                                GPtrArray       *rows)
{
  g_autofree char *total_text = NULL;
  g_autofree char *text = NULL;
  g_autofree char *tooltip = NULL;
  gint64 total, in_use;

  if (self->store == NULL || rows == NULL || tm_memory_store_get_n_snapshots (self->store) == 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->total_label), FALSE);
      return;
    }

  total = tm_analysis_rows_bytes (rows);
  if (self->at_peak)
    in_use = tm_memory_store_get_summary (self->store)->peak_bytes_in_use;
  else if (self->time_ps < tm_memory_store_get_summary (self->store)->first_time_ps)
    in_use = 0;
  else
    {
      guint i = tm_memory_store_find_at_or_before (self->store, self->time_ps);

      in_use = tm_sat_add (tm_memory_store_get_stack (self->store)[i], tm_memory_store_get_heap (self->store)[i]);
    }

  total_text = tm_format_bytes (total);
  gtk_widget_remove_css_class (GTK_WIDGET (self->total_label), "dim-label");
  if (total == in_use)
    {
      g_autofree char *exact = tm_format_bytes_exact (total);

      /* Translators: after the table's row count; %s is a size */
      text = g_strdup_printf (_("%s in all rows"), total_text);
      /* Translators: tooltip of the table's total; %s is an exact size */
      tooltip = g_strdup_printf (_("The rows add up to the memory in use: %s."), exact);
      gtk_widget_add_css_class (GTK_WIDGET (self->total_label), "dim-label");
    }
  else
    {
      g_autofree char *gap = tm_format_bytes (total < in_use ? tm_sat_sub (in_use, total) : tm_sat_sub (total, in_use));
      g_autofree char *exact_total = tm_format_bytes_exact (total);
      g_autofree char *exact_in_use = tm_format_bytes_exact (in_use);

      text = g_strdup_printf (total < in_use
                              /* Translators: after the table's row count: the rows' total, then how much less it is */
                              ? _("%s in all rows, %s less than in use")
                              /* Translators: after the table's row count: the rows' total, then how much more it is */
                              : _("%s in all rows, %s more than in use"),
                              total_text, gap);
      /* Translators: tooltip of the table's total when it does not add up;
       * the rows' exact total, then the memory in use */
      tooltip = g_strdup_printf (_("The rows add up to %s, the memory in use is %s. XProf’s table at the peak "
                                   "leaves out what its accounting cannot place (an allocation at an address "
                                   "allocated again before it was freed, or heap beyond what the listed "
                                   "allocations hold), and this table keeps XProf’s rows."),
                                 exact_total, exact_in_use);
    }
  gtk_label_set_label (self->total_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->total_label), tooltip);
  gtk_widget_set_visible (GTK_WIDGET (self->total_label), TRUE);
}

static void
tm_breakdown_view_update_heading (TmBreakdownView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  g_autofree char *heading = NULL;

  if (self->store == NULL)
    {
      heading = g_strdup (_("Live Allocations"));
    }
  else
    {
      g_autofree char *time = tm_format_time_ms (self->time_ps);

      if (self->at_peak)
        /* Translators: heading of the table; %s is a time such as "1 938.413 ms" */
        heading = g_strdup_printf (_("Live at peak — %s"), time);
      else
        /* Translators: heading of the table; %s is a time such as "1 234.567 ms" */
        heading = g_strdup_printf (_("Live at %s"), time);
    }

  if (session != NULL && tm_session_get_selected_scope (session) != NULL)
    {
      g_autofree char *path = g_strjoinv (" / ", tm_session_get_selected_scope (session)->parts);
      char *with_scope;

      /* Translators: the table's heading, then the selected scope, such as
       * "Live at peak — 1 938.413 ms, in replica_6 / bert" */
      with_scope = g_strdup_printf (_("%s, in %s"), heading, path);
      g_free (heading);
      heading = with_scope;
    }

  gtk_label_set_label (self->heading_label, heading);
  gtk_widget_set_visible (GTK_WIDGET (self->back_to_peak_button),
                          self->store != NULL && !self->at_peak);
}

static void
filter_items_changed_cb (TmBreakdownView *self,
                         guint            position,
                         guint            removed,
                         guint            added,
                         GListModel      *model)
{
  tm_breakdown_view_update_counts (self);
}

/* The allocation a row references in the session's allocation index. */
static guint
row_allocation (TmBreakdownView *self,
                TmAllocationRow *row)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = session != NULL ? tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)) : NULL;
  guint snapshot = tm_allocation_row_get_snapshot_index (row);

  if (allocations == NULL || tm_allocation_row_get_special (row) || snapshot == G_MAXUINT)
    return TM_ALLOCATIONS_NONE;
  return tm_allocations_find_by_snapshot (allocations, snapshot);
}

/* "Never freed": rows whose allocation is still live at the end. */
static gboolean
never_freed_filter_func (gpointer item,
                         gpointer user_data)
{
  TmBreakdownView *self = user_data;
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  guint index;

  if (!gtk_check_button_get_active (self->never_freed_check))
    return TRUE;
  index = row_allocation (self, item);
  return index != TM_ALLOCATIONS_NONE &&
         tm_allocations_get (tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session)), index)->end == TM_ALLOCATIONS_OPEN;
}

/* The allocation index arrived (or is awaited): the never-freed filter
 * can tell rows apart only from then on. */
static void
allocations_changed_cb (TmBreakdownView *self)
{
  if (gtk_check_button_get_active (self->never_freed_check))
    gtk_filter_changed (GTK_FILTER (self->never_freed_filter), GTK_FILTER_CHANGE_DIFFERENT);
  tm_breakdown_view_update_counts (self);
}

static void
never_freed_toggled_cb (TmBreakdownView *self,
                        GtkCheckButton  *check)
{
  gtk_filter_changed (GTK_FILTER (self->never_freed_filter),
                      gtk_check_button_get_active (check) ? GTK_FILTER_CHANGE_MORE_STRICT : GTK_FILTER_CHANGE_LESS_STRICT);
  tm_breakdown_view_update_counts (self);
}

/* The one row selected (NULL: none, or several). */
static TmAllocationRow *
dup_selected_row (TmBreakdownView *self)
{
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));

  return gtk_bitset_get_size (set) != 1 ? NULL
         : g_list_model_get_item (G_LIST_MODEL (self->sort_model), gtk_bitset_get_nth (set, 0));
}

static void
selection_changed_cb (TmBreakdownView   *self,
                      guint              position,
                      guint              n_items,
                      GtkSelectionModel *selection)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (selection);
  g_autoptr(TmAllocationRow) row = dup_selected_row (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "breakdown.copy", !gtk_bitset_is_empty (set));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "breakdown.show-buffers",
                                 tm_static_selection_can_show_op (session, row != NULL ? tm_allocation_row_get_named_op (row) : NULL));

  /* One row picked by the user selects its allocation (memory map). */
  if (!self->syncing_selection && session != NULL && row != NULL && row_allocation (self, row) != TM_ALLOCATIONS_NONE)
    {
      self->syncing_selection = TRUE;
      tm_session_select_allocation (session, row_allocation (self, row));
      self->syncing_selection = FALSE;
    }
}

/* The session's selected allocation, when it is live at the shown time,
 * selects its row: the row with its op, sizes, region, data type and
 * shape (rows merge allocations equal in these). */
static void
selected_allocation_changed_cb (TmBreakdownView *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmAllocations *allocations = tm_allocations_query_get_allocations (tm_allocations_query_get_for_session (session));
  guint index = tm_session_get_selected_allocation (session);
  GListModel *model = G_LIST_MODEL (self->sort_model);
  gint64 t = tm_session_get_shown_time (session);
  TmActivity act;
  guint found = GTK_INVALID_LIST_POSITION;

  if (self->syncing_selection || allocations == NULL || index == TM_ALLOCATIONS_NONE ||
      tm_allocations_get_start_time (allocations, index) > t ||
      (tm_allocations_get (allocations, index)->end != TM_ALLOCATIONS_OPEN &&
       tm_allocations_get_end_time (allocations, index) <= t))
    return;
  if (!tm_memory_store_get_activity (tm_allocations_get_store (allocations),
                                     tm_allocations_get_event (allocations, index), &act, NULL))
    return;

  for (guint i = 0; i < g_list_model_get_n_items (model) && found == GTK_INVALID_LIST_POSITION; i++)
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (model, i);

      if (row_allocation (self, row) == index ||
          (!tm_allocation_row_get_special (row) &&
           tm_allocation_row_get_allocation_bytes (row) == act.allocation_bytes &&
           tm_allocation_row_get_requested_bytes (row) == act.requested_bytes &&
           g_str_equal (tm_allocation_row_get_op_name (row), act.op_name) &&
           g_str_equal (tm_allocation_row_get_region_type (row), act.region_type) &&
           g_str_equal (tm_allocation_row_get_data_type (row), act.data_type) &&
           g_str_equal (tm_allocation_row_get_shape (row), act.shape)))
        found = i;
    }
  tm_activity_clear (&act);

  if (found == GTK_INVALID_LIST_POSITION)
    return;
  self->syncing_selection = TRUE;
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), found, TRUE);
  /* The column view's list scrolls to it (GTK 4.8 has no scroll_to). */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", found);
  self->syncing_selection = FALSE;
}

static void
search_changed_cb (TmBreakdownView *self,
                   GtkSearchEntry  *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  gtk_string_filter_set_search (self->op_filter, text[0] ? text : NULL);
  tm_breakdown_view_update_counts (self);
}

static void
stop_search_cb (TmBreakdownView *self,
                GtkSearchEntry  *entry)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_string_filter_set_search (self->op_filter, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
}

static void
back_to_peak_clicked_cb (TmBreakdownView *self,
                         GtkButton       *button)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  if (session != NULL)
    tm_session_clear_selected_time (session);
}

static void
column_view_activate_cb (TmBreakdownView *self,
                         guint            position,
                         GtkColumnView   *column_view)
{
  g_autoptr(TmAllocationRow) row = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);

  if (row != NULL)
    g_signal_emit (self, signals[ALLOCATION_ACTIVATED], 0, row);
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */

/* Shows the table from its first row. A list keeps the row it showed at
 * its top when rows come in above it, the scrollbar still at the top:
 * after the scope filter changed the largest row would be out of sight.
 * The list starts again from its top when it gets its model again (its
 * scroll-to-item warns when the rows are not measured yet, as when the
 * table is not shown). */
static void
scroll_to_top (TmBreakdownView *self)
{
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (self->scroller);

  gtk_adjustment_set_value (vadj, gtk_adjustment_get_lower (vadj));
  self->syncing_selection = TRUE;
  gtk_column_view_set_model (self->column_view, NULL);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->syncing_selection = FALSE;
}

static void
tm_breakdown_view_set_rows (TmBreakdownView *self,
                            GPtrArray       *rows)
{
  g_autoptr(GPtrArray) items = NULL;
  GtkAdjustment *vadj;
  guint n_old;

  items = g_ptr_array_new_full (rows ? rows->len : 0, g_object_unref);
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    g_ptr_array_add (items, tm_allocation_row_new (g_ptr_array_index (rows, i), i));

  n_old = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_list_store_splice (self->rows, 0, n_old, items->pdata, items->len);

  vadj = gtk_scrolled_window_get_vadjustment (self->scroller);
  gtk_adjustment_set_value (vadj, gtk_adjustment_get_lower (vadj));

  tm_breakdown_view_update_counts (self);
}

static void
tm_breakdown_view_set_at_peak (TmBreakdownView *self,
                               gboolean         at_peak,
                               gint64           time_ps)
{
  gboolean changed_peak = !!self->at_peak != !!at_peak;
  gboolean changed_time = self->time_ps != time_ps;

  self->at_peak = !!at_peak;
  self->time_ps = time_ps;

  tm_breakdown_view_update_heading (self);

  if (changed_peak)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AT_PEAK]);
  if (changed_time)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_PS]);
}

/* Shows what the session says: the rows of its memory store at its
 * selected time, or at the peak without one. Only rebuilds the rows when
 * one of these changed. */
static void
session_changed_cb (TmBreakdownView *self,
                    GParamSpec      *pspec,
                    TmSession       *session)
{
  TmMemoryStore *store = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  gboolean at_peak = TRUE;
  gint64 time_ps = 0;

  if (session != NULL)
    {
      store = tm_session_get_memory_store (session);
      at_peak = !tm_session_get_has_selected_time (session);
      time_ps = tm_session_get_shown_time (session);
    }

  if (store == self->store && !!at_peak == !!self->at_peak && time_ps == self->time_ps &&
      pspec != NULL)
    return;

  g_set_object (&self->store, store);
  tm_snapshot_columns_apply_search (GTK_EDITABLE (self->search_entry),
                                    tm_snapshot_columns_apply (self->column_view, session, store));
  if (store != NULL)
    rows = at_peak ? g_ptr_array_ref (tm_analysis_get_peak_breakdown (tm_session_get_analysis (session)))
                   : tm_analysis_breakdown_at (store, time_ps);
  tm_breakdown_view_set_rows (self, rows);

  tm_breakdown_view_set_at_peak (self, at_peak, time_ps);
  tm_breakdown_view_update_total (self, rows);
  if (session != NULL)
    selected_allocation_changed_cb (self);
}

/* ------------------------------------------------------------------ */
/* Copy and the context menu                                           */

char *
tm_breakdown_view_get_selection_tsv (TmBreakdownView *self)
{
  g_autoptr(GtkBitset) set = NULL;
  GtkBitsetIter iter;
  GString *str;
  guint position;

  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), NULL);

  set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_is_empty (set))
    return NULL;

  str = g_string_new (NULL);
  /* Translators: the header line of rows copied as tab-separated values */
  g_string_append (str, _("Op name\tAllocation bytes\tRequested bytes\tOccurrences\tRegion type\tData type\tShape"));
  g_string_append_c (str, '\n');

  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &position);
       ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (G_LIST_MODEL (self->sort_model), position);
      g_autofree char *line = NULL;

      if (row == NULL)
        continue;

      line = tm_allocation_row_to_tsv (row);
      g_string_append (str, line);
      g_string_append_c (str, '\n');
    }

  return g_string_free (str, FALSE);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  TmBreakdownView *self = TM_BREAKDOWN_VIEW (widget);
  g_autofree char *tsv = tm_breakdown_view_get_selection_tsv (self);

  if (tsv != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), tsv);
}

static void
show_buffers_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  g_autoptr(TmAllocationRow) row = dup_selected_row (TM_BREAKDOWN_VIEW (widget));
  TmSession *session = tm_view_get_session (TM_VIEW (widget));

  /* Op's buffers in the compiler's plans (docs/ui.md, "Memory Viewer"). */
  if (session != NULL && row != NULL && tm_allocation_row_get_named_op (row) != NULL)
    tm_static_selection_show_op (widget, session, tm_allocation_row_get_named_op (row));
}

static void
select_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  TmBreakdownView *self = TM_BREAKDOWN_VIEW (widget);

  gtk_selection_model_select_all (GTK_SELECTION_MODEL (self->selection));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  tm_breakdown_view_focus_search (TM_BREAKDOWN_VIEW (widget));
}

static void
context_click_pressed_cb (TmBreakdownView *self,
                          int              n_press,
                          double           x,
                          double           y,
                          GtkGestureClick *gesture)
{
  GtkWidget *column_view = GTK_WIDGET (self->column_view);
  GtkWidget *picked = gtk_widget_pick (column_view, x, y, GTK_PICK_DEFAULT);
  GtkListItem *list_item = tm_breakdown_cell_find_item (picked, column_view);
  graphene_point_t point;

  if (list_item != NULL && gtk_list_item_get_item (list_item) != NULL)
    {
      guint position = gtk_list_item_get_position (list_item);

      if (!gtk_selection_model_is_selected (GTK_SELECTION_MODEL (self->selection), position))
        gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
    }

  if (!gtk_widget_compute_point (column_view, GTK_WIDGET (self),
                                 &GRAPHENE_POINT_INIT (x, y), &point))
    return;

  gtk_popover_set_pointing_to (self->context_menu,
                               &(GdkRectangle) { (int) point.x, (int) point.y, 1, 1 });
  gtk_popover_popup (self->context_menu);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
tm_breakdown_view_dispose (GObject *object)
{
  TmBreakdownView *self = (TmBreakdownView *)object;
  GtkWidget *child;

  g_clear_pointer ((GtkWidget **) &self->context_menu, gtk_widget_unparent);
  g_clear_handle_id (&self->fit_source, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), TM_TYPE_BREAKDOWN_VIEW);

  /* Children without a bound template id are ours to unparent. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->op_filter);
  g_clear_object (&self->size_filter);
  g_clear_object (&self->never_freed_filter);
  g_clear_object (&self->rows);
  g_clear_object (&self->store);
  g_clear_object (&self->allocations_signals);

  G_OBJECT_CLASS (tm_breakdown_view_parent_class)->dispose (object);
}

/* The op column takes the width first (docs/ui.md, "Layout"). */
static gboolean
fit_columns (gpointer data)
{
  TmBreakdownView *self = data;

  self->fit_source = 0;
  self->fitted_width = gtk_widget_get_width (GTK_WIDGET (self->scroller));
  tm_op_label_share_width (self->column_view, self->fitted_width - 2, self->natural_widths, self->given_widths);
  return G_SOURCE_REMOVE;
}

/* The table's width changed (the scroller's page): fit the columns. */
static void
table_width_changed_cb (TmBreakdownView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self->scroller));

  if (width != self->fitted_width && self->fit_source == 0)
    self->fit_source = g_idle_add (fit_columns, self);
}

static void
tm_breakdown_view_size_allocate (GtkWidget *widget,
                                 int        width,
                                 int        height,
                                 int        baseline)
{
  TmBreakdownView *self = TM_BREAKDOWN_VIEW (widget);

  GTK_WIDGET_CLASS (tm_breakdown_view_parent_class)->size_allocate (widget, width, height, baseline);


  if (self->context_menu != NULL)
    gtk_popover_present (self->context_menu);
}

static void
tm_breakdown_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TmBreakdownView *self = TM_BREAKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_AT_PEAK:
      g_value_set_boolean (value, self->at_peak);
      break;

    case PROP_TIME_PS:
      g_value_set_int64 (value, self->time_ps);
      break;

    case PROP_HIDE_SMALL:
      g_value_set_boolean (value, self->hide_small);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_breakdown_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TmBreakdownView *self = TM_BREAKDOWN_VIEW (object);

  switch (prop_id)
    {
    case PROP_HIDE_SMALL:
      tm_breakdown_view_set_hide_small (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
selected_scope_changed_cb (TmBreakdownView *self)
{
  gtk_filter_changed (GTK_FILTER (self->size_filter), GTK_FILTER_CHANGE_DIFFERENT);
  scroll_to_top (self);
  tm_breakdown_view_update_heading (self);
}

static void
tm_breakdown_view_session_changed (TmView    *view,
                                   TmSession *old_session)
{
  TmBreakdownView *self = TM_BREAKDOWN_VIEW (view);
  TmSession *session = tm_view_get_session (view);

  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  session_changed_cb (self, NULL, session);
}

static void
tm_breakdown_view_class_init (TmBreakdownViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_breakdown_view_dispose;
  object_class->get_property = tm_breakdown_view_get_property;
  object_class->set_property = tm_breakdown_view_set_property;

  widget_class->size_allocate = tm_breakdown_view_size_allocate;
  /* The session: whose memory store the table shows, the allocations
   * live at its selected time, or at the peak without one. */
  view_class->session_changed = tm_breakdown_view_session_changed;

  properties[PROP_AT_PEAK] =
    g_param_spec_boolean ("at-peak", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIME_PS] =
    g_param_spec_int64 ("time-ps", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_HIDE_SMALL] =
    g_param_spec_boolean ("hide-small", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TmBreakdownView::allocation-activated:
   * @row: the TmAllocationRow
   *
   * A row was activated (double-click or Enter).
   */
  signals[ALLOCATION_ACTIVATED] =
    g_signal_new ("allocation-activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TM_TYPE_ALLOCATION_ROW);

  g_type_ensure (TM_TYPE_ALLOCATION_ROW);
  g_type_ensure (TM_TYPE_WRAP_BOX);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PREFIX "/tm-breakdown-view.ui");
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, heading_label);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, count_label);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, back_to_peak_button);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, hide_small_check);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, table_stack);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, scroller);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, column_view);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, allocation_column);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, empty_title);
  gtk_widget_class_bind_template_child (widget_class, TmBreakdownView, empty_description);
  gtk_widget_class_install_action (widget_class, "breakdown.fit-op-column", NULL, tm_op_label_fit_action);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, back_to_peak_clicked_cb);

  gtk_widget_class_install_action (widget_class, "breakdown.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "breakdown.select-all", NULL, select_all_action);
  gtk_widget_class_install_action (widget_class, "breakdown.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "breakdown.show-buffers", NULL, show_buffers_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "breakdown.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Insert, GDK_CONTROL_MASK, "breakdown.copy", NULL);

  gtk_widget_class_set_css_name (widget_class, "tmbreakdownview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tm_breakdown_view_init (TmBreakdownView *self)
{
  g_autoptr(GtkEveryFilter) filter = NULL;
  g_autoptr(GtkMultiSorter) sorter = NULL;
  g_autoptr(GMenu) menu = NULL;
  GSignalGroup *session_signals;
  GtkGesture *click;
  GtkSorter *index_sorter;

  self->at_peak = TRUE;
  self->hide_small = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  session_signals = tm_view_get_session_signals (TM_VIEW (self));
  g_signal_group_connect_swapped (session_signals, "notify::memory-store",
                                  G_CALLBACK (session_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::has-selected-time",
                                  G_CALLBACK (session_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-time",
                                  G_CALLBACK (session_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-scope",
                                  G_CALLBACK (selected_scope_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-allocation",
                                  G_CALLBACK (selected_allocation_changed_cb), self);
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations",
                                  G_CALLBACK (allocations_changed_cb), self);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::pending",
                                  G_CALLBACK (allocations_changed_cb), self);

  /* The columns, in the template's order, are the cells' order. */
  {
    GListModel *columns = gtk_column_view_get_columns (self->column_view);

    g_assert (g_list_model_get_n_items (columns) == TM_BREAKDOWN_N_CELLS);
    for (guint i = 0; i < TM_BREAKDOWN_N_CELLS; i++)
      {
        g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
        g_autoptr(GtkListItemFactory) factory = tm_breakdown_cell_factory_new (i);

        gtk_column_view_column_set_factory (column, factory);
        self->natural_widths[i] = self->given_widths[i] = gtk_column_view_column_get_fixed_width (column);
      }
  }

  self->rows = g_list_store_new (TM_TYPE_ALLOCATION_ROW);

  self->never_freed_check = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("_Never freed")));
  gtk_widget_set_valign (GTK_WIDGET (self->never_freed_check), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->never_freed_check),
                               _("Show only allocations still live at the end of the profile"));
  gtk_widget_insert_before (GTK_WIDGET (self->never_freed_check),
                            gtk_widget_get_parent (GTK_WIDGET (self->hide_small_check)),
                            GTK_WIDGET (self->hide_small_check));
  g_signal_connect_object (self->never_freed_check, "toggled",
                           G_CALLBACK (never_freed_toggled_cb), self, G_CONNECT_SWAPPED);

  /* What the rows add up to, beside their count. */
  self->total_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->total_label, 0.0f);
  gtk_label_set_ellipsize (self->total_label, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->total_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->total_label), "tm-numeric");
  gtk_widget_set_visible (GTK_WIDGET (self->total_label), FALSE);
  gtk_widget_insert_after (GTK_WIDGET (self->total_label), gtk_widget_get_parent (GTK_WIDGET (self->count_label)),
                           GTK_WIDGET (self->count_label));

  /* The name as shown: translated special rows, "unknown". */
  self->op_filter = gtk_string_filter_new (gtk_property_expression_new (TM_TYPE_ALLOCATION_ROW, NULL, "display-name"));
  gtk_string_filter_set_match_mode (self->op_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  gtk_string_filter_set_ignore_case (self->op_filter, TRUE);
  self->size_filter = gtk_custom_filter_new (size_filter_func, self, NULL);
  self->never_freed_filter = gtk_custom_filter_new (never_freed_filter_func, self, NULL);

  filter = gtk_every_filter_new ();
  gtk_multi_filter_append (GTK_MULTI_FILTER (filter), g_object_ref (GTK_FILTER (self->op_filter)));
  gtk_multi_filter_append (GTK_MULTI_FILTER (filter), g_object_ref (GTK_FILTER (self->size_filter)));
  gtk_multi_filter_append (GTK_MULTI_FILTER (filter), g_object_ref (GTK_FILTER (self->never_freed_filter)));

  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)),
                                                  GTK_FILTER (g_steal_pointer (&filter)));
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (filter_items_changed_cb), self, G_CONNECT_SWAPPED);

  /* The column the user picked, then the core's order (stable ties). */
  sorter = gtk_multi_sorter_new ();
  gtk_multi_sorter_append (sorter, g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  index_sorter = GTK_SORTER (gtk_numeric_sorter_new (gtk_property_expression_new (TM_TYPE_ALLOCATION_ROW, NULL, "index")));
  gtk_multi_sorter_append (sorter, index_sorter);

  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filter_model)),
                                              GTK_SORTER (g_steal_pointer (&sorter)));
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (selection_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (gtk_scrolled_window_get_hadjustment (self->scroller), "notify::page-size",
                           G_CALLBACK (table_width_changed_cb), self, G_CONNECT_SWAPPED);
  gtk_column_view_sort_by_column (self->column_view, self->allocation_column, GTK_SORT_DESCENDING);
  g_signal_connect_object (self->column_view, "activate",
                           G_CALLBACK (column_view_activate_cb), self, G_CONNECT_SWAPPED);

  g_object_bind_property (self, "hide-small", self->hide_small_check, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);

  /* No type-to-filter: keys typed in the table ("+" zooms the timeline)
   * stay out of the filter; Ctrl+F goes to it. */

  menu = g_menu_new ();
  g_menu_append (menu, _("_Copy"), "breakdown.copy");
  g_menu_append (menu, _("Select _All"), "breakdown.select-all");
  g_menu_append (menu, _("Show _Buffers in the Memory Viewer"), "breakdown.show-buffers");
  self->context_menu = GTK_POPOVER (gtk_popover_menu_new_from_model (G_MENU_MODEL (menu)));
  gtk_popover_set_has_arrow (self->context_menu, FALSE);
  gtk_widget_set_halign (GTK_WIDGET (self->context_menu), GTK_ALIGN_START);
  gtk_widget_set_parent (GTK_WIDGET (self->context_menu), GTK_WIDGET (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed",
                           G_CALLBACK (context_click_pressed_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->column_view), GTK_EVENT_CONTROLLER (click));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "breakdown.copy", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "breakdown.show-buffers", FALSE);

  tm_breakdown_view_update_heading (self);
  tm_breakdown_view_update_counts (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
tm_breakdown_view_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_BREAKDOWN_VIEW,
                       "session", session,
                       NULL);
}

gboolean
tm_breakdown_view_get_at_peak (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), TRUE);

  return self->at_peak;
}

gint64
tm_breakdown_view_get_time_ps (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), 0);

  return self->time_ps;
}

gboolean
tm_breakdown_view_get_hide_small (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), TRUE);

  return self->hide_small;
}

void
tm_breakdown_view_set_hide_small (TmBreakdownView *self,
                                  gboolean         hide_small)
{
  g_return_if_fail (TM_IS_BREAKDOWN_VIEW (self));

  hide_small = !!hide_small;
  if (self->hide_small == hide_small)
    return;

  self->hide_small = hide_small;
  gtk_filter_changed (GTK_FILTER (self->size_filter),
                      hide_small ? GTK_FILTER_CHANGE_MORE_STRICT : GTK_FILTER_CHANGE_LESS_STRICT);
  tm_breakdown_view_update_counts (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_SMALL]);
}

const char *
tm_breakdown_view_get_filter_text (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
}

void
tm_breakdown_view_set_filter_text (TmBreakdownView *self,
                                   const char      *text)
{
  g_return_if_fail (TM_IS_BREAKDOWN_VIEW (self));

  if (text == NULL)
    text = "";

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  gtk_string_filter_set_search (self->op_filter, text[0] ? text : NULL);
  tm_breakdown_view_update_counts (self);
}

gboolean
tm_breakdown_view_get_never_freed (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), FALSE);

  return gtk_check_button_get_active (self->never_freed_check);
}

/* Shows only the rows still live at the end of the profile, or all. */
void
tm_breakdown_view_set_never_freed (TmBreakdownView *self,
                                   gboolean         never_freed)
{
  g_return_if_fail (TM_IS_BREAKDOWN_VIEW (self));

  gtk_check_button_set_active (self->never_freed_check, never_freed);
}

void
tm_breakdown_view_focus_search (TmBreakdownView *self)
{
  g_return_if_fail (TM_IS_BREAKDOWN_VIEW (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}

GListModel *
tm_breakdown_view_get_model (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), NULL);

  return G_LIST_MODEL (self->sort_model);
}

GPtrArray *
tm_breakdown_view_dup_shown_rows (TmBreakdownView *self)
{
  GListModel *model;
  GPtrArray *rows;
  guint n;

  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), NULL);

  model = G_LIST_MODEL (self->sort_model);
  n = g_list_model_get_n_items (model);
  rows = g_ptr_array_new_full (n, (GDestroyNotify) tm_breakdown_row_free);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TmAllocationRow) row = g_list_model_get_item (model, i);

      g_ptr_array_add (rows, tm_allocation_row_dup_row (row));
    }
  return rows;
}

guint
tm_breakdown_view_get_n_rows (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->rows));
}

GtkColumnView *
tm_breakdown_view_get_column_view (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), NULL);

  return self->column_view;
}

GtkSelectionModel *
tm_breakdown_view_get_selection (TmBreakdownView *self)
{
  g_return_val_if_fail (TM_IS_BREAKDOWN_VIEW (self), NULL);

  return GTK_SELECTION_MODEL (self->selection);
}
