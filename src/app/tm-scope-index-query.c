/* tm-scope-index-query.c — a session's scope index, built in a worker
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-scope-index-query.h"

struct _TmScopeIndexQuery
{
  GObject          parent_instance;

  TmSession       *session;        /* unowned: the session owns the query;
                                    * NULL once the session is gone */

  /* The index built for the session's memory store, or the build in
   * progress: its cancellable, the store and grouping it is for. */
  TmScopeIndex    *index;
  GCancellable    *cancellable;
  TmMemoryStore   *building_store;
  TmScopeGrouping  building_grouping;
};

G_DEFINE_FINAL_TYPE (TmScopeIndexQuery, tm_scope_index_query, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_INDEX,
  PROP_PENDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Forgets the index and cancels a build in progress. */
static void
drop_index (TmScopeIndexQuery *self)
{
  gboolean had = self->index != NULL, pending = self->cancellable != NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->building_store);
  g_clear_object (&self->index);
  if (had)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
  if (pending)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  TmScopeGrouping grouping = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "tm-grouping"));
  GError *error = NULL;
  /* The worker reads only its store, never the query. */
  TmScopeIndex *index = tm_scope_index_new (task_data, grouping, cancellable, &error);

  if (index != NULL)
    g_task_return_pointer (task, index, g_object_unref);
  else
    g_task_return_error (task, error);
}

static void
build_done (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  TmScopeIndexQuery *self = TM_SCOPE_INDEX_QUERY (source);
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(TmScopeIndex) index = g_task_propagate_pointer (G_TASK (result), &error);

  /* A build that was replaced or cancelled says nothing. */
  if (cancellable != self->cancellable || self->session == NULL)
    return;
  g_clear_object (&self->cancellable);
  g_clear_object (&self->building_store);
  if (index == NULL)
    g_debug ("scope index: %s", error->message);
  else
    {
      g_set_object (&self->index, index);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INDEX]);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

static void
tm_scope_index_query_dispose (GObject *object)
{
  TmScopeIndexQuery *self = TM_SCOPE_INDEX_QUERY (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->building_store);
  g_clear_object (&self->index);

  G_OBJECT_CLASS (tm_scope_index_query_parent_class)->dispose (object);
}

static void
tm_scope_index_query_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TmScopeIndexQuery *self = TM_SCOPE_INDEX_QUERY (object);

  switch (prop_id)
    {
    case PROP_INDEX:
      g_value_set_object (value, self->index);
      break;

    case PROP_PENDING:
      g_value_set_boolean (value, tm_scope_index_query_get_pending (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_scope_index_query_class_init (TmScopeIndexQueryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tm_scope_index_query_dispose;
  object_class->get_property = tm_scope_index_query_get_property;

  properties[PROP_INDEX] =
    g_param_spec_object ("index", NULL, NULL,
                         TM_TYPE_SCOPE_INDEX,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PENDING] =
    g_param_spec_boolean ("pending", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_scope_index_query_init (TmScopeIndexQuery *self)
{
}

/* The session is finalized: a build still running (which holds the
 * query) must not hand its index to it. */
static void
session_gone (gpointer data)
{
  TmScopeIndexQuery *self = data;

  self->session = NULL;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_object_unref (self);
}

TmScopeIndexQuery *
tm_scope_index_query_get_for_session (TmSession *session)
{
  static GQuark quark;
  TmScopeIndexQuery *self;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("tm-scope-index-query");
  self = g_object_get_qdata (G_OBJECT (session), quark);
  if (self == NULL)
    {
      self = g_object_new (TM_TYPE_SCOPE_INDEX_QUERY, NULL);
      self->session = session;
      /* The session owns the query, so this handler goes with it. */
      g_signal_connect_swapped (session, "notify::memory-store", G_CALLBACK (drop_index), self);
      g_object_set_qdata_full (G_OBJECT (session), quark, self, session_gone);
    }
  return self;
}

TmScopeIndex *
tm_scope_index_query_get_index (TmScopeIndexQuery *self,
                                TmScopeGrouping    grouping)
{
  TmMemoryStore *store;
  g_autoptr(GTask) task = NULL;

  g_return_val_if_fail (TM_IS_SCOPE_INDEX_QUERY (self), NULL);

  if (self->session == NULL)
    return NULL;
  store = tm_session_get_memory_store (self->session);
  if (store == NULL)
    return NULL;
  if (self->index != NULL && tm_scope_index_get_store (self->index) == store &&
      tm_scope_index_get_grouping (self->index) == grouping)
    return self->index;
  if (self->cancellable != NULL && self->building_store == store && self->building_grouping == grouping)
    return NULL;

  drop_index (self);
  self->cancellable = g_cancellable_new ();
  self->building_store = g_object_ref (store);
  self->building_grouping = grouping;
  task = g_task_new (self, self->cancellable, build_done, NULL);
  g_task_set_source_tag (task, tm_scope_index_query_get_index);
  g_task_set_task_data (task, g_object_ref (store), g_object_unref);
  g_object_set_data (G_OBJECT (task), "tm-grouping", GINT_TO_POINTER (grouping));
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, build_thread);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
  return NULL;
}

gboolean
tm_scope_index_query_get_pending (TmScopeIndexQuery *self)
{
  g_return_val_if_fail (TM_IS_SCOPE_INDEX_QUERY (self), FALSE);

  return self->cancellable != NULL && self->session != NULL &&
         self->building_store == tm_session_get_memory_store (self->session);
}

/* Decoding a few thousand allocations takes milliseconds; the index of a
 * large memory id a good part of a second. */
#define DECODE_AT_ONCE 4096

TmScopeTree *
tm_scope_index_query_tree_for_allocations (TmScopeIndexQuery *self,
                                           TmScopeGrouping    grouping,
                                           GArray            *snapshots)
{
  TmMemoryStore *store;
  TmScopeTree *tree;

  g_return_val_if_fail (TM_IS_SCOPE_INDEX_QUERY (self), NULL);
  g_return_val_if_fail (snapshots != NULL, NULL);

  store = self->session != NULL ? tm_session_get_memory_store (self->session) : NULL;
  if (store == NULL)
    return NULL;
  if (snapshots->len > DECODE_AT_ONCE)
    {
      TmScopeIndex *index = tm_scope_index_query_get_index (self, grouping);

      if (index != NULL)
        return tm_scope_index_tree_for_allocations (index, (const guint *) snapshots->data, snapshots->len);
      if (tm_scope_index_query_get_pending (self))
        return NULL;
    }
  tree = tm_scope_tree_new_for_allocations (store, (const guint *) snapshots->data, snapshots->len, grouping, NULL, NULL);
  return tree != NULL ? tree : tm_scope_tree_new_for_allocations (store, NULL, 0, grouping, NULL, NULL);
}
