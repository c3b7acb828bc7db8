/* tm-torch-export.h — what Tidemark writes for a PyTorch snapshot
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The summary line of `tidemark --summary --json`, the table of what is
 * live at the peak, every allocation, and the collapsed stacks of the
 * snapshot-time state (docs/pytorch.md, "Command line"). Uses
 * tm-torch-snapshot and tm-export's JSON string writer.
 */
#pragma once

#include "tm-torch-snapshot.h"

G_BEGIN_DECLS

/* The snapshot-time state of the device's segments as collapsed stacks
 * ("STACK BYTES" lines), as `_memory_viz.py memory` prints it:
 * `stream_S;STATE;STACK`, or with segments `stream_S;seg_ADDR;STATE;STACK`
 * (`_memory_viz.py segments`). Identical stacks summed, zero-byte ones
 * left out, sorted byte-wise. */
char  *tm_torch_export_collapsed     (TmTorchSnapshot *self,
                                      guint            device,
                                      gboolean         segments);
/* Appends one JSON line (with its newline): input is the name as given,
 * path the absolute path. Returns how many bytes of strings were not
 * valid UTF-8 (each replaced by U+FFFD). */
guint  tm_torch_export_summary_json  (TmTorchSnapshot *self,
                                      const char      *input,
                                      const char      *path,
                                      GString         *out);
/* What is live at the peak, one CSV row per allocation, largest first. */
void   tm_torch_export_breakdown_csv (TmTorchSnapshot *self,
                                      guint            device,
                                      GString         *out);
/* Every allocation of the timeline, one CSV row each. */
void   tm_torch_export_allocations_csv (TmTorchSnapshot *self,
                                      guint            device,
                                      GString         *out);

G_END_DECLS
