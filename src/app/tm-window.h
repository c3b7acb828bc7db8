/* tm-window.h — a window showing one profile
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tm-application.h"
#include "tm-breakdown-view.h"
#include "tm-chart.h"
#include "tm-chart-palette.h"
#include "tm-profile.h"
#include "tm-session.h"
#include "tm-summary-cards.h"

G_BEGIN_DECLS

typedef enum
{
  TM_WINDOW_STATE_EMPTY,    /* nothing opened yet */
  TM_WINDOW_STATE_LOADING,  /* a file is being read and analysed */
  TM_WINDOW_STATE_ERROR,    /* the file could not be opened */
  TM_WINDOW_STATE_NO_DATA,  /* opened, but it has no memory events */
  TM_WINDOW_STATE_PROFILE,  /* showing a memory id of a profile */
} TmWindowState;

#define TM_TYPE_WINDOW_STATE (tm_window_state_get_type ())
GType tm_window_state_get_type (void) G_GNUC_CONST;

#define TM_TYPE_WINDOW (tm_window_get_type ())

G_DECLARE_FINAL_TYPE (TmWindow, tm_window, TM, WINDOW, GtkApplicationWindow)

/* app may be NULL (tests). */
TmWindow        *tm_window_new                  (TmApplication *app);

/* Loads file on a worker thread, cancelling any load in progress. */
void             tm_window_open                 (TmWindow      *self,
                                                 GFile         *file);
/* Shows a multi-host run directory: the hosts are the files (one per host,
 * listed by name without .xplane.pb). The run overview shows first, while
 * every host is summarised in parallel; the first host is loaded now
 * behind it, each other one when it is first selected; at most two hosts'
 * profiles are kept. */
void             tm_window_open_run             (TmWindow      *self,
                                                 GFile         *run_directory,
                                                 GFile        **host_files,
                                                 guint          n_host_files);
/* Shows the run overview of JSON Lines summaries (docs/formats.md, section 3),
 * read from file; a row opens its host's profile when it can be reached. */
void             tm_window_open_summaries       (TmWindow      *self,
                                                 GFile         *file);
/* Whether the run overview page shows, and Back: shows it again. */
gboolean         tm_window_get_showing_overview (TmWindow      *self);
void             tm_window_show_run_overview    (TmWindow      *self);
/* Loads the current file (of a run: the current host) again. */
void             tm_window_reload               (TmWindow      *self);
/* Shows the open dialog; the chosen files open in this window (the first)
 * and in new windows (the rest). */
void             tm_window_choose_files         (TmWindow      *self);

TmWindowState    tm_window_get_state            (TmWindow      *self);
/* The file shown, being loaded, or that failed (NULL when empty). */
GFile           *tm_window_get_file             (TmWindow      *self);
TmProfile       *tm_window_get_profile          (TmWindow      *self);
/* The run directory shown (NULL for a single file). */
GFile           *tm_window_get_run_directory    (TmWindow      *self);
/* The hosts of the run (0 for a single file) and the one shown. */
guint            tm_window_get_n_hosts          (TmWindow      *self);
const char      *tm_window_get_host_name        (TmWindow      *self,
                                                 guint          index);
/* Shows a host of the run; FALSE if the run has no such host. */
gboolean         tm_window_select_host          (TmWindow      *self,
                                                 const char    *host);
/* The error shown in the error state, as the core worded it. */
const char      *tm_window_get_error_message    (TmWindow      *self);
/* TRUE when the file (of a run: the current host's) changed on disk
 * since it was loaded. Only asks the file system; tm_window_reload()
 * loads it again. */
gboolean         tm_window_get_file_changed     (TmWindow      *self);
/* The banner that says so, with its Reload button (a GtkRevealer,
 * revealed while the shown file differs from what was loaded). */
GtkWidget       *tm_window_get_changed_banner   (TmWindow      *self);

/* The selected memory id's store (NULL unless showing a profile). Changes
 * are announced with notify::memory-store. */
TmMemoryStore   *tm_window_get_memory_store     (TmWindow      *self);
/* What the profile page shows; the same object for the window's life. */
TmSession       *tm_window_get_session          (TmWindow      *self);
/* Selects a memory id of the profile; FALSE if it has no such id. */
gboolean         tm_window_select_memory_id     (TmWindow      *self,
                                                 const char    *memory_id);

/* The rows "Export Table as CSV" writes (TmBreakdownRow, transfer full;
 * NULL without a memory id): those the table shows, filtered and in its
 * order, or (only_shown FALSE) the whole table at the time it shows. */
/* The exported timeline image (docs/ui.md, "Export"): a title line (file,
 * host, memory id, the time range shown) over the timeline as shown, light
 * or in the window's style; its size in width and height. NULL without a
 * profile. */
GskRenderNode   *tm_window_build_timeline_image (TmWindow    *self,
                                                 gboolean     light,
                                                 int         *width,
                                                 int         *height);
char            *tm_window_dup_timeline_title   (TmWindow    *self);
/* The same timeline as chart layers (tm-chart-export.h), for "Export
 * Timeline as SVG": the range, size, scale, hidden series and selection
 * shown; palette gets the colours (light, or the window's style). NULL
 * without a profile or snapshots. */
TmChart         *tm_window_build_timeline_chart (TmWindow       *self,
                                                 gboolean        light,
                                                 TmChartPalette *palette);
/* The toast after an export: "Saved to <name>" with an Open button, for a
 * few seconds. */
void             tm_window_show_saved           (TmWindow    *self,
                                                 GFile       *file);
GPtrArray       *tm_window_dup_csv_rows         (TmWindow      *self,
                                                 gboolean       only_shown);

G_END_DECLS
