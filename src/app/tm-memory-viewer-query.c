/* tm-memory-viewer-query.c — a session's static plans: the modules, the one shown, an op's buffers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-memory-viewer-query.h"
#include "tm-static-selection.h"

/* Results kept for the last choices of module and memory space. */
#define N_KEPT 4

struct _TmMemoryViewerQuery
{
  GObject              parent_instance;

  TmSession           *session;        /* unowned: the session owns the query */
  TmProfile           *profile;        /* what the modules are of */

  TmMemoryViewerState  state;
  GCancellable        *list_cancellable;
  guint                done;
  guint                total;
  GArray              *entries;        /* TmHloEntry */
  GArray              *plans;          /* TmModulePlan */
  GArray              *order;          /* guint */

  /* Results by "module\nspace", the newest last in kept_keys. */
  GHashTable          *kept;
  GQueue               kept_keys;
  char                *key;            /* the selection's, NULL without one */
  GCancellable        *compute_cancellable;
  char                *error;

  char                *op;             /* whose matches op_matches are */
  GPtrArray           *op_matches;
  GCancellable        *op_cancellable;
};

G_DEFINE_FINAL_TYPE (TmMemoryViewerQuery, tm_memory_viewer_query, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_RESULT,
  PROP_PENDING,
  PROP_OP_MATCHES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
op_match_free (TmOpMatch *match)
{
  g_free (match->module);
  for (guint i = 0; i < match->buffers->len; i++)
    g_free ((char *) g_array_index (match->buffers, TmOpBuffer, i).instruction);
  g_array_unref (match->buffers);
  g_free (match);
}

static char *
make_key (const char *module,
          gint64      memory_space)
{
  return g_strdup_printf ("%s\n%" G_GINT64_FORMAT, module, memory_space);
}

static const TmHloEntry *
find_entry (GArray     *entries,
            const char *module)
{
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    if (g_str_equal (g_array_index (entries, TmHloEntry, i).name, module))
      return &g_array_index (entries, TmHloEntry, i);
  return NULL;
}

static void
cancel (GCancellable **cancellable)
{
  g_cancellable_cancel (*cancellable);
  g_clear_object (cancellable);
}

/* ------------------------------------------------------------------ */
/* The modules                                                          */

typedef struct
{
  TmProfile *profile;
  GArray    *entries;
  GArray    *plans;
  GWeakRef   query;
  GCancellable *cancellable;
} ListJob;

static void
list_job_free (ListJob *job)
{
  g_clear_object (&job->profile);
  g_clear_pointer (&job->entries, g_array_unref);
  g_clear_pointer (&job->plans, g_array_unref);
  g_weak_ref_clear (&job->query);
  g_clear_object (&job->cancellable);
  g_free (job);
}

typedef struct
{
  GWeakRef      query;
  GCancellable *cancellable;
  guint         done;
  guint         total;
} Progress;

static gboolean
progress_idle (gpointer data)
{
  Progress *p = data;
  g_autoptr(TmMemoryViewerQuery) self = g_weak_ref_get (&p->query);

  if (self != NULL && p->cancellable == self->list_cancellable && self->state == TM_MEMORY_VIEWER_LISTING)
    {
      self->done = p->done;
      self->total = p->total;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
    }
  return G_SOURCE_REMOVE;
}

static void
progress_free (Progress *p)
{
  g_weak_ref_clear (&p->query);
  g_object_unref (p->cancellable);
  g_free (p);
}

static void
list_progress (guint64  done,
               guint64  total,
               gpointer data)
{
  ListJob *job = data;
  Progress *p = g_new0 (Progress, 1);
  g_autoptr(GObject) query = g_weak_ref_get (&job->query);

  g_weak_ref_init (&p->query, query);
  p->cancellable = g_object_ref (job->cancellable);
  p->done = (guint) done;
  p->total = (guint) total;
  g_idle_add_full (G_PRIORITY_DEFAULT, progress_idle, p, (GDestroyNotify) progress_free);
}

static void
list_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  ListJob *job = data;
  GError *error = NULL;

  job->entries = tm_profile_list_hlo_entries (job->profile);
  if (job->entries->len > 0)
    list_progress (0, job->entries->len, job);
  job->plans = tm_static_plan_summarize (job->entries, list_progress, job, cancellable, &error);
  if (job->plans == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void update_result (TmMemoryViewerQuery *self);
static void update_op (TmMemoryViewerQuery *self);

static void
list_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  TmMemoryViewerQuery *self = TM_MEMORY_VIEWER_QUERY (source);
  ListJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL) || job->cancellable != self->list_cancellable)
    return;
  g_clear_object (&self->list_cancellable);
  self->entries = g_steal_pointer (&job->entries);
  self->plans = g_steal_pointer (&job->plans);
  self->order = tm_static_plan_order (self->plans);
  self->state = TM_MEMORY_VIEWER_READY;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  update_result (self);
  update_op (self);
}

