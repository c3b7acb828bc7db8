/* tm-timeline.c — the memory timeline widget
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two cached render nodes: the value axes and the legend (rebuilt when the
 * size, the store or the style changes) and what moves with the visible
 * range (time axis, data, peak, HLO band; rebuilt on zoom and pan too).
 * Hover, selection and the rubber band are drawn over them every frame.
 *
 * Each device-pixel column is one TmLodBucket: per series a fill up to the
 * column's smallest value and a full-colour band from there to its largest
 * (at least 2 px: the series' top line), so a column with a single-sample
 * spike shows the spike. The columns are painted straight into an image
 * (see paint_series()) that one cairo node shows: at 1920 columns that is
 * one blit for any renderer instead of thousands of nodes.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tm-format.h"
#include "tm-lod.h"
#include "tm-timeline.h"

#define MARGIN_LEFT      72
#define MARGIN_RIGHT     50
#define MARGIN_TOP       30
#define MARGIN_BOTTOM    24
#define HLO_BAND_HEIGHT  8
#define HLO_BAND_GAP     3
#define DRAG_THRESHOLD   4.0
#define WHEEL_ZOOM_STEP  1.25
#define KEY_ZOOM_STEP    1.5
#define KEY_PAN_FRACTION 0.1
#define ZOOM_TO_MARGIN   0.04

typedef enum
{
  SERIES_FREE,
  SERIES_HEAP,
  SERIES_STACK,
  N_SERIES
} Series;

typedef struct
{
  gboolean dark;
  GdkRGBA  fg;
  GdkRGBA  dim;
  GdkRGBA  grid;
  GdkRGBA  background;
  GdkRGBA  series[N_SERIES];
  GdkRGBA  series_fill[N_SERIES];
  GdkRGBA  frag;
  GdkRGBA  accent;
  GdkRGBA  accent_fill;
  GdkRGBA  peak;
  GdkRGBA  hlo[2];
} Palette;

typedef struct
{
  gint64 start_ps;
  gint64 end_ps;
  guint  index;      /* into hlo_modules */
} ModuleSpan;

struct _TmTimeline
{
  GtkWidget       parent_instance;

  TmMemoryStore  *store;
  TmLod          *own_lod;        /* when the store has none */
  TmViewport     *viewport;
  GArray         *hlo_modules;    /* TmHloModule, referenced */
  GArray         *module_spans;   /* ModuleSpan sorted by start */

  /* The cached layers and what they were built for: the axes and legend
   * (size, store, style), and what moves with the visible range. */
  GskRenderNode  *static_node;
  GskRenderNode  *range_node;
  int             cache_width;
  int             cache_height;
  int             cache_scale;
  gboolean        cache_dark;
  TmLodBucket    *buckets;
  guint           n_buckets_allocated;
  cairo_surface_t *paint_surfaces[2];
  struct _PaintChange *changes;
  struct _PaintChange *sorted_changes;
  gsize           n_changes_allocated;

  /* Pointer */
  double          pointer_x;
  guint           hover_index;
  guint           described_index;
  char           *described_markup;

  /* Selection */
  gint64          selected_time;
  gint64          previous_selection;
  guint           pending_selection_source;

  /* Gestures */
  gint64          drag_view_start;
  gint64          drag_view_end;
  double          drag_start_x;
  double          band_x0;
  double          band_x1;
  gint64          pinch_span;
  gint64          pinch_anchor;

  guint           has_selection : 1;
  guint           pointer_inside : 1;
  guint           dragging : 1;
  guint           banding : 1;
  guint           drag_moved : 1;
  guint           double_clicked : 1;
  guint           had_selection : 1;
};

G_DEFINE_FINAL_TYPE (TmTimeline, tm_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_STORE,
  PROP_VIEWPORT,
  PROP_HAS_SELECTION,
  PROP_SELECTED_TIME,
  N_PROPS
};

enum {
  TIME_SELECTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static TmLod *
get_lod (TmTimeline *self)
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

static gboolean
has_data (TmTimeline *self)
{
  return self->store != NULL && tm_memory_store_get_n_snapshots (self->store) > 0;
}

static void
rgba_init (GdkRGBA *rgba,
           guint32  rgb,
           float    alpha)
{
  rgba->red = ((rgb >> 16) & 0xff) / 255.0f;
  rgba->green = ((rgb >> 8) & 0xff) / 255.0f;
  rgba->blue = (rgb & 0xff) / 255.0f;
  rgba->alpha = alpha;
}

void
tm_timeline_get_color (TmTimelineColor  color,
                       gboolean         dark,
                       GdkRGBA         *rgba)
{
  /* GNOME palette: red 3, orange 3, green 3, blue 4, blue 3, purple 4/3
   * on light; red 1, orange 2, green 2, blue 1, blue 2, purple 2/1 on dark. */
  static const guint32 light[] = { 0xe01b24, 0xff7800, 0x33d17a, 0x1c71d8, 0x3584e4, 0x813d9c, 0xc061cb };
  static const guint32 dark_[] = { 0xf66151, 0xffa348, 0x57e389, 0x99c1f1, 0x78aeed, 0xc061cb, 0xdc8add };

  g_return_if_fail (rgba != NULL);
  g_return_if_fail ((guint) color < G_N_ELEMENTS (light));

  rgba_init (rgba, dark ? dark_[color] : light[color], 1.0f);
}

gboolean
tm_timeline_is_dark_style (GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

static void
palette_init (TmTimeline *self,
              Palette    *p)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA fg;

  gtk_style_context_get_color (context, &fg);
  p->dark = tm_timeline_is_dark_style (GTK_WIDGET (self));

  p->fg = fg;
  p->fg.alpha = 1.0f;
  p->dim = p->fg;
  p->dim.alpha = 0.70f;
  p->grid = p->fg;
  p->grid.alpha = p->dark ? 0.10f : 0.08f;
  rgba_init (&p->background, p->dark ? 0x242424 : 0xffffff, 0.88f);

  tm_timeline_get_color (TM_TIMELINE_COLOR_STACK, p->dark, &p->series[SERIES_STACK]);
  tm_timeline_get_color (TM_TIMELINE_COLOR_HEAP, p->dark, &p->series[SERIES_HEAP]);
  tm_timeline_get_color (TM_TIMELINE_COLOR_FREE, p->dark, &p->series[SERIES_FREE]);
  tm_timeline_get_color (TM_TIMELINE_COLOR_FRAGMENTATION, p->dark, &p->frag);
  tm_timeline_get_color (TM_TIMELINE_COLOR_ACCENT, p->dark, &p->accent);
  tm_timeline_get_color (TM_TIMELINE_COLOR_HLO, p->dark, &p->hlo[0]);
  tm_timeline_get_color (TM_TIMELINE_COLOR_HLO_ALT, p->dark, &p->hlo[1]);

  p->series_fill[SERIES_STACK] = p->series[SERIES_STACK];
  p->series_fill[SERIES_STACK].alpha = p->dark ? 0.55f : 0.50f;
  p->series_fill[SERIES_HEAP] = p->series[SERIES_HEAP];
  p->series_fill[SERIES_HEAP].alpha = p->dark ? 0.45f : 0.42f;
  p->series_fill[SERIES_FREE] = p->series[SERIES_FREE];
  p->series_fill[SERIES_FREE].alpha = p->dark ? 0.20f : 0.22f;

  p->accent_fill = p->accent;
  p->accent_fill.alpha = 0.18f;
  p->peak = p->fg;
  p->peak.alpha = 0.75f;
}

/* Largest value the plot shows and the step of its byte ticks. */
static void
compute_y_scale (TmTimeline *self,
                 double      plot_height,
                 gint64     *y_max,
                 gint64     *y_step)
{
  TmLod *lod = get_lod (self);
  gint64 raw = 0;
  guint max_ticks = CLAMP ((guint) (plot_height / 42.0), 2, 8);

  if (lod != NULL && tm_lod_get_n_snapshots (lod) > 0)
    raw = tm_memory_store_has_free_data (self->store)
          ? tm_lod_get_max_total (lod)
          : tm_lod_get_max_used (lod);
  if (raw <= 0)
    raw = 1024;

  *y_step = tm_format_nice_byte_step (raw, max_ticks);
  *y_max = ((raw + *y_step - 1) / *y_step) * *y_step;
}

static void
compute_layout (TmTimeline       *self,
                int               width,
                int               height,
                TmTimelineLayout *layout)
{
  gboolean band = self->module_spans != NULL && self->module_spans->len > 0;
  double plot_w = MAX (1, width - MARGIN_LEFT - MARGIN_RIGHT);
  double plot_h = MAX (1, height - MARGIN_TOP - MARGIN_BOTTOM - (band ? HLO_BAND_HEIGHT + HLO_BAND_GAP : 0));
  gint64 y_step;

  graphene_rect_init (&layout->plot, MARGIN_LEFT, MARGIN_TOP, plot_w, plot_h);
  if (band)
    graphene_rect_init (&layout->hlo_band, MARGIN_LEFT, MARGIN_TOP + plot_h + HLO_BAND_GAP, plot_w, HLO_BAND_HEIGHT);
  else
    graphene_rect_init (&layout->hlo_band, MARGIN_LEFT, MARGIN_TOP + plot_h, plot_w, 0);
  compute_y_scale (self, plot_h, &layout->y_max, &y_step);
}

static inline double
value_to_y (const TmTimelineLayout *layout,
            double                  value)
{
  return layout->plot.origin.y + layout->plot.size.height
         - value / (double) layout->y_max * layout->plot.size.height;
}

static inline double
time_to_x (TmTimeline             *self,
           const TmTimelineLayout *layout,
           gint64                  time_ps)
{
  return layout->plot.origin.x + tm_viewport_time_to_x (self->viewport, time_ps, layout->plot.size.width);
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
  g_clear_pointer (&self->static_node, gsk_render_node_unref);
  invalidate_range (self);
}

/* "2.00 GiB" → "2 GiB", "50.0 %" → "50 %": tick labels read better without
 * the trailing zeros that tm-format keeps for three significant digits. */
static char *
trim_zeros (char *text)
{
  char *dot = strchr (text, '.');
  char *end;

  if (dot == NULL)
    return text;
  end = dot + 1;
  while (*end >= '0' && *end <= '9')
    end++;
  for (char *p = dot + 1; p < end; p++)
    if (*p != '0')
      return text;
  memmove (dot, end, strlen (end) + 1);
  return text;
}

/* A tick of the time axis in ms with as many decimals as the step needs,
 * digits grouped as tm_format_count() groups them. */
static char *
format_tick_ms (gint64 time_ps,
                int    decimals)
{
  g_autofree char *int_part = NULL;
  guint64 mag = time_ps < 0 ? (guint64) 0 - (guint64) time_ps : (guint64) time_ps;
  guint64 unit = 1000000000;   /* ps per ms */
  guint64 frac_unit = 1;
  guint64 scaled, ip, fp;

  for (int i = 0; i < decimals; i++)
    frac_unit *= 10;
  /* Round to the decimals shown. */
  scaled = (mag + unit / frac_unit / 2) / (unit / frac_unit);
  ip = scaled / frac_unit;
  fp = scaled % frac_unit;
  int_part = tm_format_count (ip);

  if (decimals == 0)
    return g_strdup_printf ("%s%s", time_ps < 0 ? "−" : "", int_part);
  return g_strdup_printf ("%s%s.%0*" G_GUINT64_FORMAT, time_ps < 0 ? "−" : "", int_part, decimals, fp);
}

static PangoLayout *
create_small_layout (TmTimeline *self)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);

  return layout;
}

