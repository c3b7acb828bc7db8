/* tm-session.c — what a window shows: one profile, one memory id, one moment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-session.h"

/* tm_session_zoom_to() leaves this share of the span free on each side. */
#define ZOOM_TO_MARGIN 0.04

struct _TmSession
{
  GObject        parent_instance;

  TmProfile     *profile;
  TmMemoryStore *memory_store;
  TmViewport    *viewport;
  gint64         selected_time;
  TmYScale       y_scale;
  TmSeriesFlags  hidden_series;
  guint          has_selected_time : 1;

  /* Scopes (tm-scopes): the selected one, and what is built on demand
   * for the memory store: the index of one grouping, the selected scope's
   * series. */
  TmScope       *selected_scope;
  TmScopeIndex  *scope_index;
  gint64        *scope_series;
  guint          selected_allocation;  /* index in the memory id's allocations, or TM_ALLOCATIONS_NONE */
};

G_DEFINE_FINAL_TYPE (TmSession, tm_session, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (TmYScale, tm_y_scale,
  G_DEFINE_ENUM_VALUE (TM_Y_SCALE_FIT, "fit"),
  G_DEFINE_ENUM_VALUE (TM_Y_SCALE_CAPACITY, "capacity"))

G_DEFINE_FLAGS_TYPE (TmSeriesFlags, tm_series_flags,
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_NONE, "none"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_STACK, "stack"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_HEAP, "heap"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_FREE, "free"),
  G_DEFINE_ENUM_VALUE (TM_SERIES_FLAG_FRAGMENTATION, "fragmentation"))

