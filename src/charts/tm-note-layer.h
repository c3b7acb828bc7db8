/* tm-note-layer.h — a line of text on a chart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * TM_NOTE_TOP_LEFT: the timeline's range read-out (docs/ui.md, "Range
 * figures"), one line over a rounded background at the top left of the
 * plot, ellipsized to the plot's width. Notes stack from the top of the
 * plot; the line a note takes is one of its inputs, so that it goes under
 * another layer's label without the layers knowing each other.
 * TM_NOTE_PLOT_CENTER and TM_NOTE_CHART_CENTER: a quiet word in the middle
 * of the plot or of the whole chart, where there is nothing to draw ("No
 * memory data", "Indexing allocations…").
 */
#pragma once

#include "tm-chart-layer.h"

G_BEGIN_DECLS

#define TM_TYPE_NOTE_LAYER (tm_note_layer_get_type ())

G_DECLARE_FINAL_TYPE (TmNoteLayer, tm_note_layer, TM, NOTE_LAYER, TmChartLayer)

/* How far apart two lines of notes are. */
#define TM_NOTE_LINE_HEIGHT 20

typedef enum
{
  TM_NOTE_TOP_LEFT,
  TM_NOTE_PLOT_CENTER,
  TM_NOTE_CHART_CENTER,
} TmNotePosition;

TmChartLayer *tm_note_layer_new      (TmNotePosition position);
/* The text (NULL: none) and, at the top left, its line (0 at the top of
 * the plot). */
void          tm_note_layer_set_text (TmNoteLayer *self,
                                      const char  *text,
                                      guint        line);
const char   *tm_note_layer_get_text (TmNoteLayer *self);

G_END_DECLS