/* Draws text with its (xalign, yalign) point at (x, y); returns its box. */
static graphene_rect_t
draw_text (GtkSnapshot   *snapshot,
           PangoLayout   *layout,
           const char    *text,
           double         x,
           double         y,
           double         xalign,
           double         yalign,
           const GdkRGBA *color,
           const GdkRGBA *background)
{
  PangoRectangle logical;
  graphene_rect_t box;
  double px, py;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  px = round (x - xalign * logical.width);
  py = round (y - yalign * logical.height);
  graphene_rect_init (&box, px, py, logical.width, logical.height);

  if (background != NULL)
    {
      GskRoundedRect pill;
      graphene_rect_t outer = GRAPHENE_RECT_INIT (px - 4, py - 1, logical.width + 8, logical.height + 2);

      gsk_rounded_rect_init_from_rect (&pill, &outer, 4);
      gtk_snapshot_push_rounded_clip (snapshot, &pill);
      gtk_snapshot_append_color (snapshot, background, &outer);
      gtk_snapshot_pop (snapshot);
    }

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (px, py));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);

  return box;
}

static void
append_rect (GtkSnapshot   *snapshot,
             const GdkRGBA *color,
             double         x,
             double         y,
             double         w,
             double         h)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

static void
append_dashed_vline (GtkSnapshot   *snapshot,
                     const GdkRGBA *color,
                     double         x,
                     double         y0,
                     double         y1,
                     double         width,
                     double         dash,
                     double         gap)
{
  for (double y = y0; y < y1; y += dash + gap)
    append_rect (snapshot, color, x - width / 2, y, width, MIN (dash, y1 - y));
}

static void
append_dot (GtkSnapshot   *snapshot,
            const GdkRGBA *ring,
            const GdkRGBA *fill,
            double         x,
            double         y,
            double         radius)
{
  GskRoundedRect circle;
  graphene_rect_t outer = GRAPHENE_RECT_INIT (x - radius - 1.5, y - radius - 1.5, 2 * radius + 3, 2 * radius + 3);
  graphene_rect_t inner = GRAPHENE_RECT_INIT (x - radius, y - radius, 2 * radius, 2 * radius);

  gsk_rounded_rect_init_from_rect (&circle, &outer, radius + 1.5);
  gtk_snapshot_push_rounded_clip (snapshot, &circle);
  gtk_snapshot_append_color (snapshot, ring, &outer);
  gtk_snapshot_pop (snapshot);

  gsk_rounded_rect_init_from_rect (&circle, &inner, radius);
  gtk_snapshot_push_rounded_clip (snapshot, &circle);
  gtk_snapshot_append_color (snapshot, fill, &inner);
  gtk_snapshot_pop (snapshot);
}

/* A hollow circle: what it marks stays visible inside. */
static void
append_ring (GtkSnapshot   *snapshot,
             const GdkRGBA *color,
             const GdkRGBA *halo,
             double         x,
             double         y,
             double         radius)
{
  GskRoundedRect circle;
  graphene_rect_t outer = GRAPHENE_RECT_INIT (x - radius - 1, y - radius - 1, 2 * radius + 2, 2 * radius + 2);
  graphene_rect_t ring = GRAPHENE_RECT_INIT (x - radius, y - radius, 2 * radius, 2 * radius);

  gsk_rounded_rect_init_from_rect (&circle, &outer, radius + 1);
  gtk_snapshot_append_border (snapshot, &circle,
                              (float[4]) { 1, 1, 1, 1 },
                              (GdkRGBA[4]) { *halo, *halo, *halo, *halo });
  gsk_rounded_rect_init_from_rect (&circle, &ring, radius);
  gtk_snapshot_append_border (snapshot, &circle,
                              (float[4]) { 2, 2, 2, 2 },
                              (GdkRGBA[4]) { *color, *color, *color, *color });
}

/* ------------------------------------------------------------------ */
/* The data layer                                                      */

/* The value axes (bytes left, fragmentation right) and the horizontal
 * grid: they change with the size, the store and the style, not with the
 * visible range. */
static void
draw_value_axes (TmTimeline             *self,
                 GtkSnapshot            *snapshot,
                 PangoLayout            *text,
                 const TmTimelineLayout *layout,
                 const Palette          *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  double x0 = plot->origin.x, y0 = plot->origin.y;
  double w = plot->size.width, h = plot->size.height;
  gint64 y_max, y_step;
  const double pcts[] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

  compute_y_scale (self, h, &y_max, &y_step);
  for (gint64 v = 0; v <= y_max; v += y_step)
    {
      double y = round (value_to_y (layout, (double) v));
      g_autofree char *label = trim_zeros (tm_format_bytes (v));

      append_rect (snapshot, &palette->grid, x0, y - 0.5, w, 1);
      draw_text (snapshot, text, label, x0 - 8, y, 1.0, 0.5, &palette->dim, NULL);
    }

  /* Fragmentation, labels in the line's colour. */
  for (guint i = 0; i < G_N_ELEMENTS (pcts); i++)
    {
      double y = round (y0 + h - pcts[i] * h);
      g_autofree char *label = NULL;

      if (h < 120 && (i == 1 || i == 3))
        continue;
      label = trim_zeros (tm_format_percent (pcts[i]));
      append_rect (snapshot, &palette->frag, x0 + w, y - 0.5, 4, 1);
      draw_text (snapshot, text, label, x0 + w + 7, y, 0.0, 0.5, &palette->frag, NULL);
    }

  draw_text (snapshot, text, _("ms"), x0 + w + 7,
             layout->hlo_band.origin.y + layout->hlo_band.size.height + 5, 0.0, 0.0, &palette->dim, NULL);
}

