/* tm-torch-stores.h — a PyTorch snapshot's devices as memory stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fills one store per device through the store's builder, so the analysis,
 * the allocation index, the scopes and the exports work on snapshots as on
 * XSpace profiles (docs/pytorch.md, "In the views"), and per device what
 * its allocator reserved (tm-segments). Uses tm-torch-snapshot,
 * tm-memory-store and tm-segments.
 */
#pragma once

#include "tm-memory-store.h"
#include "tm-segments.h"
#include "tm-torch-snapshot.h"

G_BEGIN_DECLS

/* One store (TmMemoryStore, not finished: see tm_memory_store_finish())
 * per device, in device order. Each keeps a reference to self. */
GPtrArray *tm_torch_snapshot_build_stores   (TmTorchSnapshot *self);
/* One TmSegments per device, in device order: its segments over the
 * trace, its oom entries and its state at snapshot time (docs/pytorch.md,
 * "Segments and out-of-memory entries"), on the clock of its store. */
GPtrArray *tm_torch_snapshot_build_segments (TmTorchSnapshot *self);

G_END_DECLS
