/* tm-timeline.c — the memory timeline widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Follows a TmSession: its memory store, its viewport, the HLO modules of
 * its profile and its selected time. Two cached render nodes: the value
 * axes and the legend (rebuilt when the size, the store or the style
 * changes) and what moves with the visible range (time axis, data, peak,
 * HLO band; rebuilt on zoom and pan too). Hover, selection and the rubber
 * band are drawn over them every frame (tm-timeline-layers.c).
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-axes-layer.h"
#include "tm-legend-layer.h"
#include "tm-line-layer.h"
#include "tm-mark-layer.h"
#include "tm-series-layer.h"
#include "tm-timeline-private.h"

G_DEFINE_ENUM_TYPE (TmYScale, tm_y_scale,
  G_DEFINE_ENUM_VALUE (TM_Y_SCALE_FIT, "fit"),
  G_DEFINE_ENUM_VALUE (TM_Y_SCALE_CAPACITY, "capacity"))

G_DEFINE_FLAGS_TYPE (TmSeriesFlags, tm_series_flags,
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_NONE, "none"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_STACK, "stack"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_HEAP, "heap"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_FREE, "free"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_FRAGMENTATION, "fragmentation"))

G_DEFINE_FINAL_TYPE (TmTimeline, tm_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_Y_SCALE,
  PROP_HIDDEN_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Shared with the other tm-timeline-*.c                               */

TmLod *
_tm_timeline_get_lod (TmTimeline *self)
{
  TmLod *lod;

  if (self->store == NULL)
    return NULL;

  lod = tm_memory_store_get_lod (self->store);
  if (lod != NULL)
    return lod;

  if (self->own_lod == NULL)
    self->own_lod = tm_lod_new (tm_memory_store_get_n_snapshots (self->store),
                                tm_memory_store_get_times (self->store),
                                tm_memory_store_get_stack (self->store),
                                tm_memory_store_get_heap (self->store),
                                tm_memory_store_get_free (self->store),
                                tm_memory_store_get_fragmentation (self->store));
  return self->own_lod;
}

gboolean
_tm_timeline_has_data (TmTimeline *self)
{
  return self->store != NULL && tm_memory_store_get_n_snapshots (self->store) > 0;
}

/* Fit: the most memory in use (stack + heap) the visible range shows,
 * from the state at its start to its end (docs/ui.md, "Y scale"). */
static gint64
visible_max_used (TmTimeline *self,
                  TmLod      *lod)
{
  TmLodBucket bucket;
  guint first = tm_memory_store_find_at_or_before (self->store, tm_viewport_get_start (self->viewport));
  guint last = tm_memory_store_find_at_or_before (self->store, tm_viewport_get_end (self->viewport));

  if (!tm_lod_query_indices (lod, first, MAX (first, last), &bucket) || !bucket.has_data)
    return tm_lod_get_max_used (lod);
  return bucket.used_max;
}

