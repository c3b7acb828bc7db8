/* tm-memory-viewer-view-buffers.c — the Memory Viewer page's charts, table and details
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One selected buffer (a logical buffer id, the page's own state) is
 * outlined in the bars and the allocation chart, selected in the table
 * when it is live at the peak, and described in the details pane. The
 * heap and the allocation chart share a cursor at a program point, moved
 * by the pointer or, with the chart focused, by Left, Right, Home and End.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-buffer-row.h"
#include "tm-format.h"
#include "tm-memory-viewer-view-private.h"

#define HEAP_HEIGHT 240
#define OFFSETS_HEIGHT 280

/* ------------------------------------------------------------------ */
/* What a point, an object and a block are, in words                    */

static char *
describe_point (const TmBufferAssignment *r,
                guint                     point)
{
  gint64 heap = (gint64) ((guint64) g_array_index (r->heap_sizes, gint64, point) + (guint64) r->indefinite_bytes);
  gint64 unpadded = (gint64) ((guint64) g_array_index (r->unpadded_heap_sizes, gint64, point) +
                              (guint64) r->indefinite_bytes);
  const char *inst = g_ptr_array_index (r->instruction_names, point);
  g_autofree char *where = tm_format_count (point);
  g_autofree char *with = tm_format_bytes (heap);
  g_autofree char *without = tm_format_bytes (unpadded);

  if (point + 1 == r->heap_sizes->len)
    /* TRANSLATORS: a program point after the last event, and the heap there with and without padding */
    return g_strdup_printf (_("Point %s, after the last event: %s with padding, %s without"), where, with, without);
  if (inst == NULL || inst[0] == '\0')
    /* TRANSLATORS: a program point before an event of no instruction, and the heap there */
    return g_strdup_printf (_("Point %s: %s with padding, %s without"), where, with, without);
  /* TRANSLATORS: a program point, the HLO instruction whose event comes next, and the heap there */
  return g_strdup_printf (_("Point %s, before %s: %s with padding, %s without"), where, inst, with, without);
}

static const TmHeapObject *
find_object (const TmBufferAssignment *r,
             gint64                    id,
             guint                    *index)
{
  for (guint i = 0; r != NULL && id != -1 && i < r->max_heap->len; i++)
    if (g_array_index (r->max_heap, TmHeapObject, i).logical_buffer_id == id)
      {
        if (index != NULL)
          *index = i;
        return &g_array_index (r->max_heap, TmHeapObject, i);
      }
  return NULL;
}

static const TmBufferBlock *
find_block (const TmBufferAssignment *r,
            gint64                    id)
{
  for (guint i = 0; r != NULL && id != -1 && i < r->blocks->len; i++)
    if (g_array_index (r->blocks, TmBufferBlock, i).logical_buffer_id == id)
      return &g_array_index (r->blocks, TmBufferBlock, i);
  return NULL;
}

static char *
describe_block (const TmBufferBlock *b)
{
  g_autofree char *size = tm_format_bytes (b->size);
  g_autofree char *offset = tm_format_bytes ((gint64) b->offset);
  g_autofree char *first = tm_format_count ((guint64) b->start_step + 1);
  g_autofree char *last = tm_format_count ((guint64) b->end_step);

  /* TRANSLATORS: a buffer of the allocation chart: name, shape, size, offset, the points it is live at */
  return g_strdup_printf (_("%s · %s · %s at offset %s, live at points %s–%s"),
                          b->name, b->shape != NULL ? b->shape : "", size, offset, first, last);
}

static char *
describe_object (const TmHeapObject *o)
{
  g_autofree char *size = tm_format_bytes (o->size);
  g_autofree char *unpadded = tm_format_bytes (o->unpadded_size);

  if (o->logical_buffer_id == -1)
    return g_strdup_printf ("%s: %s", o->label, size);
  /* TRANSLATORS: an object at the peak: instruction, size, size without padding, op */
  return g_strdup_printf (_("%s: %s (%s without padding) · %s"), o->instruction_name, size, unpadded,
                          o->tf_op_name != NULL && o->tf_op_name[0] != '\0' ? o->tf_op_name : _("no op name"));
}

/* ------------------------------------------------------------------ */
/* Details                                                              */

