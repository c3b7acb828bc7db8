/* tm-static-selection.c — which module of the compiler's plan is shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-static-selection.h"

G_DEFINE_BOXED_TYPE (TmStaticSelection, tm_static_selection, tm_static_selection_copy, tm_static_selection_free)

TmStaticSelection *
tm_static_selection_new (const char *module,
                         gint64      memory_space,
                         const char *op)
{
  TmStaticSelection *self = g_new0 (TmStaticSelection, 1);

  self->module = g_strdup (module);
  self->memory_space = memory_space;
  self->op = g_strdup (op);
  return self;
}

TmStaticSelection *
tm_static_selection_copy (const TmStaticSelection *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return tm_static_selection_new (self->module, self->memory_space, self->op);
}

void
tm_static_selection_free (TmStaticSelection *self)
{
  if (self == NULL)
    return;
  g_free (self->module);
  g_free (self->op);
  g_free (self);
}

gboolean
tm_static_selection_equal (const TmStaticSelection *a,
                           const TmStaticSelection *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strcmp0 (a->module, b->module) == 0 && a->memory_space == b->memory_space &&
         g_strcmp0 (a->op, b->op) == 0;
}

gboolean
tm_static_selection_profile_has_modules (TmProfile *profile)
{
  return profile != NULL &&
         (tm_profile_get_format (profile) == TM_INPUT_FORMAT_HLO_PROTO || tm_profile_has_hlo_entries (profile) ||
          tm_profile_get_hlo_modules (profile)->len > 0);
}

gboolean
tm_static_selection_can_show_op (TmSession  *session,
                                 const char *op)
{
  return session != NULL && op != NULL && tm_static_selection_profile_has_modules (tm_session_get_profile (session));
}

void
tm_static_selection_show_module (TmSession  *session,
                                 const char *module,
                                 gint64      memory_space)
{
  const TmStaticSelection *now;
  g_autoptr(TmStaticSelection) next = NULL;

  g_return_if_fail (TM_IS_SESSION (session));

  now = tm_session_get_static_selection (session);
  next = tm_static_selection_new (module, memory_space, now != NULL ? now->op : NULL);
  tm_session_set_static_selection (session, next);
}

void
tm_static_selection_show_op (GtkWidget  *widget,
                             TmSession  *session,
                             const char *op)
{
  const TmStaticSelection *now;
  g_autoptr(TmStaticSelection) next = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (TM_IS_SESSION (session));

  now = tm_session_get_static_selection (session);
  next = tm_static_selection_new (now != NULL ? now->module : NULL, now != NULL ? now->memory_space : 0, op);
  tm_session_set_static_selection (session, next);
  gtk_widget_activate_action (widget, "win.show-page", "s", "memory-viewer");
}