void
_tm_timeline_compute_layout (TmTimeline       *self,
                             int               width,
                             int               height,
                             TmTimelineLayout *layout,
                             gint64           *y_step)
{
  gboolean band = self->module_spans != NULL && self->module_spans->len > 0;
  double plot_w = MAX (1, width - TM_CHART_MARGIN_LEFT - TM_CHART_MARGIN_RIGHT);
  double plot_h = MAX (1, height - TM_CHART_MARGIN_TOP - TM_CHART_MARGIN_BOTTOM
                          - (band ? HLO_BAND_HEIGHT + HLO_BAND_GAP : 0));
  TmLod *lod;
  gint64 max_bytes = 0;
  TmYScale scale = self->y_scale;
  TmMemoryStore *baseline = self->session != NULL ? tm_session_get_baseline (self->session) : NULL;
  gint64 shift = baseline != NULL ? tm_session_get_baseline_shift (self->session) : 0;
  gint64 start = self->viewport != NULL ? tm_viewport_get_start (self->viewport) : 0;
  gint64 end = self->viewport != NULL ? tm_viewport_get_end (self->viewport) : 0;

  /* The same inputs give the same layout: the hover and the picking ask
   * for it on every motion. */
  if (self->layout_key.valid && self->layout_key.width == width && self->layout_key.height == height &&
      self->layout_key.start == start && self->layout_key.end == end &&
      self->layout_key.store == (gpointer) self->store && self->layout_key.baseline == (gpointer) baseline &&
      self->layout_key.baseline_shift == shift && self->layout_key.y_scale == (int) scale &&
      self->layout_key.band == band)
    {
      *layout = self->layout;
      if (y_step != NULL)
        *y_step = self->layout_y_step;
      return;
    }

  graphene_rect_init (&layout->plot, TM_CHART_MARGIN_LEFT, TM_CHART_MARGIN_TOP, plot_w, plot_h);
  if (band)
    graphene_rect_init (&layout->hlo_band, TM_CHART_MARGIN_LEFT, TM_CHART_MARGIN_TOP + plot_h + HLO_BAND_GAP,
                        plot_w, HLO_BAND_HEIGHT);
  else
    graphene_rect_init (&layout->hlo_band, TM_CHART_MARGIN_LEFT, TM_CHART_MARGIN_TOP + plot_h, plot_w, 0);

  lod = _tm_timeline_get_lod (self);
  if (lod != NULL && tm_lod_get_n_snapshots (lod) > 0)
    {
      if (scale == TM_Y_SCALE_FIT)
        max_bytes = visible_max_used (self, lod);
      else
        max_bytes = tm_memory_store_has_free_data (self->store)
                    ? tm_lod_get_max_total (lod)
                    : tm_lod_get_max_used (lod);
      /* A comparison's baseline fits too. */
      max_bytes = MAX (max_bytes, _tm_timeline_baseline_max (self, scale == TM_Y_SCALE_CAPACITY));
    }
  tm_axis_byte_scale (max_bytes, plot_h, &layout->y_max, &self->layout_y_step);
  if (y_step != NULL)
    *y_step = self->layout_y_step;

  self->layout = *layout;
  self->layout_key.width = width;
  self->layout_key.height = height;
  self->layout_key.start = start;
  self->layout_key.end = end;
  self->layout_key.store = self->store;
  self->layout_key.baseline = baseline;
  self->layout_key.baseline_shift = shift;
  self->layout_key.y_scale = (int) scale;
  self->layout_key.band = band;
  self->layout_key.valid = TRUE;
}

void
_tm_timeline_geometry (TmTimeline             *self,
                       const TmTimelineLayout *layout,
                       gint64                  y_step,
                       int                     width,
                       int                     height,
                       TmChartGeometry        *g)
{
  g->width = width;
  g->height = height;
  g->plot = (TmChartRect) { layout->plot.origin.x, layout->plot.origin.y,
                            layout->plot.size.width, layout->plot.size.height };
  g->hlo_band = (TmChartRect) { layout->hlo_band.origin.x, layout->hlo_band.origin.y,
                                layout->hlo_band.size.width, layout->hlo_band.size.height };
  g->start_ps = tm_viewport_get_start (self->viewport);
  g->end_ps = tm_viewport_get_end (self->viewport);
  g->y_max = layout->y_max;
  g->y_step = y_step;
}

void
_tm_timeline_current_layout (TmTimeline       *self,
                             TmTimelineLayout *layout)
{
  _tm_timeline_compute_layout (self,
                               gtk_widget_get_width (GTK_WIDGET (self)),
                               gtk_widget_get_height (GTK_WIDGET (self)),
                               layout, NULL);
}

double
_tm_timeline_time_to_x (TmTimeline             *self,
                        const TmTimelineLayout *layout,
                        gint64                  time_ps)
{
  return layout->plot.origin.x + tm_viewport_time_to_x (self->viewport, time_ps, layout->plot.size.width);
}

gboolean
_tm_timeline_get_shown_selection (TmTimeline *self,
                                  gint64     *time_ps)
{
  if (self->pending_selection_source != 0)
    {
      *time_ps = self->pending_time;
      return TRUE;
    }
  if (self->session != NULL && tm_session_get_has_selected_time (self->session))
    {
      *time_ps = tm_session_get_selected_time (self->session);
      return TRUE;
    }
  return FALSE;
}

