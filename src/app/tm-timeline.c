/* tm-timeline.c — the memory timeline widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view (TmView) that follows its session: the memory store, the
 * viewport, the HLO modules of the profile, the selected time, scope and
 * allocation, a comparison's baseline and the Memory Viewer's module,
 * with what is made of them from the session's query objects (the
 * allocation index, the selected scope's series, the modules' plans). Each change sets the inputs of the layers it concerns
 * (tm-timeline-layers.c) and the geometry is computed again only when the
 * size, the range or what the value axis holds changes. Two render nodes
 * are cached: what does not move with the visible range (value axes,
 * legend) and what does; the selections and the pointer are drawn over
 * them every frame.
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-allocations-query.h"
#include "tm-chart-axes.h"
#include "tm-hover-layer.h"
#include "tm-memory-viewer-query.h"
#include "tm-note-layer.h"
#include "tm-scope-series-query.h"
#include "tm-span-layer.h"
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

G_DEFINE_FINAL_TYPE (TmTimeline, tm_timeline, TM_TYPE_VIEW)

enum {
  PROP_0,
  PROP_Y_SCALE,
  PROP_HIDDEN_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------ */
/* Following the session                                                */

/* What moves with the visible range changed. */
static void
invalidate_range (TmTimeline *self)
{
  g_clear_pointer (&self->range_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Everything changed: the store, the modules, the scale or the style. */
static void
invalidate (TmTimeline *self)
{
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  g_clear_pointer (&self->marks_node, gsk_render_node_unref);
  invalidate_range (self);
}

/* What the value axis holds changed: the geometry, then everything. */
static void
relayout (TmTimeline *self)
{
  _tm_timeline_update_geometry (self);
  invalidate (self);
  _tm_timeline_update_hover (self);
}

static void
sync_store (TmTimeline *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmMemoryStore *store = session != NULL ? tm_session_get_memory_store (session) : NULL;

  if (self->store == store)
    return;

  g_set_object (&self->store, store);
  _tm_timeline_sync_store (self, &self->layers);
  _tm_timeline_update_plan (self);
  _tm_timeline_sync_scope (self, &self->layers);
  _tm_timeline_sync_selection (self, &self->layers);
  _tm_timeline_sync_readout (self, &self->layers);
  g_clear_pointer (&self->described_markup, g_free);
  self->described_index = G_MAXUINT;
  self->hover_index = G_MAXUINT;
  self->hovering = FALSE;

  _tm_timeline_drop_pending_selection (self);
  _tm_timeline_update_actions (self);
  relayout (self);
}

static void
sync_modules (TmTimeline *self)
{
  TmSession *session = tm_view_get_session (TM_VIEW (self));
  TmProfile *profile = session != NULL ? tm_session_get_profile (session) : NULL;
  GArray *modules = profile != NULL ? tm_profile_get_hlo_modules (profile) : NULL;

  if (modules == self->hlo_modules)
    return;

  if (modules != NULL)
    g_array_ref (modules);
  g_clear_pointer (&self->hlo_modules, g_array_unref);
  self->hlo_modules = modules;
  tm_timeline_layers_set_modules (&self->layers, modules);
  _tm_timeline_update_plan (self);
  relayout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
selected_time_changed_cb (TmTimeline *self)
{
  /* A click not yet given to the session is overtaken. */
  _tm_timeline_drop_pending_selection (self);
  _tm_timeline_sync_selection (self, &self->layers);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
selected_allocation_changed_cb (TmTimeline *self)
{
  _tm_timeline_sync_lifetime (self, &self->layers);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The selected scope, or its series (which waits for the scope index). */
static void
scope_changed_cb (TmTimeline *self)
{
  _tm_timeline_sync_scope (self, &self->layers);
  _tm_timeline_sync_readout (self, &self->layers);
  invalidate_range (self);
}

static void
baseline_changed_cb (TmTimeline *self)
{
  _tm_timeline_sync_baseline (self, &self->layers);
  relayout (self);
}

/* The Memory Viewer's module, or the plans that give its static peak. */
static void
plan_changed_cb (TmTimeline *self)
{
  _tm_timeline_update_plan (self);
  relayout (self);
}

static void
viewport_changed_cb (TmTimeline *self)
{
  _tm_timeline_range_viewport_changed (self);
  _tm_timeline_update_actions (self);
  _tm_timeline_update_geometry (self);
  _tm_timeline_sync_readout (self, &self->layers);
  if (!self->dragging)
    _tm_timeline_update_hover (self);
}

static void
tm_timeline_session_changed (TmView    *view,
                             TmSession *old_session)
{
  TmTimeline *self = TM_TIMELINE (view);
  TmSession *session = tm_view_get_session (view);

  _tm_timeline_drop_pending_selection (self);
  g_clear_object (&self->viewport);
  if (session != NULL)
    self->viewport = g_object_ref (tm_session_get_viewport (session));
  g_signal_group_set_target (self->viewport_signals, self->viewport);
  g_signal_group_set_target (self->allocations_signals,
                             session != NULL ? tm_allocations_query_get_for_session (session) : NULL);
  g_signal_group_set_target (self->series_signals,
                             session != NULL ? tm_scope_series_query_get_for_session (session) : NULL);
  g_signal_group_set_target (self->viewer_signals,
                             session != NULL ? tm_memory_viewer_query_get_for_session (session) : NULL);

  sync_modules (self);
  sync_store (self);
  _tm_timeline_sync_scope (self, &self->layers);
  _tm_timeline_sync_baseline (self, &self->layers);
  _tm_timeline_sync_selection (self, &self->layers);
  _tm_timeline_sync_lifetime (self, &self->layers);
  _tm_timeline_sync_readout (self, &self->layers);
  _tm_timeline_update_plan (self);
  _tm_timeline_update_actions (self);
  relayout (self);
}

/* ------------------------------------------------------------------ */
/* Drawing                                                              */

static void
tm_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TmTimeline *self = TM_TIMELINE (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  TmPalette palette;

  if (gtk_widget_get_width (widget) <= 0 || gtk_widget_get_height (widget) <= 0)
    return;

  tm_palette_init_for_widget (&palette, widget);
  if (self->cache_scale != scale || self->cache_dark != palette.dark)
    {
      invalidate (self);
      self->cache_scale = scale;
      self->cache_dark = palette.dark;
    }

  if (self->static_node == NULL)
    {
      GtkSnapshot *child = gtk_snapshot_new ();

      _tm_timeline_draw_static (self, child, &self->geometry, &palette);
      self->static_node = gtk_snapshot_free_to_node (child);
    }
  if (self->range_node == NULL)
    {
      GtkSnapshot *child = gtk_snapshot_new ();

      _tm_timeline_draw_range (self, child, &self->geometry, &palette);
      self->range_node = gtk_snapshot_free_to_node (child);
    }

  if (self->marks_node == NULL)
    {
      GtkSnapshot *child = gtk_snapshot_new ();

      _tm_timeline_draw_marks (self, child, &self->geometry, &palette);
      self->marks_node = gtk_snapshot_free_to_node (child);
    }

  if (self->static_node != NULL)
    gtk_snapshot_append_node (snapshot, self->static_node);
  if (self->range_node != NULL)
    gtk_snapshot_append_node (snapshot, self->range_node);
  _tm_timeline_draw_focus (self, snapshot, &self->geometry, &palette);
  if (self->marks_node != NULL)
    gtk_snapshot_append_node (snapshot, self->marks_node);
  _tm_timeline_draw_pointer (self, snapshot, &self->geometry, &palette);
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
                                      const TmPalette *palette)
{
  GtkSnapshot *snapshot;
  TmChartGeometry geometry;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);
  g_return_val_if_fail (palette != NULL, NULL);

  _tm_timeline_compute_geometry (self, width, height, &geometry);
  snapshot = gtk_snapshot_new ();
  _tm_timeline_draw_static (self, snapshot, &geometry, palette);
  _tm_timeline_draw_range (self, snapshot, &geometry, palette);
  _tm_timeline_draw_marks (self, snapshot, &geometry, palette);

  return gtk_snapshot_free_to_node (snapshot);
}

TmChart *
tm_timeline_build_chart (TmTimeline *self,
                         int         width,
                         int         height)
{
  TmTimelineLayers layers;
  TmChartGeometry geometry;
  TmChart *chart;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);

  if (!_tm_timeline_has_data (self))
    return NULL;

  /* Layers of its own: the export draws them in a worker while these
   * follow the pointer. */
  tm_timeline_layers_init (&layers);
  _tm_timeline_sync_store (self, &layers);
  _tm_timeline_sync_scope (self, &layers);
  _tm_timeline_sync_baseline (self, &layers);
  _tm_timeline_sync_selection (self, &layers);
  _tm_timeline_sync_lifetime (self, &layers);
  _tm_timeline_sync_readout (self, &layers);
  _tm_timeline_sync_plan (self, &layers);
  _tm_timeline_compute_geometry (self, MAX (width, 1), MAX (height, 1), &geometry);
  chart = tm_timeline_layers_to_chart (&layers, &geometry);
  tm_timeline_layers_clear (&layers);
  return chart;
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
  TmTimeline *self = TM_TIMELINE (widget);

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
                 + (self->hlo_modules != NULL && self->hlo_modules->len > 0
                    ? TM_CHART_HLO_BAND_HEIGHT + TM_CHART_HLO_BAND_GAP : 0);
      *natural = TM_CHART_MARGIN_TOP + TM_CHART_MARGIN_BOTTOM + 260;
    }
}

static void
tm_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  TmTimeline *self = TM_TIMELINE (widget);

  /* The geometry for the new size; the state under a still pointer
   * changes with it. */
  _tm_timeline_update_geometry (self);
  _tm_timeline_sync_pointer (self);
  _tm_timeline_update_hover (self);
}

static void
tm_timeline_css_changed (GtkWidget         *widget,
                         GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tm_timeline_parent_class)->css_changed (widget, change);

  invalidate (TM_TIMELINE (widget));
}

