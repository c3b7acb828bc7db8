/* tm-profile.c — an opened profile, and its loader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The loader reads the file with the reader tm-input-picker picks,
 * finishes each store and analyses it (tm-analysis) on two worker
 * threads.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-allocations.h"
#include "tm-analysis.h"
#include "tm-error.h"
#include "tm-input-picker-private.h"
#include "tm-profile-private.h"
#include "tm-source.h"

struct _TmProfile
{
  GObject          parent_instance;

  GFile           *file;
  TmInputFormat    format;
  guint64          file_size;
  gboolean         has_host_plane;
  gboolean         has_clock_origin;
  gint64           clock_origin_ns;
  GPtrArray       *stores;       /* TmMemoryStore, sorted by id */
  GPtrArray       *analyses;     /* TmAnalysis, one per store, same order */
  GArray          *hlo_modules;  /* TmHloModule */
  GArray          *hlo_entries;  /* TmHloEntry of the file itself */
  GPtrArray       *segments;     /* TmSegments, or NULL */
  GMutex           allocations_lock;
  GCond            allocations_built;
  GPtrArray       *allocations;  /* TmAllocations or NULL (not built yet), same order */
  guint8          *building;     /* per store: a thread is building its index */
  /* Per store: its analysis is there (atomic). The window's loader hands
   * the profile over once the busiest memory id is ready; a thread of the
   * loader finishes the others and says so on the loader's main context
   * ("memory-id-ready"). */
  gint            *ready;
  gint             n_pending;    /* atomic */
  GMainContext    *context;      /* where "memory-id-ready" is emitted, or NULL */
};

G_DEFINE_FINAL_TYPE (TmProfile, tm_profile, G_TYPE_OBJECT)

enum { SIGNAL_MEMORY_ID_READY, N_SIGNALS };
static guint signals[N_SIGNALS];

/* For tests (tm-profile-private.h): the loader's thread that finishes the
 * memory ids after the first waits while this is set. */
static GMutex hold_lock;
static GCond hold_cond;
static gboolean hold_pending;

static void
tm_profile_finalize (GObject *object)
{
  TmProfile *self = (TmProfile *) object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->analyses, g_ptr_array_unref);
  g_clear_pointer (&self->stores, g_ptr_array_unref);
  g_clear_pointer (&self->hlo_modules, g_array_unref);
  g_clear_pointer (&self->hlo_entries, g_array_unref);
  g_clear_pointer (&self->segments, g_ptr_array_unref);
  g_clear_pointer (&self->allocations, g_ptr_array_unref);
  g_free (self->building);
  g_free (self->ready);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->allocations_lock);
  g_cond_clear (&self->allocations_built);

  G_OBJECT_CLASS (tm_profile_parent_class)->finalize (object);
}

