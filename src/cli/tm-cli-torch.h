/* tm-cli-torch.h — the command line on PyTorch memory snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --summary [--json] and --export=collapsed|csv|allocations on a snapshot
 * pickle (docs/pytorch.md, "Command line"). The one content check that
 * sends a file here is tm_cli_torch_wants(); once the core picks readers
 * by content in one place, this check moves there.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* TRUE if file's first bytes are those of a snapshot pickle (plain or
 * gzip), or of a pickle that imports objects (to refuse it as one). */
gboolean tm_cli_torch_wants (GFile      *file);

/* Runs one command on the snapshot file (named path on the command line).
 * export_format is NULL for --summary. The exit status: 0, or 1 after one
 * line on standard error. */
int      tm_cli_torch_run   (GFile      *file,
                             const char *path,
                             gboolean    json,
                             const char *export_format,
                             const char *memory_id,
                             const char *output,
                             gboolean    first);

G_END_DECLS