static void
add_detail (TmMemoryViewerView *self,
            int                 row,
            const char         *key,
            const char         *value)
{
  GtkWidget *k = gtk_label_new (key);
  GtkWidget *v = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (k), 0);
  gtk_label_set_yalign (GTK_LABEL (k), 0);
  gtk_widget_add_css_class (k, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (v), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_widget_set_hexpand (v, TRUE);
  gtk_grid_attach (self->details_grid, k, 0, row, 1, 1);
  gtk_grid_attach (self->details_grid, v, 1, row, 1, 1);
}

static void
add_bytes_detail (TmMemoryViewerView *self,
                  int                 row,
                  const char         *key,
                  gint64              bytes)
{
  g_autofree char *short_text = tm_format_bytes (bytes);
  g_autofree char *exact = tm_format_bytes_exact (bytes);
  g_autofree char *text = g_strdup_printf ("%s (%s)", short_text, exact);

  add_detail (self, row, key, text);
}

static void
update_details (TmMemoryViewerView *self)
{
  const TmBufferAssignment *r = self->result;
  const TmHeapObject *o = find_object (r, self->selected_id, NULL);
  const TmBufferBlock *b = find_block (r, self->selected_id);
  const TmHloSourceInfo *source = o != NULL ? &o->source : b != NULL ? &b->source : NULL;
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->details_grid))) != NULL)
    gtk_grid_remove (self->details_grid, child);

  if (o == NULL && b == NULL)
    {
      GtkWidget *empty = gtk_label_new (_("Select a buffer in the table, the bars or the allocation chart to see "
                                          "its details."));

      gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
      gtk_label_set_xalign (GTK_LABEL (empty), 0);
      gtk_widget_add_css_class (empty, "dim-label");
      gtk_grid_attach (self->details_grid, empty, 0, 0, 2, 1);
      return;
    }

  {
    GtkWidget *title = gtk_label_new (o != NULL ? o->instruction_name : b->name);

    gtk_label_set_xalign (GTK_LABEL (title), 0);
    gtk_label_set_wrap (GTK_LABEL (title), TRUE);
    gtk_label_set_wrap_mode (GTK_LABEL (title), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_selectable (GTK_LABEL (title), TRUE);
    gtk_widget_add_css_class (title, "heading");
    gtk_grid_attach (self->details_grid, title, 0, row++, 2, 1);
  }
  add_detail (self, row++, _("Shape"), o != NULL ? o->shape : b->shape);
  add_bytes_detail (self, row++, _("Size"), o != NULL ? o->size : b->size);
  add_bytes_detail (self, row++, _("Without padding"), o != NULL ? o->unpadded_size : b->unpadded_size);
  {
    gint64 size = o != NULL ? o->size : b->size, unpadded = o != NULL ? o->unpadded_size : b->unpadded_size;

    add_bytes_detail (self, row++, _("Padding"), size != 0 && unpadded != 0 ? size - unpadded : 0);
  }
  add_detail (self, row++, _("Op"), o != NULL ? o->tf_op_name : b->tf_op_name != NULL ? b->tf_op_name : "");
  if (o != NULL)
    add_detail (self, row++, _("Op code"), o->op_code);
  add_detail (self, row++, _("Allocation type"), o != NULL ? o->group : b->category);
  if (source != NULL && source->file != NULL)
    {
      g_autofree char *where = source->line >= 0 ? g_strdup_printf ("%s:%d", source->file, source->line)
                                                 : g_strdup (source->file);

      add_detail (self, row++, _("Source"), where);
    }
  if (source != NULL && source->stack_frame != NULL && source->stack_frame[0] != '\0')
    add_detail (self, row++, _("Stack"), source->stack_frame);
  if (b != NULL)
    {
      g_autofree char *first = tm_format_count ((guint64) b->start_step + 1);
      g_autofree char *last = tm_format_count ((guint64) b->end_step);
      g_autofree char *offset = tm_format_bytes ((gint64) b->offset);
      /* TRANSLATORS: the program points a buffer is live at */
      g_autofree char *live = g_strdup_printf (_("points %s to %s"), first, last);

      add_detail (self, row++, _("Live"), live);
      add_detail (self, row++, _("Offset"), offset);
    }
  {
    g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, self->selected_id);

    add_detail (self, row++, _("Logical buffer"), id);
  }
}

