/* tm-run-loader.c — every host of a run summarised, in parallel
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-input-picker.h"
#include "tm-profile.h"
#include "tm-run.h"
#include "tm-run-loader.h"

/* Progress is posted to the main context at most this often per host. */
#define PROGRESS_STEP 0.02

/* What the workers share with the loader; outlives it while a worker runs. */
typedef struct
{
  gatomicrefcount  ref_count;
  GPtrArray       *files;        /* GFile, immutable */
  GPtrArray       *names;        /* char *, immutable */
  GCancellable    *cancellable;
  GMainContext    *context;
  GWeakRef         loader;
} Shared;

typedef struct
{
  char           *name;
  GFile          *file;
  TmRunHostState  state;
  double          progress;
  TmHostSummary  *summary;
} Host;

struct _TmRunLoader
{
  GObject       parent_instance;

  GFile        *source;
  gboolean      gathered;
  GArray       *hosts;   /* Host */
  guint         n_done;
  Shared       *shared;
  GThreadPool  *pool;
};

G_DEFINE_FINAL_TYPE (TmRunLoader, tm_run_loader, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_N_DONE,
  N_PROPS
};

enum
{
  HOST_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static Shared *
shared_ref (Shared *shared)
{
  g_atomic_ref_count_inc (&shared->ref_count);
  return shared;
}

static void
shared_unref (Shared *shared)
{
  if (!g_atomic_ref_count_dec (&shared->ref_count))
    return;

  g_ptr_array_unref (shared->files);
  g_ptr_array_unref (shared->names);
  g_object_unref (shared->cancellable);
  g_main_context_unref (shared->context);
  g_weak_ref_clear (&shared->loader);
  g_free (shared);
}

static void
host_clear (gpointer data)
{
  Host *host = data;

  g_free (host->name);
  g_clear_object (&host->file);
  g_clear_pointer (&host->summary, tm_host_summary_free);
}

/* ------------------------------------------------------------------ */
/* Posted from the workers                                             */

typedef struct
{
  Shared        *shared;
  guint          index;
  TmRunHostState state;
  double         progress;
  TmHostSummary *summary;
} Update;

static void
update_free (gpointer data)
{
  Update *update = data;

  shared_unref (update->shared);
  g_clear_pointer (&update->summary, tm_host_summary_free);
  g_free (update);
}

static gboolean
apply_update (gpointer data)
{
  Update *update = data;
  g_autoptr(TmRunLoader) self = g_weak_ref_get (&update->shared->loader);
  Host *host;

  if (self == NULL || self->shared != update->shared)
    return G_SOURCE_REMOVE;

  host = &g_array_index (self->hosts, Host, update->index);
  if (host->state == TM_RUN_HOST_DONE || host->state == TM_RUN_HOST_FAILED)
    return G_SOURCE_REMOVE;

  host->state = update->state;
  host->progress = update->progress;
  if (update->summary != NULL)
    {
      host->summary = g_steal_pointer (&update->summary);
      host->progress = 1.0;
      self->n_done++;
    }

  g_signal_emit (self, signals[HOST_CHANGED], 0, update->index);
  if (host->summary != NULL)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_DONE]);

  return G_SOURCE_REMOVE;
}

static void
post (Shared         *shared,
      guint           index,
      TmRunHostState  state,
      double          progress,
      TmHostSummary  *summary)
{
  Update *update = g_new0 (Update, 1);
  GSource *source;

  update->shared = shared_ref (shared);
  update->index = index;
  update->state = state;
  update->progress = progress;
  update->summary = summary;
  source = g_idle_source_new ();

  /* Always through a source: invoking directly would run the update on
   * this worker when nobody holds the main context. */
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, apply_update, update, update_free);
  g_source_set_static_name (source, "[tidemark] run host update");
  g_source_attach (source, shared->context);
  g_source_unref (source);
}

typedef struct
{
  Shared  *shared;
  guint    index;
  double   posted;
} WorkerProgress;

static void
worker_progress (guint64  done,
                 guint64  total,
                 gpointer data)
{
  WorkerProgress *p = data;
  double fraction;

  if (total == 0)
    return;
  /* Scanning is most of the work; the rest shows as the last step. */
  fraction = MIN ((double) done / (double) total, 1.0) * 0.95;
  if (fraction - p->posted >= PROGRESS_STEP)
    {
      p->posted = fraction;
      post (p->shared, p->index, TM_RUN_HOST_LOADING, fraction, NULL);
    }
}

/* One host to load; each holds the shared state. */
typedef struct
{
  Shared *shared;
  guint   index;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  shared_unref (job->shared);
  g_free (job);
}

