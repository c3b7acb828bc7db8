/* tm-run.h — what a path to open holds: one profile, or a run of hosts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A profiler run writes one profile per host into a run directory,
 * <logdir>/plugins/profile/<run>/<host>.xplane.pb. Opening a path expands
 * it: a file stays a file; a directory becomes the run it holds (its
 * *.xplane.pb, or its XProf memory-profile JSON files when it has none),
 * or, for a log directory, the newest run under plugins/profile/. A run
 * with one host opens as that file; a directory without profiles stays
 * itself (loading it then says what is wrong).
 *
 * Expanding lists directories (GIO) and reads no profile; of a file given
 * by itself it reads the first bytes, to tell gathered summaries from a
 * profile by content (tm-input-picker). The async
 * variant does it in a GTask worker so that slow file systems never block
 * the main thread.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One thing to open: a single file, or a run directory and its hosts. */
typedef struct
{
  GFile     *file;           /* a single profile, else NULL */
  GFile     *run_directory;  /* the directory of a run of several hosts, else NULL */
  GPtrArray *hosts;          /* the hosts' files (GFile), sorted by host name, else NULL */
  gboolean   summaries;      /* file holds JSON Lines of gathered host summaries (a run) */
} TmRunItem;

void       tm_run_item_free            (TmRunItem            *item);

/* Expands each of files into one TmRunItem, in order. Returns a
 * GPtrArray of TmRunItem (owned), or NULL with error when cancelled. */
GPtrArray *tm_run_expand               (GFile               **files,
                                        guint                 n_files,
                                        GCancellable         *cancellable,
                                        GError              **error);
/* The same in a worker thread; callback runs on the caller's
 * thread-default main context. */
void       tm_run_expand_async         (GFile               **files,
                                        guint                 n_files,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
GPtrArray *tm_run_expand_finish        (GAsyncResult         *result,
                                        GError              **error);

/* A host's name: its file name, for display, without .xplane.pb (or
 * the memory-profile JSON suffix). */
char      *tm_run_host_name            (GFile                *file);
/* Orders host names as a file manager does ("worker-2" before
 * "worker-10"). */
int        tm_run_compare_host_names   (const char           *a,
                                        const char           *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmRunItem, tm_run_item_free)

G_END_DECLS