void
tm_memory_viewer_query_load (TmMemoryViewerQuery *self)
{
  g_autoptr(GTask) task = NULL;
  ListJob *job;

  g_return_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self));

  if (self->session == NULL || self->state != TM_MEMORY_VIEWER_IDLE || self->profile == NULL)
    return;

  job = g_new0 (ListJob, 1);
  job->profile = g_object_ref (self->profile);
  g_weak_ref_init (&job->query, self);
  self->list_cancellable = g_cancellable_new ();
  job->cancellable = g_object_ref (self->list_cancellable);
  self->done = self->total = 0;
  self->state = TM_MEMORY_VIEWER_LISTING;

  task = g_task_new (self, self->list_cancellable, list_done, NULL);
  g_task_set_source_tag (task, tm_memory_viewer_query_load);
  g_task_set_task_data (task, job, (GDestroyNotify) list_job_free);
  g_task_run_in_thread (task, list_thread);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* ------------------------------------------------------------------ */
/* The selected module                                                  */

typedef struct
{
  TmHloEntry          entry;
  gint64              memory_space;
  char               *key;
  TmBufferAssignment *result;
} ComputeJob;

static void
compute_job_free (ComputeJob *job)
{
  tm_hlo_entry_clear (&job->entry);
  g_free (job->key);
  g_clear_pointer (&job->result, tm_buffer_assignment_free);
  g_free (job);
}

static void
compute_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  ComputeJob *job = data;
  g_autoptr(TmHloProto) proto = NULL;
  GError *error = NULL;

  proto = tm_hlo_entry_decode (&job->entry, &error);
  if (proto != NULL)
    job->result = tm_buffer_assignment_compute (proto, job->entry.name, job->memory_space,
                                                TM_BUFFER_ASSIGNMENT_SMALL_BUFFER_SIZE, cancellable, &error);
  if (job->result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
keep_result (TmMemoryViewerQuery *self,
             char                *key,
             TmBufferAssignment  *result)
{
  g_hash_table_replace (self->kept, key, result);
  g_queue_push_tail (&self->kept_keys, key);
  while (g_queue_get_length (&self->kept_keys) > N_KEPT)
    g_hash_table_remove (self->kept, g_queue_pop_head (&self->kept_keys));
}

static void
compute_done (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  TmMemoryViewerQuery *self = TM_MEMORY_VIEWER_QUERY (source);
  ComputeJob *job = g_task_get_task_data (G_TASK (result));
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (cancellable != self->compute_cancellable)
    return;
  g_clear_object (&self->compute_cancellable);
  if (error != NULL)
    self->error = g_strdup (error->message);
  else
    keep_result (self, g_strdup (job->key), g_steal_pointer (&job->result));
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The selection changed, or the modules are known: its result, kept or
 * made. */
static void
update_result (TmMemoryViewerQuery *self)
{
  const TmStaticSelection *sel = self->session != NULL ? tm_session_get_static_selection (self->session) : NULL;
  g_autofree char *key = NULL;
  gboolean was_pending = self->compute_cancellable != NULL;
  const TmHloEntry *entry;

  if (self->state == TM_MEMORY_VIEWER_READY && sel != NULL && sel->module != NULL)
    key = make_key (sel->module, sel->memory_space);
  if (g_strcmp0 (key, self->key) == 0 && (self->compute_cancellable != NULL || key == NULL ||
                                          self->error != NULL || g_hash_table_contains (self->kept, key)))
    return;

  cancel (&self->compute_cancellable);
  g_clear_pointer (&self->error, g_free);
  g_free (self->key);
  self->key = g_steal_pointer (&key);

  if (self->key != NULL && !g_hash_table_contains (self->kept, self->key))
    {
      entry = find_entry (self->entries, sel->module);
      if (entry == NULL)
        self->error = g_strdup_printf (_("The profile has no XLA module “%s”."), sel->module);
      else
        {
          g_autoptr(GTask) task = NULL;
          ComputeJob *job = g_new0 (ComputeJob, 1);

          job->entry = *entry;
          job->entry.source = tm_source_ref (entry->source);
          job->entry.name = g_strdup (entry->name);
          job->memory_space = sel->memory_space;
          job->key = g_strdup (self->key);
          self->compute_cancellable = g_cancellable_new ();
          task = g_task_new (self, self->compute_cancellable, compute_done, NULL);
          g_task_set_source_tag (task, update_result);
          g_task_set_task_data (task, job, (GDestroyNotify) compute_job_free);
          g_task_run_in_thread (task, compute_thread);
        }
    }

  g_object_freeze_notify (G_OBJECT (self));
  if (was_pending != (self->compute_cancellable != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* ------------------------------------------------------------------ */
/* An op's buffers                                                      */

typedef struct
{
  GArray    *entries;
  char      *op;
  GPtrArray *matches;
} OpJob;

static void
op_job_free (OpJob *job)
{
  g_array_unref (job->entries);
  g_free (job->op);
  g_clear_pointer (&job->matches, g_ptr_array_unref);
  g_free (job);
}

static void
op_thread (GTask        *task,
           gpointer      source,
           gpointer      data,
           GCancellable *cancellable)
{
  OpJob *job = data;

  job->matches = g_ptr_array_new_with_free_func ((GDestroyNotify) op_match_free);
  for (guint i = 0; i < job->entries->len; i++)
    {
      const TmHloEntry *entry = &g_array_index (job->entries, TmHloEntry, i);
      g_autoptr(TmHloProto) proto = NULL;
      g_autoptr(GArray) found = NULL;
      TmOpMatch *match;

      if (g_task_return_error_if_cancelled (task))
        return;
      proto = tm_hlo_entry_decode (entry, NULL);
      if (proto == NULL)
        continue;
      found = tm_static_plan_find_op (proto, job->op);
      if (found->len == 0)
        continue;
      /* The names outlive the proto. */
      for (guint k = 0; k < found->len; k++)
        g_array_index (found, TmOpBuffer, k).instruction = g_strdup (g_array_index (found, TmOpBuffer, k).instruction);
      match = g_new0 (TmOpMatch, 1);
      match->module = g_strdup (entry->name);
      match->buffers = g_steal_pointer (&found);
      g_ptr_array_add (job->matches, match);
    }
  g_task_return_boolean (task, TRUE);
}

static void
op_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  TmMemoryViewerQuery *self = TM_MEMORY_VIEWER_QUERY (source);
  OpJob *job = g_task_get_task_data (G_TASK (result));

  if (!g_task_propagate_boolean (G_TASK (result), NULL) ||
      g_task_get_cancellable (G_TASK (result)) != self->op_cancellable)
    return;
  g_clear_object (&self->op_cancellable);
  self->op_matches = g_steal_pointer (&job->matches);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_MATCHES]);
}

static void
update_op (TmMemoryViewerQuery *self)
{
  const TmStaticSelection *sel = self->session != NULL ? tm_session_get_static_selection (self->session) : NULL;
  const char *op = self->state == TM_MEMORY_VIEWER_READY && sel != NULL ? sel->op : NULL;
  g_autoptr(GTask) task = NULL;
  OpJob *job;

  if (g_strcmp0 (op, self->op) == 0)
    return;
  cancel (&self->op_cancellable);
  g_clear_pointer (&self->op_matches, g_ptr_array_unref);
  g_free (self->op);
  self->op = g_strdup (op);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_MATCHES]);
  if (op == NULL)
    return;

  job = g_new0 (OpJob, 1);
  job->entries = g_array_ref (self->entries);
  job->op = g_strdup (op);
  self->op_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->op_cancellable, op_done, NULL);
  g_task_set_source_tag (task, update_op);
  g_task_set_task_data (task, job, (GDestroyNotify) op_job_free);
  g_task_run_in_thread (task, op_thread);
}

