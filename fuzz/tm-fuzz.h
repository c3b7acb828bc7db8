/* tm-fuzz.h — what every fuzz target shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The loader reads files, not buffers: each input is written to one file
 * in a private temp folder (rewritten per input) and loaded from there.
 * A failed load must carry a non-empty message; anything else aborts, so
 * that libFuzzer keeps the input.
 */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <gio/gio.h>

#include "tm-profile.h"

G_BEGIN_DECLS

/* libFuzzer's start-up hook, for every target: inputs are files, written
 * (and, for the round trips, written again) once per run, so unless TMPDIR
 * is set they go to /dev/shm when there is one: rewriting a file on a disk
 * waits for fsync, five times slower. */
int         LLVMFuzzerInitialize      (int           *argc,
                                       char        ***argv);

/* Writes size bytes to the input file (one per process, in a private temp
 * folder, removed at exit) and returns its path. */
const char *tm_fuzz_write_input       (const uint8_t *data,
                                       size_t         size);

/* Loads size bytes as a profile file. NULL when the load failed, after
 * checking that it failed with a message. */
TmProfile *tm_fuzz_load               (const uint8_t *data,
                                       size_t         size);

/* Everything a view or an export asks of every memory id: the breakdown at
 * several times, the nearest snapshot, the LOD over the whole range and over
 * extreme views, sampling, and all three exports, which must be valid
 * UTF-8. Returns the XProf JSON export (free it) and its count of names
 * replaced (docs/formats.md, section 1.10). */
char      *tm_fuzz_exercise           (TmProfile     *profile,
                                       guint         *n_replaced);

/* fuzz-summaries: parses size bytes as JSON Lines of host summaries
 * (docs/formats.md, section 3.1), straight from the buffer (no terminating NUL).
 * A failure must carry a message; a success must hold at least one host,
 * each with a name and either an error and no memory ids, or memory ids in
 * strict byte order with figures in their ranges. */
void       tm_fuzz_summaries          (const uint8_t *data,
                                       size_t         size);

/* fuzz-memory-only-round-trip: writes the memory-only profile of size
 * bytes read as an XSpace, reads it again and aborts when the two read
 * differently (tm_xspace_writer_round_trip(), docs/formats.md, section 4). */
void       tm_fuzz_memory_only_round_trip (const uint8_t *data,
                                           size_t         size);

/* Load, export as XProf JSON, load the export: the same figures. */
void       tm_fuzz_json_round_trip    (const uint8_t *data,
                                       size_t         size);

/* fuzz-two-threads: loads size bytes as a file with one reading thread,
 * with two, and with two and a line cut between them (forced on any size
 * through the reader's options, tm-xspace-reader-private.h):
 * all three fail, or all three give the same snapshots, column by column,
 * and the same exports. */
void       tm_fuzz_two_threads        (const uint8_t *data,
                                       size_t         size);

/* fuzz-pickle: reads size bytes with the pickle reader (walking every
 * value it made, to a bounded depth) and as a PyTorch snapshot (every
 * figure, what is live at the peak, the collapsed stacks, the summary and
 * both tables). A failure must carry a message; what is live at the peak
 * must add up to the peak while no sum saturates. */
void       tm_fuzz_pickle             (const uint8_t *data,
                                       size_t         size);

/* Aborts with a message when cond is false. */
#define tm_fuzz_check(cond) \
  G_STMT_START { if (!(cond)) { g_printerr ("fuzz check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); abort (); } } G_STMT_END

/* fuzz-hlo: decodes size bytes as an xla.HloProto (a failure must name
 * the module), then computes the Memory Viewer of every memory space it
 * uses and of 0 and 1 (docs/buffer-assignment.md): a failure must name the
 * module; a result must have its peak as the largest heap point, orders
 * that are permutations, and valid JSON. */
void       tm_fuzz_hlo                (const uint8_t *data,
                                       size_t         size);

G_END_DECLS