/* ------------------------------------------------------------------ */
/* Selection                                                            */

static void
redraw_all (TmMemoryViewerView *self)
{
  tm_buffer_chart_area_redraw (TM_BUFFER_CHART_AREA (self->bars_area));
  tm_buffer_chart_area_redraw (TM_BUFFER_CHART_AREA (self->offsets_area));
}

void
_tm_memory_viewer_view_select (TmMemoryViewerView *self,
                               gint64              id)
{
  GListModel *model = G_LIST_MODEL (self->sort_model);
  guint position = GTK_INVALID_LIST_POSITION;

  self->selected_id = id;
  if (self->charts != NULL)
    tm_buffer_charts_select (self->charts, id);
  redraw_all (self);
  update_details (self);

  for (guint i = 0; id != -1 && i < g_list_model_get_n_items (model) && position == GTK_INVALID_LIST_POSITION; i++)
    {
      g_autoptr(TmBufferRow) row = g_list_model_get_item (model, i);

      if (tm_buffer_row_get_logical_buffer_id (row) == id)
        position = i;
    }
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  if (position != GTK_INVALID_LIST_POSITION)
    {
      GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));

      /* The list is the column view's second child (after its header). */
      if (child != NULL && gtk_widget_get_next_sibling (child) != NULL)
        gtk_widget_activate_action (gtk_widget_get_next_sibling (child), "list.scroll-to-item", "u", position);
    }
}

static void
table_selected_cb (TmMemoryViewerView *self)
{
  TmBufferRow *row = gtk_single_selection_get_selected_item (self->selection);

  if (self->syncing || row == NULL)
    return;
  self->selected_id = tm_buffer_row_get_logical_buffer_id (row);
  if (self->charts != NULL)
    tm_buffer_charts_select (self->charts, self->selected_id);
  redraw_all (self);
  update_details (self);
}

/* ------------------------------------------------------------------ */
/* Charts                                                               */

static void
set_cursor (TmMemoryViewerView *self,
            guint               point)
{
  g_autofree char *text = NULL;

  self->cursor = point;
  tm_buffer_chart_area_set_cursor (TM_BUFFER_CHART_AREA (self->heap_area), point);
  tm_buffer_chart_area_set_cursor (TM_BUFFER_CHART_AREA (self->offsets_area), point);
  if (self->result != NULL && point != G_MAXUINT && point < self->result->heap_sizes->len)
    text = describe_point (self->result, point);
  gtk_label_set_text (self->heap_readout, text != NULL ? text : _("Point at the chart, or focus it and use the "
                                                                  "arrow keys, to see the heap at a program point."));
  gtk_widget_set_tooltip_text (self->heap_area, text);
}

static void
heap_hover_cb (TmMemoryViewerView *self,
               double              x,
               double              y)
{
  if (self->charts == NULL || x < 0)
    return;
  set_cursor (self, tm_buffer_charts_point_at (self->charts, TM_BUFFER_CHART_HEAP, x));
}

static void
offsets_hover_cb (TmMemoryViewerView *self,
                  double              x,
                  double              y)
{
  guint block;
  g_autofree char *text = NULL;

  if (self->charts == NULL || x < 0)
    return;
  set_cursor (self, tm_buffer_charts_point_at (self->charts, TM_BUFFER_CHART_OFFSETS, x));
  block = tm_buffer_charts_block_at (self->charts, x, y);
  if (block != G_MAXUINT)
    text = describe_block (&g_array_index (self->result->blocks, TmBufferBlock, block));
  gtk_label_set_text (self->offsets_readout, text != NULL ? text : "");
  gtk_widget_set_tooltip_text (self->offsets_area, text);
}

static void
offsets_pressed_cb (TmMemoryViewerView *self,
                    double              x,
                    double              y)
{
  guint block;

  if (self->charts == NULL)
    return;
  block = tm_buffer_charts_block_at (self->charts, x, y);
  if (block != G_MAXUINT)
    _tm_memory_viewer_view_select (self, g_array_index (self->result->blocks, TmBufferBlock, block).logical_buffer_id);
}

