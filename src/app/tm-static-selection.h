/* tm-static-selection.h — which module of the compiler's plan is shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Memory Viewer's choice (docs/ui.md, "Memory Viewer"), kept by the
 * session as "static-selection" so that every view agrees on it: the
 * module (NULL: not chosen yet; the page then shows the default and sets
 * it), its memory space, and an op whose buffers the page looks for (NULL:
 * none). A boxed value: copied in, compared by content.
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-session.h"

G_BEGIN_DECLS

struct _TmStaticSelection
{
  char   *module;         /* as XProf lists it, "name(program id)" */
  gint64  memory_space;
  char   *op;
};

#define TM_TYPE_STATIC_SELECTION (tm_static_selection_get_type ())

GType              tm_static_selection_get_type (void) G_GNUC_CONST;
TmStaticSelection *tm_static_selection_new      (const char              *module,
                                                 gint64                   memory_space,
                                                 const char              *op);
TmStaticSelection *tm_static_selection_copy     (const TmStaticSelection *self);
void               tm_static_selection_free     (TmStaticSelection       *self);
gboolean           tm_static_selection_equal    (const TmStaticSelection *a,
                                                 const TmStaticSelection *b);

/* Whether profile (may be NULL) is known to have XLA modules without
 * looking at its folder: HloProtos inside it, executions on its XLA
 * Modules line, or it is a sidecar by itself. */
gboolean           tm_static_selection_profile_has_modules (TmProfile    *profile);

/* Whether op's buffers can be looked for from session (may be NULL): an
 * op (not NULL) of a profile known to have XLA modules. */
gboolean           tm_static_selection_can_show_op (TmSession            *session,
                                                    const char           *op);

/* Shows module in memory_space in the session (op: as it was). */
void               tm_static_selection_show_module (TmSession            *session,
                                                    const char           *module,
                                                    gint64                memory_space);
/* Looks for op's buffers on the Memory Viewer page: sets the session's op
 * (the module stays) and asks the window, through the "win.show-page"
 * action reachable from widget, to show that page. */
void               tm_static_selection_show_op  (GtkWidget               *widget,
                                                 TmSession               *session,
                                                 const char              *op);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmStaticSelection, tm_static_selection_free)

G_END_DECLS
