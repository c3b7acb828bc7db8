/* tm-run-overview.c — the run overview: every host and memory id of a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-run.h"
#include "tm-run-overview.h"

/* ------------------------------------------------------------------ */
/* Rows                                                                */

struct _TmRunRow
{
  GObject             parent_instance;

  TmRunLoader        *run;      /* keeps the summary alive */
  guint               host_index;
  const TmRunDevice  *device;   /* in the run's summary, or NULL */
  gboolean            busiest;
};

G_DEFINE_FINAL_TYPE (TmRunRow, tm_run_row, G_TYPE_OBJECT)

static void
tm_run_row_dispose (GObject *object)
{
  g_clear_object (&TM_RUN_ROW (object)->run);

  G_OBJECT_CLASS (tm_run_row_parent_class)->dispose (object);
}

static void
tm_run_row_class_init (TmRunRowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tm_run_row_dispose;
}

static void
tm_run_row_init (TmRunRow *self)
{
}

static TmRunRow *
tm_run_row_new (TmRunLoader       *run,
                guint              host_index,
                const TmRunDevice *device)
{
  TmRunRow *self = g_object_new (TM_TYPE_RUN_ROW, NULL);

  self->run = g_object_ref (run);
  self->host_index = host_index;
  self->device = device;
  return self;
}

guint
tm_run_row_get_host_index (TmRunRow *self)
{
  g_return_val_if_fail (TM_IS_RUN_ROW (self), 0);

  return self->host_index;
}

const char *
tm_run_row_get_host (TmRunRow *self)
{
  g_return_val_if_fail (TM_IS_RUN_ROW (self), NULL);

  return tm_run_loader_get_host_name (self->run, self->host_index);
}

const TmRunDevice *
tm_run_row_get_device (TmRunRow *self)
{
  g_return_val_if_fail (TM_IS_RUN_ROW (self), NULL);

  return self->device;
}

const char *
tm_run_row_get_error (TmRunRow *self)
{
  const TmHostSummary *summary;

  g_return_val_if_fail (TM_IS_RUN_ROW (self), NULL);

  summary = tm_run_loader_get_host_summary (self->run, self->host_index);
  return summary != NULL ? summary->error : NULL;
}

gboolean
tm_run_row_get_busiest (TmRunRow *self)
{
  g_return_val_if_fail (TM_IS_RUN_ROW (self), FALSE);

  return self->busiest;
}

/* ------------------------------------------------------------------ */
/* The view                                                            */

typedef enum
{
  COLUMN_HOST,
  COLUMN_MEMORY_ID,
  COLUMN_PEAK,
  COLUMN_CAPACITY,
  COLUMN_SHARE,
  COLUMN_PEAK_TIME,
  COLUMN_FRAGMENTATION,
  COLUMN_ALLOCATIONS,
  COLUMN_USAGE,
  N_COLUMNS
} Column;

struct _TmRunOverview
{
  TmView              parent_instance;

  TmRunLoader        *run;
  gulong              host_changed_handler;

  GtkWidget          *box;
  GtkLabel           *headline;
  GtkLabel           *status;
  GtkProgressBar     *progress;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *columns[N_COLUMNS];
  GListStore         *store;
  GtkSortListModel   *sorted;
  GtkSelectionModel  *selection;
  gboolean            user_scrolled;
  guint               keep_top_source;
  TmRunRow           *busiest;
  /* The sparklines' scale (docs/ui.md, "Run overview"): the highest memory
   * in use of the whole run (the default), or each device's capacity. */
  GtkDropDown        *scale_dropdown;
  gint64              run_top;
};

G_DEFINE_FINAL_TYPE (TmRunOverview, tm_run_overview, TM_TYPE_VIEW)

static double
row_share (TmRunRow *row)
{
  if (row->device == NULL || row->device->capacity <= 0)
    return -1.0;
  return (double) row->device->peak_bytes / (double) row->device->capacity;
}