enum {
  PROP_0,
  PROP_PROFILE,
  PROP_MEMORY_STORE,
  PROP_VIEWPORT,
  PROP_HAS_SELECTED_TIME,
  PROP_SELECTED_TIME,
  PROP_SELECTED_SCOPE,
  PROP_SELECTED_ALLOCATION,
  PROP_Y_SCALE,
  PROP_HIDDEN_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The viewport's limits: the memory id's first to last snapshot, widened to
 * the HLO modules so that every module can be reached. */
static void
update_limits (TmSession *self)
{
  GArray *modules = tm_session_get_hlo_modules (self);
  gint64 start = 0, end = 1;
  gboolean any = FALSE;

  if (self->memory_store != NULL && tm_memory_store_get_n_snapshots (self->memory_store) > 0)
    {
      const TmSummary *summary = tm_memory_store_get_summary (self->memory_store);

      start = summary->first_time_ps;
      end = summary->last_time_ps;
      any = TRUE;
    }
  for (guint i = 0; modules != NULL && i < modules->len; i++)
    {
      const TmHloModule *m = &g_array_index (modules, TmHloModule, i);

      start = any ? MIN (start, m->start_ps) : m->start_ps;
      end = any ? MAX (end, m->end_ps) : m->end_ps;
      any = TRUE;
    }

  tm_viewport_set_limits (self->viewport, start, end);
  tm_viewport_reset (self->viewport);
}

static void
tm_session_dispose (GObject *object)
{
  TmSession *self = TM_SESSION (object);

  g_clear_pointer (&self->selected_scope, tm_scope_free);
  g_clear_pointer (&self->scope_series, g_free);
  g_clear_object (&self->scope_index);
  g_clear_object (&self->memory_store);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (tm_session_parent_class)->dispose (object);
}

static void
tm_session_finalize (GObject *object)
{
  TmSession *self = TM_SESSION (object);

  g_clear_object (&self->viewport);

  G_OBJECT_CLASS (tm_session_parent_class)->finalize (object);
}

static void
tm_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  TmSession *self = TM_SESSION (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_MEMORY_STORE:
      g_value_set_object (value, self->memory_store);
      break;

    case PROP_VIEWPORT:
      g_value_set_object (value, self->viewport);
      break;

    case PROP_HAS_SELECTED_TIME:
      g_value_set_boolean (value, self->has_selected_time);
      break;

    case PROP_SELECTED_TIME:
      g_value_set_int64 (value, self->selected_time);
      break;

    case PROP_SELECTED_SCOPE:
      g_value_set_boxed (value, self->selected_scope);
      break;

    case PROP_Y_SCALE:
      g_value_set_enum (value, self->y_scale);
      break;

    case PROP_HIDDEN_SERIES:
      g_value_set_flags (value, self->hidden_series);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_session_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  TmSession *self = TM_SESSION (object);

  switch (prop_id)
    {
    case PROP_PROFILE:
      tm_session_set_profile (self, g_value_get_object (value));
      break;

    case PROP_MEMORY_STORE:
      tm_session_set_memory_store (self, g_value_get_object (value));
      break;

    case PROP_SELECTED_SCOPE:
      tm_session_set_selected_scope (self, g_value_get_boxed (value));
      break;

    case PROP_Y_SCALE:
      tm_session_set_y_scale (self, g_value_get_enum (value));
      break;

    case PROP_HIDDEN_SERIES:
      tm_session_set_hidden_series (self, g_value_get_flags (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_session_class_init (TmSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tm_session_dispose;
  object_class->finalize = tm_session_finalize;
  object_class->get_property = tm_session_get_property;
  object_class->set_property = tm_session_set_property;

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         TM_TYPE_PROFILE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MEMORY_STORE] =
    g_param_spec_object ("memory-store", NULL, NULL,
                         TM_TYPE_MEMORY_STORE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VIEWPORT] =
    g_param_spec_object ("viewport", NULL, NULL,
                         TM_TYPE_VIEWPORT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_SELECTED_TIME] =
    g_param_spec_boolean ("has-selected-time", NULL, NULL,
                          FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_TIME] =
    g_param_spec_int64 ("selected-time", NULL, NULL,
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_SCOPE] =
    g_param_spec_boxed ("selected-scope", NULL, NULL,
                        TM_TYPE_SCOPE,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_ALLOCATION] =
    g_param_spec_uint ("selected-allocation", NULL, NULL,
                       0, G_MAXUINT, TM_ALLOCATIONS_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_HIDDEN_SERIES] =
    g_param_spec_flags ("hidden-series", NULL, NULL,
                        TM_TYPE_SERIES_FLAGS, TM_SERIES_FLAG_NONE,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_Y_SCALE] =
    g_param_spec_enum ("y-scale", NULL, NULL,
                       TM_TYPE_Y_SCALE, TM_Y_SCALE_FIT,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_session_init (TmSession *self)
{
  self->viewport = tm_viewport_new ();
  self->selected_allocation = TM_ALLOCATIONS_NONE;
}

TmSession *
tm_session_new (void)
{
  return g_object_new (TM_TYPE_SESSION, NULL);
}

TmProfile *
tm_session_get_profile (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->profile;
}

void
tm_session_set_profile (TmSession *self,
                        TmProfile *profile)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (profile == NULL || TM_IS_PROFILE (profile));

  if (self->profile == profile)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  tm_session_set_memory_store (self, NULL);
  g_set_object (&self->profile, profile);
  update_limits (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  g_object_thaw_notify (G_OBJECT (self));
}

TmMemoryStore *
tm_session_get_memory_store (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->memory_store;
}

void
tm_session_set_memory_store (TmSession     *self,
                             TmMemoryStore *store)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (store == NULL || TM_IS_MEMORY_STORE (store));
  g_return_if_fail (store == NULL ||
                    (self->profile != NULL && tm_profile_lookup_analysis (self->profile, store) != NULL));

  if (self->memory_store == store)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  tm_session_clear_selected_time (self);
  tm_session_set_selected_scope (self, NULL);
  g_clear_object (&self->scope_index);
  tm_session_select_allocation (self, TM_ALLOCATIONS_NONE);
  g_set_object (&self->memory_store, store);
  update_limits (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MEMORY_STORE]);
  g_object_thaw_notify (G_OBJECT (self));
}

TmAnalysis *
tm_session_get_analysis (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  if (self->profile == NULL || self->memory_store == NULL)
    return NULL;
  return tm_profile_lookup_analysis (self->profile, self->memory_store);
}

GArray *
tm_session_get_hlo_modules (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->profile != NULL ? tm_profile_get_hlo_modules (self->profile) : NULL;
}

TmViewport *
tm_session_get_viewport (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->viewport;
}

void
tm_session_zoom_to (TmSession *self,
                    gint64     start_ps,
                    gint64     end_ps)
{
  gint64 margin;

  g_return_if_fail (TM_IS_SESSION (self));

  if (end_ps < start_ps)
    {
      gint64 tmp = start_ps;

      start_ps = end_ps;
      end_ps = tmp;
    }
  /* In double: the span of two extreme int64 times does not fit in one. */
  margin = (gint64) (((double) end_ps - (double) start_ps) * ZOOM_TO_MARGIN);
  tm_viewport_set_range (self->viewport,
                         start_ps > G_MININT64 + margin ? start_ps - margin : G_MININT64,
                         end_ps < G_MAXINT64 - margin ? end_ps + margin : G_MAXINT64);
}

gboolean
tm_session_get_has_selected_time (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), FALSE);

  return self->has_selected_time;
}

gint64
tm_session_get_selected_time (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), 0);

