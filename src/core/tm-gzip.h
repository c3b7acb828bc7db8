/* tm-gzip.h — gzip files, inflated in memory within a limit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one inflater of the readers (docs/formats.md, "Which reader reads a
 * file" and "Hostile input"): a file of one gzip member and nothing after
 * it, inflated whole within a limit that depends on what it must hold, so
 * that a gzip bomb fails early with a clear message. Uses only tm-error.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What the inflated bytes must be: it sets the limit, the check of their
 * first bytes and the words of the messages. */
typedef enum
{
  /* An XProf memory-profile JSON (or JSON Lines): 64 times the compressed
   * size, at least 8 MiB, never more than 256 MiB; starts with '{'. */
  TM_GZIP_JSON,
  /* A PyTorch snapshot pickle: 64 times the compressed size, at least
   * 64 MiB; starts as a pickle of protocol 2 to 5. */
  TM_GZIP_PICKLE,
} TmGzipContent;

/* TRUE if data starts with gzip's magic bytes. */
gboolean  tm_gzip_sniff          (const guint8   *data,
                                  gsize           size);

/* The most that data[0..size) may inflate to for content. */
gsize     tm_gzip_limit          (TmGzipContent   content,
                                  gsize           size);

/* Inflates the start of a gzip stream into buf (at most length bytes):
 * the number of bytes written. Errors and the end of the input end it
 * early; tm_gzip_inflate() reports them. */
gsize     tm_gzip_inflate_start  (const guint8   *data,
                                  gsize           size,
                                  guint8         *buf,
                                  gsize           length);

/* Inflates data[0..size), a file of one gzip member and nothing after it
 * holding content, whole. Errors (TM_ERROR): TM_ERROR_TRUNCATED (the
 * stream ends early, corrupt data), TM_ERROR_TOO_LARGE (beyond
 * tm_gzip_limit()), TM_ERROR_INVALID (trailing bytes, a second member,
 * not a pickle), TM_ERROR_NOT_PROTOBUF (not JSON), G_IO_ERROR_CANCELLED.
 * Run it under the source's guard when data is a mapped file. */
GBytes   *tm_gzip_inflate        (const guint8   *data,
                                  gsize           size,
                                  TmGzipContent   content,
                                  GCancellable   *cancellable,
                                  GError        **error);

G_END_DECLS