/* Makes the list show row again (its progress or mark changed). */
static void
rebind_row (TmRunOverview *self,
            TmRunRow      *row)
{
  guint position;

  if (g_list_store_find (self->store, row, &position))
    g_list_store_splice (self->store, position, 1, (gpointer *) &row, 1);
}

static void
update_headline (TmRunOverview *self)
{
  guint n_hosts = self->run != NULL ? tm_run_loader_get_n_hosts (self->run) : 0;
  guint n_done = self->run != NULL ? tm_run_loader_get_n_done (self->run) : 0;
  guint n_failed = 0, n_no_data = 0;
  g_autoptr(GString) status = g_string_new (NULL);
  double fraction = 0.0;

  for (guint i = 0; i < n_hosts; i++)
    {
      const TmHostSummary *summary = tm_run_loader_get_host_summary (self->run, i);

      fraction += tm_run_loader_get_host_progress (self->run, i);
      if (summary != NULL && summary->error != NULL)
        n_failed++;
      else if (summary != NULL && summary->devices->len == 0)
        n_no_data++;
    }

  if (self->busiest != NULL)
    {
      const TmRunDevice *device = self->busiest->device;
      g_autofree char *peak = tm_format_bytes (device->peak_bytes);
      g_autofree char *when = tm_format_time_ms (device->peak_time_ps);
      g_autofree char *share = row_share (self->busiest) >= 0 ? tm_format_percent (row_share (self->busiest)) : g_strdup ("—");
      g_autofree char *text = NULL;

      /* Translators: the run overview's headline: host, memory id, peak,
       * share of capacity, time of the peak */
      text = g_strdup_printf (_("%s · %s peaked highest: %s, %s of capacity, at %s"),
                              tm_run_row_get_host (self->busiest), device->memory_id, peak, share, when);
      gtk_label_set_label (self->headline, text);
    }
  else
    gtk_label_set_label (self->headline, n_done < n_hosts ? _("Analysing the hosts…") : _("No host has memory data"));

  if (n_done < n_hosts)
    g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "Analysed %u of %u host", "Analysed %u of %u hosts", n_hosts),
                            n_done, n_hosts);
  else
    g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%u host", "%u hosts", n_hosts), n_hosts);
  if (n_failed > 0)
    {
      g_string_append (status, " · ");
      g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%u failed", "%u failed", n_failed), n_failed);
    }
  if (n_no_data > 0)
    {
      g_string_append (status, " · ");
      g_string_append_printf (status, g_dngettext (GETTEXT_PACKAGE, "%u without memory data", "%u without memory data", n_no_data), n_no_data);
    }
  if (self->run != NULL && tm_run_loader_is_gathered (self->run))
    {
      g_string_append (status, " · ");
      g_string_append (status, _("from gathered summaries"));
    }
  gtk_label_set_label (self->status, status->str);

  gtk_widget_set_visible (GTK_WIDGET (self->progress), n_done < n_hosts);
  if (n_hosts > 0)
    gtk_progress_bar_set_fraction (self->progress, fraction / n_hosts);
}

/* The most memory in use a device's sparkline reaches. */
static gint64
sparkline_top (const TmRunDevice *device)
{
  gint64 top = device->peak_bytes;

  for (guint i = 0; device->sparkline != NULL && i < device->sparkline->len; i++)
    top = MAX (top, g_array_index (device->sparkline, gint64, i));
  return top;
}

static gboolean
capacity_scale (TmRunOverview *self)
{
  return gtk_drop_down_get_selected (self->scale_dropdown) == 1;
}

/* Makes every row's sparkline draw again. */
static void
redraw_sparklines (TmRunOverview *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));

  g_list_model_items_changed (G_LIST_MODEL (self->store), 0, n, n);
}

static int compare_rows (gconstpointer a,
                         gconstpointer b,
                         gpointer      data);

