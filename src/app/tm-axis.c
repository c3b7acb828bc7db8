/* tm-axis.c — chart axes: the time ruler, the value axes and their labels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "tm-axis.h"
#include "tm-format.h"

void
tm_axis_time_ticks (gint64       start_ps,
                    gint64       end_ps,
                    double       width,
                    TmTimeTicks *ticks)
{
  tm_chart_axes_time_ticks (start_ps, end_ps, width, ticks);
}

char *
tm_axis_format_tick_ms (gint64 time_ps,
                        int    decimals)
{
  return tm_chart_axes_format_tick_ms (time_ps, decimals);
}

void
tm_axis_byte_scale (gint64  max_bytes,
                    double  plot_height,
                    gint64 *y_max,
                    gint64 *y_step)
{
  tm_chart_axes_byte_scale (max_bytes, plot_height, y_max, y_step);
}

char *
tm_axis_trim_zeros (char *text)
{
  return tm_chart_axes_trim_zeros (text);
}

PangoLayout *
tm_axis_create_label_layout (GtkWidget *widget)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, NULL);
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);

  return layout;
}

graphene_rect_t
tm_axis_draw_label (GtkSnapshot   *snapshot,
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

void
tm_axis_append_rect (GtkSnapshot   *snapshot,
                     const GdkRGBA *color,
                     double         x,
                     double         y,
                     double         w,
                     double         h)
{
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x, y, w, h));
}

void
tm_axis_draw_value_axes (GtkSnapshot           *snapshot,
                         PangoLayout           *text,
                         const graphene_rect_t *plot,
                         gint64                 y_max,
                         gint64                 y_step,
                         double                 label_y,
                         const TmPalette       *palette)
{
  double x0 = plot->origin.x, y0 = plot->origin.y;
  double w = plot->size.width, h = plot->size.height;
  const double pcts[] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

  g_return_if_fail (y_max > 0 && y_step > 0);

  for (gint64 v = 0; v <= y_max; v += y_step)
    {
      double y = round (tm_axis_value_to_y (plot, y_max, (double) v));
      g_autofree char *label = tm_axis_trim_zeros (tm_format_bytes (v));

      tm_axis_append_rect (snapshot, &palette->grid, x0, y - 0.5, w, 1);
      tm_axis_draw_label (snapshot, text, label, x0 - 8, y, 1.0, 0.5, &palette->dim, NULL);
    }

  /* Fragmentation, labels in the line's colour. */
  for (guint i = 0; i < G_N_ELEMENTS (pcts); i++)
    {
      double y = round (y0 + h - pcts[i] * h);
      g_autofree char *label = NULL;

      if (h < 120 && (i == 1 || i == 3))
        continue;
      label = tm_axis_trim_zeros (tm_format_percent (pcts[i]));
      tm_axis_append_rect (snapshot, &palette->frag, x0 + w, y - 0.5, 4, 1);
      tm_axis_draw_label (snapshot, text, label, x0 + w + 7, y, 0.0, 0.5, &palette->frag, NULL);
    }

  tm_axis_draw_label (snapshot, text, _("ms"), x0 + w + 7, label_y, 0.0, 0.0, &palette->dim, NULL);
}

void
tm_axis_draw_time_ruler (GtkSnapshot           *snapshot,
                         PangoLayout           *text,
                         TmViewport            *viewport,
                         const graphene_rect_t *plot,
                         double                 label_y,
                         const TmPalette       *palette)
{
  double x0 = plot->origin.x, y0 = plot->origin.y;
  double w = plot->size.width, h = plot->size.height;
  gint64 end = tm_viewport_get_end (viewport);
  double unit_x = x0 + w + 7;
  TmTimeTicks ticks;

  tm_axis_time_ticks (tm_viewport_get_start (viewport), end, w, &ticks);

  for (gint64 t = ticks.first_ps; t <= end; t += ticks.step_ps)
    {
      double x = round (x0 + tm_viewport_time_to_x (viewport, t, w));
      g_autofree char *label = tm_axis_format_tick_ms (t, ticks.decimals);
      PangoRectangle logical;

      tm_axis_append_rect (snapshot, &palette->grid, x - 0.5, y0, 1, h);
      tm_axis_append_rect (snapshot, &palette->dim, x - 0.5, y0 + h, 1, 4);

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

char *
tm_axis_format_time (gint64 time_ps,
                     gint64 span_ps)
{
  return tm_chart_axes_format_time (time_ps, span_ps);
}
