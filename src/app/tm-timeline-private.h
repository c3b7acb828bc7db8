/* tm-timeline-private.h — what the timeline's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The timeline is one chart widget (a TmView) and its layer objects
 * (tm-timeline-chart.h, plus the pointer's: the hover and the rubber
 * band). Its files call one another one way only, each the ones below it
 * (tests/check-layering.py fails on a circle):
 *
 * tm-timeline.c         the widget: properties and actions, the session
 *                       and its queries followed, the geometry computed
 *                       once per size or range change, snapshot() and
 *                       measure, the exports' chart
 * tm-timeline-input.c   gestures, key bindings, the pointer and a click
 *                       not yet given to the session; the tooltip
 * tm-timeline-layers.c  the layers' inputs set from the widget's state,
 *                       the geometry, drawing the layers as render nodes,
 *                       and what is under a point (time, legend entry,
 *                       HLO module)
 * tm-timeline-text.c    the words: a snapshot's event, a module, a legend
 *                       entry, a range's figures
 */
#pragma once

#include "tm-chart.h"
#include "tm-palette.h"
#include "tm-session.h"
#include "tm-timeline.h"
#include "tm-timeline-chart.h"

G_BEGIN_DECLS

/* Where things go, for tests and code that maps pointer positions: the
 * geometry's rectangles. */
typedef struct
{
  graphene_rect_t plot;       /* the data area */
  graphene_rect_t hlo_band;   /* empty when there are no modules */
  gint64          y_max;      /* bytes at the top of the plot */
} TmTimelineLayout;

/* What a range holds (docs/ui.md, "Range figures"): memory in use
 * (stack + heap) at its start and end (the state the last snapshot at or
 * before each left), their difference, and the highest within it with the
 * first time it was reached. */
typedef struct
{
  gint64 start_ps;
  gint64 end_ps;
  gint64 start_bytes;
  gint64 end_bytes;
  gint64 delta_bytes;
  gint64 peak_bytes;
  gint64 peak_time_ps;
} TmRangeFigures;

struct _TmTimeline
{
  TmView           parent_instance;

  /* The timeline's own state. */
  TmYScale         y_scale;
  TmSeriesFlags    hidden_series;

  /* Followed from the session and its queries. */
  TmMemoryStore   *store;
  TmViewport      *viewport;
  GArray          *hlo_modules;    /* TmHloModule, referenced */
  GSignalGroup    *viewport_signals;
  GSignalGroup    *allocations_signals;
  GSignalGroup    *series_signals;
  GSignalGroup    *viewer_signals;

  /* The Memory Viewer's module (the session's static selection) over its
   * executions: TmPlanLevel, or NULL when none is drawn. */
  GArray          *plan_levels;
  char            *plan_module;
  gint64           plan_peak;

  /* The layers, and the pointer's own. */
  TmTimelineLayers layers;
  TmChartLayer    *no_data_layer;
  TmChartLayer    *hover_layer;
  TmChartLayer    *band_layer;

  /* The geometry of the widget's size and the visible range, computed
   * when either (or what the value axis holds) changes, and read by every
   * hover. */
  TmChartGeometry  geometry;

  /* The cached render nodes: what does not move with the visible range,
   * what does, and what follows the selections (made again when they
   * change); and the style they were drawn in. */
  GskRenderNode   *static_node;
  GskRenderNode   *range_node;
  GskRenderNode   *marks_node;
  int              cache_scale;
  gboolean         cache_dark;

  /* Pointer */
  double           pointer_x;
  gint64           hover_time;     /* the time under the pointer */
  guint            hover_index;    /* the state then: G_MAXUINT for none */
  guint            hovering : 1;
  guint            described_index;
  char            *described_markup;

  /* A clicked time, drawn at once and given to the session when it is
   * known not to be the first half of a double-click. */
  gint64           pending_time;
  guint            pending_selection_source;

  /* Gestures */
  gint64           drag_view_start;
  gint64           drag_view_end;
  double           drag_start_x;
  double           band_x0;
  double           band_x1;
  gint64           pinch_span;
  gint64           pinch_anchor;