static void
update_busiest (TmRunOverview *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  g_autoptr(TmRunRow) old = self->busiest != NULL ? g_object_ref (self->busiest) : NULL;
  TmRunRow *best = NULL;
  gint64 top = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TmRunRow) row = g_list_model_get_item (G_LIST_MODEL (self->store), i);

      /* The first row of the peak column's (highest first) order. */
      if (row->device != NULL &&
          (best == NULL || compare_rows (row, best, GUINT_TO_POINTER (COLUMN_PEAK)) == GTK_ORDERING_LARGER))
        best = row;
      if (row->device != NULL)
        top = MAX (top, sparkline_top (row->device));
    }

  /* A new highest peak rescales every sparkline drawn on it. */
  if (top != self->run_top)
    {
      self->run_top = top;
      if (!capacity_scale (self))
        redraw_sparklines (self);
    }

  if (best == old)
    return;

  if (old != NULL)
    {
      old->busiest = FALSE;
      rebind_row (self, old);
    }
  g_set_object (&self->busiest, best);
  if (best != NULL)
    {
      best->busiest = TRUE;
      rebind_row (self, best);
    }
}

/* The rows of host index: one per memory id once it is done, else one. */
static void
add_host_rows (TmRunOverview *self,
               guint          index,
               GPtrArray     *rows)
{
  const TmHostSummary *summary = tm_run_loader_get_host_summary (self->run, index);

  if (summary == NULL || summary->error != NULL || summary->devices->len == 0)
    {
      g_ptr_array_add (rows, tm_run_row_new (self->run, index, NULL));
      return;
    }
  for (guint d = 0; d < summary->devices->len; d++)
    g_ptr_array_add (rows, tm_run_row_new (self->run, index, g_ptr_array_index (summary->devices, d)));
}

/* Rows sorted in above the first one shown would push the busiest out of
 * sight (the list keeps its first row in place): until the user scrolls,
 * the list starts again from its top. */
static gboolean
keep_top_cb (gpointer data)
{
  TmRunOverview *self = data;

  self->keep_top_source = 0;
  if (!self->user_scrolled)
    {
      gtk_column_view_set_model (self->column_view, NULL);
      gtk_column_view_set_model (self->column_view, self->selection);
    }
  return G_SOURCE_REMOVE;
}

/* At most a few times a second, however many hosts finish. */
static void
keep_top (TmRunOverview *self)
{
  if (!self->user_scrolled && self->keep_top_source == 0)
    self->keep_top_source = g_timeout_add (200, keep_top_cb, self);
}

static gboolean
user_scrolled_cb (TmRunOverview *self)
{
  self->user_scrolled = TRUE;
  return FALSE;
}

static void
host_changed_cb (TmRunOverview *self,
                 guint          index,
                 TmRunLoader   *run)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TmRunRow) row = g_list_model_get_item (G_LIST_MODEL (self->store), i);

      if (row->host_index != index)
        continue;

      if (tm_run_loader_get_host_summary (run, index) != NULL)
        {
          g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

          add_host_rows (self, index, rows);
          g_list_store_splice (self->store, i, 1, rows->pdata, rows->len);
          update_busiest (self);
          keep_top (self);
        }
      else
        g_list_store_splice (self->store, i, 1, (gpointer *) &row, 1);
      break;
    }

  update_headline (self);
}

static void
rebuild (TmRunOverview *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmRunLoader *run = session != NULL ? tm_session_get_run (session) : NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->run != NULL)
    g_clear_signal_handler (&self->host_changed_handler, self->run);
  g_clear_object (&self->busiest);
  g_set_object (&self->run, run);
  self->run_top = 0;

  for (guint i = 0; run != NULL && i < tm_run_loader_get_n_hosts (run); i++)
    add_host_rows (self, i, rows);
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       rows->pdata, rows->len);

  if (run != NULL)
    self->host_changed_handler = g_signal_connect_object (run, "host-changed",
                                                          G_CALLBACK (host_changed_cb), self,
                                                          G_CONNECT_SWAPPED);
  update_busiest (self);
  update_headline (self);
}

