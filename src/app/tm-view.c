/* tm-view.c — the base of every view: a session and its signal group, once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-view.h"

typedef struct
{
  TmSession    *session;
  GSignalGroup *session_signals;
  GtkWidget    *first_focus;   /* a descendant, or NULL */
} TmViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TmView, tm_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
tm_view_dispose (GObject *object)
{
  TmView *self = TM_VIEW (object);
  TmViewPrivate *priv = tm_view_get_instance_private (self);
  GtkWidget *child;

  priv->first_focus = NULL;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  if (priv->session_signals != NULL)
    g_signal_group_set_target (priv->session_signals, NULL);
  g_clear_object (&priv->session_signals);
  g_clear_object (&priv->session);

  G_OBJECT_CLASS (tm_view_parent_class)->dispose (object);
}

static void
tm_view_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  TmView *self = TM_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, tm_view_get_session (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_view_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  TmView *self = TM_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      tm_view_set_session (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Whether widget, and every widget from it up to view, is shown (a
 * GtkStack leaves its other pages visible, not child-visible). */
static gboolean
shown_within (GtkWidget *widget,
              GtkWidget *view)
{
  for (; widget != NULL && widget != view; widget = gtk_widget_get_parent (widget))
    if (!gtk_widget_get_visible (widget) || !gtk_widget_get_child_visible (widget))
      return FALSE;
  return widget == view;
}

/* The first widget under widget (in child order) that is shown within
 * view and takes the focus and is not text to type in, focused; FALSE if
 * none. */
static gboolean
focus_first_not_text (GtkWidget *widget,
                      GtkWidget *view)
{
  if (GTK_IS_EDITABLE (widget) || !gtk_widget_get_visible (widget) || !gtk_widget_get_child_visible (widget) ||
      !gtk_widget_is_sensitive (widget))
    return FALSE;
  if (widget != view && gtk_widget_get_focusable (widget) && gtk_widget_grab_focus (widget))
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (focus_first_not_text (child, view))
      return TRUE;
  return FALSE;
}

/* Focus coming in from elsewhere going forward (Tab, or a GtkStack
 * showing the view's page while the focus was on the page before) lands
 * on the widget the view named, or while that one cannot take it (an
 * empty list, a list not made yet) on the first that is not text to type
 * in: a search entry would take the window's zoom keys. */
static gboolean
tm_view_focus (GtkWidget        *widget,
               GtkDirectionType  direction)
{
  TmViewPrivate *priv = tm_view_get_instance_private (TM_VIEW (widget));
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  if (priv->first_focus != NULL && direction == GTK_DIR_TAB_FORWARD &&
      (focus == NULL || (focus != widget && !gtk_widget_is_ancestor (focus, widget))))
    {
      if (shown_within (priv->first_focus, widget) &&
          (gtk_widget_child_focus (priv->first_focus, direction) || gtk_widget_grab_focus (priv->first_focus)))
        return TRUE;
      if (focus_first_not_text (widget, widget))
        return TRUE;
    }
  return GTK_WIDGET_CLASS (tm_view_parent_class)->focus (widget, direction);
}

static void
tm_view_class_init (TmViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tm_view_dispose;
  object_class->get_property = tm_view_get_property;
  object_class->set_property = tm_view_set_property;
  widget_class->focus = tm_view_focus;

  /**
   * TmView:session:
   *
   * The session the view shows (NULL: nothing).
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL,
                         TM_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_view_init (TmView *self)
{
  TmViewPrivate *priv = tm_view_get_instance_private (self);

  priv->session_signals = g_signal_group_new (TM_TYPE_SESSION);
}

void
tm_view_set_first_focus (TmView    *self,
                         GtkWidget *widget)
{
  TmViewPrivate *priv;

  g_return_if_fail (TM_IS_VIEW (self));
  g_return_if_fail (widget == NULL || gtk_widget_is_ancestor (widget, GTK_WIDGET (self)));

  priv = tm_view_get_instance_private (self);
  priv->first_focus = widget;
}

TmSession *
tm_view_get_session (TmView *self)
{
  TmViewPrivate *priv;

  g_return_val_if_fail (TM_IS_VIEW (self), NULL);

  priv = tm_view_get_instance_private (self);
  return priv->session;
}

void
tm_view_set_session (TmView    *self,
                     TmSession *session)
{
  TmViewPrivate *priv;
  g_autoptr(TmSession) old = NULL;

  g_return_if_fail (TM_IS_VIEW (self));
  g_return_if_fail (session == NULL || TM_IS_SESSION (session));

  priv = tm_view_get_instance_private (self);
  if (priv->session == session)
    return;

  old = g_steal_pointer (&priv->session);
  if (session != NULL)
    priv->session = g_object_ref (session);
  g_signal_group_set_target (priv->session_signals, session);
  if (TM_VIEW_GET_CLASS (self)->session_changed != NULL)
    TM_VIEW_GET_CLASS (self)->session_changed (self, old);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

GSignalGroup *
tm_view_get_session_signals (TmView *self)
{
  TmViewPrivate *priv;

  g_return_val_if_fail (TM_IS_VIEW (self), NULL);

  priv = tm_view_get_instance_private (self);
  return priv->session_signals;
}