/* The time axis in ms from the profile start, and the vertical grid. */
static void
draw_time_axis (TmTimeline             *self,
                GtkSnapshot            *snapshot,
                PangoLayout            *text,
                const TmTimelineLayout *layout,
                const Palette          *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  double x0 = plot->origin.x, y0 = plot->origin.y;
  double w = plot->size.width, h = plot->size.height;
  gint64 start = tm_viewport_get_start (self->viewport);
  gint64 end = tm_viewport_get_end (self->viewport);
  double span_ms = (double) (end - start) / 1e9;
  double label_y = layout->hlo_band.origin.y + layout->hlo_band.size.height + 5;
  double unit_x = x0 + w + 7;
  double step_ms;
  gint64 step_ps;
  int decimals;
  guint max_ticks;
  gint64 first_tick;

  max_ticks = CLAMP ((guint) (w / 110.0), 2, 12);
  step_ms = tm_format_nice_step (span_ms, max_ticks);
  step_ps = MAX ((gint64) llround (step_ms * 1e9), 1);
  decimals = step_ms >= 1.0 ? 0 : (int) ceil (-log10 (step_ms) - 1e-9);
  decimals = CLAMP (decimals, 0, 9);
  first_tick = (start / step_ps) * step_ps;
  if (first_tick < start)
    first_tick += step_ps;

  for (gint64 t = first_tick; t <= end; t += step_ps)
    {
      double x = round (time_to_x (self, layout, t));
      g_autofree char *label = format_tick_ms (t, decimals);
      PangoRectangle logical;

      append_rect (snapshot, &palette->grid, x - 0.5, y0, 1, h);
      append_rect (snapshot, &palette->dim, x - 0.5, y0 + h, 1, 4);

      /* Labels that would run into the unit or off the left edge go. */
      pango_layout_set_text (text, label, -1);
      pango_layout_get_pixel_extents (text, NULL, &logical);
      if (x + logical.width / 2.0 > unit_x - 6 || x - logical.width / 2.0 < 2)
        continue;
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (round (x - logical.width / 2.0), round (label_y)));
      gtk_snapshot_append_layout (snapshot, text, &palette->dim);
      gtk_snapshot_restore (snapshot);
    }
}

/* Premultiplied native-endian ARGB, GDK_MEMORY_DEFAULT's layout. */
static guint32
premultiply (const GdkRGBA *c)
{
  guint a = (guint) lround (c->alpha * 255.0);
  guint r = (guint) lround (c->red * c->alpha * 255.0);
  guint g = (guint) lround (c->green * c->alpha * 255.0);
  guint b = (guint) lround (c->blue * c->alpha * 255.0);

  return (a << 24) | (r << 16) | (g << 8) | b;
}

/* Premultiplied src over dst. */
static inline guint32
over (guint32 src,
      guint32 dst)
{
  guint inverse = 255 - (src >> 24);
  guint32 out = 0;

  for (int shift = 0; shift < 32; shift += 8)
    {
      guint v = ((src >> shift) & 0xff) + (((dst >> shift) & 0xff) * inverse + 127) / 255;

      out |= MIN (v, 255u) << shift;
    }

  return out;
}

/* Where a column's colour changes, going down: from row y on it is color. */
typedef struct _PaintChange
{
  int     y;
  int     x;
  guint32 color;
} PaintChange;

/* A column is at most six segments (a line and a fill per series) with
 * gaps between them, the fragmentation line over them: at most fifteen
 * changes. */
#define MAX_CHANGES 16

typedef struct
{
  PaintChange *changes;
  guint        n;
  int          x;
  int          frag_top;      /* rows of the fragmentation line, or -1 */
  int          frag_bottom;
  guint32      frag;
} ColumnPainter;

/* Rows [a, b) are color (under the fragmentation line where it is). */
static inline void
paint_piece (ColumnPainter *p,
             int            a,
             int            b,
             guint32        color)
{
  if (b <= a)
    return;

  if (p->frag_top < 0 || b <= p->frag_top || a >= p->frag_bottom)
    {
      p->changes[p->n++] = (PaintChange) { a, p->x, color };
      return;
    }

  if (a < p->frag_top)
    p->changes[p->n++] = (PaintChange) { a, p->x, color };
  p->changes[p->n++] = (PaintChange) { MAX (a, p->frag_top), p->x, over (p->frag, color) };
  if (b > p->frag_bottom)
    p->changes[p->n++] = (PaintChange) { p->frag_bottom, p->x, color };
}

/* An image of width × height device pixels to paint the series into:
 * one of the two kept from earlier frames when nothing else holds it any
 * more (so a frame costs no fresh 2–3 MB allocation and its page faults),
 * otherwise a new one. Flushed; its pixels are left as they were. */
static cairo_surface_t *
get_paint_surface (TmTimeline *self,
                   int         width,
                   int         height)
{
  cairo_surface_t *surface = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (self->paint_surfaces); i++)
    {
      cairo_surface_t *candidate = self->paint_surfaces[i];

      if (candidate == NULL || cairo_surface_get_reference_count (candidate) > 1)
        continue;
      if (cairo_image_surface_get_width (candidate) != width ||
          cairo_image_surface_get_height (candidate) != height)
        {
          g_clear_pointer (&self->paint_surfaces[i], cairo_surface_destroy);
          continue;
        }
      surface = candidate;
      cairo_surface_flush (surface);
      break;
    }

  if (surface == NULL)
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
      for (guint i = 0; i < G_N_ELEMENTS (self->paint_surfaces); i++)
        if (self->paint_surfaces[i] == NULL ||
            cairo_surface_get_reference_count (self->paint_surfaces[i]) == 1)
          {
            g_clear_pointer (&self->paint_surfaces[i], cairo_surface_destroy);
            self->paint_surfaces[i] = surface;
            break;
          }
      /* Both kept images still in use elsewhere: this one is not kept. */
      if (self->paint_surfaces[0] != surface && self->paint_surfaces[1] != surface)
        return surface;
    }

  return cairo_surface_reference (surface);
}

/* The areas and the fragmentation line, one pixel column per LOD bucket,
 * painted straight into an image at device resolution: a zoomed-out frame
 * over millions of snapshots is a few thousand short runs of pixels, not
 * thousands of render nodes. Returns a new reference. */
