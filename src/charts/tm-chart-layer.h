/* tm-chart-layer.h — one part of a chart, which draws itself
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A chart (tm-chart) is a list of layers drawn in order over one geometry:
 * the plot rectangle, the time range shown and the value axis. A layer
 * draws from that geometry and the inputs it was given (data, colours,
 * flags) and knows nothing of the other layers or of the widget showing
 * it, so the same layer draws on screen, into a PNG and into an SVG.
 *
 * The geometry is computed once per size or range change
 * (tm_chart_geometry_init()) and handed to every layer; a layer never
 * computes it again.
 */
#pragma once

#include <glib-object.h>

#include "tm-chart-canvas.h"

G_BEGIN_DECLS

/* Around a chart's plot, in pixels: charts drawn under each other share
 * the left and right margins, so that one x means one time in all. */
#define TM_CHART_MARGIN_LEFT   72
#define TM_CHART_MARGIN_RIGHT  50
#define TM_CHART_MARGIN_TOP    30
#define TM_CHART_MARGIN_BOTTOM 24

#define TM_CHART_HLO_BAND_HEIGHT 8
#define TM_CHART_HLO_BAND_GAP    3

/* The memory map's top margin: its header is a row of widgets above it. */
#define TM_CHART_MAP_MARGIN_TOP  8

/* The middle of the row above the timeline's plot that holds the legend
 * and the hover's read-out. */
#define TM_CHART_TOP_ROW_Y       14

typedef struct
{
  int          width;       /* of the whole chart */
  int          height;
  TmChartRect  plot;        /* the data area */
  TmChartRect  hlo_band;    /* empty without modules */
  gint64       start_ps;    /* the time at the plot's left edge */
  gint64       end_ps;      /* at its right edge */
  gint64       y_max;       /* value at the top of the plot (> 0) */
  gint64       y_step;      /* between two value ticks */
  /* The memory map's address axis shown, in axis bytes (tm-allocations:
   * offsets with long gaps cut), axis_y0 at the bottom of the plot and
   * axis_y1 at its top; 0 and 1 on the timeline. */
  double       axis_y0;
  double       axis_y1;
  /* The memory map of data at one moment (tm_allocations_is_moment()):
   * no time to spread over x, so every block spans the plot's width
   * (docs/ui.md, "Memory map"). FALSE on the timeline. */
  gboolean     moment;
} TmChartGeometry;

/* The timeline's geometry for a width × height chart showing
 * [start_ps, end_ps], with a band for HLO modules or not, whose value axis
 * holds max_value (1 KiB when <= 0) in nice steps. */
void    tm_chart_geometry_init      (TmChartGeometry       *geometry,
                                     int                    width,
                                     int                    height,
                                     gboolean               hlo_band,
                                     gint64                 start_ps,
                                     gint64                 end_ps,
                                     gint64                 max_value);
/* The memory map's geometry for a width × height chart showing
 * [start_ps, end_ps] over the address axis [axis_y0, axis_y1]: the
 * timeline's margins but a top one of TM_CHART_MAP_MARGIN_TOP, no band,
 * no value axis. */
void    tm_chart_geometry_init_map  (TmChartGeometry       *geometry,
                                     int                    width,
                                     int                    height,
                                     gint64                 start_ps,
                                     gint64                 end_ps,
                                     double                 axis_y0,
                                     double                 axis_y1);
double  tm_chart_geometry_time_to_x (const TmChartGeometry *geometry,
                                     gint64                 time_ps);
/* The time at x, as the viewport maps it (tm_viewport_x_to_time()). */
gint64  tm_chart_geometry_x_to_time (const TmChartGeometry *geometry,
                                     double                 x);
double  tm_chart_geometry_value_to_y (const TmChartGeometry *geometry,
                                      double                 value);
/* The memory map's address axis: an axis offset ↔ y. */
double  tm_chart_geometry_axis_to_y (const TmChartGeometry *geometry,
                                     double                 offset);
double  tm_chart_geometry_y_to_axis (const TmChartGeometry *geometry,
                                     double                 y);
/* Whether (x, y) is in the plot (edges included). */
gboolean tm_chart_geometry_in_plot  (const TmChartGeometry *geometry,
                                     double                 x,
                                     double                 y);

#define TM_TYPE_CHART_LAYER (tm_chart_layer_get_type ())

G_DECLARE_DERIVABLE_TYPE (TmChartLayer, tm_chart_layer, TM, CHART_LAYER, GObject)

struct _TmChartLayerClass
{
  GObjectClass parent_class;

  void     (*draw)        (TmChartLayer          *self,
                           TmChartCanvas         *canvas,
                           const TmChartGeometry *geometry);
  /* Optional: see tm_chart_layer_get_regions(). */
  gboolean (*get_regions) (TmChartLayer          *self,
                           TmChartCanvas         *canvas,
                           const TmChartGeometry *geometry,
                           GArray                *regions);
};

/* Draws the layer (nothing while it is not visible). */
void     tm_chart_layer_draw        (TmChartLayer          *self,
                                     TmChartCanvas         *canvas,
                                     const TmChartGeometry *geometry);
/* The rectangles (TmChartRect) the layer draws in over geometry, its text
 * measured on canvas, appended to regions: a widget redraws only those
 * when the layer follows the pointer, as GTK redraws only what changed.
 * FALSE when the layer may draw anywhere in the chart (the default); TRUE
 * with none added when it draws nothing. */
gboolean tm_chart_layer_get_regions (TmChartLayer          *self,
                                     TmChartCanvas         *canvas,
                                     const TmChartGeometry *geometry,
                                     GArray                *regions);
gboolean tm_chart_layer_get_visible (TmChartLayer          *self);
void     tm_chart_layer_set_visible (TmChartLayer          *self,
                                     gboolean               visible);

G_END_DECLS