static guint
bars_object_at (TmMemoryViewerView *self,
                double              x,
                double              y)
{
  cairo_t *cr = NULL;
  TmChartCanvas *canvas;
  guint object;

  if (self->charts == NULL || x < 0)
    return G_MAXUINT;
  canvas = tm_buffer_chart_area_new_canvas (TM_BUFFER_CHART_AREA (self->bars_area), &cr);
  object = tm_buffer_charts_object_at (self->charts, canvas, x, y);
  tm_chart_canvas_free (canvas);
  cairo_destroy (cr);
  return object;
}

static void
bars_hover_cb (TmMemoryViewerView *self,
               double              x,
               double              y)
{
  guint object = bars_object_at (self, x, y);
  g_autofree char *text = NULL;

  if (object != G_MAXUINT)
    text = describe_object (&g_array_index (self->result->max_heap, TmHeapObject, object));
  gtk_label_set_text (self->bars_readout, text != NULL ? text : "");
  gtk_widget_set_tooltip_text (self->bars_area, text);
}

static void
bars_pressed_cb (TmMemoryViewerView *self,
                 double              x,
                 double              y)
{
  guint object = bars_object_at (self, x, y);

  if (object != G_MAXUINT)
    _tm_memory_viewer_view_select (self, g_array_index (self->result->max_heap, TmHeapObject, object).logical_buffer_id);
}

/* Left, Right, Home and End move the cursor over the program points. */
static gboolean
points_key_cb (TmMemoryViewerView    *self,
               guint                  keyval,
               guint                  keycode,
               GdkModifierType        state,
               GtkEventControllerKey *controller)
{
  guint n = self->charts != NULL ? tm_buffer_charts_get_n_points (self->charts) : 0;
  guint point = self->cursor;

  if (n == 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      point = point == G_MAXUINT ? n - 1 : point > 0 ? point - 1 : 0;
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      point = point == G_MAXUINT ? 0 : MIN (point + 1, n - 1);
      break;
    case GDK_KEY_Home:
      point = 0;
      break;
    case GDK_KEY_End:
      point = n - 1;
      break;
    default:
      return FALSE;
    }
  set_cursor (self, point);
  return TRUE;
}

/* Left and Right select the object before or after the selected one, in
 * program order. */
static gboolean
bars_key_cb (TmMemoryViewerView    *self,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             GtkEventControllerKey *controller)
{
  guint n = self->result != NULL ? self->result->max_heap->len : 0;
  guint index = G_MAXUINT;

  if (n == 0 || (keyval != GDK_KEY_Left && keyval != GDK_KEY_Right))
    return FALSE;
  if (find_object (self->result, self->selected_id, &index) == NULL)
    index = keyval == GDK_KEY_Left ? n : G_MAXUINT;
  index = keyval == GDK_KEY_Left ? (index > 0 ? index - 1 : 0) : (index == G_MAXUINT ? 0 : MIN (index + 1, n - 1));
  _tm_memory_viewer_view_select (self, g_array_index (self->result->max_heap, TmHeapObject, index).logical_buffer_id);
  bars_hover_cb (self, -1, -1);
  {
    g_autofree char *text = describe_object (&g_array_index (self->result->max_heap, TmHeapObject, index));

    gtk_label_set_text (self->bars_readout, text);
  }
  return TRUE;
}

