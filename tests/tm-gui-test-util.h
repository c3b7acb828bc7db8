/* tm-gui-test-util.h — helpers shared by the window tests (under Xvfb)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-allocation-row.h"
#include "tm-breakdown-view.h"
#include "tm-window.h"

G_BEGIN_DECLS

/* Starts a window test: memory GSettings, a temporary XDG_DATA_HOME (the
 * recently-used list of whoever runs the tests stays clean), g_test_init()
 * and gtk_init(). Returns that folder, for tm_fixture_remove() at the end. */
char      *tm_test_gui_init        (int         *argc,
                                    char      ***argv);

/* Runs the main loop until cond(data) holds; fails after a minute. */
void       tm_test_iterate_until   (gboolean   (*cond) (gpointer),
                                    gpointer     data);
/* Runs the main loop for ms milliseconds. */
void       tm_test_iterate_for     (guint        ms);
/* Iterates until no widget under widget has moved or changed size for a
 * while (paneds place themselves once they have a size, which takes a few
 * frames, more on a slow machine or under a sanitizer). */
void       tm_test_wait_layout_settled (GtkWidget *widget);

/* The window (data) is not loading, and the allocation index of the
 * memory id it shows is not pending. */
gboolean   tm_test_not_loading     (gpointer     data);
/* Runs the main loop until session's allocation index is no longer
 * pending (built, or failed). */
void       tm_test_wait_allocations (TmSession  *session);
/* The application (data) has no folder being listed (it is not busy) and
 * no window loading (as tm_test_not_loading). */
gboolean   tm_test_all_loaded      (gpointer     data);

/* A window without an application, presented; owned by the caller. */
TmWindow  *tm_test_new_window      (void);
void       tm_test_destroy_window  (TmWindow    *window);

/* A template child of widget's type, asserted to exist. */
GtkWidget *tm_test_template_child  (gpointer     widget,
                                    GType        type,
                                    const char  *name);

/* The widget under root (root itself included) whose buildable id (its
 * id in a .ui file or template) is id: a child of root's own template, or
 * else searched depth first, asserted to exist and to be the only one. */
GtkWidget *tm_test_find_widget     (gpointer     root,
                                    const char  *id);
/* The widget under root whose accessible label is label; asserted to
 * exist and to be the only one. */
GtkWidget *tm_test_find_labelled   (gpointer     root,
                                    const char  *label);
guint      tm_test_count_windows   (GtkApplication *app);
/* Destroys every window of app, then lets the main loop settle. */
void       tm_test_destroy_all_windows (GtkApplication *app);

/* Opens path in window and waits until it shows the profile, laid out. */
void       tm_test_open_and_wait   (TmWindow    *window,
                                    const char  *path);

/* The first click gesture of widget; with capture_only, the first one in
 * the capture phase. NULL if there is none. */
GtkGestureClick *tm_test_find_click_gesture (GtkWidget *widget,
                                             gboolean   capture_only);

/* A rendered picture: B, G, R, A bytes (premultiplied, little endian). */
typedef struct
{
  int     width;
  int     height;
  guchar *data;
  gsize   stride;
} TmTestPicture;

void       tm_test_picture_free    (TmTestPicture *picture);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmTestPicture, tm_test_picture_free)

/* Renders node (taken; NULL draws nothing) over white, width × height.
 * TM_TEST_SAVE_DIR=DIR keeps the pictures there, as PNGs named after the
 * test, for a look. */
TmTestPicture *tm_test_render_node (GskRenderNode *node,
                                    int            width,
                                    int            height);
/* The colour at x, y as 0xRRGGBB. */
guint32    tm_test_picture_pixel   (const TmTestPicture *p,
                                    double               x,
                                    double               y);

/* Thai from the build tree's translations for what follows, or English
 * again. */
void       tm_test_use_thai        (gboolean     thai);
/* The text of every label under widget (itself included), a line each. */
void       tm_test_collect_label_text (GtkWidget *widget,
                                    GString     *out);
/* The first check button under root whose label is label, or NULL. */
GtkCheckButton *tm_test_find_check (GtkWidget   *root,
                                    const char  *label);
/* The first button under root whose label is label, or NULL. */
GtkWidget *tm_test_find_button     (GtkWidget   *root,
                                    const char  *label);
/* Writes the tour fixture (tm_fixture_space_new_tour ()) as tour.xplane.pb
 * in a new temporary folder (*dir, for tm_fixture_remove() at the end);
 * returns its path. */
char      *tm_test_write_tour      (char       **dir);

/* The first row of the breakdown table shown whose row matches, or NULL
 * (transfer none: the model keeps it). */
TmAllocationRow *tm_test_find_row  (TmBreakdownView  *view,
                                    gboolean        (*match) (TmAllocationRow *row));

/* The selected scope's bytes at snapshot i, from session's scope series
 * query (asserted to be there). */
gint64     tm_test_scope_series_at (TmSession  *session,
                                    guint       i);

G_END_DECLS