static cairo_surface_t *
paint_series (TmTimeline             *self,
              const TmTimelineLayout *layout,
              const Palette          *palette,
              int                     scale)
{
  TmLod *lod = get_lod (self);
  int width = (int) MAX (1.0, floor (layout->plot.size.width * scale));
  int height = (int) MAX (1.0, floor (layout->plot.size.height * scale));
  double y_scale = (double) height / (double) layout->y_max;
  int line = scale > 1 ? 3 : 2;
  int frag_line = scale > 1 ? 3 : 2;
  int dash_on = 6 * scale, dash_period = 10 * scale;
  gboolean show_free = tm_memory_store_has_free_data (self->store);
  gboolean show_stack;
  guint32 fill[N_SERIES], top[N_SERIES], frag;
  guint *row_starts, *next;
  guint32 *row;
  gsize n_changes = 0;
  cairo_surface_t *surface;
  guint32 *pixels;
  int stride;
  TmLodBucket all;
  int prev_ftop = -1, prev_fbottom = -1;

  tm_lod_query_indices (lod, 0, tm_lod_get_n_snapshots (lod) - 1, &all);
  show_stack = all.stack_max > 0;

  for (int s = 0; s < N_SERIES; s++)
    {
      fill[s] = premultiply (&palette->series_fill[s]);
      top[s] = premultiply (&palette->series[s]);
    }
  frag = premultiply (&palette->frag);

  if (self->n_buckets_allocated < (guint) width)
    {
      self->buckets = g_renew (TmLodBucket, self->buckets, width);
      self->n_buckets_allocated = width;
    }
  tm_lod_query_columns (lod,
                        tm_viewport_get_start (self->viewport),
                        tm_viewport_get_end (self->viewport),
                        width, self->buckets);

  surface = get_paint_surface (self, width, height);
  pixels = (guint32 *) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;

  /* Values are within [0, y_max]: adding 0.5 and truncating rounds. */
#define ROW(v) ((int) ((double) height - (double) (v) * y_scale + 0.5))

  /* Each column becomes a few runs of rows, resolved into the rows where
   * its colour changes; then the image is written row by row, each row a
   * copy of the one above with those changes applied. Everything goes
   * through memory in order: painting column by column would touch a new
   * cache line and page with nearly every pixel. */
  if (self->n_changes_allocated < (gsize) width * MAX_CHANGES)
    {
      self->n_changes_allocated = (gsize) width * MAX_CHANGES;
      self->changes = g_renew (PaintChange, self->changes, self->n_changes_allocated);
      self->sorted_changes = g_renew (PaintChange, self->sorted_changes, self->n_changes_allocated);
    }
  row_starts = g_new0 (guint, height + 2);
  row = g_new0 (guint32, width);

  for (int x = 0; x < width; x++)
    {
      const TmLodBucket *b = &self->buckets[x];
      ColumnPainter painter = { self->changes + n_changes, 0, x, -1, -1, frag };
      int s_min, s_max, u_min, u_max, t_min, t_max, f_top, f_bottom;
      int half_up = line / 2, half_down = (line + 1) / 2;
      int fl_a, fl_b, ff_a, ff_b, hl_a, hl_b, hf_a, hf_b, sl_a, sl_b, sf_a;
      int cursor = 0;

      if (!b->has_data)
        {
          prev_ftop = prev_fbottom = -1;
          continue;
        }

      /* Rows grow downwards: a larger value has a smaller row. */
      s_min = ROW (b->stack_min);
      s_max = ROW (b->stack_max);
      u_min = ROW (b->used_min);
      u_max = ROW (b->used_max);
      t_min = ROW (b->total_min);
      t_max = ROW (b->total_max);

      /* Fragmentation on its 0–1 axis, joined to the previous column and
       * dashed along x (steep parts stay solid). */
      f_top = (int) (height - CLAMP (b->frag_max, 0.0, 1.0) * height + 0.5) - frag_line / 2;
      f_bottom = (int) (height - CLAMP (b->frag_min, 0.0, 1.0) * height + 0.5) + (frag_line + 1) / 2;
      if (prev_ftop >= 0)
        {
          int joined_top = MIN (f_top, prev_ftop + frag_line);
          int joined_bottom = MAX (f_bottom, prev_fbottom - frag_line);

          prev_ftop = f_top;
          prev_fbottom = f_bottom;
          f_top = joined_top;
          f_bottom = joined_bottom;
        }
      else
        {
          prev_ftop = f_top;
          prev_fbottom = f_bottom;
        }
      if (x % dash_period < dash_on || f_bottom - f_top > 3 * frag_line)
        {
          painter.frag_top = CLAMP (f_top, 0, height);
          painter.frag_bottom = CLAMP (f_bottom, 0, height);
        }

      /* Each series is a fill up to its smallest value and a full-strength
       * band from there to its largest (at least `line` rows: its top
       * line). Going down the column: free, heap, stack; a later series
       * (lower: stack <= stack + heap <= total) wins where they meet, and
       * a line wins over its own fill. */
      sl_a = show_stack ? s_max - half_up : height;
      sl_b = s_min + half_down;
      sf_a = MAX (s_min, sl_b);
      hl_a = MIN (u_max - half_up, sl_a);
      hl_b = MIN (u_min + half_down, sl_a);
      hf_a = MAX (u_min, hl_b);
      hf_b = show_stack ? MIN (s_max, sl_a) : height;
      if (show_free)
        {
          fl_a = MIN (t_max - half_up, hl_a);
          fl_b = MIN (t_min + half_down, hl_a);
          ff_a = MAX (t_min, fl_b);
          ff_b = MIN (u_max, hl_a);
        }
      else
        fl_a = fl_b = ff_a = ff_b = 0;

#define SEGMENT(a, b, color) G_STMT_START { \
        int sa = CLAMP ((a), cursor, height), sb = CLAMP ((b), cursor, height); \
        if (sb > sa) \
          { \
            paint_piece (&painter, cursor, sa, 0); \
            paint_piece (&painter, sa, sb, (color)); \
            cursor = sb; \
          } \
      } G_STMT_END

      SEGMENT (fl_a, fl_b, top[SERIES_FREE]);
      SEGMENT (ff_a, ff_b, fill[SERIES_FREE]);
      SEGMENT (hl_a, hl_b, top[SERIES_HEAP]);
      SEGMENT (hf_a, hf_b, fill[SERIES_HEAP]);
      if (show_stack)
        {
          SEGMENT (sl_a, sl_b, top[SERIES_STACK]);
          SEGMENT (sf_a, height, fill[SERIES_STACK]);
        }
      paint_piece (&painter, cursor, height, 0);

#undef SEGMENT

      g_assert (painter.n <= MAX_CHANGES);
      n_changes += painter.n;
    }

  /* Counting sort of the changes by row (stable: columns stay in order). */
  for (gsize i = 0; i < n_changes; i++)
    row_starts[self->changes[i].y + 1]++;
  for (int y = 0; y <= height; y++)
    row_starts[y + 1] += row_starts[y];
  next = g_memdup2 (row_starts, (height + 1) * sizeof (guint));
  for (gsize i = 0; i < n_changes; i++)
    self->sorted_changes[next[self->changes[i].y]++] = self->changes[i];

  for (int y = 0; y < height; y++)
    {
      for (guint i = row_starts[y]; i < row_starts[y + 1]; i++)
        row[self->sorted_changes[i].x] = self->sorted_changes[i].color;
      memcpy (pixels + (gsize) y * stride, row, (gsize) width * sizeof (guint32));
    }

  g_free (row_starts);
  g_free (next);
  g_free (row);

#undef ROW

  cairo_surface_mark_dirty (surface);
  cairo_surface_set_device_scale (surface, scale, scale);

  return surface;
}

static void
draw_hlo_band (TmTimeline             *self,
               GtkSnapshot            *snapshot,
               const TmTimelineLayout *layout,
               const Palette          *palette)
{
  const graphene_rect_t *band = &layout->hlo_band;
  gint64 start = tm_viewport_get_start (self->viewport);
  gint64 end = tm_viewport_get_end (self->viewport);
  double last_x1 = -1;
  int last_color = -1;
  graphene_rect_t pending = GRAPHENE_RECT_INIT (0, 0, 0, 0);

  if (self->module_spans == NULL || self->module_spans->len == 0)
    return;

  append_rect (snapshot, &palette->grid, band->origin.x, band->origin.y, band->size.width, band->size.height);

  for (guint i = 0; i < self->module_spans->len; i++)
    {
      const ModuleSpan *m = &g_array_index (self->module_spans, ModuleSpan, i);
      double x0, x1;
      int color = i % 2;

      if (m->start_ps > end)
        break;
      if (m->end_ps < start)
        continue;

      x0 = MAX (time_to_x (self, layout, m->start_ps), band->origin.x);
      x1 = MIN (time_to_x (self, layout, m->end_ps), band->origin.x + band->size.width);
      if (x1 - x0 < 1.0)
        x1 = x0 + 1.0;

      /* Modules closer than a pixel merge into one block. */
      if (pending.size.width > 0 && x0 <= last_x1 + 0.5 && (color == last_color || x1 - x0 < 2.0 || last_x1 - pending.origin.x < 2.0))
        {
          last_x1 = MAX (last_x1, x1);
          pending.size.width = last_x1 - pending.origin.x;
          continue;
        }
      if (pending.size.width > 0)
        gtk_snapshot_append_color (snapshot, &palette->hlo[last_color], &pending);
      graphene_rect_init (&pending, x0, band->origin.y, x1 - x0, band->size.height);
      last_x1 = x1;
      last_color = color;
    }
  if (pending.size.width > 0)
    gtk_snapshot_append_color (snapshot, &palette->hlo[last_color], &pending);
}

static void
draw_peak (TmTimeline             *self,
           GtkSnapshot            *snapshot,
           PangoLayout            *text,
           const TmTimelineLayout *layout,
           const Palette          *palette)
{
  const TmSummary *summary = tm_memory_store_get_summary (self->store);
  const graphene_rect_t *plot = &layout->plot;
  g_autofree char *bytes = NULL;
  g_autofree char *label = NULL;
  double x, y;
  gboolean right;

  if (summary->peak_time_ps < tm_viewport_get_start (self->viewport) ||
      summary->peak_time_ps > tm_viewport_get_end (self->viewport))
    return;

  x = round (time_to_x (self, layout, summary->peak_time_ps)) + 0.5;
  y = value_to_y (layout, (double) summary->peak_bytes_in_use);

  /* From the label down to the ring, not over the data. */
  append_dashed_vline (snapshot, &palette->peak, x, plot->origin.y, y - 7, 1.0, 4, 3);
  append_ring (snapshot, &palette->fg, &palette->background, x, y, 5.5);

  bytes = tm_format_bytes (summary->peak_bytes_in_use);
  /* Translators: the marker at the highest stack + heap, e.g. "Peak 5.78 GiB" */
  label = g_strdup_printf (_("Peak %s"), bytes);
  right = x + 160 < plot->origin.x + plot->size.width;
  draw_text (snapshot, text, label, right ? x + 8 : x - 8, plot->origin.y + 4,
             right ? 0.0 : 1.0, 0.0, &palette->fg, &palette->background);
}