static void
session_run_cb (TmRunOverview *self)
{
  rebuild (self);
}

/* ------------------------------------------------------------------ */
/* Cells                                                               */

static char *
cell_text (TmRunRow *row,
           Column    column)
{
  const TmRunDevice *device = row->device;

  if (column == COLUMN_HOST)
    return g_strdup (tm_run_row_get_host (row));

  if (column == COLUMN_MEMORY_ID)
    {
      const TmHostSummary *summary = tm_run_loader_get_host_summary (row->run, row->host_index);

      if (device != NULL)
        return g_strdup (device->memory_id);
      if (summary != NULL && summary->error != NULL)
        return g_strdup (summary->error);
      if (summary != NULL)
        return g_strdup (_("No memory data"));
      if (tm_run_loader_get_host_state (row->run, row->host_index) == TM_RUN_HOST_LOADING)
        {
          g_autofree char *percent = tm_format_percent (tm_run_loader_get_host_progress (row->run, row->host_index));

          /* Translators: a host being analysed, with how far it got */
          return g_strdup_printf (_("Analysing… %s"), percent);
        }
      return g_strdup (_("Waiting"));
    }

  if (device == NULL)
    return g_strdup ("");

  switch (column)
    {
    case COLUMN_PEAK:
      return tm_format_bytes (device->peak_bytes);
    case COLUMN_CAPACITY:
      return tm_format_bytes (device->capacity);
    case COLUMN_SHARE:
      return row_share (row) >= 0 ? tm_format_percent (row_share (row)) : g_strdup ("—");
    case COLUMN_PEAK_TIME:
      return tm_format_time_ms (device->peak_time_ps);
    case COLUMN_FRAGMENTATION:
      return tm_format_percent (device->peak_fragmentation);
    case COLUMN_ALLOCATIONS:
      return tm_format_count (device->n_allocations);
    default:
      return g_strdup ("");
    }
}

static void
setup_label_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  data)
{
  Column column = GPOINTER_TO_UINT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column >= COLUMN_PEAK ? 1.0 : 0.0);
  /* A host's name and the figures are never cut, however narrow the
   * window (the table scrolls sideways): a column keeps a name and the
   * badge beside it. Only a failed host's error, in the memory id's
   * column, is cut (its tooltip has it whole). */
  if (column == COLUMN_MEMORY_ID)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column >= COLUMN_PEAK)
    gtk_widget_add_css_class (label, "tm-numeric");

  if (column == COLUMN_HOST)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *badge = gtk_label_new (_("Busiest"));

      gtk_widget_add_css_class (badge, "tm-busiest-badge");
      gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), badge);
      gtk_list_item_set_child (item, box);
      return;
    }

  gtk_list_item_set_child (item, label);
}

static void
bind_label_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  data)
{
  Column column = GPOINTER_TO_UINT (data);
  TmRunRow *row = gtk_list_item_get_item (item);
  GtkWidget *child = gtk_list_item_get_child (item);
  GtkWidget *label = column == COLUMN_HOST ? gtk_widget_get_first_child (child) : child;
  g_autofree char *text = cell_text (row, column);

  gtk_label_set_label (GTK_LABEL (label), text);
  if (column == COLUMN_HOST)
    gtk_widget_set_visible (gtk_widget_get_last_child (child), row->busiest);
  if (column == COLUMN_MEMORY_ID)
    {
      gboolean failed = row->device == NULL && tm_run_row_get_error (row) != NULL;

      if (failed)
        gtk_widget_add_css_class (label, "error");
      else
        gtk_widget_remove_css_class (label, "error");
      /* Setting a tooltip asks the display where the pointer is: only
       * when it changes. */
      if (g_strcmp0 (gtk_widget_get_tooltip_text (label), failed ? text : NULL) != 0)
        gtk_widget_set_tooltip_text (label, failed ? text : NULL);
      if (row->device == NULL && !failed)
        gtk_widget_add_css_class (label, "dim-label");
      else
        gtk_widget_remove_css_class (label, "dim-label");
    }
}

