/* tm-torch-stores.h — a PyTorch snapshot's devices as memory stores
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Fills one store per device through the store's builder, so the analysis,
 * the allocation index, the scopes and the exports work on snapshots as on
 * XSpace profiles (docs/pytorch.md, "In the views"). Uses
 * tm-torch-snapshot and tm-memory-store.
 */
#pragma once

#include "tm-memory-store.h"
#include "tm-torch-snapshot.h"

G_BEGIN_DECLS

/* One store (TmMemoryStore, not finished: see tm_memory_store_finish())
 * per device, in device order. Each keeps a reference to self. */
GPtrArray *tm_torch_snapshot_build_stores (TmTorchSnapshot *self);

G_END_DECLS