/* ------------------------------------------------------------------ */
/* The session                                                          */

static void
selection_cb (TmMemoryViewerQuery *self)
{
  update_result (self);
  update_op (self);
}

/* Another profile: nothing of the old one is kept or waited for. */
static void
profile_cb (TmMemoryViewerQuery *self)
{
  TmProfile *profile = self->session != NULL ? tm_session_get_profile (self->session) : NULL;

  if (profile == self->profile)
    return;
  cancel (&self->list_cancellable);
  cancel (&self->compute_cancellable);
  cancel (&self->op_cancellable);
  g_set_object (&self->profile, profile);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->plans, g_array_unref);
  g_clear_pointer (&self->order, g_array_unref);
  g_hash_table_remove_all (self->kept);
  g_queue_clear (&self->kept_keys);
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->op, g_free);
  g_clear_pointer (&self->op_matches, g_ptr_array_unref);
  self->state = TM_MEMORY_VIEWER_IDLE;
  self->done = self->total = 0;

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OP_MATCHES]);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
session_gone (gpointer data)
{
  TmMemoryViewerQuery *self = data;

  self->session = NULL;
  cancel (&self->list_cancellable);
  cancel (&self->compute_cancellable);
  cancel (&self->op_cancellable);
  g_clear_object (&self->profile);
  g_object_unref (self);
}

