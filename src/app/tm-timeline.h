/* tm-timeline.h — the memory timeline: stack, heap and free over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Draws every snapshot of one memory id at any zoom: each pixel column shows
 * the smallest and largest values of its snapshots, read from the store's
 * TmLod. Stacked areas (stack, heap, free), fragmentation as a dashed line on
 * a right 0–100 % axis, byte and millisecond axes, the window peak, a legend,
 * HLO module spans as a thin band.
 *
 * Interaction: wheel zooms at the pointer (Ctrl+wheel too; touchpad scroll
 * pans), pinch zooms, drag pans, Shift+drag or right-drag zooms to a range,
 * double-click or Home shows everything, + − ← → when focused. Hovering
 * shows the nearest snapshot; a click selects its time ("time-selected").
 *
 * The visible range lives in a TmViewport that other widgets (the overview
 * strip, the HLO table) may share.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-memory-store.h"
#include "tm-viewport.h"

G_BEGIN_DECLS

#define TM_TYPE_TIMELINE (tm_timeline_get_type ())

G_DECLARE_FINAL_TYPE (TmTimeline, tm_timeline, TM, TIMELINE, GtkWidget)

/* Where things go, for tests and for code that maps pointer positions. */
typedef struct
{
  graphene_rect_t plot;       /* the data area */
  graphene_rect_t hlo_band;   /* empty when there are no modules */
  gint64          y_max;      /* bytes at the top of the plot */
} TmTimelineLayout;

/* The series colours (GNOME palette; lighter shades for dark styles), so
 * that companion widgets draw in the same colours. */
typedef enum
{
  TM_TIMELINE_COLOR_STACK,
  TM_TIMELINE_COLOR_HEAP,
  TM_TIMELINE_COLOR_FREE,
  TM_TIMELINE_COLOR_FRAGMENTATION,
  TM_TIMELINE_COLOR_ACCENT,
  TM_TIMELINE_COLOR_HLO,
  TM_TIMELINE_COLOR_HLO_ALT,
} TmTimelineColor;

void           tm_timeline_get_color          (TmTimelineColor  color,
                                               gboolean         dark,
                                               GdkRGBA         *rgba);
/* Whether widget is drawn in a dark style (light text). */
gboolean       tm_timeline_is_dark_style      (GtkWidget       *widget);

GtkWidget     *tm_timeline_new                (void);

/* Shows store (NULL: nothing), all of it, with no selection. */
void           tm_timeline_set_store          (TmTimeline      *self,
                                               TmMemoryStore   *store);
TmMemoryStore *tm_timeline_get_store          (TmTimeline      *self);

/* The visible range; owned by the timeline. */
TmViewport    *tm_timeline_get_viewport       (TmTimeline      *self);

/* HLO modules (TmHloModule) to draw as a band; NULL or empty: no band. The
 * array is referenced, not copied. */
void           tm_timeline_set_hlo_modules    (TmTimeline      *self,
                                               GArray          *modules);

/* The selected time. A click selects the nearest snapshot's time at once
 * and emits "time-selected" (gint64 time_ps) when it is known not to be
 * the first half of a double-click (which shows everything and puts the
 * selection back). Selecting from code does not emit it. */
gboolean       tm_timeline_get_has_selection  (TmTimeline      *self);
gint64         tm_timeline_get_selected_time  (TmTimeline      *self);
void           tm_timeline_select_time        (TmTimeline      *self,
                                               gint64           time_ps);
void           tm_timeline_clear_selection    (TmTimeline      *self);

/* Shows [start_ps, end_ps] with a little room on both sides. */
void           tm_timeline_zoom_to            (TmTimeline      *self,
                                               gint64           start_ps,
                                               gint64           end_ps);

/* The snapshot a pointer at widget x (any y) hovers: the one nearest in
 * time. FALSE when x is outside the plot or there is no data. */
gboolean       tm_timeline_pick               (TmTimeline      *self,
                                               double           x,
                                               guint           *index);
/* The hovered snapshot (G_MAXUINT when none). */
guint          tm_timeline_get_hover_index    (TmTimeline      *self);
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
