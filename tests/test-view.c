/* test-view.c — TmView, the base of the views: the session and its signals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tm-gui-test-util.h"
#include "tm-view.h"

/* A view that counts what the base tells it. */
#define TM_TYPE_COUNTING_VIEW (tm_counting_view_get_type ())
G_DECLARE_FINAL_TYPE (TmCountingView, tm_counting_view, TM, COUNTING_VIEW, TmView)

struct _TmCountingView
{
  TmView     parent_instance;

  guint      n_changed;
  TmSession *last_old;     /* unowned, only compared */
  guint      n_time_notifies;
};

G_DEFINE_FINAL_TYPE (TmCountingView, tm_counting_view, TM_TYPE_VIEW)

static void
counting_session_changed (TmView    *view,
                          TmSession *old_session)
{
  TmCountingView *self = TM_COUNTING_VIEW (view);

  self->n_changed++;
  self->last_old = old_session;
}

static void
time_notified_cb (TmCountingView *self)
{
  self->n_time_notifies++;
}

static void
tm_counting_view_class_init (TmCountingViewClass *klass)
{
  TM_VIEW_CLASS (klass)->session_changed = counting_session_changed;
}

static void
tm_counting_view_init (TmCountingView *self)
{
  g_signal_group_connect_swapped (tm_view_get_session_signals (TM_VIEW (self)), "notify::has-selected-time",
                                  G_CALLBACK (time_notified_cb), self);
  gtk_widget_set_parent (gtk_label_new ("child"), GTK_WIDGET (self));
}

/* session_changed runs once per change with the session before; the
 * handlers follow the session shown and leave the one before; "session"
 * is a property; the base unparents the children left to it. */
static void
test_view_session (void)
{
  g_autoptr(TmSession) a = tm_session_new ();
  g_autoptr(TmSession) b = tm_session_new ();
  TmCountingView *view = g_object_ref_sink (g_object_new (TM_TYPE_COUNTING_VIEW, "session", a, NULL));
  g_autoptr(TmSession) got = NULL;
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));

  g_assert_true (tm_view_get_session (TM_VIEW (view)) == a);
  g_assert_cmpuint (view->n_changed, ==, 1);
  g_assert_null (view->last_old);

  tm_session_select_time (a, 5);
  g_assert_cmpuint (view->n_time_notifies, ==, 1);

  g_object_set (view, "session", b, NULL);
  g_assert_cmpuint (view->n_changed, ==, 2);
  g_assert_true (view->last_old == a);
  tm_session_clear_selected_time (a);
  g_assert_cmpuint (view->n_time_notifies, ==, 1);
  tm_session_select_time (b, 7);
  g_assert_cmpuint (view->n_time_notifies, ==, 2);

  /* The same session again changes nothing. */
  tm_view_set_session (TM_VIEW (view), b);
  g_assert_cmpuint (view->n_changed, ==, 2);
  g_object_get (view, "session", &got, NULL);
  g_assert_true (got == b);

  tm_view_set_session (TM_VIEW (view), NULL);
  g_assert_cmpuint (view->n_changed, ==, 3);
  tm_session_clear_selected_time (b);
  g_assert_cmpuint (view->n_time_notifies, ==, 2);

  g_object_add_weak_pointer (G_OBJECT (child), (gpointer *) &child);
  g_object_unref (view);
  g_assert_null (child);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/view/session", test_view_session);
  return g_test_run ();
}
