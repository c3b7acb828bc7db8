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
 * shows the state at the time under the pointer (the last snapshot at or
 * before it); a click selects that time (docs/ui.md, "Picking").
 *
 * A view of a TmSession: it draws the session's memory store over the
 * session's viewport, the HLO modules of the session's profile and the
 * session's selected time, and changes them only through the session. A
 * click is drawn at once and given to the session (tm_session_select_time())
 * when it is known not to be the first half of a double-click (which shows
 * everything and leaves the session's selected time as it was).
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-palette.h"
#include "tm-session.h"

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

GtkWidget     *tm_timeline_new                (TmSession       *session);

/* The session shown (NULL: nothing). */
TmSession     *tm_timeline_get_session        (TmTimeline      *self);
void           tm_timeline_set_session        (TmTimeline      *self,
                                               TmSession       *session);

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
/* The same in palette's colours: a light image from a dark window. */
GskRenderNode *tm_timeline_render_node_with_palette (TmTimeline      *self,
                                                     int              width,
                                                     int              height,
                                                     const TmPalette *palette);

G_END_DECLS