static void
toggle_series_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  tm_timeline_toggle_series (TM_TIMELINE (widget), g_variant_get_uint32 (parameter));
}

static void
tm_timeline_dispose (GObject *object)
{
  TmTimeline *self = TM_TIMELINE (object);

  g_clear_handle_id (&self->pending_selection_source, g_source_remove);
  g_clear_object (&self->viewport_signals);
  g_clear_object (&self->allocations_signals);
  g_clear_object (&self->series_signals);
  g_clear_object (&self->viewer_signals);
  g_clear_pointer (&self->plan_levels, g_array_unref);
  g_clear_pointer (&self->plan_module, g_free);
  g_clear_object (&self->viewport);
  g_clear_object (&self->store);
  g_clear_pointer (&self->hlo_modules, g_array_unref);
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  g_clear_pointer (&self->range_node, gsk_render_node_unref);
  g_clear_pointer (&self->marks_node, gsk_render_node_unref);
  g_clear_pointer (&self->described_markup, g_free);

  G_OBJECT_CLASS (tm_timeline_parent_class)->dispose (object);
}

static void
tm_timeline_finalize (GObject *object)
{
  TmTimeline *self = TM_TIMELINE (object);

  tm_timeline_layers_clear (&self->layers);
  g_clear_object (&self->no_data_layer);
  g_clear_object (&self->hover_layer);
  g_clear_object (&self->band_layer);

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
  TmViewClass *view_class = TM_VIEW_CLASS (klass);

  object_class->dispose = tm_timeline_dispose;
  object_class->finalize = tm_timeline_finalize;
  object_class->get_property = tm_timeline_get_property;
  object_class->set_property = tm_timeline_set_property;

  widget_class->snapshot = tm_timeline_snapshot;
  widget_class->measure = tm_timeline_measure;
  widget_class->size_allocate = tm_timeline_size_allocate;
  widget_class->query_tooltip = _tm_timeline_query_tooltip;
  widget_class->css_changed = tm_timeline_css_changed;

  view_class->session_changed = tm_timeline_session_changed;

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

  /* A legend entry's click (tm-timeline-input.c) toggles its series. */
  gtk_widget_class_install_action (widget_class, "timeline.toggle-series", "u", toggle_series_action);
  _tm_timeline_input_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_timeline_init (TmTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GSignalGroup *session_signals = tm_view_get_session_signals (TM_VIEW (self));

  tm_timeline_layers_init (&self->layers);
  self->no_data_layer = tm_note_layer_new (TM_NOTE_CHART_CENTER);
  tm_note_layer_set_text (TM_NOTE_LAYER (self->no_data_layer), _("No memory data"), 0);
  self->hover_layer = tm_hover_layer_new ();
  self->band_layer = tm_span_layer_new (TM_SPAN_SELECTION);
  tm_chart_geometry_init (&self->geometry, 0, 0, FALSE, 0, 1, 0);

  g_signal_group_connect_swapped (session_signals, "notify::memory-store", G_CALLBACK (sync_store), self);
  g_signal_group_connect_swapped (session_signals, "notify::profile", G_CALLBACK (sync_modules), self);
  g_signal_group_connect_swapped (session_signals, "notify::has-selected-time",
                                  G_CALLBACK (selected_time_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-time",
                                  G_CALLBACK (selected_time_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-allocation",
                                  G_CALLBACK (selected_allocation_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::selected-scope", G_CALLBACK (scope_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::baseline", G_CALLBACK (baseline_changed_cb), self);
  g_signal_group_connect_swapped (session_signals, "notify::alignment", G_CALLBACK (baseline_changed_cb), self);

  self->viewport_signals = g_signal_group_new (TM_TYPE_VIEWPORT);
  g_signal_group_connect_swapped (self->viewport_signals, "changed", G_CALLBACK (viewport_changed_cb), self);
  /* The allocation index comes after the memory store. */
  self->allocations_signals = g_signal_group_new (TM_TYPE_ALLOCATIONS_QUERY);
  g_signal_group_connect_swapped (self->allocations_signals, "notify::allocations",
                                  G_CALLBACK (selected_allocation_changed_cb), self);
  /* The selected scope's series waits for the scope index. */
  self->series_signals = g_signal_group_new (TM_TYPE_SCOPE_SERIES_QUERY);
  g_signal_group_connect_swapped (self->series_signals, "notify::series", G_CALLBACK (scope_changed_cb), self);
  /* The module's static peak waits for the modules' plans. */
  g_signal_group_connect_swapped (session_signals, "notify::static-selection", G_CALLBACK (plan_changed_cb), self);
  self->viewer_signals = g_signal_group_new (TM_TYPE_MEMORY_VIEWER_QUERY);
  g_signal_group_connect_swapped (self->viewer_signals, "notify::state", G_CALLBACK (plan_changed_cb), self);

  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Stack, heap and free memory over time; scroll to zoom, drag to pan, click to select a time"),
                                  -1);

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
  relayout (self);
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
  _tm_timeline_sync_store (self, &self->layers);
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

int
tm_timeline_get_module_at (TmTimeline *self,
                           double      x,
                           double      y)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), -1);

  return _tm_timeline_module_at (self, x, y);
}

void
tm_timeline_get_layout (TmTimeline       *self,
                        TmTimelineLayout *layout)
{
  const TmChartGeometry *g;

  g_return_if_fail (TM_IS_TIMELINE (self));
  g_return_if_fail (layout != NULL);

  g = &self->geometry;
  graphene_rect_init (&layout->plot, g->plot.x, g->plot.y, g->plot.width, g->plot.height);
  graphene_rect_init (&layout->hlo_band, g->hlo_band.x, g->hlo_band.y, g->hlo_band.width, g->hlo_band.height);
  layout->y_max = g->y_max;
}