static void
tm_profile_class_init (TmProfileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_profile_finalize;

  /**
   * TmProfile::memory-id-ready:
   * @index: the memory id whose store and analysis are now there
   *
   * Emitted on the main context of tm_profile_load_async()'s caller for
   * each memory id finished after the profile was handed over.
   */
  signals[SIGNAL_MEMORY_ID_READY] =
    g_signal_new ("memory-id-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
tm_profile_init (TmProfile *self)
{
  g_mutex_init (&self->allocations_lock);
  g_cond_init (&self->allocations_built);
}

static int
compare_stores (gconstpointer a,
                gconstpointer b)
{
  TmMemoryStore *x = *(TmMemoryStore * const *) a;
  TmMemoryStore *y = *(TmMemoryStore * const *) b;

  /* Byte-wise, as XProf sorts memory ids. */
  return strcmp (tm_memory_store_get_id (x), tm_memory_store_get_id (y));
}

/* Finishing and analysing memory ids: independent, so two threads take
 * them from one queue, the busiest first (it is known from the summary
 * folded while reading), then the others from the most snapshots down. */
typedef struct
{
  TmProfile    *profile;
  GPtrArray    *analyses;  /* filled in at each store's index */
  guint        *order;     /* store indices, in the order they are taken */
  gint          next;      /* next position in order (atomic) */
  gint          failed;    /* a job failed: the others stop (atomic) */
  gboolean      for_window;
  gboolean      lod_alongside; /* the window's LOD built on a thread of its own while the store is analysed */
  gboolean      handed_over; /* the profile is the caller's: say when ids are ready (atomic) */
  GCancellable *cancellable;
} FinishQueue;

typedef struct
{
  FinishQueue *queue;
  gboolean     ok;
  GError      *error;
} FinishJob;

typedef struct
{
  TmProfile *profile;
  guint      index;
} ReadyNote;

static gboolean
emit_ready (gpointer data)
{
  ReadyNote *note = data;

  g_signal_emit (note->profile, signals[SIGNAL_MEMORY_ID_READY], 0, note->index);
  return G_SOURCE_REMOVE;
}

static void
ready_note_free (gpointer data)
{
  ReadyNote *note = data;

  g_object_unref (note->profile);
  g_free (note);
}

/* Store i is finished and analysed: publish it, and once the profile is
 * handed over, say so on its main context. */
static void
mark_ready (FinishQueue *q,
            guint        i)
{
  TmProfile *self = q->profile;

  g_atomic_int_set (&self->ready[i], TRUE);
  g_atomic_int_add (&self->n_pending, -1);
  if (g_atomic_int_get (&q->handed_over) && self->context != NULL)
    {
      ReadyNote *note = g_new (ReadyNote, 1);
      GSource *source = g_idle_source_new ();

      note->profile = g_object_ref (self);
      note->index = i;
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, emit_ready, note, ready_note_free);
      g_source_set_static_name (source, "[tidemark] memory id ready");
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
}

static gpointer
build_lod (gpointer store)
{
  return tm_memory_store_get_lod (store);
}

static void
finish_one (FinishJob *job,
            guint      i)
{
  FinishQueue *q = job->queue;
  TmMemoryStore *store = g_ptr_array_index (q->profile->stores, i);
  TmAnalysis *analysis = NULL;
  GThread *lod = NULL;

  job->ok = tm_memory_store_finish (store, q->cancellable, &job->error);
  /* The window draws every memory id's timeline from its LOD: build it
   * here rather than on the main thread, on the other core while the
   * store is analysed when no other memory id keeps that core busy (the
   * LOD only reads the finished store's columns, as the analysis does;
   * docs/performance.md, "PyTorch snapshots"). */
  if (job->ok && q->lod_alongside)
    lod = g_thread_new ("tidemark-lod", build_lod, store);
  job->ok = job->ok && (analysis = tm_analysis_new (store, q->cancellable, &job->error)) != NULL;
  if (lod != NULL)
    g_thread_join (lod);
  q->analyses->pdata[i] = analysis;
  if (job->ok && q->for_window)
    tm_memory_store_get_lod (store);
  if (!job->ok)
    g_atomic_int_set (&q->failed, TRUE);
  else
    mark_ready (q, i);
}

static gpointer
finish_job (gpointer data)
{
  FinishJob *job = data;
  FinishQueue *q = job->queue;
  GPtrArray *stores = q->profile->stores;
  gint k;

  job->ok = TRUE;
  while (job->ok && !g_atomic_int_get (&q->failed) &&
         (k = g_atomic_int_add (&q->next, 1)) < (gint) stores->len)
    {
      if (q->for_window)
        {
          g_mutex_lock (&hold_lock);
          while (hold_pending)
            g_cond_wait (&hold_cond, &hold_lock);
          g_mutex_unlock (&hold_lock);
        }
      finish_one (job, q->order[k]);
    }
  return NULL;
}

void
tm_profile_hold_pending_for_tests (gboolean hold)
{
  g_mutex_lock (&hold_lock);
  hold_pending = hold;
  g_cond_broadcast (&hold_cond);
  g_mutex_unlock (&hold_lock);
}

/* What the window's loader leaves to its finishing thread: it owns the
 * queue and a reference to the profile until every memory id is done. */
typedef struct
{
  gint        ref_count;  /* the loader's thread and the finishing one (atomic) */
  FinishQueue queue;
  FinishJob   job;
} Background;

static void
background_unref (Background *bg)
{
  if (!g_atomic_int_dec_and_test (&bg->ref_count))
    return;
  g_clear_error (&bg->job.error);
  g_clear_object (&bg->queue.profile);
  g_clear_object (&bg->queue.cancellable);
  g_free (bg->queue.order);
  g_free (bg);
}

static gpointer
background_job (gpointer data)
{
  Background *bg = data;

  finish_job (&bg->job);
  if (!bg->job.ok)
    g_debug ("a memory id was not finished: %s", bg->job.error->message);
  background_unref (bg);
  return NULL;
}

static void
unref_analysis (gpointer analysis)
{
  /* NULL where a failed or cancelled job stopped. */
  if (analysis != NULL)
    g_object_unref (analysis);
}

static int
compare_by_size (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  GPtrArray *stores = user_data;
  guint na = tm_memory_store_get_n_snapshots (g_ptr_array_index (stores, *(const guint *) a));
  guint nb = tm_memory_store_get_n_snapshots (g_ptr_array_index (stores, *(const guint *) b));

  return na > nb ? -1 : na < nb;
}

/* Finishes and analyses every store into self->analyses, on two threads
 * (the busiest first, then the others from the most snapshots down). For
 * the window (for_window), this thread finishes the busiest alone and
 * returns: a thread of its own finishes the others, which are ready
 * later (tm_profile_is_memory_id_ready()). */
static gboolean
analyse_stores (TmProfile     *self,
                gboolean       for_window,
                GCancellable  *cancellable,
                GError       **error)
{
  GPtrArray *stores = self->stores;
  guint *order = g_new (guint, MAX (stores->len, 1));
  Background *bg = g_new0 (Background, 1);
  FinishQueue *q = &bg->queue;
  FinishJob first = { q, TRUE, NULL };
  GThread *thread = NULL;
  gboolean ok;
  gboolean background = for_window && stores->len > 1 && g_get_num_processors () >= 2;

  self->analyses = g_ptr_array_new_full (stores->len, unref_analysis);
  g_ptr_array_set_size (self->analyses, stores->len);
  self->ready = g_new0 (gint, MAX (stores->len, 1));
  self->n_pending = (gint) stores->len;
  if (stores->len > 0)
    {
      guint busiest = tm_profile_get_busiest_index (self);

      order[0] = busiest;
      for (guint i = 0, k = 1; i < stores->len; i++)
        if (i != busiest)
          order[k++] = i;
      g_qsort_with_data (order + 1, (gint) stores->len - 1, sizeof (guint), compare_by_size, stores);
    }

  q->profile = self;
  q->analyses = self->analyses;
  q->order = order;
  q->for_window = for_window;
  q->lod_alongside = for_window && stores->len == 1 && g_get_num_processors () >= 2;
  q->cancellable = cancellable;
  bg->job.queue = q;
  bg->job.ok = TRUE;

  if (background)
    {
      /* This thread takes the busiest; the other starts on the rest and
       * goes on after the profile is handed over. */
      q->profile = g_object_ref (self);
      q->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
      q->next = 1;
      bg->ref_count = 2;
      g_thread_unref (g_thread_new ("tidemark-analyse", background_job, bg));
      finish_one (&first, order[0]);
      ok = first.ok;
      if (!ok)
        {
          g_atomic_int_set (&q->failed, TRUE);
          g_propagate_error (error, first.error);
        }
      else
        g_atomic_int_set (&q->handed_over, TRUE);
      background_unref (bg);
      return ok;
    }

  if (stores->len > 1 && g_get_num_processors () >= 2)
    thread = g_thread_new ("tidemark-analyse", finish_job, &bg->job);
  finish_job (&first);
  if (thread != NULL)
    g_thread_join (thread);

  ok = first.ok && bg->job.ok;
  if (!ok)
    g_propagate_error (error, !first.ok ? g_steal_pointer (&first.error) : g_steal_pointer (&bg->job.error));
  g_clear_error (&first.error);
  g_clear_error (&bg->job.error);
  g_free (order);
  g_free (bg);
  return ok;
}

static TmProfile *
profile_load (GFile                     *file,
              const TmXSpaceReadOptions *options,
              TmProgressFunc             progress,
              gpointer                   progress_data,
              GMainContext              *for_window,
              GCancellable              *cancellable,
              GError                   **error)
{
  g_autoptr(TmProfile) self = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autofree char *path = NULL;
  TmInput input;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_READ,
                   _("cannot be read: only local files can be opened"));
      return NULL;
    }

  source = tm_source_open (path, error);
  if (source == NULL)
    return NULL;

  self = g_object_new (TM_TYPE_PROFILE, NULL);
  self->file = g_object_ref (file);
  self->file_size = tm_source_get_size (source);

  if (!tm_input_picker_read_with_options (source, options, &input, progress, progress_data, cancellable, error))
    return NULL;
  if (!(tm_input_format_get_info (input.format)->features & TM_INPUT_HAS_PROFILE))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_INVALID,
                   _("holds gathered host summaries (JSON Lines), not a profile: "
                     "open it as a run, or print its run table with tidemark --summary"));
      tm_input_clear (&input);
      return NULL;
    }

  self->format = input.format;
  self->has_host_plane = input.has_memory_trace;
  self->has_clock_origin = input.has_clock_origin;
  self->clock_origin_ns = input.clock_origin_ns;
  self->stores = g_steal_pointer (&input.stores);
  self->hlo_modules = g_steal_pointer (&input.hlo_modules);
  self->hlo_entries = g_steal_pointer (&input.hlo_entries);
  self->segments = g_steal_pointer (&input.segments);
  tm_input_clear (&input);

  if (self->hlo_entries == NULL)
    self->hlo_entries = tm_hlo_entries_new ();
  g_ptr_array_sort (self->stores, compare_stores);
  if (for_window != NULL)
    self->context = g_main_context_ref (for_window);
  if (!analyse_stores (self, for_window != NULL, cancellable, error))
    return NULL;

  if (!tm_source_check_unchanged (source, error))
    return NULL;

  return g_steal_pointer (&self);
}

