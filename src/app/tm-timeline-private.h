/* tm-timeline-private.h — what the timeline's files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-timeline.c         the widget: properties, session wiring, caching
 *                       and snapshot(), measure; the layout, once per
 *                       size or range
 *                       (the chart layers of src/charts draw the axes,
 *                       legend, series, fragmentation and peak)
 * tm-timeline-layers.c  what is drawn: the axes and legend, the range
 *                       layer (series image, HLO band, peak) and the
 *                       overlay (selection, hover, rubber band)
 * tm-timeline-input.c   gestures, widget actions and key bindings
 * tm-timeline-tooltip.c hover, picking and the tooltip text
 * tm-timeline-baseline.c a comparison's baseline, as an outline
 * tm-timeline-legend.c  the legend, whose entries toggle their series
 * tm-timeline-range.c   the figures of a rubber band or the range it zoomed to
 */
#pragma once

#include "tm-axis.h"
#include "tm-chart.h"
#include "tm-lod.h"
#include "tm-palette.h"
#include "tm-session.h"
#include "tm-timeline.h"

G_BEGIN_DECLS

/* Where things go, for the parts and for code that maps pointer positions. */
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

#define HLO_BAND_HEIGHT  8
#define HLO_BAND_GAP     3

typedef struct
{
  gint64 start_ps;
  gint64 end_ps;
  guint  index;      /* into the session's HLO modules */
} ModuleSpan;

struct _TmTimeline
{
  GtkWidget        parent_instance;

  TmSession       *session;
  GSignalGroup    *session_signals;

  /* The timeline's own state. */
  TmYScale         y_scale;
  TmSeriesFlags    hidden_series;
  GSignalGroup    *viewport_signals;

  /* Followed from the session. */
  TmMemoryStore   *store;
  TmViewport      *viewport;
  TmLod           *own_lod;        /* when the store has none */
  GArray          *hlo_modules;    /* TmHloModule, referenced */
  GArray          *module_spans;   /* ModuleSpan sorted by start */

  /* The cached layers and what they were built for: the axes and legend
   * (size, store, style), and what moves with the visible range. */
  GskRenderNode   *static_node;
  GskRenderNode   *range_node;
  int              cache_width;
  int              cache_height;
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

  /* The layout, computed once for what it depends on (size, range,
   * store, scale, baseline, modules) and reused by every hover. */
  TmTimelineLayout layout;
  gint64           layout_y_step;
  struct {
    int            width;
    int            height;
    gint64         start;
    gint64         end;
    gpointer       store;
    gpointer       baseline;
    gint64         baseline_shift;
    int            y_scale;
    gboolean       band;
    gboolean       valid;
  }                layout_key;

  /* What the chart layers draw (tm-chart-layer.h): the value axes and the
   * legend (static), the time ruler, the series and the fragmentation
   * (with the range), and the peak's mark. */
  TmChart         *static_chart;
  TmChart         *range_chart;
  TmChartLayer    *legend_layer;
  TmChartLayer    *series_layer;
  TmChartLayer    *line_layer;
  TmChartLayer    *peak_layer;
};

/* tm-timeline.c */
TmLod   *_tm_timeline_get_lod                  (TmTimeline *self);
gboolean _tm_timeline_has_data                 (TmTimeline *self);
void     _tm_timeline_compute_layout           (TmTimeline       *self,
                                                int               width,
                                                int               height,
                                                TmTimelineLayout *layout,
                                                gint64           *y_step);
void     _tm_timeline_current_layout           (TmTimeline       *self,
                                                TmTimelineLayout *layout);
double   _tm_timeline_time_to_x                (TmTimeline             *self,
                                                const TmTimelineLayout *layout,
                                                gint64                  time_ps);
/* The selection drawn: a pending click, else the session's selected time. */
gboolean _tm_timeline_get_shown_selection      (TmTimeline *self,
                                                gint64     *time_ps);

