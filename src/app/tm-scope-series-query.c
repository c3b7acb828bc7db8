/* tm-scope-series-query.c — the selected scope's bytes over time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-scope-index-query.h"
#include "tm-scope-series-query.h"

struct _TmScopeSeriesQuery
{
  GObject       parent_instance;

  TmSession    *session;       /* unowned: the session owns the query;
                                * NULL once the session is gone */
  GBytes       *series;        /* made on first use */
  TmScopeIndex *series_index;  /* the index it was made from */
};

G_DEFINE_FINAL_TYPE (TmScopeSeriesQuery, tm_scope_series_query, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
drop_series (TmScopeSeriesQuery *self)
{
  g_clear_pointer (&self->series, g_bytes_unref);
  g_clear_object (&self->series_index);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERIES]);
}

/* A scope was selected or cleared, or the memory store changed: the index
 * of the scope's grouping is asked for at once. */
static void
selection_changed (TmScopeSeriesQuery *self)
{
  const TmScope *scope = tm_session_get_selected_scope (self->session);

  drop_series (self);
  if (scope != NULL)
    tm_scope_index_query_get_index (tm_scope_index_query_get_for_session (self->session), scope->grouping);
}

/* The index query built (or dropped) an index. */
static void
index_changed (TmScopeSeriesQuery *self)
{
  if (tm_session_get_selected_scope (self->session) != NULL)
    drop_series (self);
}

static void
tm_scope_series_query_dispose (GObject *object)
{
  TmScopeSeriesQuery *self = TM_SCOPE_SERIES_QUERY (object);

  g_clear_pointer (&self->series, g_bytes_unref);
  g_clear_object (&self->series_index);

  G_OBJECT_CLASS (tm_scope_series_query_parent_class)->dispose (object);
}

static void
tm_scope_series_query_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TmScopeSeriesQuery *self = TM_SCOPE_SERIES_QUERY (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_boxed (value, tm_scope_series_query_get_series (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_scope_series_query_class_init (TmScopeSeriesQueryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tm_scope_series_query_dispose;
  object_class->get_property = tm_scope_series_query_get_property;

  properties[PROP_SERIES] =
    g_param_spec_boxed ("series", NULL, NULL,
                        G_TYPE_BYTES,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_scope_series_query_init (TmScopeSeriesQuery *self)
{
}

static void
session_gone (gpointer data)
{
  TmScopeSeriesQuery *self = data;

  self->session = NULL;
  g_object_unref (self);
}

TmScopeSeriesQuery *
tm_scope_series_query_get_for_session (TmSession *session)
{
  static GQuark quark;
  TmScopeSeriesQuery *self;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("tm-scope-series-query");
  self = g_object_get_qdata (G_OBJECT (session), quark);
  if (self == NULL)
    {
      /* The index query first: it drops the old store's index on a new
       * memory store before this one asks for the new store's. */
      TmScopeIndexQuery *index = tm_scope_index_query_get_for_session (session);

      self = g_object_new (TM_TYPE_SCOPE_SERIES_QUERY, NULL);
      self->session = session;
      /* The session owns this query and the index query, so these
       * handlers go with them. */
      g_signal_connect_swapped (session, "notify::memory-store", G_CALLBACK (selection_changed), self);
      g_signal_connect_swapped (session, "notify::selected-scope", G_CALLBACK (selection_changed), self);
      g_signal_connect_object (index, "notify::index", G_CALLBACK (index_changed), self, G_CONNECT_SWAPPED);
      g_object_set_qdata_full (G_OBJECT (session), quark, self, session_gone);
      selection_changed (self);
    }
  return self;
}

GBytes *
tm_scope_series_query_get_series (TmScopeSeriesQuery *self)
{
  const TmScope *scope;
  TmScopeIndex *index;
  TmMemoryStore *store;
  gint64 *series;

  g_return_val_if_fail (TM_IS_SCOPE_SERIES_QUERY (self), NULL);

  if (self->session == NULL || (scope = tm_session_get_selected_scope (self->session)) == NULL ||
      (store = tm_session_get_memory_store (self->session)) == NULL)
    return NULL;
  index = tm_scope_index_query_get_index (tm_scope_index_query_get_for_session (self->session), scope->grouping);
  if (index == NULL || tm_scope_index_get_store (index) != store)
    return NULL;
  if (self->series != NULL && self->series_index == index)
    return self->series;

  g_clear_pointer (&self->series, g_bytes_unref);
  series = tm_scope_index_series (index, scope);
  self->series = g_bytes_new_take (series, (gsize) tm_memory_store_get_n_snapshots (store) * sizeof (gint64));
  g_set_object (&self->series_index, index);
  return self->series;
}