static double
draw_legend_item (GtkSnapshot   *snapshot,
                  PangoLayout   *text,
                  const char    *label,
                  double         x,
                  double         y,
                  const GdkRGBA *fill,
                  const GdkRGBA *line,
                  gboolean       dashed,
                  const Palette *palette)
{
  graphene_rect_t box;

  if (dashed)
    {
      append_rect (snapshot, line, x, y - 1, 5, 2);
      append_rect (snapshot, line, x + 8, y - 1, 5, 2);
    }
  else
    {
      append_rect (snapshot, fill, x, y - 5, 13, 10);
      append_rect (snapshot, line, x, y - 5, 13, 2);
    }
  box = draw_text (snapshot, text, label, x + 18, y, 0.0, 0.5, &palette->fg, NULL);

  return box.origin.x + box.size.width + 16;
}

static void
draw_legend (TmTimeline             *self,
             GtkSnapshot            *snapshot,
             PangoLayout            *text,
             const TmTimelineLayout *layout,
             const Palette          *palette)
{
  double x = layout->plot.origin.x;
  double y = 14;

  x = draw_legend_item (snapshot, text, _("Stack"), x, y,
                        &palette->series_fill[SERIES_STACK], &palette->series[SERIES_STACK], FALSE, palette);
  x = draw_legend_item (snapshot, text, _("Heap"), x, y,
                        &palette->series_fill[SERIES_HEAP], &palette->series[SERIES_HEAP], FALSE, palette);
  if (tm_memory_store_has_free_data (self->store))
    x = draw_legend_item (snapshot, text, _("Free"), x, y,
                          &palette->series_fill[SERIES_FREE], &palette->series[SERIES_FREE], FALSE, palette);
  x = draw_legend_item (snapshot, text, _("Fragmentation (right axis)"), x, y,
                        NULL, &palette->frag, TRUE, palette);

  append_dashed_vline (snapshot, &palette->peak, x + 6, y - 6, y + 6, 1.0, 3, 2);
  draw_text (snapshot, text, _("Window peak"), x + 14, y, 0.0, 0.5, &palette->fg, NULL);
}

/* What does not move with the visible range. */
static void
draw_static (TmTimeline    *self,
             GtkSnapshot   *snapshot,
             int            width,
             int            height,
             const Palette *palette)
{
  g_autoptr(PangoLayout) text = create_small_layout (self);
  TmTimelineLayout layout;

  compute_layout (self, width, height, &layout);

  if (!has_data (self))
    {
      draw_text (snapshot, text, _("No memory data"), width / 2.0, height / 2.0, 0.5, 0.5, &palette->dim, NULL);
      return;
    }

  draw_value_axes (self, snapshot, text, &layout, palette);
  draw_legend (self, snapshot, text, &layout, palette);
}

/* What does. */
static void
draw_range (TmTimeline    *self,
            GtkSnapshot   *snapshot,
            int            width,
            int            height,
            int            scale,
            const Palette *palette)
{
  g_autoptr(PangoLayout) text = NULL;
  cairo_surface_t *series;
  TmTimelineLayout layout;
  const graphene_rect_t *plot;
  cairo_t *cr;

  if (!has_data (self))
    return;

  text = create_small_layout (self);
  compute_layout (self, width, height, &layout);
  plot = &layout.plot;

  draw_time_axis (self, snapshot, text, &layout, palette);

  /* A cairo node that paints the image: every renderer draws that as one
   * blit (GTK 4.8's cairo renderer converts a memory texture pixel by
   * pixel on every frame). */
  series = paint_series (self, &layout, palette, scale);
  cr = gtk_snapshot_append_cairo (snapshot, plot);
  cairo_set_source_surface (cr, series, plot->origin.x, plot->origin.y);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (series);
  append_rect (snapshot, &palette->dim, plot->origin.x, round (plot->origin.y + plot->size.height) - 0.5,
               plot->size.width, 1);

  draw_hlo_band (self, snapshot, &layout, palette);
  draw_peak (self, snapshot, text, &layout, palette);
}

/* ------------------------------------------------------------------ */
/* The overlay                                                         */

static void
draw_selection (TmTimeline             *self,
                GtkSnapshot            *snapshot,
                PangoLayout            *text,
                const TmTimelineLayout *layout,
                const Palette          *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  g_autofree char *label = NULL;
  double x;

  if (!self->has_selection || !has_data (self) ||
      self->selected_time < tm_viewport_get_start (self->viewport) ||
      self->selected_time > tm_viewport_get_end (self->viewport))
    return;

  x = round (time_to_x (self, layout, self->selected_time));
  append_rect (snapshot, &palette->accent, x - 1, plot->origin.y, 2, plot->size.height);
  label = tm_format_time_ms (self->selected_time);
  draw_text (snapshot, text, label,
             CLAMP (x, plot->origin.x + 40, plot->origin.x + plot->size.width - 40),
             plot->origin.y + plot->size.height - 4, 0.5, 1.0,
             &palette->accent, &palette->background);
}

static void
draw_hover (TmTimeline             *self,
            GtkSnapshot            *snapshot,
            PangoLayout            *text,
            const TmTimelineLayout *layout,
            const Palette          *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  const gint64 *times, *stack, *heap;
  g_autofree char *time_text = NULL;
  g_autofree char *used_text = NULL;
  g_autofree char *readout = NULL;
  GdkRGBA line = palette->fg;
  gint64 used;
  double x, y;

  if (self->hover_index == G_MAXUINT || !has_data (self) || self->dragging)
    return;

  times = tm_memory_store_get_times (self->store);
  stack = tm_memory_store_get_stack (self->store);
  heap = tm_memory_store_get_heap (self->store);
  used = stack[self->hover_index] + heap[self->hover_index];

  x = round (time_to_x (self, layout, times[self->hover_index])) + 0.5;
  y = round (value_to_y (layout, (double) used)) + 0.5;

  line.alpha = 0.45f;
  if (x >= plot->origin.x && x <= plot->origin.x + plot->size.width)
    {
      append_rect (snapshot, &line, x - 0.5, plot->origin.y, 1, plot->size.height);
      for (double hx = plot->origin.x; hx < plot->origin.x + plot->size.width; hx += 6)
        append_rect (snapshot, &line, hx, y - 0.5, 3, 1);
      append_dot (snapshot, &palette->background, &palette->fg, x, y, 3.5);
    }

  time_text = tm_format_time_ms (times[self->hover_index]);
  used_text = tm_format_bytes (used);
  /* Translators: hover read-out above the timeline: time · memory in use */
  readout = g_strdup_printf (_("%s · %s in use"), time_text, used_text);
  draw_text (snapshot, text, readout, plot->origin.x + plot->size.width, 14, 1.0, 0.5, &palette->fg, NULL);
}

static void
draw_band (TmTimeline             *self,
           GtkSnapshot            *snapshot,
           const TmTimelineLayout *layout,
           const Palette          *palette)
{
  const graphene_rect_t *plot = &layout->plot;
  double x0, x1;

  if (!self->banding || !self->drag_moved)
    return;

  x0 = CLAMP (MIN (self->band_x0, self->band_x1), plot->origin.x, plot->origin.x + plot->size.width);
  x1 = CLAMP (MAX (self->band_x0, self->band_x1), plot->origin.x, plot->origin.x + plot->size.width);
  append_rect (snapshot, &palette->accent_fill, x0, plot->origin.y, x1 - x0, plot->size.height);
  append_rect (snapshot, &palette->accent, x0, plot->origin.y, 1, plot->size.height);
  append_rect (snapshot, &palette->accent, x1 - 1, plot->origin.y, 1, plot->size.height);
}