static void
worker_load (Shared *shared,
             guint   index)
{
  GFile *file = g_ptr_array_index (shared->files, index);
  const char *name = g_ptr_array_index (shared->names, index);
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  WorkerProgress progress = { shared, index, 0.0 };
  TmHostSummary *summary;

  if (g_cancellable_is_cancelled (shared->cancellable))
    return;

  post (shared, index, TM_RUN_HOST_LOADING, 0.0, NULL);

  profile = tm_profile_load (file, worker_progress, &progress, shared->cancellable, &error);
  if (profile != NULL)
    summary = tm_host_summary_new_for_profile (profile, name);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  else
    {
      path = g_file_get_path (file);
      summary = tm_host_summary_new_error (name, path, error->message);
    }

  /* The whole analysis goes here; only the summary is kept. */
  g_clear_object (&profile);
  post (shared, index, summary->error != NULL ? TM_RUN_HOST_FAILED : TM_RUN_HOST_DONE, 1.0, summary);
}

static void
worker (gpointer data,
        gpointer user_data)
{
  Job *job = data;

  worker_load (job->shared, job->index);
  job_free (job);
}

/* ------------------------------------------------------------------ */

static void
tm_run_loader_dispose (GObject *object)
{
  TmRunLoader *self = TM_RUN_LOADER (object);

  if (self->shared != NULL)
    g_cancellable_cancel (self->shared->cancellable);
  /* Without waiting: the hosts still queued run through at once (they
   * see the cancellation), the one loading stops at its next check, and
   * each lets go of the shared state. */
  if (self->pool != NULL)
    {
      g_thread_pool_free (self->pool, FALSE, FALSE);
      self->pool = NULL;
    }
  g_clear_pointer (&self->shared, shared_unref);
  g_clear_object (&self->source);

  G_OBJECT_CLASS (tm_run_loader_parent_class)->dispose (object);
}

static void
tm_run_loader_finalize (GObject *object)
{
  TmRunLoader *self = TM_RUN_LOADER (object);

  g_clear_pointer (&self->hosts, g_array_unref);

  G_OBJECT_CLASS (tm_run_loader_parent_class)->finalize (object);
}

