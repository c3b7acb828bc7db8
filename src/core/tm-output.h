/* tm-output.h — where a writer's bytes go: a file replaced only when complete, or a stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every file we write (the exports, the memory-only profile, Save As) goes
 * through one TmOutput (docs/formats.md, "How outputs are written"):
 *
 *  - a regular file, or a path that does not exist yet, is written to a
 *    temporary file beside it in the same folder (so a Flatpak document
 *    portal path works: the rename stays inside one folder). Committing
 *    flushes, fsyncs and renames it over the target; aborting removes it,
 *    and the old file stays whole. A symbolic link is followed, so the file
 *    it points to is replaced and the link stays;
 *  - "-", and anything that is not a regular file (a pipe, a terminal, a
 *    character device such as /dev/stdout or /dev/null), is a stream:
 *    written in place, never truncated, renamed or removed.
 *
 * Errors name the reason and the path: "no space left on device: nothing
 * was written to PATH" for a file, "no space left on device: could not
 * write to PATH" for a stream; the GError keeps the domain and code of the
 * cause (G_IO_ERROR_NO_SPACE, G_IO_ERROR_CANCELLED, ...).
 *
 * Uses nothing of the core. A TmOutput is used by one thread at a time.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _TmOutput TmOutput;

/* path "-" is standard output. */
TmOutput      *tm_output_open             (const char   *path,
                                           GError      **error);
/* A local GFile as tm_output_open; one without a local path (a remote
 * location) is written through g_file_replace, which GIO also replaces
 * only when the stream is closed. */
TmOutput      *tm_output_open_file        (GFile        *file,
                                           GError      **error);

/* Where to write. Closing it is tm_output_finish's job. */
GOutputStream *tm_output_get_stream       (TmOutput     *self);
/* TRUE for "-" and non-regular outputs. */
gboolean       tm_output_is_stream        (TmOutput     *self);
/* TRUE when the output is a terminal. */
gboolean       tm_output_is_terminal      (TmOutput     *self);
/* The path as given, for people. */
const char    *tm_output_get_display_name (TmOutput     *self);

/* Ends the output. With ok TRUE it commits (flush, fsync, rename over the
 * target); if that fails, error says why. With ok FALSE the writer failed
 * with *error: the temporary file is removed and *error's message is
 * reworded to name the path. Returns whether the output is complete. */
gboolean       tm_output_finish           (TmOutput     *self,
                                           gboolean      ok,
                                           GError      **error);

/* Frees; an output not finished is aborted (its temporary file removed). */
void           tm_output_free             (TmOutput     *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmOutput, tm_output_free)

G_END_DECLS