/* The chart geometry of a layout. */
void     _tm_timeline_geometry                 (TmTimeline             *self,
                                                const TmTimelineLayout *layout,
                                                gint64                  y_step,
                                                int                     width,
                                                int                     height,
                                                TmChartGeometry        *geometry);

/* tm-timeline-layers.c */
void     _tm_timeline_append_dot               (GtkSnapshot   *snapshot,
                                                const GdkRGBA *ring,
                                                const GdkRGBA *fill,
                                                double         x,
                                                double         y,
                                                double         radius);
void     _tm_timeline_draw_static              (TmTimeline      *self,
                                                GtkSnapshot     *snapshot,
                                                int              width,
                                                int              height,
                                                const TmPalette *palette);
void     _tm_timeline_draw_range               (TmTimeline      *self,
                                                GtkSnapshot     *snapshot,
                                                int              width,
                                                int              height,
                                                int              scale,
                                                const TmPalette *palette);
void     _tm_timeline_draw_overlay             (TmTimeline      *self,
                                                GtkSnapshot     *snapshot,
                                                int              width,
                                                int              height,
                                                const TmPalette *palette,
                                                gboolean         with_pointer);

/* tm-timeline-input.c */
void     _tm_timeline_input_class_init         (GtkWidgetClass *widget_class);
void     _tm_timeline_input_init               (TmTimeline *self);
void     _tm_timeline_update_actions           (TmTimeline *self);
/* Forgets a click not yet given to the session. */
void     _tm_timeline_drop_pending_selection   (TmTimeline *self);

/* tm-timeline-tooltip.c */
void     _tm_timeline_tooltip_init             (TmTimeline *self);
gboolean _tm_timeline_query_tooltip            (GtkWidget  *widget,
                                                int         x,
                                                int         y,
                                                gboolean    keyboard_mode,
                                                GtkTooltip *tooltip);
void     _tm_timeline_set_hover                (TmTimeline *self,
                                                gboolean    hovering,
                                                gint64      time_ps,
                                                guint       index);
void     _tm_timeline_update_hover             (TmTimeline *self);
void     _tm_timeline_draw_hover               (TmTimeline             *self,
                                                GtkSnapshot            *snapshot,
                                                PangoLayout            *text,
                                                const TmTimelineLayout *layout,
                                                const TmPalette        *palette);

/* tm-timeline-baseline.c */
/* The most the session's baseline has in use in the visible range (or its
 * capacity), for the y scale; 0 without one. */
gint64   _tm_timeline_baseline_max             (TmTimeline *self,
                                                gboolean    capacity);
void     _tm_timeline_draw_baseline            (TmTimeline             *self,
                                                GtkSnapshot            *snapshot,
                                                PangoLayout            *text,
                                                const TmTimelineLayout *layout,
                                                const TmPalette        *palette);

/* tm-timeline-legend.c */
void          _tm_timeline_legend_init         (TmTimeline      *self);
/* The toggle under (x, y), or TM_SERIES_FLAG_NONE. */
TmSeriesFlags _tm_timeline_legend_at           (TmTimeline      *self,
                                                double           x,
                                                double           y);
char         *_tm_timeline_legend_tooltip      (TmTimeline      *self,
                                                TmSeriesFlags    series);

/* tm-timeline-range.c */
void          _tm_timeline_range_viewport_changed (TmTimeline *self);
void          _tm_timeline_draw_range_figures  (TmTimeline             *self,
                                                GtkSnapshot            *snapshot,
                                                PangoLayout            *text,
                                                const TmTimelineLayout *layout,
                                                const TmPalette        *palette);

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

/* Layout for the current size. */
void           tm_timeline_get_layout         (TmTimeline      *self,
                                               TmTimelineLayout *layout);

/* Builds what snapshot() draws for a width × height widget (the data, the
 * axes and the selection; no hover), uncached: for exporting the timeline
 * as an image (gsk_render_node_draw() on a cairo PNG or SVG surface) and
 * for the benchmark. */
GskRenderNode *tm_timeline_render_node        (TmTimeline      *self,
                                               int              width,
                                               int              height);
G_END_DECLS
