/* tm-source.h — a mapped file and the guard that makes reading it safe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The mapped file is the data: readers keep (offset, length) into it. If
 * another process truncates the file while it is mapped, touching a page past
 * the new end raises SIGBUS; every read of the mapping runs inside
 * tm_source_run_guarded(), which turns that into TM_ERROR_CHANGED instead of
 * killing the process. The first step of the core: uses only tm-error.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _TmSource TmSource;

typedef gboolean (*TmGuardedFunc) (gpointer   data,
                                   GError   **error);

TmSource     *tm_source_open             (const char     *path,
                                          GError        **error);
/* Wraps bytes already in memory (a decompressed .json.gz, a test fixture). */
TmSource     *tm_source_new_from_bytes   (GBytes         *bytes,
                                          const char     *path);
TmSource     *tm_source_ref              (TmSource       *self);
void          tm_source_unref            (TmSource       *self);

const guint8 *tm_source_get_data         (TmSource       *self);
gsize         tm_source_get_size         (TmSource       *self);
const char   *tm_source_get_path         (TmSource       *self);

/* Runs func (data, error) so that a SIGBUS raised by touching this source's
 * mapping ends func with TM_ERROR_CHANGED. Nests; thread-safe (the guard is
 * per thread). */
gboolean      tm_source_run_guarded      (TmSource       *self,
                                          TmGuardedFunc   func,
                                          gpointer        data,
                                          GError        **error);

/* FALSE with TM_ERROR_CHANGED if the file's size or modification time is no
 * longer what it was when it was opened. */
gboolean      tm_source_check_unchanged  (TmSource       *self,
                                          GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmSource, tm_source_unref)

G_END_DECLS