static void
draw_usage (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        data)
{
  TmRunOverview *self = data;
  TmRunRow *row = g_object_get_data (G_OBJECT (area), "tm-run-row");
  GdkRGBA color;
  const TmRunDevice *device;
  GArray *points;
  gint64 top = 1;

  if (row == NULL)
    return;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS

  device = row->device;
  if (device == NULL)
    {
      double progress = tm_run_loader_get_host_progress (row->run, row->host_index);

      if (tm_run_loader_get_host_summary (row->run, row->host_index) != NULL)
        return;
      /* A host still loading: its progress as a thin bar. */
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.15);
      cairo_rectangle (cr, 0, height / 2.0 - 2, width, 4);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.6);
      cairo_rectangle (cr, 0, height / 2.0 - 2, width * progress, 4);
      cairo_fill (cr);
      return;
    }

  points = device->sparkline;
  if (points == NULL || points->len == 0)
    return;

  /* On the run's highest memory in use, so that rows compare by their
   * bytes and a device at 1 % of its capacity is not a flat line; or on
   * the device's capacity, so that rows compare by their share. */
  if (capacity_scale (self))
    top = MAX (MAX (device->capacity, top), sparkline_top (device));
  else
    top = MAX (self->run_top, top);

  cairo_move_to (cr, 0, height);
  for (guint i = 0; i < points->len; i++)
    {
      double x = points->len > 1 ? (double) i * width / (points->len - 1) : width;
      double y = height - (double) g_array_index (points, gint64, i) / (double) top * (height - 1);

      if (i == 0)
        cairo_line_to (cr, 0, y);
      cairo_line_to (cr, x, y);
    }
  cairo_line_to (cr, width, height);
  cairo_close_path (cr);

  if (row->busiest)
    cairo_set_source_rgba (cr, 0.89, 0.35, 0.13, 0.75);
  else
    cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.6);
  cairo_fill (cr);
}

static void
setup_usage_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  data)
{
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 160);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 22);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_usage, data, NULL);
  gtk_list_item_set_child (item, area);
}

static void
bind_usage_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  data)
{
  GtkWidget *area = gtk_list_item_get_child (item);

  g_object_set_data_full (G_OBJECT (area), "tm-run-row",
                          g_object_ref (gtk_list_item_get_item (item)), g_object_unref);
  gtk_widget_queue_draw (area);
}

static void
unbind_usage_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  data)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (item)), "tm-run-row", NULL);
}

static int
compare_int64 (gint64 a,
               gint64 b)
{
  return a < b ? -1 : a > b;
}