static void
draw_overlay (TmTimeline    *self,
              GtkSnapshot   *snapshot,
              int            width,
              int            height,
              const Palette *palette,
              gboolean       with_pointer)
{
  g_autoptr(PangoLayout) text = create_small_layout (self);
  TmTimelineLayout layout;

  compute_layout (self, width, height, &layout);

  if (gtk_widget_has_visible_focus (GTK_WIDGET (self)) && with_pointer)
    {
      GdkRGBA focus = palette->accent;
      const graphene_rect_t *p = &layout.plot;

      focus.alpha = 0.6f;
      append_rect (snapshot, &focus, p->origin.x - 1, p->origin.y - 1, p->size.width + 2, 1);
      append_rect (snapshot, &focus, p->origin.x - 1, p->origin.y + p->size.height, p->size.width + 2, 1);
      append_rect (snapshot, &focus, p->origin.x - 1, p->origin.y, 1, p->size.height);
      append_rect (snapshot, &focus, p->origin.x + p->size.width, p->origin.y, 1, p->size.height);
    }

  draw_selection (self, snapshot, text, &layout, palette);
  if (with_pointer)
    {
      draw_hover (self, snapshot, text, &layout, palette);
      draw_band (self, snapshot, &layout, palette);
    }
}

static void
tm_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TmTimeline *self = TM_TIMELINE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  Palette palette;

  if (width <= 0 || height <= 0)
    return;

  palette_init (self, &palette);

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

      draw_static (self, child, width, height, &palette);
      self->static_node = gtk_snapshot_free_to_node (child);
    }
  if (self->range_node == NULL)
    {
      GtkSnapshot *child = gtk_snapshot_new ();

      draw_range (self, child, width, height, scale, &palette);
      self->range_node = gtk_snapshot_free_to_node (child);
    }

  if (self->static_node != NULL)
    gtk_snapshot_append_node (snapshot, self->static_node);
  if (self->range_node != NULL)
    gtk_snapshot_append_node (snapshot, self->range_node);

  draw_overlay (self, snapshot, width, height, &palette, TRUE);
}

GskRenderNode *
tm_timeline_render_node (TmTimeline *self,
                         int         width,
                         int         height)
{
  GtkSnapshot *snapshot;
  Palette palette;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  palette_init (self, &palette);
  snapshot = gtk_snapshot_new ();
  draw_static (self, snapshot, width, height, &palette);
  draw_range (self, snapshot, width, height, 1, &palette);
  draw_overlay (self, snapshot, width, height, &palette, FALSE);

  return gtk_snapshot_free_to_node (snapshot);
}

/* ------------------------------------------------------------------ */
/* Hover and tooltip                                                   */

static int
pick_module (TmTimeline *self,
             double      x,
             double      y)
{
  TmTimelineLayout layout;
  gint64 t;

  if (self->module_spans == NULL || self->module_spans->len == 0)
    return -1;

  compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &layout);
  if (y < layout.hlo_band.origin.y - 2 || y > layout.hlo_band.origin.y + layout.hlo_band.size.height + 2 ||
      x < layout.plot.origin.x || x > layout.plot.origin.x + layout.plot.size.width)
    return -1;

  t = tm_viewport_x_to_time (self->viewport, x - layout.plot.origin.x, layout.plot.size.width);
  for (guint i = 0; i < self->module_spans->len; i++)
    {
      const ModuleSpan *m = &g_array_index (self->module_spans, ModuleSpan, i);

      if (m->start_ps > t)
        break;
      if (m->end_ps >= t)
        return (int) m->index;
    }

  return -1;
}

gboolean
tm_timeline_pick (TmTimeline *self,
                  double      x,
                  guint      *index)
{
  TmTimelineLayout layout;
  gint64 t;

  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);

  if (!has_data (self))
    return FALSE;

  compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), &layout);
  if (x < layout.plot.origin.x || x > layout.plot.origin.x + layout.plot.size.width)
    return FALSE;

  t = tm_viewport_x_to_time (self->viewport, x - layout.plot.origin.x, layout.plot.size.width);
  if (index != NULL)
    *index = tm_memory_store_find_nearest (self->store, t);

  return TRUE;
}

guint
tm_timeline_get_hover_index (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), G_MAXUINT);

  return self->hover_index;
}

/* Appends format with every argument (strings) markup-escaped. */
G_GNUC_PRINTF (2, 3)
static void
append_markup (GString    *str,
               const char *format,
               ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_markup_vprintf_escaped (format, args);
  va_end (args);
  g_string_append (str, text);
}

char *
tm_timeline_describe_snapshot (TmTimeline *self,
                               guint       index)
{
  g_autoptr(GError) error = NULL;
  TmActivity activity = { 0 };
  GString *str;
  g_autofree char *time = NULL;
  g_autofree char *requested = NULL;
  g_autofree char *allocated = NULL;
  g_autofree char *in_use = NULL;
  g_autofree char *stack = NULL;
  g_autofree char *heap = NULL;
  g_autofree char *free_text = NULL;
  g_autofree char *frag = NULL;
  g_autofree char *step = NULL;
  const char *kind;

  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (has_data (self), NULL);
  g_return_val_if_fail (index < tm_memory_store_get_n_snapshots (self->store), NULL);

  if (!tm_memory_store_get_activity (self->store, index, &activity, &error))
    return g_markup_printf_escaped ("%s", error->message);

  switch (activity.kind)
    {
    case TM_ACTIVITY_ALLOCATION:
      kind = _("Allocation");
      break;
    case TM_ACTIVITY_DEALLOCATION:
      kind = _("Deallocation");
      break;
    case TM_ACTIVITY_UNKNOWN:
    default:
      kind = _("Memory event");
      break;
    }

  time = tm_format_time_ms (activity.time_ps);
  requested = tm_format_bytes (activity.requested_bytes);
  allocated = tm_format_bytes (activity.allocation_bytes);
  in_use = tm_format_bytes (activity.stack_bytes + activity.heap_bytes);
  stack = tm_format_bytes (activity.stack_bytes);
  heap = tm_format_bytes (activity.heap_bytes);
  free_text = tm_format_bytes (activity.free_bytes);
  frag = tm_format_percent (activity.fragmentation);

  /* Every value is escaped: "< 0.01 %" is not markup. */
  str = g_string_new (NULL);
  append_markup (str, "<b>%s</b> · %s\n", kind, time);
  append_markup (str, _("Requested %s · allocated %s"), requested, allocated);
  g_string_append_c (str, '\n');
  if (activity.op_name[0] != '\0')
    {
      append_markup (str, _("Op: %s"), activity.op_name);
      g_string_append_c (str, '\n');
    }
  step = g_strdup_printf ("%" G_GINT64_FORMAT, activity.step_id);
  append_markup (str, _("Step %s · region %s · %s %s"), step,
                 activity.region_type[0] ? activity.region_type : "—",
                 activity.data_type[0] ? activity.data_type : "—",
                 activity.shape[0] ? activity.shape : "—");
  g_string_append_c (str, '\n');
  append_markup (str, _("In use %s (stack %s + heap %s)"), in_use, stack, heap);
  g_string_append_c (str, '\n');
  if (tm_memory_store_has_free_data (self->store))
    append_markup (str, _("Free %s · fragmentation %s"), free_text, frag);
  else
    append_markup (str, _("Fragmentation %s"), frag);

  tm_activity_clear (&activity);

  return g_string_free (str, FALSE);
}

static char *
describe_module (TmTimeline *self,
                 guint       index)
{
  const TmHloModule *m = &g_array_index (self->hlo_modules, TmHloModule, index);
  g_autofree char *start = tm_format_time_ms (m->start_ps);
  g_autofree char *end = tm_format_time_ms (m->end_ps);
  g_autofree char *duration = tm_format_duration (m->end_ps - m->start_ps);

  /* Translators: tooltip of an HLO module span: name, device, start – end, duration */
  return g_markup_printf_escaped (_("<b>%s</b> on %s\n%s – %s (%s)"), m->name, m->device, start, end, duration);
}

static gboolean
tm_timeline_query_tooltip (GtkWidget  *widget,
                           int         x,
                           int         y,
                           gboolean    keyboard_mode,
                           GtkTooltip *tooltip)
{
  TmTimeline *self = TM_TIMELINE (widget);
  int module;
  guint index;

  if (self->dragging)
    return FALSE;

  module = pick_module (self, x, y);
  if (module >= 0)
    {
      g_autofree char *markup = describe_module (self, module);

      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }

  if (keyboard_mode || !tm_timeline_pick (self, x, &index))
    return FALSE;

  if (self->described_markup == NULL || self->described_index != index)
    {
      g_free (self->described_markup);
      self->described_markup = tm_timeline_describe_snapshot (self, index);
      self->described_index = index;
    }
  /* No tip area: GTK hides a tooltip whenever the pointer leaves the
   * previous one, so a small area kept the tooltip from ever coming back
   * once the pointer had moved; without one it follows the pointer and the
   * text follows the nearest snapshot. */
  gtk_tooltip_set_markup (tooltip, self->described_markup);

  return TRUE;
}