TmProfile *
tm_profile_load (GFile           *file,
                 TmProgressFunc   progress,
                 gpointer         progress_data,
                 GCancellable    *cancellable,
                 GError         **error)
{
  return profile_load (file, NULL, progress, progress_data, NULL, cancellable, error);
}

TmProfile *
tm_profile_load_with_options (GFile                     *file,
                              const TmXSpaceReadOptions *options,
                              GCancellable              *cancellable,
                              GError                   **error)
{
  g_return_val_if_fail (options != NULL, NULL);

  return profile_load (file, options, NULL, NULL, NULL, cancellable, error);
}

/* ------------------------------------------------------------------ */
/* Asynchronous loading                                                 */

typedef struct
{
  gatomicrefcount  ref_count;
  GMainContext    *context;
  TmProgressFunc   func;
  gpointer         data;
  GDestroyNotify   destroy;
  GMutex           mutex;
  guint64          done;
  guint64          total;
  gboolean         pending;    /* an idle is scheduled */
  gboolean         completed;  /* the caller's callback ran: no more progress */
  GAsyncReadyCallback callback;
  gpointer         user_data;
} LoadState;

static LoadState *
load_state_ref (LoadState *state)
{
  g_atomic_ref_count_inc (&state->ref_count);
  return state;
}

