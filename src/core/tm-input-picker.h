/* tm-input-picker.h — the one place that picks a file's reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file's format is judged by its content, never by its name
 * (docs/formats.md, "Which reader reads a file"): gzip's magic bytes mean
 * "look inside"; a pickle's (0x80 and a protocol of 2 to 5) mean a PyTorch
 * memory snapshot; text whose first byte (after white space and a byte
 * order mark) is "{" is JSON, and the structure of its first value tells
 * XProf's memory-profile JSON from JSON Lines of gathered summaries;
 * anything else goes to the XSpace reader, whose errors say what is wrong
 * and at which byte. The picker then runs that reader and hands over what
 * every reader delivers (tm-input). It uses the four readers
 * (tm-xspace-reader, tm-xprof-json, tm-summaries-reader, and
 * tm-torch-snapshot with tm-torch-stores); everything that
 * opens a file (tm-profile, tm-run, tm-run-loader, the command line, the
 * window) comes through here.
 */
#pragma once

#include <gio/gio.h>

#include "tm-input.h"
#include "tm-source.h"
#include "tm-types.h"

G_BEGIN_DECLS

/* The format of data, from its content alone. data may be only the start
 * of a file (at least a few KiB make the answer the one the whole file
 * gives); JSON whose first value the bytes do not settle counts as XProf
 * JSON. A gzip stream counts as what its start inflates to. */
TmInputFormat tm_input_picker_sniff        (const guint8  *data,
                                            gsize          size);
/* The same for a mapped source, under its guard (FALSE with error if the
 * file shrank while it was read). */
gboolean      tm_input_picker_sniff_source (TmSource      *source,
                                            TmInputFormat *format,
                                            GError       **error);
/* The same for a file, from its first bytes (an empty file, a folder or
 * one that cannot be read counts as XSpace: its reader says why). */
TmInputFormat tm_input_picker_sniff_file   (GFile         *file,
                                            GCancellable  *cancellable);

/* Picks the reader of source by content and runs it: fills input (its
 * stores built, not finished), or returns FALSE with the reader's error.
 * progress gets bytes done. */
gboolean      tm_input_picker_read         (TmSource       *source,
                                            TmInput        *input,
                                            TmProgressFunc  progress,
                                            gpointer        progress_data,
                                            GCancellable   *cancellable,
                                            GError        **error);

G_END_DECLS