/* The visible range changed. */
static void
invalidate_range (TmTimeline *self)
{
  g_clear_pointer (&self->range_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The store, the modules or the style changed. */
static void
invalidate (TmTimeline *self)
{
  self->layout_key.valid = FALSE;
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  invalidate_range (self);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                             */

static void
tm_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TmTimeline *self = TM_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  TmPalette palette;

  if (width <= 0 || height <= 0)
    return;

  tm_palette_init_for_widget (&palette, widget);

  if (self->cache_width != width ||
      self->cache_height != height ||
      self->cache_scale != scale ||
      self->cache_dark != palette.dark)
    {
      g_clear_pointer (&self->static_node, gsk_render_node_unref);
      g_clear_pointer (&self->range_node, gsk_render_node_unref);
      self->cache_width = width;
      self->cache_height = height;
      self->cache_scale = scale;
      self->cache_dark = palette.dark;
    }

  if (self->static_node == NULL)
    {
      GtkSnapshot *child = gtk_snapshot_new ();

      _tm_timeline_draw_static (self, child, width, height, &palette);
      self->static_node = gtk_snapshot_free_to_node (child);
    }
  if (self->range_node == NULL)
    {
      GtkSnapshot *child = gtk_snapshot_new ();

      _tm_timeline_draw_range (self, child, width, height, scale, &palette);
      self->range_node = gtk_snapshot_free_to_node (child);
    }

  if (self->static_node != NULL)
    gtk_snapshot_append_node (snapshot, self->static_node);
  if (self->range_node != NULL)
    gtk_snapshot_append_node (snapshot, self->range_node);

  _tm_timeline_draw_overlay (self, snapshot, width, height, &palette, TRUE);
}

GskRenderNode *
tm_timeline_render_node (TmTimeline *self,
                         int         width,
                         int         height)
{
  TmPalette palette;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  tm_palette_init_for_widget (&palette, GTK_WIDGET (self));
  return tm_timeline_render_node_with_palette (self, width, height, &palette);
}

GskRenderNode *
tm_timeline_render_node_with_palette (TmTimeline      *self,
                                      int              width,
                                      int              height,
                                      const TmPalette *given)
{
  GtkSnapshot *snapshot;
  TmPalette palette;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);
  g_return_val_if_fail (given != NULL, NULL);

  palette = *given;
  snapshot = gtk_snapshot_new ();
  _tm_timeline_draw_static (self, snapshot, width, height, &palette);
  _tm_timeline_draw_range (self, snapshot, width, height, 1, &palette);
  _tm_timeline_draw_overlay (self, snapshot, width, height, &palette, FALSE);

  return gtk_snapshot_free_to_node (snapshot);
}

/* ------------------------------------------------------------------ */
/* Following the session                                               */

static void
sync_store (TmTimeline *self)
{
  TmMemoryStore *store = self->session != NULL ? tm_session_get_memory_store (self->session) : NULL;

  if (self->store == store)
    return;

  g_set_object (&self->store, store);
  g_clear_pointer (&self->own_lod, tm_lod_free);
  self->layout_key.valid = FALSE;
  tm_series_layer_set_store (TM_SERIES_LAYER (self->series_layer), store);
  tm_line_layer_set_store (TM_LINE_LAYER (self->line_layer), store);
  g_clear_pointer (&self->described_markup, g_free);
  self->described_index = G_MAXUINT;
  self->hover_index = G_MAXUINT;
  self->hovering = FALSE;

  _tm_timeline_drop_pending_selection (self);
  _tm_timeline_update_actions (self);
  invalidate (self);
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const ModuleSpan *sa = a, *sb = b;

  if (sa->start_ps != sb->start_ps)
    return sa->start_ps < sb->start_ps ? -1 : 1;
  if (sa->end_ps != sb->end_ps)
    return sa->end_ps < sb->end_ps ? -1 : 1;
  return sa->index < sb->index ? -1 : sa->index > sb->index;
}

static void
sync_modules (TmTimeline *self)
{
  GArray *modules = self->session != NULL ? tm_session_get_hlo_modules (self->session) : NULL;

  if (modules == self->hlo_modules)
    return;

  if (modules != NULL)
    g_array_ref (modules);
  g_clear_pointer (&self->hlo_modules, g_array_unref);
  g_clear_pointer (&self->module_spans, g_array_unref);
  self->hlo_modules = modules;

  if (modules != NULL && modules->len > 0)
    {
      self->module_spans = g_array_sized_new (FALSE, FALSE, sizeof (ModuleSpan), modules->len);
      for (guint i = 0; i < modules->len; i++)
        {
          const TmHloModule *m = &g_array_index (modules, TmHloModule, i);
          ModuleSpan span = { m->start_ps, MAX (m->end_ps, m->start_ps), i };

          g_array_append_val (self->module_spans, span);
        }
      g_array_sort (self->module_spans, compare_spans);
    }

  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
selected_time_changed_cb (TmTimeline *self)
{
  /* A click not yet given to the session is overtaken. */
  _tm_timeline_drop_pending_selection (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
viewport_changed_cb (TmTimeline *self)
{
  _tm_timeline_range_viewport_changed (self);
  _tm_timeline_update_actions (self);
  if (self->y_scale == TM_Y_SCALE_FIT)
    invalidate (self);
  else
    invalidate_range (self);
  if (!self->dragging)
    _tm_timeline_update_hover (self);
}

/* ------------------------------------------------------------------ */
/* GObject                                                             */

static void
tm_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT + 160;
      *natural = TM_CHART_MARGIN_LEFT + TM_CHART_MARGIN_RIGHT + 800;
    }
  else
    {
      /* The legend row (in the top margin), the time ruler and a plot
       * with room for two byte ticks: the timeline is never allocated
       * less, so it never draws outside its allocation (docs/ui.md,
       * "Layout"). */
      *minimum = TM_CHART_MARGIN_TOP + TM_CHART_MARGIN_BOTTOM + 48
                 + (TM_TIMELINE (widget)->module_spans != NULL && TM_TIMELINE (widget)->module_spans->len > 0
                    ? HLO_BAND_HEIGHT + HLO_BAND_GAP : 0);
      *natural = TM_CHART_MARGIN_TOP + TM_CHART_MARGIN_BOTTOM + 260;
    }
}

static void
tm_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  /* The cache notices the new size in snapshot(); the hovered snapshot
   * under a still pointer changes with it. */
  _tm_timeline_update_hover (TM_TIMELINE (widget));
}

static void
tm_timeline_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tm_timeline_parent_class)->css_changed (widget, change);

  invalidate (TM_TIMELINE (widget));
}