static void
tm_run_loader_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TmRunLoader *self = TM_RUN_LOADER (object);

  switch (prop_id)
    {
    case PROP_N_DONE:
      g_value_set_uint (value, self->n_done);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_run_loader_class_init (TmRunLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tm_run_loader_dispose;
  object_class->finalize = tm_run_loader_finalize;
  object_class->get_property = tm_run_loader_get_property;

  properties[PROP_N_DONE] =
    g_param_spec_uint ("n-done", NULL, NULL,
                       0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[HOST_CHANGED] =
    g_signal_new ("host-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
tm_run_loader_init (TmRunLoader *self)
{
  self->hosts = g_array_new (FALSE, TRUE, sizeof (Host));
  g_array_set_clear_func (self->hosts, host_clear);
}

TmRunLoader *
tm_run_loader_new (GFile  *run_directory,
                   GFile **hosts,
                   guint   n_hosts)
{
  TmRunLoader *self;

  g_return_val_if_fail (G_IS_FILE (run_directory), NULL);
  g_return_val_if_fail (hosts != NULL || n_hosts == 0, NULL);

  self = g_object_new (TM_TYPE_RUN_LOADER, NULL);
  self->source = g_object_ref (run_directory);
  for (guint i = 0; i < n_hosts; i++)
    {
      Host host = { 0 };

      g_return_val_if_fail (G_IS_FILE (hosts[i]), self);
      host.file = g_object_ref (hosts[i]);
      host.name = tm_run_host_name (hosts[i]);
      g_array_append_val (self->hosts, host);
    }
  return self;
}

TmRunLoader *
tm_run_loader_new_for_summaries (GFile     *source,
                                 GPtrArray *summaries)
{
  TmRunLoader *self;

  g_return_val_if_fail (G_IS_FILE (source), NULL);
  g_return_val_if_fail (summaries != NULL, NULL);

  self = g_object_new (TM_TYPE_RUN_LOADER, NULL);
  self->source = g_object_ref (source);
  self->gathered = TRUE;

  /* Steal the summaries: the array keeps no free function from here on. */
  g_ptr_array_set_free_func (summaries, NULL);
  for (guint i = 0; i < summaries->len; i++)
    {
      TmHostSummary *summary = g_ptr_array_index (summaries, i);
      Host host = { 0 };

      host.name = g_strdup (summary->host);
      if (summary->file != NULL && *summary->file != '\0')
        host.file = g_file_new_for_commandline_arg (summary->file);
      host.state = summary->error != NULL ? TM_RUN_HOST_FAILED : TM_RUN_HOST_DONE;
      host.progress = 1.0;
      host.summary = summary;
      g_array_append_val (self->hosts, host);
    }
  self->n_done = summaries->len;
  g_ptr_array_unref (summaries);
  return self;
}

TmRunLoader *
tm_run_loader_new_for_gathered (GFile   *source,
                                GBytes  *contents,
                                GError **error)
{
  g_autofree char *path = NULL;
  g_autoptr(TmSource) bytes = NULL;
  TmRunLoader *self;
  TmInputFormat format;
  TmInput input;

  g_return_val_if_fail (G_IS_FILE (source), NULL);
  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = g_file_get_parse_name (source);
  bytes = tm_source_new_from_bytes (contents, path);
  if (!tm_input_picker_sniff_source (bytes, &format, error))
    return NULL;
  if (format != TM_INPUT_FORMAT_SUMMARIES)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_JSON,
                   /* TRANSLATORS: %s is a file format, such as "XSpace" */
                   _("holds %s, not gathered host summaries (JSON Lines)"),
                   _(tm_input_format_get_info (format)->name));
      return NULL;
    }
  if (!tm_input_picker_read (bytes, &input, NULL, NULL, NULL, error))
    return NULL;
  /* The overview shows a whole run or none: the first bad line fails it. */
  if (input.problems->len > 0)
    {
      g_set_error_literal (error, TM_ERROR, TM_ERROR_JSON, g_ptr_array_index (input.problems, 0));
      tm_input_clear (&input);
      return NULL;
    }

  self = tm_run_loader_new_for_summaries (source, g_steal_pointer (&input.hosts));
  tm_input_clear (&input);
  return self;
}

void
tm_run_loader_start (TmRunLoader *self,
                     guint        max_threads)
{
  Shared *shared;

  g_return_if_fail (TM_IS_RUN_LOADER (self));
  g_return_if_fail (self->shared == NULL);

  if (self->gathered || self->hosts->len == 0)
    return;

  if (max_threads == 0)
    max_threads = MAX (g_get_num_processors (), 1);

  shared = g_new0 (Shared, 1);
  g_atomic_ref_count_init (&shared->ref_count);
  shared->files = g_ptr_array_new_full (self->hosts->len, g_object_unref);
  shared->names = g_ptr_array_new_full (self->hosts->len, g_free);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Host *host = &g_array_index (self->hosts, Host, i);

      g_ptr_array_add (shared->files, g_object_ref (host->file));
      g_ptr_array_add (shared->names, g_strdup (host->name));
    }
  shared->cancellable = g_cancellable_new ();
  shared->context = g_main_context_ref_thread_default ();
  g_weak_ref_init (&shared->loader, self);
  self->shared = shared;

  /* Each job holds the shared state until it has run. */
  self->pool = g_thread_pool_new_full (worker, NULL, job_free,
                                       (int) MIN (max_threads, self->hosts->len), FALSE, NULL);
  for (guint i = 0; i < self->hosts->len; i++)
    {
      Job *job = g_new0 (Job, 1);

      job->shared = shared_ref (shared);
      job->index = i;
      g_thread_pool_push (self->pool, job, NULL);
    }
}

void
tm_run_loader_cancel (TmRunLoader *self)
{
  g_return_if_fail (TM_IS_RUN_LOADER (self));

  if (self->shared != NULL)
    g_cancellable_cancel (self->shared->cancellable);
}

GFile *
tm_run_loader_get_source (TmRunLoader *self)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), NULL);

  return self->source;
}

gboolean
tm_run_loader_is_gathered (TmRunLoader *self)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), FALSE);

  return self->gathered;
}

guint
tm_run_loader_get_n_hosts (TmRunLoader *self)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), 0);

  return self->hosts->len;
}

guint
tm_run_loader_get_n_done (TmRunLoader *self)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), 0);

  return self->n_done;
}

static Host *
get_host (TmRunLoader *self,
          guint        index)
{
  return &g_array_index (self->hosts, Host, index);
}

const char *
tm_run_loader_get_host_name (TmRunLoader *self,
                             guint        index)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), NULL);
  g_return_val_if_fail (index < self->hosts->len, NULL);

  return get_host (self, index)->name;
}

GFile *
tm_run_loader_get_host_file (TmRunLoader *self,
                             guint        index)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), NULL);
  g_return_val_if_fail (index < self->hosts->len, NULL);

  return get_host (self, index)->file;
}

TmRunHostState
tm_run_loader_get_host_state (TmRunLoader *self,
                              guint        index)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), TM_RUN_HOST_WAITING);
  g_return_val_if_fail (index < self->hosts->len, TM_RUN_HOST_WAITING);

  return get_host (self, index)->state;
}

double
tm_run_loader_get_host_progress (TmRunLoader *self,
                                 guint        index)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), 0.0);
  g_return_val_if_fail (index < self->hosts->len, 0.0);

  return get_host (self, index)->progress;
}

const TmHostSummary *
tm_run_loader_get_host_summary (TmRunLoader *self,
                                guint        index)
{
  g_return_val_if_fail (TM_IS_RUN_LOADER (self), NULL);
  g_return_val_if_fail (index < self->hosts->len, NULL);

  return get_host (self, index)->summary;
}
