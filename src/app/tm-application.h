/* tm-application.h — the application: actions, windows, opening files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TM_TYPE_APPLICATION (tm_application_get_type ())

G_DECLARE_FINAL_TYPE (TmApplication, tm_application, TM, APPLICATION, GtkApplication)

TmApplication *tm_application_new        (void);

/* The one way files are opened: the command line, the Open and Open Run
 * Folder dialogs and drag and drop all come here. Opens files, one window
 * each. A file that is already open presents its window (reloaded if it
 * changed on disk); otherwise an empty window is reused or a new one
 * made. With target set, the first file opens in target whatever it
 * shows. A directory opens as the run it holds (see tm-run.h).
 *
 * Directories are listed in a worker thread, so the windows open after
 * this returns; meanwhile the application is held and marked busy
 * (GApplication:is-busy). */
void           tm_application_open_files (TmApplication  *self,
                                          GFile         **files,
                                          guint           n_files,
                                          GtkWindow      *target);

/* The application's settings, or NULL when the schema is not installed
 * (running from the build tree). New reference. */
GSettings     *tm_application_create_settings (void);

G_END_DECLS
