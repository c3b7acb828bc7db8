/* tm-chart-canvas.h — where a chart layer draws: a cairo context and its text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Layers draw shapes straight into the canvas's cairo context, so the same
 * code draws on screen (a snapshot's cairo node), into a PNG image and into
 * an SVG surface. Text goes through the canvas: on a raster canvas it is
 * drawn with pangocairo; on a vector canvas made with
 * TM_CHART_CANVAS_TEXT_ELEMENTS it is kept as a list of labels, which the
 * SVG writer (tm-chart-export) turns into real <text> elements, so the text
 * of an exported chart can be selected and searched (cairo would write
 * glyph outlines).
 *
 * No GTK: the command line draws with it too.
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <pango/pangocairo.h>

G_BEGIN_DECLS

/* Same layout as GdkRGBA: four floats, not premultiplied. */
typedef struct
{
  float red;
  float green;
  float blue;
  float alpha;
} TmChartColor;

typedef struct
{
  double x;
  double y;
  double width;
  double height;
} TmChartRect;

typedef enum
{
  TM_CHART_CANVAS_TEXT_DRAWN,     /* labels are drawn with pangocairo */
  TM_CHART_CANVAS_TEXT_ELEMENTS,  /* labels are kept for the SVG writer */
} TmChartCanvasText;

/* A label kept by a TM_CHART_CANVAS_TEXT_ELEMENTS canvas: its text, the
 * left end of its baseline in the canvas's surface space, its colour,
 * the font's pixel size and the box its text takes (surface space). */
typedef struct
{
  char         *text;
  double        x;
  double        baseline;
  double        size;
  gboolean      bold;
  TmChartColor  color;
  TmChartRect   box;
} TmChartLabel;

typedef struct _TmChartCanvas TmChartCanvas;
typedef struct _TmChartPalette TmChartPalette;

/* A canvas on cr (a new reference is taken). vector says the target keeps
 * shapes (SVG): layers then draw paths where a raster canvas would blit an
 * image. font may be NULL for the default. Labels are laid out with the
 * font metrics rounded to whole pixels, as on screen, whatever the
 * target: an SVG's text sits where the window draws it. */
TmChartCanvas       *tm_chart_canvas_new            (cairo_t                    *cr,
                                                     gboolean                    vector,
                                                     TmChartCanvasText           text,
                                                     const PangoFontDescription *font);
/* The same with labels set in layout (a reference is taken): a widget's
 * own, so that the text on screen is the widget's font. */
TmChartCanvas       *tm_chart_canvas_new_for_layout (cairo_t                    *cr,
                                                     gboolean                    vector,
                                                     TmChartCanvasText           text,
                                                     PangoLayout                *layout);
void                 tm_chart_canvas_free           (TmChartCanvas              *self);

cairo_t             *tm_chart_canvas_get_cairo      (TmChartCanvas              *self);
gboolean             tm_chart_canvas_is_vector      (TmChartCanvas              *self);
/* Device pixels per unit, for layers that draw an image: the cairo
 * context's own scale, or what was set (a widget's scale factor, which a
 * render node's context does not carry). */
int                  tm_chart_canvas_get_scale      (TmChartCanvas              *self);
void                 tm_chart_canvas_set_scale      (TmChartCanvas              *self,
                                                     int                         scale);
/* The colours layers draw with (tm-chart-palette.h), copied; the light
 * default palette until set. */
const TmChartPalette *tm_chart_canvas_get_palette   (TmChartCanvas              *self);
void                 tm_chart_canvas_set_palette    (TmChartCanvas              *self,
                                                     const TmChartPalette       *palette);
/* The labels kept so far (TmChartLabel), in drawing order. */
GArray              *tm_chart_canvas_get_labels     (TmChartCanvas              *self);

/* The size of text in the label font, in pixels. */
void                 tm_chart_canvas_measure        (TmChartCanvas              *self,
                                                     const char                 *text,
                                                     int                        *width,
                                                     int                        *height);
/* Text with its (xalign, yalign) point at (x, y), over a rounded
 * background when one is given; returns the text's box. Wider than the
 * label width (tm_chart_canvas_set_label_width()), it is ellipsized at its
 * end on a raster canvas. */
TmChartRect          tm_chart_canvas_label          (TmChartCanvas              *self,
                                                     const char                 *text,
                                                     double                      x,
                                                     double                      y,
                                                     double                      xalign,
                                                     double                      yalign,
                                                     const TmChartColor         *color,
                                                     const TmChartColor         *background);

/* The widest a label is drawn (0: no limit, the default). */
void                 tm_chart_canvas_set_label_width (TmChartCanvas            *self,
                                                      double                    width);

/* A title line: bold text of the font's own size, its top left corner at
 * (x, y), ellipsized in the middle to width. */
void                 tm_chart_canvas_heading        (TmChartCanvas              *self,
                                                     const char                 *text,
                                                     double                      x,
                                                     double                      y,
                                                     double                      width,
                                                     const TmChartColor         *color);
/* The font family of the labels, for the SVG writer. */
const char          *tm_chart_canvas_get_family     (TmChartCanvas              *self);

/* Shapes */
void                 tm_chart_canvas_rect           (TmChartCanvas              *self,
                                                     const TmChartColor         *color,
                                                     double                      x,
                                                     double                      y,
                                                     double                      width,
                                                     double                      height);
/* A vertical dashed line of width width from y0 down to y1. */
void                 tm_chart_canvas_dashed_vline   (TmChartCanvas              *self,
                                                     const TmChartColor         *color,
                                                     double                      x,
                                                     double                      y0,
                                                     double                      y1,
                                                     double                      width,
                                                     double                      dash,
                                                     double                      gap);
/* A hollow circle with a 1 px halo around it. */
void                 tm_chart_canvas_ring           (TmChartCanvas              *self,
                                                     const TmChartColor         *color,
                                                     const TmChartColor         *halo,
                                                     double                      x,
                                                     double                      y,
                                                     double                      radius);
/* A filled dot with a ring of 1.5 px around it. */
void                 tm_chart_canvas_dot            (TmChartCanvas              *self,
                                                     const TmChartColor         *ring,
                                                     const TmChartColor         *fill,
                                                     double                      x,
                                                     double                      y,
                                                     double                      radius);

void                 tm_chart_set_source            (cairo_t                    *cr,
                                                     const TmChartColor         *color);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmChartCanvas, tm_chart_canvas_free)

G_END_DECLS
