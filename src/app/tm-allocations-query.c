/* tm-allocations-query.c — a session's allocation index, asked for after the first frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-allocations-query.h"

struct _TmAllocationsQuery
{
  GObject        parent_instance;

  TmSession     *session;         /* unowned: the session owns the query;
                                   * NULL once the session is gone */
  TmAllocations *allocations;
  /* The request in progress, and what it is for. */
  GCancellable  *cancellable;
  TmProfile     *profile;
  TmMemoryStore *store;
};

G_DEFINE_FINAL_TYPE (TmAllocationsQuery, tm_allocations_query, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ALLOCATIONS,
  PROP_PENDING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Tells the listeners. */
static void
set_state (TmAllocationsQuery *self,
           TmAllocations      *allocations,
           GCancellable       *cancellable)
{
  gboolean was_pending = self->cancellable != NULL;
  gboolean changed = g_set_object (&self->allocations, allocations);

  g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, cancellable);
  if (cancellable == NULL)
    {
      g_clear_object (&self->profile);
      g_clear_object (&self->store);
    }
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOCATIONS]);
  if (was_pending != (cancellable != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PENDING]);
}

static void
lookup_done (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TmAllocationsQuery) self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(TmAllocations) allocations = tm_profile_lookup_allocations_finish (TM_PROFILE (source), result, &error);

  /* A request that was replaced or cancelled says nothing. */
  if (cancellable != self->cancellable || self->session == NULL)
    return;
  if (allocations == NULL)
    g_debug ("allocation index: %s", error->message);
  set_state (self, allocations, NULL);
}

/* A request waiting for its idle: the query and the request's
 * cancellable, to tell whether it is still the current one. */
typedef struct
{
  TmAllocationsQuery *query;
  GCancellable       *cancellable;
} Start;

static void
start_free (Start *start)
{
  g_object_unref (start->query);
  g_object_unref (start->cancellable);
  g_free (start);
}

static gboolean
lookup_start (gpointer data)
{
  Start *start = data;
  TmAllocationsQuery *self = start->query;

  if (start->cancellable == self->cancellable && self->session != NULL)
    tm_profile_lookup_allocations_async (self->profile, self->store, self->cancellable,
                                         lookup_done, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* The session shows another memory store (or none): asks for its index. */
static void
memory_store_cb (TmAllocationsQuery *self)
{
  TmProfile *profile = tm_session_get_profile (self->session);
  TmMemoryStore *store = tm_session_get_memory_store (self->session);
  g_autoptr(GCancellable) cancellable = NULL;
  TmAllocations *built;
  Start *start;

  if (profile == NULL || store == NULL)
    {
      set_state (self, NULL, NULL);
      return;
    }
  if ((built = tm_profile_peek_allocations (profile, store)) != NULL)
    {
      set_state (self, built, NULL);
      return;
    }

  /* What the request is for, before anyone is told it is pending. */
  cancellable = g_cancellable_new ();
  g_set_object (&self->profile, profile);
  g_set_object (&self->store, store);
  set_state (self, NULL, cancellable);
  start = g_new0 (Start, 1);
  start->query = g_object_ref (self);
  start->cancellable = g_object_ref (cancellable);
  g_idle_add_full (G_PRIORITY_LOW, lookup_start, start, (GDestroyNotify) start_free);
}

/* The session is finalized: a request in progress (which holds the
 * query) must tell it nothing, nor keep the profile alive. */
static void
session_gone (gpointer data)
{
  TmAllocationsQuery *self = data;

  self->session = NULL;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->profile);
  g_clear_object (&self->store);
  g_object_unref (self);
}

static void
tm_allocations_query_dispose (GObject *object)
{
  TmAllocationsQuery *self = TM_ALLOCATIONS_QUERY (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->profile);
  g_clear_object (&self->store);
  g_clear_object (&self->allocations);

  G_OBJECT_CLASS (tm_allocations_query_parent_class)->dispose (object);
}

static void
tm_allocations_query_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TmAllocationsQuery *self = TM_ALLOCATIONS_QUERY (object);

  switch (prop_id)
    {
    case PROP_ALLOCATIONS:
      g_value_set_object (value, self->allocations);
      break;

    case PROP_PENDING:
      g_value_set_boolean (value, self->cancellable != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_allocations_query_class_init (TmAllocationsQueryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tm_allocations_query_dispose;
  object_class->get_property = tm_allocations_query_get_property;

  properties[PROP_ALLOCATIONS] =
    g_param_spec_object ("allocations", NULL, NULL,
                         TM_TYPE_ALLOCATIONS,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PENDING] =
    g_param_spec_boolean ("pending", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_allocations_query_init (TmAllocationsQuery *self)
{
}

TmAllocationsQuery *
tm_allocations_query_get_for_session (TmSession *session)
{
  static GQuark quark;
  TmAllocationsQuery *self;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("tm-allocations-query");
  self = g_object_get_qdata (G_OBJECT (session), quark);
  if (self == NULL)
    {
      self = g_object_new (TM_TYPE_ALLOCATIONS_QUERY, NULL);
      self->session = session;
      /* The session owns the query, so this handler goes with it. */
      g_signal_connect_swapped (session, "notify::memory-store", G_CALLBACK (memory_store_cb), self);
      g_object_set_qdata_full (G_OBJECT (session), quark, self, session_gone);
      memory_store_cb (self);
    }
  return self;
}

TmAllocations *
tm_allocations_query_get_allocations (TmAllocationsQuery *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_QUERY (self), NULL);

  /* Asked before this query heard of a new memory store: not the old
   * store's index. */
  if (self->allocations == NULL || self->session == NULL ||
      tm_allocations_get_store (self->allocations) != tm_session_get_memory_store (self->session))
    return NULL;
  return self->allocations;
}

gboolean
tm_allocations_query_get_pending (TmAllocationsQuery *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATIONS_QUERY (self), FALSE);

  return self->cancellable != NULL && self->session != NULL &&
         self->store == tm_session_get_memory_store (self->session);
}