static void
load_state_unref (LoadState *state)
{
  if (g_atomic_ref_count_dec (&state->ref_count))
    {
      if (state->destroy != NULL)
        state->destroy (state->data);
      g_main_context_unref (state->context);
      g_mutex_clear (&state->mutex);
      g_free (state);
    }
}

static gboolean
progress_idle (gpointer user_data)
{
  LoadState *state = user_data;
  guint64 done, total;

  g_mutex_lock (&state->mutex);
  done = state->done;
  total = state->total;
  state->pending = FALSE;
  g_mutex_unlock (&state->mutex);

  if (!state->completed && state->func != NULL)
    state->func (done, total, state->data);

  return G_SOURCE_REMOVE;
}

static void
worker_progress (guint64  done,
                 guint64  total,
                 gpointer user_data)
{
  LoadState *state = user_data;
  gboolean schedule;

  g_mutex_lock (&state->mutex);
  state->done = done;
  state->total = total;
  schedule = !state->pending;
  state->pending = TRUE;
  g_mutex_unlock (&state->mutex);

  if (schedule)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, progress_idle, load_state_ref (state),
                             (GDestroyNotify) load_state_unref);
      g_source_set_static_name (source, "[tidemark] load progress");
      g_source_attach (source, state->context);
      g_source_unref (source);
    }
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GFile *file = task_data;
  LoadState *state = g_object_get_data (G_OBJECT (task), "tm-load-state");
  g_autoptr(GError) error = NULL;
  TmProfile *profile;

  /* The window shows the profile as soon as it is analysed: the
   * allocation index of the memory id it shows (the memory map, what was
   * never freed) follows (tm_profile_lookup_allocations_async), the
   * others' when they are shown. */
  profile = profile_load (file, NULL, worker_progress, state, state->context, cancellable, &error);
  if (profile == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else if (!g_task_return_error_if_cancelled (task))
    g_task_return_pointer (task, profile, g_object_unref);
  else
    g_object_unref (profile);
}