static GtkLabel *
add_chart (TmMemoryViewerView *self,
           GtkBox             *box,
           GtkWidget          *area,
           int                 height,
           const char         *name,
           GCallback           hover,
           GCallback           pressed,
           GCallback           key)
{
  GtkWidget *readout = gtk_label_new (NULL);
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_widget_set_size_request (area, -1, height);
  gtk_widget_set_hexpand (area, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (area), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_signal_connect_object (area, "hover", hover, self, G_CONNECT_SWAPPED);
  if (pressed != NULL)
    g_signal_connect_object (area, "pressed", pressed, self, G_CONNECT_SWAPPED);
  g_signal_connect_object (keys, "key-pressed", key, self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (area, keys);
  gtk_box_append (box, area);

  gtk_label_set_xalign (GTK_LABEL (readout), 0);
  gtk_label_set_wrap (GTK_LABEL (readout), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (readout), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (readout, "caption");
  gtk_widget_add_css_class (readout, "tm-numeric");
  gtk_box_append (box, readout);
  return GTK_LABEL (readout);
}

/* ------------------------------------------------------------------ */
/* Table                                                                */

static gboolean
op_filter_func (gpointer item,
                gpointer user_data)
{
  TmMemoryViewerView *self = user_data;
  gint64 id = tm_buffer_row_get_logical_buffer_id (item);

  if (self->lit == NULL)
    return TRUE;
  for (guint i = 0; i < self->lit->len; i++)
    if (g_array_index (self->lit, gint64, i) == id)
      return TRUE;
  return FALSE;
}

static void
add_column (TmMemoryViewerView *self,
            const char         *title,
            const char         *property,
            gboolean            bytes,
            gboolean            numeric,
            gboolean            expand)
{
  g_autoptr(GtkListItemFactory) factory = tm_buffer_row_factory_new (property, bytes ? 1 : numeric ? 2 : 0);
  GtkColumnViewColumn *column = gtk_column_view_column_new (title, g_steal_pointer (&factory));
  GtkExpression *expression = gtk_property_expression_new (TM_TYPE_BUFFER_ROW, NULL, property);
  GtkSorter *sorter = numeric ? GTK_SORTER (gtk_numeric_sorter_new (expression))
                              : GTK_SORTER (gtk_string_sorter_new (expression));

  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_append_column (self->column_view, column);
  g_object_unref (sorter);
  g_object_unref (column);
}

void
_tm_memory_viewer_view_show_result (TmMemoryViewerView       *self,
                                    const TmBufferAssignment *result)
{
  g_autoptr(TmBufferCharts) charts = NULL;

  if (result == self->result)
    return;
  self->result = result;
  if (result != NULL)
    charts = tm_buffer_charts_new (result);
  g_set_object (&self->charts, charts);
  tm_buffer_chart_area_set_charts (TM_BUFFER_CHART_AREA (self->heap_area), charts);
  tm_buffer_chart_area_set_charts (TM_BUFFER_CHART_AREA (self->bars_area), charts);
  tm_buffer_chart_area_set_charts (TM_BUFFER_CHART_AREA (self->offsets_area), charts);

  g_list_store_remove_all (self->rows);
  if (result != NULL)
    {
      cairo_t *cr = NULL;
      TmChartCanvas *canvas = tm_buffer_chart_area_new_canvas (TM_BUFFER_CHART_AREA (self->bars_area), &cr);
      gboolean traced = tm_buffer_charts_has_trace (charts);

      gtk_widget_set_size_request (self->bars_area, -1, tm_buffer_charts_get_bars_height (charts, canvas));
      tm_chart_canvas_free (canvas);
      cairo_destroy (cr);
      for (guint i = 0; i < result->max_heap->len; i++)
        {
          g_autoptr(TmBufferRow) row = tm_buffer_row_new (&g_array_index (result->max_heap, TmHeapObject, i), i);

          g_list_store_append (self->rows, row);
        }
      gtk_widget_set_visible (self->heap_area, traced);
      gtk_widget_set_visible (self->offsets_area, traced && result->blocks->len > 0);
      gtk_widget_set_visible (self->offsets_heading, traced && result->blocks->len > 0);
      gtk_widget_set_visible (GTK_WIDGET (self->offsets_readout), traced && result->blocks->len > 0);
      gtk_widget_set_visible (self->bars_area, tm_buffer_charts_has_objects (charts));
      gtk_widget_set_visible (self->table_paned, tm_buffer_charts_has_objects (charts));
      if (!traced)
        gtk_label_set_text (self->heap_readout, _("This module has no heap simulator trace in this memory space: "
                                                  "its heap is only the buffers that live through it."));
      else
        set_cursor (self, G_MAXUINT);
      if (!tm_buffer_charts_has_objects (charts))
        gtk_label_set_text (self->bars_readout, _("Nothing is live at the peak in this memory space."));
      else
        gtk_label_set_text (self->bars_readout, _("Point at a bar to see its buffer; click to select it."));
      gtk_label_set_text (self->offsets_readout, "");
    }
  self->selected_id = -1;
  self->cursor = G_MAXUINT;
  if (charts != NULL)
    tm_buffer_charts_set_lit (charts, self->lit);
  update_details (self);
}

void
_tm_memory_viewer_view_update_lit (TmMemoryViewerView *self)
{
  gtk_filter_changed (GTK_FILTER (self->op_filter), GTK_FILTER_CHANGE_DIFFERENT);
  if (self->charts != NULL)
    tm_buffer_charts_set_lit (self->charts, self->lit);
  redraw_all (self);
}

/* The details get two sevenths of the width (220 to 400 pixels) and the
 * table the rest, as the width changes, until the user drags the handle;
 * after that the drag holds. */
static void
paned_width_cb (GtkPaned           *paned,
                GParamSpec         *pspec,
                TmMemoryViewerView *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (paned));

  if (width <= 0)
    return;
  self->placing_paned = TRUE;
  gtk_paned_set_position (paned, width - CLAMP (width * 2 / 7, 220, 400));
  self->placing_paned = FALSE;
}

static void
paned_position_cb (GtkPaned           *paned,
                   GParamSpec         *pspec,
                   TmMemoryViewerView *self)
{
  if (!self->placing_paned && gtk_widget_get_mapped (GTK_WIDGET (paned)))
    g_signal_handlers_disconnect_by_func (paned, paned_width_cb, self);
}

void
_tm_memory_viewer_view_buffers_init (TmMemoryViewerView *self)
{
  g_autoptr(GtkFilterListModel) filtered = NULL;

  self->heap_area = tm_buffer_chart_area_new (TM_BUFFER_CHART_HEAP);
  self->heap_readout = add_chart (self, self->heap_box, self->heap_area, HEAP_HEIGHT,
                                  _("Heap over the program points"), G_CALLBACK (heap_hover_cb), NULL,
                                  G_CALLBACK (points_key_cb));
  self->bars_area = tm_buffer_chart_area_new (TM_BUFFER_CHART_BARS);
  self->bars_readout = add_chart (self, self->bars_box, self->bars_area, 120, _("Bars of the buffers live at the peak"),
                                  G_CALLBACK (bars_hover_cb), G_CALLBACK (bars_pressed_cb), G_CALLBACK (bars_key_cb));
  self->offsets_area = tm_buffer_chart_area_new (TM_BUFFER_CHART_OFFSETS);
  self->offsets_readout = add_chart (self, self->offsets_box, self->offsets_area, OFFSETS_HEIGHT,
                                     _("Allocation chart"), G_CALLBACK (offsets_hover_cb),
                                     G_CALLBACK (offsets_pressed_cb), G_CALLBACK (points_key_cb));

  g_signal_connect_object (self->table_paned, "notify::max-position", G_CALLBACK (paned_width_cb), self, 0);
  g_signal_connect_object (self->table_paned, "notify::position", G_CALLBACK (paned_position_cb), self, 0);

  self->rows = g_list_store_new (TM_TYPE_BUFFER_ROW);
  self->op_filter = gtk_custom_filter_new (op_filter_func, self, NULL);
  filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)),
                                        g_object_ref (GTK_FILTER (self->op_filter)));
  self->sort_model = gtk_sort_list_model_new (G_LIST_MODEL (g_steal_pointer (&filtered)),
                                              g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (table_selected_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  /* TRANSLATORS: the column of an object's position in program order at the peak */
  add_column (self, _("#"), "index", FALSE, TRUE, FALSE);
  add_column (self, _("Instruction"), "name", FALSE, FALSE, TRUE);
  add_column (self, _("Size"), "size", TRUE, TRUE, FALSE);
  add_column (self, _("Unpadded"), "unpadded", TRUE, TRUE, FALSE);
  add_column (self, _("Padding"), "padding", TRUE, TRUE, FALSE);
  add_column (self, _("Shape"), "shape", FALSE, FALSE, FALSE);
  add_column (self, _("Op"), "op", FALSE, FALSE, FALSE);
  add_column (self, _("Type"), "category", FALSE, FALSE, FALSE);
  {
    GListModel *columns = gtk_column_view_get_columns (self->column_view);
    g_autoptr(GtkColumnViewColumn) size = g_list_model_get_item (columns, 2);

    gtk_column_view_sort_by_column (self->column_view, size, GTK_SORT_DESCENDING);
  }
  update_details (self);
}
