/* tm-run-loader.h — every host of a run summarised, in parallel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The model behind the run overview. Made from the hosts of a run folder
 * (tm-run), it loads them in a bounded pool of worker threads (as many as
 * there are cores, or fewer), keeps only each host's summary and
 * sparkline (tm-run-summary) and drops the profile at once, so memory
 * stays flat however many hosts the run has. Made from summaries read
 * from JSON Lines, it has every host done from the start.
 *
 * Progress and results arrive on the thread-default main context of the
 * thread that made the loader, as the "host-changed" signal (the host's
 * index) and notifications of "n-done". A host that fails keeps its error
 * in its summary; the others go on. Cancelling (or the last reference
 * going away) stops the hosts that have not finished.
 */
#pragma once

#include <gio/gio.h>

#include "tm-run-summary.h"

G_BEGIN_DECLS

typedef enum
{
  TM_RUN_HOST_WAITING,
  TM_RUN_HOST_LOADING,
  TM_RUN_HOST_DONE,      /* summary set, without error */
  TM_RUN_HOST_FAILED,    /* summary set, with its error */
} TmRunHostState;

#define TM_TYPE_RUN_LOADER (tm_run_loader_get_type ())

G_DECLARE_FINAL_TYPE (TmRunLoader, tm_run_loader, TM, RUN_LOADER, GObject)

/* A run folder's hosts (files in display order); nothing loads until
 * tm_run_loader_start(). */
TmRunLoader         *tm_run_loader_new                (GFile          *run_directory,
                                                       GFile         **hosts,
                                                       guint           n_hosts);
/* Summaries read from source (a JSON Lines file); takes them. */
TmRunLoader         *tm_run_loader_new_for_summaries  (GFile          *source,
                                                       GPtrArray      *summaries);
/* The gathered summaries of source, whose contents are given, read through
 * tm-input-picker; fails (TM_ERROR_JSON) when they are not summaries, or
 * with the message of the first bad line ("line N of the summaries …"). */
TmRunLoader         *tm_run_loader_new_for_gathered   (GFile          *source,
                                                       GBytes         *contents,
                                                       GError        **error);

/* Starts loading on at most max_threads threads (0: one per core). */
void                 tm_run_loader_start              (TmRunLoader    *self,
                                                       guint           max_threads);
void                 tm_run_loader_cancel             (TmRunLoader    *self);

/* The run folder, or the summaries file. */
GFile               *tm_run_loader_get_source         (TmRunLoader    *self);
/* TRUE when made from summaries. */
gboolean             tm_run_loader_is_gathered        (TmRunLoader    *self);
guint                tm_run_loader_get_n_hosts        (TmRunLoader    *self);
/* Hosts done or failed. */
guint                tm_run_loader_get_n_done         (TmRunLoader    *self);
const char          *tm_run_loader_get_host_name      (TmRunLoader    *self,
                                                       guint           index);
/* The host's profile (for summaries: the path they name; NULL if none). */
GFile               *tm_run_loader_get_host_file      (TmRunLoader    *self,
                                                       guint           index);
TmRunHostState       tm_run_loader_get_host_state     (TmRunLoader    *self,
                                                       guint           index);
/* How far loading the host got, 0 to 1. */
double               tm_run_loader_get_host_progress  (TmRunLoader    *self,
                                                       guint           index);
/* NULL until the host is done or failed. */
const TmHostSummary *tm_run_loader_get_host_summary   (TmRunLoader    *self,
                                                       guint           index);

G_END_DECLS