static void
tm_timeline_dispose (GObject *object)
{
  TmTimeline *self = TM_TIMELINE (object);

  g_clear_handle_id (&self->pending_selection_source, g_source_remove);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->viewport);
  g_clear_object (&self->store);
  g_clear_pointer (&self->own_lod, tm_lod_free);
  g_clear_pointer (&self->hlo_modules, g_array_unref);
  g_clear_pointer (&self->module_spans, g_array_unref);
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  g_clear_pointer (&self->range_node, gsk_render_node_unref);
  g_clear_pointer (&self->described_markup, g_free);

  G_OBJECT_CLASS (tm_timeline_parent_class)->dispose (object);
}

static void
tm_timeline_finalize (GObject *object)
{
  TmTimeline *self = TM_TIMELINE (object);

  g_clear_object (&self->static_chart);
  g_clear_object (&self->range_chart);
  g_clear_object (&self->legend_layer);
  g_clear_object (&self->series_layer);
  g_clear_object (&self->line_layer);
  g_clear_object (&self->peak_layer);

  G_OBJECT_CLASS (tm_timeline_parent_class)->finalize (object);
}

static void
tm_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TmTimeline *self = TM_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;

    case PROP_Y_SCALE:
      g_value_set_enum (value, self->y_scale);
      break;

    case PROP_HIDDEN_SERIES:
      g_value_set_flags (value, self->hidden_series);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TmTimeline *self = TM_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      tm_timeline_set_session (self, g_value_get_object (value));
      break;

    case PROP_Y_SCALE:
      tm_timeline_set_y_scale (self, g_value_get_enum (value));
      break;

    case PROP_HIDDEN_SERIES:
      tm_timeline_set_hidden_series (self, g_value_get_flags (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_timeline_class_init (TmTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_timeline_dispose;
  object_class->finalize = tm_timeline_finalize;
  object_class->get_property = tm_timeline_get_property;
  object_class->set_property = tm_timeline_set_property;

  widget_class->snapshot = tm_timeline_snapshot;
  widget_class->measure = tm_timeline_measure;
  widget_class->size_allocate = tm_timeline_size_allocate;
  widget_class->query_tooltip = _tm_timeline_query_tooltip;
  widget_class->css_changed = tm_timeline_css_changed;

  /**
   * TmTimeline:session:
   *
   * The session whose memory store, viewport, HLO modules and selected
   * time the timeline shows.
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         TM_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * TmTimeline:y-scale:
   *
   * How tall the byte axis is: fit to the memory in view, or the device's
   * capacity (docs/ui.md, "Y scale"). The timeline's own state.
   */
  properties[PROP_Y_SCALE] =
    g_param_spec_enum ("y-scale", NULL, NULL,
                       TM_TYPE_Y_SCALE, TM_Y_SCALE_FIT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * TmTimeline:hidden-series:
   *
   * The series the user turned off in the legend or the main menu
   * (docs/ui.md, "Legend"). The timeline's own state.
   */
  properties[PROP_HIDDEN_SERIES] =
    g_param_spec_flags ("hidden-series", NULL, NULL,
                        TM_TYPE_SERIES_FLAGS, TM_SERIES_FLAG_NONE,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  _tm_timeline_input_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_timeline_init (TmTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  {
    g_autoptr(TmChartLayer) values = tm_axes_layer_new (TM_AXES_VALUES);
    g_autoptr(TmChartLayer) time = tm_axes_layer_new (TM_AXES_TIME);

    self->legend_layer = tm_legend_layer_new ();
    self->series_layer = tm_series_layer_new ();
    self->line_layer = tm_line_layer_new ();
    self->peak_layer = tm_mark_layer_new (TM_MARK_PEAK);
    self->static_chart = tm_chart_new ();
    tm_chart_add_layer (self->static_chart, values);
    tm_chart_add_layer (self->static_chart, self->legend_layer);
    self->range_chart = tm_chart_new ();
    tm_chart_add_layer (self->range_chart, time);
    tm_chart_add_layer (self->range_chart, self->series_layer);
    tm_chart_add_layer (self->range_chart, self->line_layer);
  }

  self->session_signals = g_signal_group_new (TM_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::memory-store", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::profile", G_CALLBACK (sync_modules), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::has-selected-time",
                                  G_CALLBACK (selected_time_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-allocation",
                                  G_CALLBACK (gtk_widget_queue_draw), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-time",
                                  G_CALLBACK (selected_time_changed_cb), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-scope",
                                  G_CALLBACK (invalidate_range), self);
  /* The selected scope's series waits for the scope index. */
  g_signal_group_connect_swapped (self->session_signals, "notify::scope-index",
                                  G_CALLBACK (invalidate_range), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::baseline", G_CALLBACK (invalidate), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::alignment", G_CALLBACK (invalidate), self);

  self->viewport_signals = g_signal_group_new (TM_TYPE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (viewport_changed_cb), self);

  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Stack, heap and free memory over time; scroll to zoom, drag to pan, click to select a time"),
                                  -1);

  _tm_timeline_tooltip_init (self);
  /* The legend's click (capture phase) first: GTK lists the controllers
   * last added first, and tests look for the timeline's own click. */
  _tm_timeline_legend_init (self);
  _tm_timeline_input_init (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
tm_timeline_new (TmSession *session)
{
  g_return_val_if_fail (session == NULL || TM_IS_SESSION (session), NULL);

  return g_object_new (TM_TYPE_TIMELINE, "session", session, NULL);
}

TmSession *
tm_timeline_get_session (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);

  return self->session;
}

void
tm_timeline_set_session (TmTimeline *self,
                         TmSession  *session)
{
  g_return_if_fail (TM_IS_TIMELINE (self));
  g_return_if_fail (session == NULL || TM_IS_SESSION (session));

  if (!g_set_object (&self->session, session))
    return;

  _tm_timeline_drop_pending_selection (self);
  if (session != NULL)
    g_set_object (&self->viewport, tm_session_get_viewport (session));
  else
    g_clear_object (&self->viewport);
  g_signal_group_set_target (self->session_signals, session);
  g_signal_group_set_target (self->viewport_signals, self->viewport);

  sync_modules (self);
  sync_store (self);
  _tm_timeline_update_actions (self);
  _tm_timeline_update_hover (self);
  invalidate (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

TmYScale
tm_timeline_get_y_scale (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), TM_Y_SCALE_FIT);

  return self->y_scale;
}

void
tm_timeline_set_y_scale (TmTimeline *self,
                         TmYScale    y_scale)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

  if (self->y_scale == y_scale)
    return;
  self->y_scale = y_scale;
  invalidate (self);
  _tm_timeline_update_hover (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_Y_SCALE]);
}

TmSeriesFlags
tm_timeline_get_hidden_series (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), TM_SERIES_FLAG_NONE);

  return self->hidden_series;
}

void
tm_timeline_set_hidden_series (TmTimeline    *self,
                               TmSeriesFlags  hidden)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

  if (self->hidden_series == hidden)
    return;
  self->hidden_series = hidden;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDDEN_SERIES]);
}

void
tm_timeline_toggle_series (TmTimeline    *self,
                           TmSeriesFlags  series)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

  tm_timeline_set_hidden_series (self, self->hidden_series ^ series);
}

void
tm_timeline_get_layout (TmTimeline       *self,
                        TmTimelineLayout *layout)
{
  g_return_if_fail (TM_IS_TIMELINE (self));
  g_return_if_fail (layout != NULL);

  _tm_timeline_current_layout (self, layout);
}