static void
tm_memory_viewer_query_dispose (GObject *object)
{
  TmMemoryViewerQuery *self = TM_MEMORY_VIEWER_QUERY (object);

  cancel (&self->list_cancellable);
  cancel (&self->compute_cancellable);
  cancel (&self->op_cancellable);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->plans, g_array_unref);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->kept, g_hash_table_unref);
  g_queue_clear (&self->kept_keys);
  g_clear_pointer (&self->key, g_free);
  g_clear_pointer (&self->error, g_free);
  g_clear_pointer (&self->op, g_free);
  g_clear_pointer (&self->op_matches, g_ptr_array_unref);

  G_OBJECT_CLASS (tm_memory_viewer_query_parent_class)->dispose (object);
}

static void
tm_memory_viewer_query_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  TmMemoryViewerQuery *self = TM_MEMORY_VIEWER_QUERY (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;

    case PROP_PROGRESS:
      g_value_set_double (value, self->total > 0 ? (double) self->done / self->total : 0.0);
      break;

    case PROP_RESULT:
      g_value_set_pointer (value, (gpointer) tm_memory_viewer_query_get_result (self));
      break;

    case PROP_PENDING:
      g_value_set_boolean (value, self->compute_cancellable != NULL);
      break;

    case PROP_OP_MATCHES:
      g_value_set_boxed (value, self->op_matches);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_memory_viewer_query_class_init (TmMemoryViewerQueryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tm_memory_viewer_query_dispose;
  object_class->get_property = tm_memory_viewer_query_get_property;

  properties[PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL,
                       TM_MEMORY_VIEWER_IDLE, TM_MEMORY_VIEWER_READY, TM_MEMORY_VIEWER_IDLE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL,
                         0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESULT] =
    g_param_spec_pointer ("result", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PENDING] =
    g_param_spec_boolean ("pending", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OP_MATCHES] =
    g_param_spec_boxed ("op-matches", NULL, NULL,
                        G_TYPE_PTR_ARRAY,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_memory_viewer_query_init (TmMemoryViewerQuery *self)
{
  self->kept = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) tm_buffer_assignment_free);
  g_queue_init (&self->kept_keys);
}

TmMemoryViewerQuery *
tm_memory_viewer_query_get_for_session (TmSession *session)
{
  static GQuark quark;
  TmMemoryViewerQuery *self;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("tm-memory-viewer-query");
  self = g_object_get_qdata (G_OBJECT (session), quark);
  if (self == NULL)
    {
      self = g_object_new (TM_TYPE_MEMORY_VIEWER_QUERY, NULL);
      self->session = session;
      /* The session owns the query, so these handlers go with it. */
      g_signal_connect_swapped (session, "notify::profile", G_CALLBACK (profile_cb), self);
      g_signal_connect_swapped (session, "notify::static-selection", G_CALLBACK (selection_cb), self);
      g_object_set_qdata_full (G_OBJECT (session), quark, self, session_gone);
      profile_cb (self);
    }
  return self;
}

/* Whether what the query holds is of the session's profile: a view told
 * of a new profile before the query was sees nothing of the old one. */
static gboolean
is_current (TmMemoryViewerQuery *self)
{
  return self->session != NULL && tm_session_get_profile (self->session) == self->profile;
}

TmMemoryViewerState
tm_memory_viewer_query_get_state (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), TM_MEMORY_VIEWER_IDLE);

  return is_current (self) ? self->state : TM_MEMORY_VIEWER_IDLE;
}

void
tm_memory_viewer_query_get_progress (TmMemoryViewerQuery *self,
                                     guint               *done,
                                     guint               *total)
{
  g_return_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self));

  if (done != NULL)
    *done = self->done;
  if (total != NULL)
    *total = self->total;
}

GArray *
tm_memory_viewer_query_get_plans (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), NULL);

  return is_current (self) ? self->plans : NULL;
}

GArray *
tm_memory_viewer_query_get_order (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), NULL);

  return is_current (self) ? self->order : NULL;
}

const TmModulePlan *
tm_memory_viewer_query_lookup_plan (TmMemoryViewerQuery *self,
                                    const char          *module)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), NULL);

  for (guint i = 0; module != NULL && is_current (self) && self->plans != NULL && i < self->plans->len; i++)
    if (g_str_equal (g_array_index (self->plans, TmModulePlan, i).name, module))
      return &g_array_index (self->plans, TmModulePlan, i);
  return NULL;
}

const TmBufferAssignment *
tm_memory_viewer_query_get_result (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), NULL);

  return self->key != NULL && is_current (self) ? g_hash_table_lookup (self->kept, self->key) : NULL;
}

gboolean
tm_memory_viewer_query_get_pending (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), FALSE);

  return self->compute_cancellable != NULL;
}

const char *
tm_memory_viewer_query_get_error (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), NULL);

  return self->error;
}

GPtrArray *
tm_memory_viewer_query_get_op_matches (TmMemoryViewerQuery *self)
{
  g_return_val_if_fail (TM_IS_MEMORY_VIEWER_QUERY (self), NULL);

  return is_current (self) ? self->op_matches : NULL;
}