/* Rows without the figure (loading, failed, no data) sort before all others. */
static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  TmRunRow *row_a = (TmRunRow *) a;
  TmRunRow *row_b = (TmRunRow *) b;
  const TmRunDevice *da = row_a->device;
  const TmRunDevice *db = row_b->device;
  Column column = GPOINTER_TO_UINT (data);
  int cmp = 0;

  if (column != COLUMN_HOST && (da == NULL || db == NULL))
    cmp = (da != NULL) - (db != NULL);
  else
    switch (column)
      {
      case COLUMN_HOST:
        cmp = tm_run_compare_host_names (tm_run_row_get_host (row_a), tm_run_row_get_host (row_b));
        break;
      case COLUMN_MEMORY_ID:
        cmp = g_strcmp0 (da->memory_id, db->memory_id);
        break;
      case COLUMN_PEAK:
      case COLUMN_USAGE:
        cmp = compare_int64 (da->peak_bytes, db->peak_bytes);
        break;
      case COLUMN_CAPACITY:
        cmp = compare_int64 (da->capacity, db->capacity);
        break;
      case COLUMN_SHARE:
        cmp = (row_share (row_a) > row_share (row_b)) - (row_share (row_a) < row_share (row_b));
        break;
      case COLUMN_PEAK_TIME:
        cmp = compare_int64 (da->peak_time_ps, db->peak_time_ps);
        break;
      case COLUMN_FRAGMENTATION:
        cmp = (da->peak_fragmentation > db->peak_fragmentation) - (da->peak_fragmentation < db->peak_fragmentation);
        break;
      case COLUMN_ALLOCATIONS:
        cmp = compare_int64 (da->n_allocations, db->n_allocations);
        break;
      default:
        break;
      }

  /* Ties in host and memory id order: the figures' columns are sorted
   * highest first, which turns the order round, so they tie the other way
   * (two hosts at one peak: worker-0 above worker-1, and the busiest). */
  if (cmp == 0)
    {
      int ties = 0;

      if (column != COLUMN_HOST)
        ties = tm_run_compare_host_names (tm_run_row_get_host (row_a), tm_run_row_get_host (row_b));
      if (ties == 0 && da != NULL && db != NULL)
        ties = g_strcmp0 (da->memory_id, db->memory_id);
      cmp = column == COLUMN_HOST || column == COLUMN_MEMORY_ID ? ties : -ties;
    }
  return cmp < 0 ? GTK_ORDERING_SMALLER : cmp > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
activate_cb (TmRunOverview *self,
             guint          position,
             GtkColumnView *column_view)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));

  g_autoptr(TmRunRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  GFile *file;

  if (row == NULL || session == NULL || tm_session_get_run (session) != row->run)
    return;

  file = tm_run_loader_get_host_file (row->run, row->host_index);
  if (file == NULL || !g_file_query_exists (file, NULL))
    {
      g_autofree char *path = file != NULL ? g_file_get_parse_name (file) : g_strdup ("?");
      g_autofree char *text = NULL;

      /* Translators: a gathered host whose profile is not on this machine */
      text = g_strdup_printf (_("The profile of %s is not reachable from here: %s"),
                              tm_run_row_get_host (row), path);
      gtk_label_set_label (self->status, text);
      return;
    }

  tm_session_open_host (session, row->host_index,
                        row->device != NULL ? row->device->memory_id : NULL);
}

static void
add_column (TmRunOverview *self,
            Column         column,
            const char    *title,
            gboolean       expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  if (column == COLUMN_USAGE)
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_usage_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_usage_cb), NULL);
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_usage_cb), NULL);
    }
  else
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label_cb), GUINT_TO_POINTER (column));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label_cb), GUINT_TO_POINTER (column));
    }

  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (col, GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (column), NULL)));
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (self->column_view, col);
  self->columns[column] = col;
  g_object_unref (col);
}

/* ------------------------------------------------------------------ */

static void
tm_run_overview_session_changed (TmView    *view,
                                 TmSession *old_session)
{
  rebuild (TM_RUN_OVERVIEW (view));
}

static void
tm_run_overview_dispose (GObject *object)
{
  TmRunOverview *self = TM_RUN_OVERVIEW (object);

  if (self->run != NULL)
    g_clear_signal_handler (&self->host_changed_handler, self->run);
  g_clear_object (&self->busiest);
  g_clear_object (&self->run);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_handle_id (&self->keep_top_source, g_source_remove);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (tm_run_overview_parent_class)->dispose (object);
}

static void
tm_run_overview_class_init (TmRunOverviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_run_overview_dispose;
  view_class->session_changed = tm_run_overview_session_changed;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tmrunoverview");
}