static void
load_done (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  LoadState *state = user_data;

  state->completed = TRUE;
  if (state->callback != NULL)
    state->callback (NULL, result, state->user_data);
  load_state_unref (state);
}

void
tm_profile_load_async (GFile               *file,
                       TmProgressFunc       progress,
                       gpointer             progress_data,
                       GDestroyNotify       progress_data_destroy,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadState *state;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  state = g_new0 (LoadState, 1);
  g_atomic_ref_count_init (&state->ref_count);
  g_mutex_init (&state->mutex);
  state->context = g_main_context_ref_thread_default ();
  state->func = progress;
  state->data = progress_data;
  state->destroy = progress_data_destroy;
  state->callback = callback;
  state->user_data = user_data;

  task = g_task_new (NULL, cancellable, load_done, state);
  g_task_set_source_tag (task, tm_profile_load_async);
  g_task_set_name (task, "[tidemark] load profile");
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_object_set_data_full (G_OBJECT (task), "tm-load-state", load_state_ref (state),
                          (GDestroyNotify) load_state_unref);
  g_task_run_in_thread (task, load_thread);
}

TmProfile *
tm_profile_load_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tm_profile_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------ */
/* Getters                                                              */

GFile *
tm_profile_get_file (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  return self->file;
}

TmInputFormat
tm_profile_get_format (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), TM_INPUT_FORMAT_XSPACE);
  return self->format;
}

TmInputFeatures
tm_profile_get_features (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), 0);
  return tm_input_format_get_info (self->format)->features;
}

gboolean
tm_profile_get_clock_origin (TmProfile *self,
                             gint64    *origin_ns)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), FALSE);

  if (origin_ns != NULL)
    *origin_ns = self->clock_origin_ns;
  return self->has_clock_origin;
}

guint64
tm_profile_get_file_size (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), 0);
  return self->file_size;
}

gboolean
tm_profile_has_host_plane (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), FALSE);
  return self->has_host_plane;
}

guint
tm_profile_get_n_memory_ids (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), 0);
  return self->stores->len;
}

TmMemoryStore *
tm_profile_get_memory_store (TmProfile *self,
                             guint      index)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->stores->len, NULL);
  return g_ptr_array_index (self->stores, index);
}

