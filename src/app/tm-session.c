/* tm-session.c — what a window shows: one profile, one memory id, one moment
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-session.h"
#include "tm-static-selection.h"

struct _TmSession
{
  GObject        parent_instance;

  TmProfile     *profile;
  TmMemoryStore *memory_store;
  TmViewport    *viewport;
  gint64         selected_time;
  guint          has_selected_time : 1;

  TmScope       *selected_scope;
  guint          selected_allocation;  /* index in the memory id's allocations, or TM_ALLOCATIONS_NONE */

  /* Comparing: the baseline and the alignment (tm-comparison-query
   * makes the comparison from them). */
  TmProfile     *baseline_profile;
  TmMemoryStore *baseline;
  TmCompareAlignment alignment;
  /* The run of several hosts the window came from (tm-run-loader), if any. */
  TmRunLoader   *run;
  TmStaticSelection *static_selection;  /* the Memory Viewer's module (tm-static-selection) */
};

G_DEFINE_FINAL_TYPE (TmSession, tm_session, G_TYPE_OBJECT)


G_DEFINE_ENUM_TYPE (TmCompareAlignment, tm_compare_alignment,
  G_DEFINE_ENUM_VALUE (TM_COMPARE_ALIGN_START, "start"),
  G_DEFINE_ENUM_VALUE (TM_COMPARE_ALIGN_PEAK, "peak"),
  G_DEFINE_ENUM_VALUE (TM_COMPARE_ALIGN_FIRST_STEP, "first-step"))


enum {
  PROP_0,
  PROP_PROFILE,
  PROP_MEMORY_STORE,
  PROP_VIEWPORT,
  PROP_HAS_SELECTED_TIME,
  PROP_SELECTED_TIME,
  PROP_SELECTED_SCOPE,
  PROP_SELECTED_ALLOCATION,
  PROP_BASELINE,
  PROP_ALIGNMENT,
  PROP_RUN,
  PROP_STATIC_SELECTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  OPEN_HOST,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The viewport's limits: the memory id's first to last snapshot, widened to
 * the HLO modules so that every module can be reached. */
static void
update_limits (TmSession *self)
{
  GArray *modules = self->profile != NULL ? tm_profile_get_hlo_modules (self->profile) : NULL;
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
  /* The baseline on the same axis (docs/compare.md). */
  if (self->baseline != NULL && tm_memory_store_get_n_snapshots (self->baseline) > 0)
    {
      const TmSummary *summary = tm_memory_store_get_summary (self->baseline);
      gint64 shift = tm_session_get_baseline_shift (self);

      start = any ? MIN (start, summary->first_time_ps + shift) : summary->first_time_ps + shift;
      end = any ? MAX (end, summary->last_time_ps + shift) : summary->last_time_ps + shift;
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
  g_clear_object (&self->baseline);
  g_clear_object (&self->baseline_profile);
  g_clear_object (&self->memory_store);
  g_clear_object (&self->profile);
  g_clear_object (&self->run);
  g_clear_pointer (&self->static_selection, tm_static_selection_free);

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

    case PROP_SELECTED_ALLOCATION:
      g_value_set_uint (value, self->selected_allocation);
      break;

    case PROP_BASELINE:
      g_value_set_object (value, self->baseline);
      break;

    case PROP_ALIGNMENT:
      g_value_set_enum (value, self->alignment);
      break;

    case PROP_RUN:
      g_value_set_object (value, self->run);
      break;

    case PROP_STATIC_SELECTION:
      g_value_set_boxed (value, self->static_selection);
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

  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         TM_TYPE_PROFILE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MEMORY_STORE] =
    g_param_spec_object ("memory-store", NULL, NULL,
                         TM_TYPE_MEMORY_STORE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
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
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_ALLOCATION] =
    g_param_spec_uint ("selected-allocation", NULL, NULL,
                       0, G_MAXUINT, TM_ALLOCATIONS_NONE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASELINE] =
    g_param_spec_object ("baseline", NULL, NULL,
                         TM_TYPE_MEMORY_STORE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ALIGNMENT] =
    g_param_spec_enum ("alignment", NULL, NULL,
                       TM_TYPE_COMPARE_ALIGNMENT, TM_COMPARE_ALIGN_START,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUN] =
    g_param_spec_object ("run", NULL, NULL,
                         TM_TYPE_RUN_LOADER,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATIC_SELECTION] =
    g_param_spec_boxed ("static-selection", NULL, NULL,
                        TM_TYPE_STATIC_SELECTION,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A view asks for one host of the run and one of its memory ids (NULL:
   * the busiest); the window opens it. */
  signals[OPEN_HOST] =
    g_signal_new ("open-host", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
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
  tm_session_set_static_selection (self, NULL);
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

TmViewport *
tm_session_get_viewport (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->viewport;
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
  if (scope != NULL)
    self->selected_scope = tm_scope_copy (scope);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SCOPE]);
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
  g_return_if_fail (TM_IS_SESSION (self));

  if (self->selected_allocation == index)
    return;

  self->selected_allocation = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ALLOCATION]);
}