  guint            pointer_inside : 1;
  guint            dragging : 1;
  guint            banding : 1;
  guint            drag_moved : 1;
  guint            double_clicked : 1;
  guint            over_legend : 1;
  guint            range_shown : 1;

  /* The range a rubber band zoomed to, described while it is the view. */
  gint64           range_start;
  gint64           range_end;
};

/* Whether there is anything to draw: a memory store with snapshots. */
static inline gboolean
_tm_timeline_has_data (TmTimeline *self)
{
  return self->store != NULL && tm_memory_store_get_n_snapshots (self->store) > 0;
}

/* tm-timeline-layers.c */
/* The geometry of a width × height timeline for the visible range. */
void     _tm_timeline_compute_geometry      (TmTimeline            *self,
                                             int                    width,
                                             int                    height,
                                             TmChartGeometry       *geometry);
/* Computes the widget's geometry again; TRUE (and the cached nodes
 * dropped) when it changed. */
gboolean _tm_timeline_update_geometry       (TmTimeline            *self);
/* The inputs of layers (the widget's own, or an export's), from the
 * widget's state, the session and its queries. */
void     _tm_timeline_sync_store            (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
void     _tm_timeline_sync_scope            (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
void     _tm_timeline_sync_baseline         (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
void     _tm_timeline_sync_selection        (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
void     _tm_timeline_sync_lifetime         (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
void     _tm_timeline_sync_readout          (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
/* The widget's hover and rubber band layers. */
void     _tm_timeline_sync_pointer          (TmTimeline            *self);
/* The layers of width × height, uncached: what does not move with the
 * range, what does, what follows the selections (the selected time, the
 * selected allocation's lifetime, the range read-out); on screen the
 * focus ring and the pointer (the hover, the rubber band). */
void     _tm_timeline_draw_static           (TmTimeline            *self,
                                             GtkSnapshot           *snapshot,
                                             const TmChartGeometry *geometry,
                                             const TmPalette       *palette);
void     _tm_timeline_draw_range            (TmTimeline            *self,
                                             GtkSnapshot           *snapshot,
                                             const TmChartGeometry *geometry,
                                             const TmPalette       *palette);
void     _tm_timeline_draw_marks            (TmTimeline            *self,
                                             GtkSnapshot           *snapshot,
                                             const TmChartGeometry *geometry,
                                             const TmPalette       *palette);
void     _tm_timeline_draw_focus            (TmTimeline            *self,
                                             GtkSnapshot           *snapshot,
                                             const TmChartGeometry *geometry,
                                             const TmPalette       *palette);
void     _tm_timeline_draw_pointer          (TmTimeline            *self,
                                             GtkSnapshot           *snapshot,
                                             const TmChartGeometry *geometry,
                                             const TmPalette       *palette);
/* The planned level of the session's static selection (its module's
 * static peak over its executions) computed again, and its layer's
 * inputs. */
void     _tm_timeline_update_plan           (TmTimeline            *self);
void     _tm_timeline_sync_plan             (TmTimeline            *self,
                                             TmTimelineLayers      *layers);
/* The planned level under (x, y): an index of plan_levels, or -1. */
int      _tm_timeline_plan_at               (TmTimeline            *self,
                                             double                 x,
                                             double                 y);
/* The HLO module run under (x, y) (an index of the profile's modules), or
 * -1. */
int      _tm_timeline_module_at             (TmTimeline            *self,
                                             double                 x,
                                             double                 y);

/* tm-timeline-input.c */
void     _tm_timeline_input_class_init      (GtkWidgetClass        *widget_class);
void     _tm_timeline_input_init            (TmTimeline            *self);
void     _tm_timeline_update_actions        (TmTimeline            *self);
/* The pointer's time and state again (the range, the size or the data
 * moved under it). */
void     _tm_timeline_update_hover          (TmTimeline            *self);
/* Forgets a click not yet given to the session. */
void     _tm_timeline_drop_pending_selection (TmTimeline           *self);
/* The view changed: the range read-out ends unless it is still the
 * range a band zoomed to. */
void     _tm_timeline_range_viewport_changed (TmTimeline           *self);
/* Shows the module of an execution (an index of the profile's modules) on
 * the Memory Viewer page: what a click on it does. */
void     _tm_timeline_open_module           (TmTimeline            *self,
                                             guint                  execution);
gboolean _tm_timeline_query_tooltip         (GtkWidget             *widget,
                                             int                    x,
                                             int                    y,
                                             gboolean               keyboard_mode,
                                             GtkTooltip            *tooltip);

/* tm-timeline-text.c */
char    *_tm_timeline_describe_module       (TmTimeline            *self,
                                             guint                  index);
/* The tooltip of planned level index (of plan_levels): the plan, what
 * the allocator held and why they differ (Pango markup). */
char    *_tm_timeline_describe_plan         (TmTimeline            *self,
                                             guint                  index);
char    *_tm_timeline_legend_tooltip        (TmTimeline            *self,
                                             TmSeriesFlags          series);
/* "time · bytes in use", above the plot while the pointer is over it. */
char    *_tm_timeline_hover_readout         (TmTimeline            *self,
                                             gint64                 time_ps,
                                             gint64                 used);

/* ------------------------------------------------------------------ */
/* For the tests and the benchmark: what the widget answers, without
 * driving a pointer. */

/* What a pointer at widget x (any y) answers for: the time under it, and
 * the state at that time, the last snapshot at or before it (index;
 * G_MAXUINT before the first snapshot). FALSE when x is outside the plot
 * or there is no data. */
gboolean       tm_timeline_pick               (TmTimeline      *self,
                                               double           x,
                                               guint           *index);
gboolean       tm_timeline_pick_time          (TmTimeline      *self,
                                               double           x,
                                               gint64          *time_ps,
                                               guint           *index);
/* The legend toggle at widget (x, y) (docs/ui.md, "Legend"), or
 * TM_SERIES_FLAG_NONE. */
TmSeriesFlags  tm_timeline_legend_at          (TmTimeline      *self,
                                               double           x,
                                               double           y);
/* The figures of [start_ps, end_ps]; FALSE without data. */
gboolean       tm_timeline_range_figures      (TmTimeline      *self,
                                               gint64           start_ps,
                                               gint64           end_ps,
                                               TmRangeFigures  *out);
/* Zooms to [start_ps, end_ps] and shows its figures above the plot until
 * the view changes otherwise: what a rubber band does when released. */
void           tm_timeline_show_range         (TmTimeline      *self,
                                               gint64           start_ps,
                                               gint64           end_ps);
/* The figures the read-out shows: the band being dragged, else the range
 * a band zoomed to while it is still the view; FALSE when none. */
gboolean       tm_timeline_get_shown_range    (TmTimeline      *self,
                                               TmRangeFigures  *out);
/* The read-out's text for figures. */
char          *tm_timeline_describe_range     (TmTimeline           *self,
                                               const TmRangeFigures *figures);
/* Text of the hover tooltip for snapshot index (Pango markup). */
char          *tm_timeline_describe_snapshot  (TmTimeline      *self,
                                               guint            index);
/* The out-of-memory line of a PyTorch snapshot at widget (x, y), within
 * a few pixels: NULL when there is none. */
const TmOutOfMemory *tm_timeline_out_of_memory_at (TmTimeline *self,
                                               double           x,
                                               double           y);
/* Its tooltip (Pango markup). */
char          *tm_timeline_describe_out_of_memory (TmTimeline          *self,
                                               const TmOutOfMemory *oom);

/* Layout for the current size. */
void           tm_timeline_get_layout         (TmTimeline      *self,
                                               TmTimelineLayout *layout);

/* Builds what snapshot() draws for a width × height widget (the data, the
 * axes and the selection; no hover), uncached: for the tests and the
 * benchmark. */
GskRenderNode *tm_timeline_render_node        (TmTimeline      *self,
                                               int              width,
                                               int              height);
G_END_DECLS