  return self->selected_time;
}

void
tm_session_select_time (TmSession *self,
                        gint64     time_ps)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (self->has_selected_time && self->selected_time == time_ps)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (self->selected_time != time_ps)
    {
      self->selected_time = time_ps;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_TIME]);
    }
  if (!self->has_selected_time)
    {
      self->has_selected_time = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTED_TIME]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
tm_session_clear_selected_time (TmSession *self)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (!self->has_selected_time)
    return;

  self->has_selected_time = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTED_TIME]);
}

gint64
tm_session_get_shown_time (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), 0);

  if (self->has_selected_time)
    return self->selected_time;
  if (self->memory_store != NULL)
    return tm_memory_store_get_summary (self->memory_store)->peak_time_ps;
  return 0;
}

const TmScope *
tm_session_get_selected_scope (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->selected_scope;
}

void
tm_session_set_selected_scope (TmSession     *self,
                               const TmScope *scope)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (tm_scope_equal (self->selected_scope, scope))
    return;

  g_clear_pointer (&self->selected_scope, tm_scope_free);
  g_clear_pointer (&self->scope_series, g_free);
  if (scope != NULL)
    self->selected_scope = tm_scope_copy (scope);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SCOPE]);
}

TmScopeIndex *
tm_session_get_scope_index (TmSession       *self,
                            TmScopeGrouping  grouping)
{
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  if (self->memory_store == NULL)
    return NULL;
  if (self->scope_index != NULL && tm_scope_index_get_grouping (self->scope_index) == grouping)
    return self->scope_index;

  g_clear_object (&self->scope_index);
  self->scope_index = tm_scope_index_new (self->memory_store, grouping, NULL, &error);
  if (self->scope_index == NULL)
    g_debug ("scope index: %s", error->message);
  return self->scope_index;
}

const gint64 *
tm_session_get_selected_scope_series (TmSession *self)
{
  TmScopeIndex *index;

  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  if (self->selected_scope == NULL || self->memory_store == NULL)
    return NULL;
  if (self->scope_series != NULL)
    return self->scope_series;

  index = tm_session_get_scope_index (self, self->selected_scope->grouping);
  if (index != NULL)
    self->scope_series = tm_scope_index_series (index, self->selected_scope);
  return self->scope_series;
}

TmAllocations *
tm_session_get_allocations (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  if (self->profile == NULL || self->memory_store == NULL)
    return NULL;
  return tm_profile_lookup_allocations (self->profile, self->memory_store);
}

guint
tm_session_get_selected_allocation (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), TM_ALLOCATIONS_NONE);

  return self->selected_allocation;
}

void
tm_session_select_allocation (TmSession *self,
                              guint      index)
{
  TmAllocations *allocations;

  g_return_if_fail (TM_IS_SESSION (self));

  allocations = tm_session_get_allocations (self);
  if (allocations == NULL || index >= tm_allocations_get_n (allocations))
    index = TM_ALLOCATIONS_NONE;
  if (self->selected_allocation == index)
    return;

  self->selected_allocation = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ALLOCATION]);
}

TmYScale
tm_session_get_y_scale (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), TM_Y_SCALE_FIT);

  return self->y_scale;
}

void
tm_session_set_y_scale (TmSession *self,
                        TmYScale   y_scale)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (y_scale == TM_Y_SCALE_FIT || y_scale == TM_Y_SCALE_CAPACITY);

  if (self->y_scale == y_scale)
    return;

  self->y_scale = y_scale;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_Y_SCALE]);
}

TmSeriesFlags
tm_session_get_hidden_series (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), TM_SERIES_FLAG_NONE);

  return self->hidden_series;
}

void
tm_session_set_hidden_series (TmSession     *self,
                              TmSeriesFlags  hidden)
{
  g_return_if_fail (TM_IS_SESSION (self));

  hidden &= TM_SERIES_FLAG_STACK | TM_SERIES_FLAG_HEAP | TM_SERIES_FLAG_FREE | TM_SERIES_FLAG_FRAGMENTATION;
  if (self->hidden_series == hidden)
    return;

  self->hidden_series = hidden;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDDEN_SERIES]);
}

void
tm_session_toggle_series (TmSession     *self,
                          TmSeriesFlags  series)
{
  g_return_if_fail (TM_IS_SESSION (self));

  tm_session_set_hidden_series (self, self->hidden_series ^ series);
}