/* ------------------------------------------------------------------ */
/* Comparing                                                            */

void
tm_session_set_baseline (TmSession     *self,
                         TmProfile     *profile,
                         TmMemoryStore *store)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (profile == NULL || TM_IS_PROFILE (profile));
  g_return_if_fail ((profile == NULL) == (store == NULL));
  g_return_if_fail (store == NULL || tm_profile_lookup_analysis (profile, store) != NULL);

  if (self->baseline == store && self->baseline_profile == profile)
    return;

  g_set_object (&self->baseline_profile, profile);
  g_set_object (&self->baseline, store);
  update_limits (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
}

TmMemoryStore *
tm_session_get_baseline (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->baseline;
}

TmProfile *
tm_session_get_baseline_profile (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->baseline_profile;
}

TmCompareAlignment
tm_session_get_alignment (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), TM_COMPARE_ALIGN_START);

  return self->alignment;
}

void
tm_session_set_alignment (TmSession          *self,
                          TmCompareAlignment  alignment)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (alignment < TM_COMPARE_N_ALIGNMENTS);

  if (self->alignment == alignment)
    return;

  self->alignment = alignment;
  if (self->baseline != NULL)
    update_limits (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALIGNMENT]);
}

gint64
tm_session_get_baseline_shift (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), 0);

  if (self->baseline == NULL || self->memory_store == NULL)
    return 0;
  return tm_compare_anchor_of (self->memory_store, self->alignment) -
         tm_compare_anchor_of (self->baseline, self->alignment);
}

TmRunLoader *
tm_session_get_run (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->run;
}

void
tm_session_set_run (TmSession   *self,
                    TmRunLoader *run)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (run == NULL || TM_IS_RUN_LOADER (run));

  if (g_set_object (&self->run, run))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUN]);
}

void
tm_session_open_host (TmSession  *self,
                      guint       host,
                      const char *memory_id)
{
  g_return_if_fail (TM_IS_SESSION (self));
  g_return_if_fail (self->run != NULL && host < tm_run_loader_get_n_hosts (self->run));

  g_signal_emit (self, signals[OPEN_HOST], 0, host, memory_id);
}

const TmStaticSelection *
tm_session_get_static_selection (TmSession *self)
{
  g_return_val_if_fail (TM_IS_SESSION (self), NULL);

  return self->static_selection;
}

void
tm_session_set_static_selection (TmSession               *self,
                                 const TmStaticSelection *selection)
{
  g_return_if_fail (TM_IS_SESSION (self));

  if (tm_static_selection_equal (self->static_selection, selection))
    return;
  g_clear_pointer (&self->static_selection, tm_static_selection_free);
  self->static_selection = selection != NULL ? tm_static_selection_copy (selection) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATIC_SELECTION]);
}