static void
set_hover (TmTimeline *self,
           guint       index)
{
  if (self->hover_index == index)
    return;

  self->hover_index = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
update_hover (TmTimeline *self)
{
  guint index;

  if (self->pointer_inside && tm_timeline_pick (self, self->pointer_x, &index))
    set_hover (self, index);
  else
    set_hover (self, G_MAXUINT);
}

static void
motion_cb (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           TmTimeline               *self)
{
  self->pointer_inside = TRUE;
  self->pointer_x = x;
  update_hover (self);
}

static void
leave_cb (GtkEventControllerMotion *motion,
          TmTimeline               *self)
{
  self->pointer_inside = FALSE;
  set_hover (self, G_MAXUINT);
}

/* ------------------------------------------------------------------ */
/* Zoom and pan                                                        */

static void
current_layout (TmTimeline       *self,
                TmTimelineLayout *layout)
{
  compute_layout (self, gtk_widget_get_width (GTK_WIDGET (self)), gtk_widget_get_height (GTK_WIDGET (self)), layout);
}

static double
pointer_fraction (TmTimeline *self,
                  double      x)
{
  TmTimelineLayout layout;

  current_layout (self, &layout);
  return CLAMP ((x - layout.plot.origin.x) / layout.plot.size.width, 0.0, 1.0);
}

static gboolean
scroll_cb (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           TmTimeline               *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (scroll);
  double fraction = self->pointer_inside ? pointer_fraction (self, self->pointer_x) : 0.5;
  TmTimelineLayout layout;

  if (!has_data (self))
    return FALSE;

  current_layout (self, &layout);

  if (unit == GDK_SCROLL_UNIT_WHEEL)
    {
      if (state & GDK_SHIFT_MASK)
        {
          /* Shift+wheel: pan, as in most horizontal timelines. */
          tm_viewport_pan_fraction (self->viewport, (dy + dx) * KEY_PAN_FRACTION);
          return TRUE;
        }
      if (dy != 0.0)
        tm_viewport_zoom_at_fraction (self->viewport, pow (WHEEL_ZOOM_STEP, -dy), fraction);
      if (dx != 0.0)
        tm_viewport_pan_fraction (self->viewport, dx * KEY_PAN_FRACTION);
      return TRUE;
    }

  /* Touchpad (surface units, pixels): Ctrl zooms smoothly, otherwise
   * horizontal movement pans and vertical movement is left to the page. */
  if (state & GDK_CONTROL_MASK)
    {
      tm_viewport_zoom_at_fraction (self->viewport, exp (-dy * 0.01), fraction);
      return TRUE;
    }
  if (dx != 0.0)
    {
      tm_viewport_pan (self->viewport,
                       (gint64) llround (dx * (double) tm_viewport_get_span (self->viewport) / layout.plot.size.width));
      return TRUE;
    }

  return FALSE;
}

static void
pinch_begin_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmTimeline       *self)
{
  TmTimelineLayout layout;
  double cx, cy;

  current_layout (self, &layout);
  if (!gtk_gesture_get_bounding_box_center (gesture, &cx, &cy))
    cx = layout.plot.origin.x + layout.plot.size.width / 2;

  self->pinch_span = tm_viewport_get_span (self->viewport);
  self->pinch_anchor = tm_viewport_x_to_time (self->viewport, cx - layout.plot.origin.x, layout.plot.size.width);
}

static void
pinch_scale_changed_cb (GtkGestureZoom *gesture,
                        double          scale,
                        TmTimeline     *self)
{
  double cx, cy;

  if (!(scale > 0.0) || !gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    return;

  /* The time under the fingers' centre stays under it, wherever they go. */
  tm_viewport_set_span_at (self->viewport,
                           (gint64) llround ((double) self->pinch_span / scale),
                           self->pinch_anchor,
                           pointer_fraction (self, cx));
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TmTimeline     *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  TmTimelineLayout layout;

  current_layout (self, &layout);
  if (!has_data (self) || x < layout.plot.origin.x || x > layout.plot.origin.x + layout.plot.size.width)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }

  self->dragging = TRUE;
  self->drag_moved = FALSE;
  self->banding = button == GDK_BUTTON_SECONDARY || (state & GDK_SHIFT_MASK) != 0;
  self->drag_start_x = x;
  self->band_x0 = self->band_x1 = x;
  self->drag_view_start = tm_viewport_get_start (self->viewport);
  self->drag_view_end = tm_viewport_get_end (self->viewport);

  gtk_widget_grab_focus (GTK_WIDGET (self));
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TmTimeline     *self)
{
  TmTimelineLayout layout;

  if (!self->dragging)
    return;

  if (!self->drag_moved && fabs (dx) < DRAG_THRESHOLD)
    return;

  if (!self->drag_moved)
    {
      self->drag_moved = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      gtk_widget_set_cursor_from_name (GTK_WIDGET (self), self->banding ? "col-resize" : "grabbing");
      set_hover (self, G_MAXUINT);
    }

  current_layout (self, &layout);
  if (self->banding)
    {
      self->band_x1 = self->drag_start_x + dx;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else
    {
      double span = (double) (self->drag_view_end - self->drag_view_start);
      gint64 delta = (gint64) llround (-dx * span / layout.plot.size.width);

      tm_viewport_set_range (self->viewport, self->drag_view_start + delta, self->drag_view_end + delta);
    }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TmTimeline     *self)
{
  if (!self->dragging)
    return;

  if (self->banding && self->drag_moved)
    {
      TmTimelineLayout layout;
      double x0 = MIN (self->band_x0, self->band_x1);
      double x1 = MAX (self->band_x0, self->band_x1);

      current_layout (self, &layout);
      x0 = CLAMP (x0, layout.plot.origin.x, layout.plot.origin.x + layout.plot.size.width);
      x1 = CLAMP (x1, layout.plot.origin.x, layout.plot.origin.x + layout.plot.size.width);
      if (x1 - x0 >= 2.0)
        tm_viewport_set_range (self->viewport,
                               tm_viewport_x_to_time (self->viewport, x0 - layout.plot.origin.x, layout.plot.size.width),
                               tm_viewport_x_to_time (self->viewport, x1 - layout.plot.origin.x, layout.plot.size.width));
    }

  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
  update_hover (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
drag_cancel_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TmTimeline       *self)
{
  self->dragging = FALSE;
  self->banding = FALSE;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "crosshair");
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A click selects at once, but tells the world ("time-selected") only when
 * it is not the first half of a double-click, which shows everything and
 * puts the selection back as it was. */
static gboolean
emit_time_selected_cb (gpointer user_data)
{
  TmTimeline *self = user_data;

  self->pending_selection_source = 0;
  g_signal_emit (self, signals[TIME_SELECTED], 0, self->selected_time);

  return G_SOURCE_REMOVE;
}

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  TmTimeline      *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));

  if (n_press == 2)
    {
      self->double_clicked = TRUE;
      if (self->pending_selection_source != 0)
        {
          g_clear_handle_id (&self->pending_selection_source, g_source_remove);
          if (self->had_selection)
            tm_timeline_select_time (self, self->previous_selection);
          else
            tm_timeline_clear_selection (self);
        }
      tm_viewport_reset (self->viewport);
    }
  else
    self->double_clicked = FALSE;
}

static void
click_released_cb (GtkGestureClick *gesture,
                   int              n_press,
                   double           x,
                   double           y,
                   TmTimeline      *self)
{
  int double_click_ms = 400;
  guint index;

  if (n_press != 1 || self->double_clicked || self->drag_moved)
    return;

  if (tm_timeline_pick (self, x, &index))
    {
      if (self->pending_selection_source == 0)
        {
          self->had_selection = self->has_selection;
          self->previous_selection = self->selected_time;
        }
      tm_timeline_select_time (self, tm_memory_store_get_times (self->store)[index]);

      g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-double-click-time", &double_click_ms, NULL);
      g_clear_handle_id (&self->pending_selection_source, g_source_remove);
      self->pending_selection_source = g_timeout_add (MAX (double_click_ms, 1), emit_time_selected_cb, self);
    }
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  TmTimeline *self = TM_TIMELINE (widget);

  if (self->has_selection &&
      self->selected_time >= tm_viewport_get_start (self->viewport) &&
      self->selected_time <= tm_viewport_get_end (self->viewport))
    tm_viewport_zoom (self->viewport, KEY_ZOOM_STEP, self->selected_time);
  else
    tm_viewport_zoom_at_fraction (self->viewport, KEY_ZOOM_STEP, 0.5);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TmTimeline *self = TM_TIMELINE (widget);

  if (self->has_selection &&
      self->selected_time >= tm_viewport_get_start (self->viewport) &&
      self->selected_time <= tm_viewport_get_end (self->viewport))
    tm_viewport_zoom (self->viewport, 1.0 / KEY_ZOOM_STEP, self->selected_time);
  else
    tm_viewport_zoom_at_fraction (self->viewport, 1.0 / KEY_ZOOM_STEP, 0.5);
}

