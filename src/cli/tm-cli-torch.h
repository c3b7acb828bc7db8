/* tm-cli-torch.h — the command line on PyTorch memory snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * --summary [--json] and --export=collapsed|csv|allocations on a snapshot
 * pickle (docs/pytorch.md, "Command line"). tm-cli.c sends a file here
 * when tm-input-picker takes it for TM_INPUT_FORMAT_TORCH_SNAPSHOT.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

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
