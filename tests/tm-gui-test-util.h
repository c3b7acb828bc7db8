/* tm-gui-test-util.h — helpers shared by the window tests (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-window.h"

G_BEGIN_DECLS

/* Runs the main loop until cond(data) holds; fails after a minute. */
void       tm_test_iterate_until   (gboolean   (*cond) (gpointer),
                                    gpointer     data);
/* Runs the main loop for ms milliseconds. */
void       tm_test_iterate_for     (guint        ms);
/* Iterates until no widget under widget has moved or changed size for a
 * while (paneds place themselves once they have a size, which takes a few
 * frames, more on a slow machine or under a sanitizer). */
void       tm_test_wait_layout_settled (GtkWidget *widget);

/* The window (data) is not loading. */
gboolean   tm_test_not_loading     (gpointer     data);
/* The application (data) has no folder being listed (it is not busy) and
 * no window loading. */
gboolean   tm_test_all_loaded      (gpointer     data);

/* A window without an application, presented; owned by the caller. */
TmWindow  *tm_test_new_window      (void);
void       tm_test_destroy_window  (TmWindow    *window);

/* A template child of widget's type, asserted to exist. */
GtkWidget *tm_test_template_child  (gpointer     widget,
                                    GType        type,
                                    const char  *name);

guint      tm_test_count_windows   (GtkApplication *app);

G_END_DECLS
