/* tm-comparison-query.c — a session's comparison, made on first use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-comparison-query.h"

struct _TmComparisonQuery
{
  GObject        parent_instance;

  TmSession     *session;          /* unowned: the session owns the query */

  /* The comparison, and the two stores it was made from. */
  TmCompare     *comparison;
  TmMemoryStore *comparison_store;
  TmMemoryStore *comparison_baseline;

  /* The baseline's tree, and the baseline and time it was made for. */
  TmScopeTree   *tree;
  TmMemoryStore *tree_baseline;
  gint64         tree_time;        /* G_MININT64: at the peak */
};

G_DEFINE_FINAL_TYPE (TmComparisonQuery, tm_comparison_query, G_TYPE_OBJECT)

static void
tm_comparison_query_dispose (GObject *object)
{
  TmComparisonQuery *self = TM_COMPARISON_QUERY (object);

  g_clear_object (&self->comparison);
  g_clear_object (&self->comparison_store);
  g_clear_object (&self->comparison_baseline);
  g_clear_object (&self->tree);
  g_clear_object (&self->tree_baseline);

  G_OBJECT_CLASS (tm_comparison_query_parent_class)->dispose (object);
}

static void
tm_comparison_query_class_init (TmComparisonQueryClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tm_comparison_query_dispose;
}

static void
tm_comparison_query_init (TmComparisonQuery *self)
{
}

TmComparisonQuery *
tm_comparison_query_get_for_session (TmSession *session)
{
  static GQuark quark;
  TmComparisonQuery *self;

  g_return_val_if_fail (TM_IS_SESSION (session), NULL);

  if (quark == 0)
    quark = g_quark_from_static_string ("tm-comparison-query");
  self = g_object_get_qdata (G_OBJECT (session), quark);
  if (self == NULL)
    {
      self = g_object_new (TM_TYPE_COMPARISON_QUERY, NULL);
      self->session = session;
      g_object_set_qdata_full (G_OBJECT (session), quark, self, g_object_unref);
    }
  return self;
}

TmCompare *
tm_comparison_query_get_comparison (TmComparisonQuery *self)
{
  TmMemoryStore *store, *baseline;
  TmProfile *profile, *baseline_profile;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TM_IS_COMPARISON_QUERY (self), NULL);

  store = tm_session_get_memory_store (self->session);
  baseline = tm_session_get_baseline (self->session);
  if (store == NULL || baseline == NULL)
    return NULL;
  if (store == self->comparison_store && baseline == self->comparison_baseline)
    return self->comparison;

  g_set_object (&self->comparison_store, store);
  g_set_object (&self->comparison_baseline, baseline);
  g_clear_object (&self->comparison);
  profile = tm_session_get_profile (self->session);
  baseline_profile = tm_session_get_baseline_profile (self->session);
  self->comparison = tm_compare_new (tm_profile_lookup_analysis (baseline_profile, baseline),
                                     tm_profile_peek_allocations (baseline_profile, baseline),
                                     tm_session_get_analysis (self->session),
                                     tm_profile_peek_allocations (profile, store),
                                     &error);
  if (self->comparison == NULL)
    g_debug ("comparison: %s", error->message);
  return self->comparison;
}

TmScopeTree *
tm_comparison_query_get_baseline_scope_tree (TmComparisonQuery *self,
                                             TmScopeGrouping    grouping)
{
  TmAnalysis *analysis;
  TmMemoryStore *baseline;
  gint64 t;

  g_return_val_if_fail (TM_IS_COMPARISON_QUERY (self), NULL);

  baseline = tm_session_get_baseline (self->session);
  if (baseline == NULL)
    return NULL;
  analysis = tm_profile_lookup_analysis (tm_session_get_baseline_profile (self->session), baseline);

  t = tm_session_get_has_selected_time (self->session)
        ? tm_session_get_selected_time (self->session) - tm_session_get_baseline_shift (self->session)
        : G_MININT64;
  if (self->tree != NULL && self->tree_baseline == baseline && self->tree_time == t &&
      tm_scope_tree_get_grouping (self->tree) == grouping)
    return self->tree;

  g_clear_object (&self->tree);
  g_set_object (&self->tree_baseline, baseline);
  self->tree = tm_scope_tree_new_at (analysis, t == G_MININT64, t, grouping);
  self->tree_time = t;
  return self->tree;
}