TmMemoryStore *
tm_profile_lookup_memory_store (TmProfile  *self,
                                const char *memory_id)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (memory_id != NULL, NULL);

  for (guint i = 0; i < self->stores->len; i++)
    {
      TmMemoryStore *store = g_ptr_array_index (self->stores, i);

      if (g_strcmp0 (tm_memory_store_get_id (store), memory_id) == 0)
        return store;
    }

  return NULL;
}

guint
tm_profile_get_busiest_index (TmProfile *self)
{
  guint best = 0;
  gint64 best_peak = G_MININT64;

  g_return_val_if_fail (TM_IS_PROFILE (self), 0);

  for (guint i = 0; i < self->stores->len; i++)
    {
      const TmSummary *s = tm_memory_store_get_summary (g_ptr_array_index (self->stores, i));

      if (s->peak_bytes_in_use > best_peak)
        {
          best = i;
          best_peak = s->peak_bytes_in_use;
        }
    }

  return best;
}

TmAnalysis *
tm_profile_get_analysis (TmProfile *self,
                         guint      index)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (index < self->analyses->len, NULL);
  if (!g_atomic_int_get (&self->ready[index]))
    return NULL;
  return g_ptr_array_index (self->analyses, index);
}

gboolean
tm_profile_is_memory_id_ready (TmProfile *self,
                               guint      index)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), FALSE);
  g_return_val_if_fail (index < self->stores->len, FALSE);
  return g_atomic_int_get (&self->ready[index]);
}

gboolean
tm_profile_is_complete (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), FALSE);
  return g_atomic_int_get (&self->n_pending) == 0;
}

TmAnalysis *
tm_profile_lookup_analysis (TmProfile     *self,
                            TmMemoryStore *store)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  for (guint i = 0; i < self->stores->len; i++)
    if (g_ptr_array_index (self->stores, i) == store)
      return tm_profile_get_analysis (self, i);

  return NULL;
}

TmSegments *
tm_profile_lookup_segments (TmProfile     *self,
                            TmMemoryStore *store)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  for (guint i = 0; self->segments != NULL && i < self->segments->len; i++)
    if (g_str_equal (tm_segments_get_memory_id (g_ptr_array_index (self->segments, i)),
                     tm_memory_store_get_id (store)))
      return g_ptr_array_index (self->segments, i);
  return NULL;
}

GArray *
tm_profile_get_hlo_modules (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  return self->hlo_modules;
}

/* ------------------------------------------------------------------ */
/* Allocation indices                                                   */

static void
wake_waiters (GCancellable *cancellable,
              gpointer      user_data)
{
  TmProfile *self = user_data;

  g_mutex_lock (&self->allocations_lock);
  g_cond_broadcast (&self->allocations_built);
  g_mutex_unlock (&self->allocations_lock);
}

/* The index of store index, built by the first thread that asks for it,
 * outside the lock: a thread asking for another one does not wait, one
 * asking for the same one waits for it (and stops waiting when its
 * cancellable is cancelled). A build that fails leaves it to the next
 * thread that asks. */
static TmAllocations *
get_allocations (TmProfile     *self,
                 guint          index,
                 GCancellable  *cancellable,
                 GError       **error)
{
  TmAllocations *allocations;
  gulong handler = 0;
  gboolean build;

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_waiters), self, NULL);

  g_mutex_lock (&self->allocations_lock);
  if (self->allocations == NULL)
    {
      self->allocations = g_ptr_array_new_with_free_func (unref_analysis);
      g_ptr_array_set_size (self->allocations, self->stores->len);
      self->building = g_new0 (guint8, MAX (self->stores->len, 1));
    }
  while (g_ptr_array_index (self->allocations, index) == NULL && self->building[index] &&
         !g_cancellable_is_cancelled (cancellable))
    g_cond_wait (&self->allocations_built, &self->allocations_lock);
  allocations = g_ptr_array_index (self->allocations, index);
  build = allocations == NULL && !self->building[index] && !g_cancellable_is_cancelled (cancellable);
  if (build)
    self->building[index] = TRUE;
  g_mutex_unlock (&self->allocations_lock);
  g_cancellable_disconnect (cancellable, handler);

  if (build)
    {
      allocations = tm_allocations_new (g_ptr_array_index (self->stores, index), cancellable, error);
      g_mutex_lock (&self->allocations_lock);
      self->building[index] = FALSE;
      self->allocations->pdata[index] = allocations;
      g_cond_broadcast (&self->allocations_built);
      g_mutex_unlock (&self->allocations_lock);
    }
  else if (allocations == NULL)
    g_cancellable_set_error_if_cancelled (cancellable, error);
  return allocations;
}

