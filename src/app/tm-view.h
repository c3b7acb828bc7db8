/* tm-view.h — the base of every view: a session and its signal group, once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A view shows what a session says (tm-session.h) and takes nothing else:
 * it reads the session, changes it only through the session's setters and
 * redraws when the session notifies. TmView holds the "session" property
 * and a GSignalGroup targeting it, so a view never repeats that plumbing;
 * tests/check-layering.py finds the views by this base type and keeps
 * them from calling each other.
 *
 * Making a widget a view (docs/architecture.md, "Adding a view"):
 *
 *   G_DECLARE_FINAL_TYPE (TmFooView, tm_foo_view, TM, FOO_VIEW, TmView)
 *   G_DEFINE_FINAL_TYPE (TmFooView, tm_foo_view, TM_TYPE_VIEW)
 *
 *   - in _init, connect to the session's notifications through the group,
 *     which follows the session as it changes:
 *       g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)),
 *                                       "notify::memory-store",
 *                                       G_CALLBACK (rebuild), self);
 *   - override TmViewClass.session_changed to show a new session (it runs
 *     after the group points at it, before "session" notifies; chain up
 *     is not needed);
 *   - read the session with tm_view_get_session (TM_VIEW (self)); it may
 *     be NULL (the view then shows nothing);
 *   - drop the view's own session field, its property and its
 *     get/set_session functions; callers use tm_view_set_session() or the
 *     "session" construct property (g_object_new (..., "session", s, NULL)).
 *
 * The base sets no layout manager and draws nothing: the subclass does, as
 * any widget. Its dispose unparents the children left to it.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-session.h"

G_BEGIN_DECLS

#define TM_TYPE_VIEW (tm_view_get_type ())

G_DECLARE_DERIVABLE_TYPE (TmView, tm_view, TM, VIEW, GtkWidget)

struct _TmViewClass
{
  GtkWidgetClass parent_class;

  /* The view shows another session (or NULL); old_session is the one it
   * showed before (NULL: none). */
  void (*session_changed) (TmView    *self,
                           TmSession *old_session);

  /*< private >*/
  gpointer padding[4];
};

TmSession    *tm_view_get_session         (TmView    *self);
void          tm_view_set_session         (TmView    *self,
                                           TmSession *session);
/* The group of handlers on the session, for subclasses to connect to in
 * their _init; never NULL. */
GSignalGroup *tm_view_get_session_signals (TmView    *self);
/* The descendant that takes the focus when it comes into the view from
 * elsewhere going forward (Tab, or a stack showing the view's page): its
 * list rather than a search entry, which would take the window's zoom
 * keys (docs/ui.md, "Keys"); while it cannot (an empty list), the first
 * widget that is not text to type in. NULL: GTK's order. Set once its
 * children are in place. */
void          tm_view_set_first_focus     (TmView    *self,
                                           GtkWidget *widget);

G_END_DECLS
