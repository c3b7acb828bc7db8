/* tm-note-layer.c — a line of text on a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-chart-palette.h"
#include "tm-note-layer.h"

struct _TmNoteLayer
{
  TmChartLayer   parent_instance;

  TmNotePosition position;
  char          *text;
  guint        line;
};

G_DEFINE_FINAL_TYPE (TmNoteLayer, tm_note_layer, TM_TYPE_CHART_LAYER)

static void
tm_note_layer_draw (TmChartLayer          *layer,
                    TmChartCanvas         *canvas,
                    const TmChartGeometry *g)
{
  TmNoteLayer *self = TM_NOTE_LAYER (layer);
  const TmChartPalette *palette = tm_chart_canvas_get_palette (canvas);

  if (self->text == NULL)
    return;

  if (self->position == TM_NOTE_PLOT_CENTER)
    {
      tm_chart_canvas_label (canvas, self->text, g->plot.x + g->plot.width / 2, g->plot.y + g->plot.height / 2,
                             0.5, 0.5, &palette->dim, NULL);
      return;
    }
  if (self->position == TM_NOTE_CHART_CENTER)
    {
      tm_chart_canvas_label (canvas, self->text, g->width / 2.0, g->height / 2.0, 0.5, 0.5, &palette->dim, NULL);
      return;
    }
  tm_chart_canvas_set_label_width (canvas, g->plot.width - 12);
  tm_chart_canvas_label (canvas, self->text, g->plot.x + 6, g->plot.y + 4 + self->line * TM_NOTE_LINE_HEIGHT,
                         0.0, 0.0, &palette->fg, &palette->background);
  tm_chart_canvas_set_label_width (canvas, 0);
}

static void
tm_note_layer_finalize (GObject *object)
{
  TmNoteLayer *self = TM_NOTE_LAYER (object);

  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (tm_note_layer_parent_class)->finalize (object);
}

static void
tm_note_layer_class_init (TmNoteLayerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_note_layer_finalize;
  TM_CHART_LAYER_CLASS (klass)->draw = tm_note_layer_draw;
}

static void
tm_note_layer_init (TmNoteLayer *self)
{
}

TmChartLayer *
tm_note_layer_new (TmNotePosition position)
{
  TmNoteLayer *self = g_object_new (TM_TYPE_NOTE_LAYER, NULL);

  self->position = position;
  return TM_CHART_LAYER (self);
}

void
tm_note_layer_set_text (TmNoteLayer *self,
                        const char  *text,
                        guint        line)
{
  g_return_if_fail (TM_IS_NOTE_LAYER (self));

  g_free (self->text);
  self->text = g_strdup (text);
  self->line = line;
}

const char *
tm_note_layer_get_text (TmNoteLayer *self)
{
  g_return_val_if_fail (TM_IS_NOTE_LAYER (self), NULL);

  return self->text;
}
