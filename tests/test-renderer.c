/* test-renderer.c — the windows draw with cairo where GL is software
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs under Xvfb, whose GL is Mesa's llvmpipe. GTK reads GSK_RENDERER
 * once per process, when it makes its first renderer, so each case runs
 * the application in a process of its own, with GSK_RENDERER set (or
 * not) before anything is drawn.
 */
#include "config.h"

#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <gsk/gl/gskglrenderer.h>

#include "tm-application.h"
#include "tm-fixture-writer.h"
#include "tm-renderer.h"
#include "tm-window.h"
#include "tm-gui-test-util.h"

static void
test_software_names (void)
{
  /* What Mesa and others report; the hardware ones that name LLVM must
   * not be taken for llvmpipe. */
  static const struct {
    const char *name;
    gboolean    software;
  } cases[] = {
    { "llvmpipe (LLVM 15.0.6, 256 bits)", TRUE },
    { "softpipe", TRUE },
    { "Software Rasterizer", TRUE },
    { "Mesa X11 swrast", TRUE },
    { "SWR (LLVM 12.0.0, 256 bits)", TRUE },
    { "zink Vulkan 1.3(llvmpipe (LLVM 15.0.6, 256 bits) (MESA_LLVMPIPE))", TRUE },
    { "zink (lavapipe)", TRUE },
    { "D3D12 (Microsoft Basic Render Driver)", TRUE },
    { "GDI Generic", TRUE },
    { "Apple Software Renderer", TRUE },
    { "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", FALSE },
    { "AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)", FALSE },
    { "NVIDIA GeForce RTX 3080/PCIe/SSE2", FALSE },
    { "virgl (Mesa Intel(R) UHD Graphics 620 (KBL GT2))", FALSE },
    { "D3D12 (NVIDIA GeForce RTX 3080)", FALSE },
    { "Apple M1", FALSE },
    { "SVGA3D; build: RELEASE;  LLVM;", FALSE },
    { "", FALSE },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].name);
      g_assert_cmpint (tm_renderer_is_software_gl (cases[i].name), ==, cases[i].software);
    }
  g_assert_false (tm_renderer_is_software_gl (NULL));
}

/* The display's GL_RENDERER, read here the way a GL user would, or NULL
 * when there is no GL. */
static char *
display_gl_renderer (void)
{
  g_autoptr(GdkGLContext) context = NULL;
  char *renderer;

  context = gdk_display_create_gl_context (gdk_display_get_default (), NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return NULL;
  gdk_gl_context_make_current (context);
  renderer = g_strdup ((const char *) glGetString (GL_RENDERER));
  gdk_gl_context_clear_current ();
  return renderer;
}

static gboolean
window_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* Starts the application as the program does (startup, then activate
 * with its window), and returns the GType of the renderers its first
 * window and a second one got. */
static void
run_application (GType *first_type,
                 GType *second_type)
{
  g_autoptr(TmApplication) app = tm_application_new ();
  g_autoptr(GError) error = NULL;
  GtkWindow *first, *second;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  /* The detection leaves no GL context current behind it. */
  g_assert_null (gdk_gl_context_get_current ());

  g_application_activate (G_APPLICATION (app));
  first = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (TM_IS_WINDOW (first));
  tm_test_iterate_until (window_mapped, first);
  *first_type = G_OBJECT_TYPE (gtk_native_get_renderer (GTK_NATIVE (first)));

  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  second = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_assert_true (second != first);
  tm_test_iterate_until (window_mapped, second);
  *second_type = G_OBJECT_TYPE (gtk_native_get_renderer (GTK_NATIVE (second)));

  tm_test_destroy_all_windows (GTK_APPLICATION (app));
}

/* In the test's own process: GSK_RENDERER as given (NULL: unset), then
 * the application; checks the renderer of its windows. */
static void
check_renderer (const char *gsk_renderer)
{
  g_autofree char *gl_renderer = NULL;
  GType first, second, expected;

  if (gsk_renderer != NULL)
    g_setenv ("GSK_RENDERER", gsk_renderer, TRUE);
  else
    g_unsetenv ("GSK_RENDERER");

  gl_renderer = display_gl_renderer ();
  if (gl_renderer == NULL)
    {
      g_test_skip ("this display has no GL");
      return;
    }
  g_test_message ("GL_RENDERER: %s", gl_renderer);

  run_application (&first, &second);
  g_test_message ("GSK_RENDERER=%s: %s, %s", gsk_renderer != NULL ? gsk_renderer : "(unset)",
                  g_type_name (first), g_type_name (second));

  if (gsk_renderer != NULL && g_ascii_strcasecmp (gsk_renderer, "gl") == 0)
    expected = GSK_TYPE_GL_RENDERER;        /* the user's choice, whatever the GL */
  else if (tm_renderer_is_software_gl (gl_renderer))
    expected = GSK_TYPE_CAIRO_RENDERER;     /* Xvfb */
  else
    expected = GSK_TYPE_GL_RENDERER;        /* GTK's default on hardware GL */

  g_assert_cmpstr (g_type_name (first), ==, g_type_name (expected));
  g_assert_cmpstr (g_type_name (second), ==, g_type_name (expected));
}

static void
test_unset (void)
{
  if (g_test_subprocess ())
    {
      check_renderer (NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_empty (void)
{
  if (g_test_subprocess ())
    {
      check_renderer ("");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_user_chose_gl (void)
{
  if (g_test_subprocess ())
    {
      check_renderer ("gl");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  data_home = tm_test_gui_init (&argc, &argv);

  g_test_add_func ("/renderer/software-names", test_software_names);
  g_test_add_func ("/renderer/gsk-renderer-unset", test_unset);
  g_test_add_func ("/renderer/gsk-renderer-empty", test_empty);
  g_test_add_func ("/renderer/gsk-renderer-gl", test_user_chose_gl);

  status = g_test_run ();

  tm_fixture_remove (data_home);
  return status;
}
