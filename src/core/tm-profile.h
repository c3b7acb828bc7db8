/* tm-profile.h — an opened profile: its memory ids and HLO modules
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Per memory id a finished store (tm-memory-store, with its LOD) and its
 * analysis (tm-analysis); the loader that makes them from a file with the
 * reader tm-input-picker picks by its content. Immutable after loading; the loader
 * builds it in a worker thread and hands it to the main thread, which only
 * reads it; the window's loader hands it over with the busiest memory id
 * ready and the others still being finished (tm_profile_is_memory_id_ready()).
 */
#pragma once

#include <gio/gio.h>

#include "tm-allocations.h"
#include "tm-analysis.h"
#include "tm-input.h"
#include "tm-hlo.h"
#include "tm-memory-store.h"
#include "tm-segments.h"
#include "tm-types.h"

G_BEGIN_DECLS

#define TM_TYPE_PROFILE (tm_profile_get_type ())

G_DECLARE_FINAL_TYPE (TmProfile, tm_profile, TM, PROFILE, GObject)

/* Synchronous load (the CLI, tests, and the worker of the async variant).
 * progress is called from the calling thread with bytes scanned. A file
 * whose format has no profile (gathered summaries: TM_INPUT_HAS_PROFILE
 * unset) fails with TM_ERROR_INVALID. */
TmProfile       *tm_profile_load                    (GFile               *file,
                                                     TmProgressFunc       progress,
                                                     gpointer             progress_data,
                                                     GCancellable        *cancellable,
                                                     GError             **error);

/* Loads in a GTask worker thread. progress (may be NULL) is called on the
 * thread-default main context of the caller, coalesced, never after
 * callback. */
void             tm_profile_load_async              (GFile               *file,
                                                     TmProgressFunc       progress,
                                                     gpointer             progress_data,
                                                     GDestroyNotify       progress_data_destroy,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
TmProfile       *tm_profile_load_finish             (GAsyncResult        *result,
                                                     GError             **error);

GFile           *tm_profile_get_file                (TmProfile           *self);
/* The format the file was read as, and what it allows (tm-input). */
TmInputFormat    tm_profile_get_format              (TmProfile           *self);
TmInputFeatures  tm_profile_get_features            (TmProfile           *self);
/* Time 0 as the profiler's timestamp_ns, when the file says. */
gboolean         tm_profile_get_clock_origin        (TmProfile           *self,
                                                     gint64              *origin_ns);
guint64          tm_profile_get_file_size           (TmProfile           *self);
/* Whether the XSpace had a "/host:CPU" plane (FALSE: no host trace at all). */
gboolean         tm_profile_has_host_plane          (TmProfile           *self);

/* Memory ids sorted byte-wise, as XProf lists them. */
guint            tm_profile_get_n_memory_ids        (TmProfile           *self);
TmMemoryStore   *tm_profile_get_memory_store        (TmProfile           *self,
                                                     guint                index);
TmMemoryStore   *tm_profile_lookup_memory_store     (TmProfile           *self,
                                                     const char          *memory_id);
/* Whether memory id index is finished and analysed. A profile from
 * tm_profile_load() has every one; tm_profile_load_async() (the window's)
 * hands the profile over once the busiest is, and a thread of the loader
 * finishes the others, each announced by "memory-id-ready" on the
 * caller's main context. A store that is not ready is being finished by
 * that thread: only its id and summary's peak may be read. */
gboolean         tm_profile_is_memory_id_ready      (TmProfile           *self,
                                                     guint                index);
gboolean         tm_profile_is_complete             (TmProfile           *self);
/* The analysis of memory id index, or of one of this profile's stores (NULL
 * if store is not one of them, or not ready yet). */
TmAnalysis      *tm_profile_get_analysis            (TmProfile           *self,
                                                     guint                index);
TmAnalysis      *tm_profile_lookup_analysis         (TmProfile           *self,
                                                     TmMemoryStore       *store);
/* The allocation index (tm-allocations) of one of this profile's stores
 * (NULL if store is not one of them, or if the mapped file changed). No
 * loader builds them: each is built on first use, by the first thread to
 * ask (the window asks for the shown memory id's with
 * tm_profile_lookup_allocations_async); others wait for it. Owned by the
 * profile. */
TmAllocations   *tm_profile_lookup_allocations      (TmProfile           *self,
                                                     TmMemoryStore       *store);
/* The same, only if it is built already (NULL otherwise): never waits. */
TmAllocations   *tm_profile_peek_allocations        (TmProfile           *self,
                                                     TmMemoryStore       *store);
/* The same in a worker thread, for the main thread: the index of store,
 * built or waited for there (a new reference; an error if the file
 * changed, or G_IO_ERROR_CANCELLED). callback runs on the caller's
 * thread-default main context. */
void             tm_profile_lookup_allocations_async (TmProfile          *self,
                                                     TmMemoryStore       *store,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
TmAllocations   *tm_profile_lookup_allocations_finish (TmProfile         *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
/* The index of the memory id with the highest window peak (first of equals). */
guint            tm_profile_get_busiest_index       (TmProfile           *self);

/* What the allocator of store's memory id reserved: its segments over
 * time, its out-of-memory entries, its state at snapshot time
 * (tm-segments; a PyTorch snapshot's devices); NULL for formats without
 * one or a store not of this profile. Owned by the profile. */
TmSegments      *tm_profile_lookup_segments         (TmProfile           *self,
                                                     TmMemoryStore       *store);

/* TmHloModule elements, in id order (may be empty). */
GArray          *tm_profile_get_hlo_modules         (TmProfile           *self);

/* Whether the file itself holds HloProtos (no folder is looked at). */
gboolean         tm_profile_has_hlo_entries         (TmProfile           *self);

/* The XLA modules whose HloProto the profile holds (tm-hlo; none for a
 * memory-profile JSON), then the sidecar "*.hlo_proto.pb" files beside
 * it whose names are not among them: a new array of TmHloEntry, made on
 * each call (the folder is listed then, never at open). Decode one with
 * tm_hlo_entry_decode(). */
GArray          *tm_profile_list_hlo_entries        (TmProfile           *self);

G_END_DECLS