static void
tm_run_overview_init (TmRunOverview *self)
{
  GtkWidget *scrolled;

  g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)), "notify::run",
                                  G_CALLBACK (session_run_cb), self);

  self->store = g_list_store_new (TM_TYPE_RUN_ROW);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->headline = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->headline, 0.0);
  gtk_label_set_wrap (self->headline, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->headline), "title-3");
  gtk_widget_set_margin_start (GTK_WIDGET (self->headline), 18);
  gtk_widget_set_margin_end (GTK_WIDGET (self->headline), 18);
  gtk_widget_set_margin_top (GTK_WIDGET (self->headline), 12);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->headline));

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status, 0.0);
  gtk_label_set_wrap (self->status, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_widget_set_hexpand (GTK_WIDGET (self->status), TRUE);
  {
    const char *scales[] = { N_("Usage on the run’s highest peak"), N_("Usage on each device’s capacity"), NULL };
    const char *translated[G_N_ELEMENTS (scales)];
    GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

    for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
      translated[i] = scales[i] != NULL ? _(scales[i]) : NULL;
    self->scale_dropdown = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (translated));
    gtk_widget_set_valign (GTK_WIDGET (self->scale_dropdown), GTK_ALIGN_CENTER);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->scale_dropdown),
                                 _("What the sparklines of memory in use are drawn against: the highest memory in use of the whole run, so that hosts compare by their bytes, or each device’s capacity, so that they compare by their share"));
    g_signal_connect_object (self->scale_dropdown, "notify::selected", G_CALLBACK (redraw_sparklines), self, G_CONNECT_SWAPPED);
    gtk_widget_set_margin_start (line, 18);
    gtk_widget_set_margin_end (line, 18);
    gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->status));
    gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->scale_dropdown));
    gtk_box_append (GTK_BOX (self->box), line);
  }

  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_margin_start (GTK_WIDGET (self->progress), 18);
  gtk_widget_set_margin_end (GTK_WIDGET (self->progress), 18);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->progress));

  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, FALSE);
  gtk_column_view_set_single_click_activate (self->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");

  add_column (self, COLUMN_HOST, _("Host"), TRUE);
  add_column (self, COLUMN_MEMORY_ID, _("Memory id"), TRUE);
  add_column (self, COLUMN_PEAK, _("Peak"), FALSE);
  add_column (self, COLUMN_CAPACITY, _("Capacity"), FALSE);
  add_column (self, COLUMN_SHARE, _("Share"), FALSE);
  add_column (self, COLUMN_PEAK_TIME, _("Peak at"), FALSE);
  add_column (self, COLUMN_FRAGMENTATION, _("Fragmentation"), FALSE);
  add_column (self, COLUMN_ALLOCATIONS, _("Allocations"), FALSE);
  add_column (self, COLUMN_USAGE, _("Memory in use"), FALSE);

  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->sorted))));
  gtk_column_view_set_model (self->column_view, self->selection);
  /* The busiest first. */
  gtk_column_view_sort_by_column (self->column_view, self->columns[COLUMN_PEAK], GTK_SORT_DESCENDING);

  g_signal_connect_object (self->column_view, "activate", G_CALLBACK (activate_cb), self, G_CONNECT_SWAPPED);

  scrolled = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_margin_top (scrolled, 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->column_view));
  {
    GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);

    gtk_event_controller_set_propagation_phase (scroll, GTK_PHASE_CAPTURE);
    g_signal_connect_swapped (scroll, "scroll", G_CALLBACK (user_scrolled_cb), self);
    gtk_widget_add_controller (scrolled, scroll);
  }
  gtk_box_append (GTK_BOX (self->box), scrolled);

  update_headline (self);
}

GtkWidget *
tm_run_overview_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_RUN_OVERVIEW, "session", session, NULL);
}

GListModel *
tm_run_overview_get_model (TmRunOverview *self)
{
  g_return_val_if_fail (TM_IS_RUN_OVERVIEW (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

GtkColumnView *
tm_run_overview_get_column_view (TmRunOverview *self)
{
  g_return_val_if_fail (TM_IS_RUN_OVERVIEW (self), NULL);

  return self->column_view;
}

const char *
tm_run_overview_get_headline (TmRunOverview *self)
{
  g_return_val_if_fail (TM_IS_RUN_OVERVIEW (self), NULL);

  return gtk_label_get_label (self->headline);
}
