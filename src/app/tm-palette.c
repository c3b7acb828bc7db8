/* tm-palette.c — the colours of the memory charts, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-palette.h"

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
tm_palette_get_color (TmPaletteColor  color,
                      gboolean        dark,
                      GdkRGBA        *rgba)
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
tm_palette_is_dark_style (GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  return 0.2126 * fg.red + 0.7152 * fg.green + 0.0722 * fg.blue > 0.5;
}

void
tm_palette_init (TmPalette     *p,
                 const GdkRGBA *fg,
                 gboolean       dark)
{
  g_return_if_fail (p != NULL);
  g_return_if_fail (fg != NULL);

  p->dark = dark;

  p->fg = *fg;
  p->fg.alpha = 1.0f;
  p->dim = p->fg;
  p->dim.alpha = 0.70f;
  p->grid = p->fg;
  p->grid.alpha = p->dark ? 0.10f : 0.08f;
  rgba_init (&p->background, p->dark ? 0x242424 : 0xffffff, 0.88f);

  tm_palette_get_color (TM_PALETTE_STACK, p->dark, &p->series[TM_SERIES_STACK]);
  tm_palette_get_color (TM_PALETTE_HEAP, p->dark, &p->series[TM_SERIES_HEAP]);
  tm_palette_get_color (TM_PALETTE_FREE, p->dark, &p->series[TM_SERIES_FREE]);
  tm_palette_get_color (TM_PALETTE_FRAGMENTATION, p->dark, &p->frag);
  tm_palette_get_color (TM_PALETTE_ACCENT, p->dark, &p->accent);
  tm_palette_get_color (TM_PALETTE_HLO, p->dark, &p->hlo[0]);
  tm_palette_get_color (TM_PALETTE_HLO_ALT, p->dark, &p->hlo[1]);

  p->series_fill[TM_SERIES_STACK] = p->series[TM_SERIES_STACK];
  p->series_fill[TM_SERIES_STACK].alpha = p->dark ? 0.55f : 0.50f;
  p->series_fill[TM_SERIES_HEAP] = p->series[TM_SERIES_HEAP];
  p->series_fill[TM_SERIES_HEAP].alpha = p->dark ? 0.45f : 0.42f;
  p->series_fill[TM_SERIES_FREE] = p->series[TM_SERIES_FREE];
  p->series_fill[TM_SERIES_FREE].alpha = p->dark ? 0.20f : 0.22f;

  p->accent_fill = p->accent;
  p->accent_fill.alpha = 0.18f;
  p->peak = p->fg;
  p->peak.alpha = 0.75f;
}

void
tm_palette_init_for_widget (TmPalette *palette,
                            GtkWidget *widget)
{
  GdkRGBA fg;

  g_return_if_fail (palette != NULL);
  g_return_if_fail (GTK_IS_WIDGET (widget));

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  tm_palette_init (palette, &fg, tm_palette_is_dark_style (widget));
}

/* Seven GNOME palette hues (blue, green, yellow, orange, red, purple,
 * brown), two shades each per style. */
static const char * const name_colors_light[] = {
  "#99c1f1", "#62a0ea", "#8ff0a4", "#57e389", "#f9f06b", "#f6d32d", "#ffbe6f",
  "#ffa348", "#f66151", "#ed333b", "#dc8add", "#c061cb", "#cdab8f", "#b5835a",
};
static const char * const name_colors_dark[] = {
  "#1c71d8", "#1a5fb4", "#26a269", "#2ec27e", "#c88800", "#e5a50a", "#c64600",
  "#e66100", "#c01c28", "#a51d2d", "#813d9c", "#613583", "#865e3c", "#63452c",
};

void
tm_palette_color_for_name (const char *name,
                           gboolean    dark,
                           GdkRGBA    *out)
{
  guint32 hash = 2166136261u;  /* FNV-1a: stable across runs and builds */
  guint index;

  g_return_if_fail (out != NULL);

  for (const guchar *p = (const guchar *) (name != NULL ? name : ""); *p != '\0'; p++)
    hash = (hash ^ *p) * 16777619u;
  index = hash % G_N_ELEMENTS (name_colors_light);
  gdk_rgba_parse (out, dark ? name_colors_dark[index] : name_colors_light[index]);
}