/* The position of store among the profile's, or -1. */
static int
store_position (TmProfile     *self,
                TmMemoryStore *store)
{
  for (guint i = 0; i < self->stores->len; i++)
    if (g_ptr_array_index (self->stores, i) == store)
      return (int) i;
  return -1;
}

TmAllocations *
tm_profile_lookup_allocations (TmProfile     *self,
                               TmMemoryStore *store)
{
  int i;

  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  i = store_position (self, store);
  g_return_val_if_fail (i < 0 || tm_profile_is_memory_id_ready (self, (guint) i), NULL);
  return i >= 0 ? get_allocations (self, (guint) i, NULL, NULL) : NULL;
}

TmAllocations *
tm_profile_peek_allocations (TmProfile     *self,
                             TmMemoryStore *store)
{
  TmAllocations *allocations = NULL;
  int i;

  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (TM_IS_MEMORY_STORE (store), NULL);

  i = store_position (self, store);
  g_mutex_lock (&self->allocations_lock);
  if (i >= 0 && self->allocations != NULL)
    allocations = g_ptr_array_index (self->allocations, i);
  g_mutex_unlock (&self->allocations_lock);
  return allocations;
}

static void
lookup_allocations_thread (GTask        *task,
                           gpointer      source_object,
                           gpointer      task_data,
                           GCancellable *cancellable)
{
  TmProfile *self = source_object;
  GError *error = NULL;
  int i = store_position (self, task_data);
  TmAllocations *allocations;

  if (i < 0 || !tm_profile_is_memory_id_ready (self, (guint) i))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "the memory store is not one of the profile's finished ones");
      return;
    }
  allocations = get_allocations (self, (guint) i, cancellable, &error);
  if (allocations != NULL)
    g_task_return_pointer (task, g_object_ref (allocations), g_object_unref);
  else
    g_task_return_error (task, error);
}

void
tm_profile_lookup_allocations_async (TmProfile           *self,
                                     TmMemoryStore       *store,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TM_IS_PROFILE (self));
  g_return_if_fail (TM_IS_MEMORY_STORE (store));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tm_profile_lookup_allocations_async);
  g_task_set_name (task, "[tidemark] allocation index");
  g_task_set_task_data (task, g_object_ref (store), g_object_unref);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, lookup_allocations_thread);
}

TmAllocations *
tm_profile_lookup_allocations_finish (TmProfile     *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tm_profile_lookup_allocations_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
tm_profile_has_hlo_entries (TmProfile *self)
{
  g_return_val_if_fail (TM_IS_PROFILE (self), FALSE);

  return self->hlo_entries->len > 0;
}

GArray *
tm_profile_list_hlo_entries (TmProfile *self)
{
  GArray *entries;
  g_autoptr(GFile) dir = NULL;
  g_autofree char *dir_path = NULL;

  g_return_val_if_fail (TM_IS_PROFILE (self), NULL);

  entries = tm_hlo_entries_new ();
  for (guint i = 0; i < self->hlo_entries->len; i++)
    {
      TmHloEntry entry = g_array_index (self->hlo_entries, TmHloEntry, i);

      entry.source = tm_source_ref (entry.source);
      entry.name = g_strdup (entry.name);
      g_array_append_val (entries, entry);
    }

  dir = g_file_get_parent (self->file);
  dir_path = dir != NULL ? g_file_get_path (dir) : NULL;
  if (dir_path != NULL)
    tm_hlo_add_sidecars (dir_path, entries);
  return entries;
}