static void
pan_left_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  tm_viewport_pan_fraction (TM_TIMELINE (widget)->viewport, -KEY_PAN_FRACTION);
}

static void
pan_right_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  tm_viewport_pan_fraction (TM_TIMELINE (widget)->viewport, KEY_PAN_FRACTION);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  tm_viewport_reset (TM_TIMELINE (widget)->viewport);
}

static void
update_actions (TmTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean data = has_data (self);

  gtk_widget_action_set_enabled (widget, "timeline.zoom-in", data && tm_viewport_can_zoom_in (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.zoom-out", data && tm_viewport_can_zoom_out (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.pan-left",
                                 data && tm_viewport_get_start (self->viewport) > tm_viewport_get_data_start (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.pan-right",
                                 data && tm_viewport_get_end (self->viewport) < tm_viewport_get_data_end (self->viewport));
  gtk_widget_action_set_enabled (widget, "timeline.reset", data && tm_viewport_is_zoomed (self->viewport));
}

static void
viewport_changed_cb (TmViewport *viewport,
                     TmTimeline *self)
{
  update_actions (self);
  invalidate_range (self);
  if (!self->dragging)
    update_hover (self);
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
      *minimum = MARGIN_LEFT + MARGIN_RIGHT + 160;
      *natural = MARGIN_LEFT + MARGIN_RIGHT + 800;
    }
  else
    {
      *minimum = MARGIN_TOP + MARGIN_BOTTOM + 120;
      *natural = MARGIN_TOP + MARGIN_BOTTOM + 260;
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
  update_hover (TM_TIMELINE (widget));
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
  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_data (self->viewport, self);
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

  g_free (self->buckets);
  g_free (self->changes);
  g_free (self->sorted_changes);
  for (guint i = 0; i < G_N_ELEMENTS (self->paint_surfaces); i++)
    g_clear_pointer (&self->paint_surfaces[i], cairo_surface_destroy);

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
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;

    case PROP_VIEWPORT:
      g_value_set_object (value, self->viewport);
      break;

    case PROP_HAS_SELECTION:
      g_value_set_boolean (value, self->has_selection);
      break;

    case PROP_SELECTED_TIME:
      g_value_set_int64 (value, self->selected_time);
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
    case PROP_STORE:
      tm_timeline_set_store (self, g_value_get_object (value));
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
  widget_class->query_tooltip = tm_timeline_query_tooltip;
  widget_class->css_changed = tm_timeline_css_changed;

  properties[PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL,
                         TM_TYPE_MEMORY_STORE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VIEWPORT] =
    g_param_spec_object ("viewport", NULL, NULL,
                         TM_TYPE_VIEWPORT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_SELECTION] =
    g_param_spec_boolean ("has-selection", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_TIME] =
    g_param_spec_int64 ("selected-time", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TmTimeline::time-selected:
   * @time_ps: the time of the clicked snapshot
   *
   * The user clicked the plot; the snapshot nearest the click is selected.
   */
  signals[TIME_SELECTED] =
    g_signal_new ("time-selected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT64);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_left_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_right_action);
  gtk_widget_class_install_action (widget_class, "timeline.reset", NULL, reset_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "timeline.reset", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Home, 0, "timeline.reset", NULL);

  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tm_timeline_init (TmTimeline *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;

  self->hover_index = G_MAXUINT;
  self->described_index = G_MAXUINT;

  self->viewport = tm_viewport_new ();
  g_signal_connect (self->viewport, "changed", G_CALLBACK (viewport_changed_cb), self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_widget_set_cursor_from_name (widget, "crosshair");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Stack, heap and free memory over time; scroll to zoom, drag to pan, click to select a time"),
                                  -1);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (widget, controller);

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (pinch_scale_changed_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  /* Primary button: drag pans (Shift: rubber band); secondary: rubber band. */
  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  g_signal_connect (gesture, "cancel", G_CALLBACK (drag_cancel_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  g_signal_connect (gesture, "released", G_CALLBACK (click_released_cb), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  update_actions (self);
}

/* ------------------------------------------------------------------ */
/* Public API                                                          */

GtkWidget *
tm_timeline_new (void)
{
  return g_object_new (TM_TYPE_TIMELINE, NULL);
}

static void
update_limits (TmTimeline *self)
{
  gint64 start = 0, end = 1;
  gboolean any = FALSE;

  if (has_data (self))
    {
      const TmSummary *summary = tm_memory_store_get_summary (self->store);

      start = summary->first_time_ps;
      end = summary->last_time_ps;
      any = TRUE;
    }
  if (self->module_spans != NULL && self->module_spans->len > 0)
    {
      for (guint i = 0; i < self->module_spans->len; i++)
        {
          const ModuleSpan *m = &g_array_index (self->module_spans, ModuleSpan, i);

          start = any ? MIN (start, m->start_ps) : m->start_ps;
          end = any ? MAX (end, m->end_ps) : m->end_ps;
          any = TRUE;
        }
    }

  tm_viewport_set_limits (self->viewport, start, end);
}

void
tm_timeline_set_store (TmTimeline    *self,
                       TmMemoryStore *store)
{
  g_return_if_fail (TM_IS_TIMELINE (self));
  g_return_if_fail (store == NULL || TM_IS_MEMORY_STORE (store));

  if (self->store == store)
    return;

  g_set_object (&self->store, store);
  g_clear_pointer (&self->own_lod, tm_lod_free);
  g_clear_pointer (&self->described_markup, g_free);
  self->described_index = G_MAXUINT;
  self->hover_index = G_MAXUINT;

  tm_timeline_clear_selection (self);
  update_limits (self);
  update_actions (self);
  invalidate (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STORE]);
}

TmMemoryStore *
tm_timeline_get_store (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);

  return self->store;
}

TmViewport *
tm_timeline_get_viewport (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), NULL);

  return self->viewport;
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

void
tm_timeline_set_hlo_modules (TmTimeline *self,
                             GArray     *modules)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

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

  update_limits (self);
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

gboolean
tm_timeline_get_has_selection (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), FALSE);

  return self->has_selection;
}

gint64
tm_timeline_get_selected_time (TmTimeline *self)
{
  g_return_val_if_fail (TM_IS_TIMELINE (self), 0);

  return self->selected_time;
}

void
tm_timeline_select_time (TmTimeline *self,
                         gint64      time_ps)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

  /* A click not yet announced is overtaken. */
  g_clear_handle_id (&self->pending_selection_source, g_source_remove);

  if (self->has_selection && self->selected_time == time_ps)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (!self->has_selection)
    {
      self->has_selection = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
    }
  self->selected_time = time_ps;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_TIME]);
  g_object_thaw_notify (G_OBJECT (self));

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tm_timeline_clear_selection (TmTimeline *self)
{
  g_return_if_fail (TM_IS_TIMELINE (self));

  g_clear_handle_id (&self->pending_selection_source, g_source_remove);

  if (!self->has_selection)
    return;

  self->has_selection = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tm_timeline_zoom_to (TmTimeline *self,
                     gint64      start_ps,
                     gint64      end_ps)
{
  gint64 margin;

  g_return_if_fail (TM_IS_TIMELINE (self));

  if (end_ps < start_ps)
    {
      gint64 tmp = start_ps;

      start_ps = end_ps;
      end_ps = tmp;
    }
  margin = (gint64) ((double) (end_ps - start_ps) * ZOOM_TO_MARGIN);
  tm_viewport_set_range (self->viewport, start_ps - margin, end_ps + margin);
}

void
tm_timeline_get_layout (TmTimeline       *self,
                        TmTimelineLayout *layout)
{
  g_return_if_fail (TM_IS_TIMELINE (self));
  g_return_if_fail (layout != NULL);

  current_layout (self, layout);
}
