/* tm-renderer.c — software GL: the windows draw with cairo instead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where GTK's GL runs on a software rasteriser (Xvfb, a virtual machine
 * without 3D, a remote desktop, a broken driver), GTK 4.8 still takes its
 * GL renderer, and that costs the window about 85 MiB of memory and
 * CPU on the main thread and the rasteriser's threads, which the loader
 * needs, for pictures that cairo draws as well (docs/ui.md, "How the
 * window draws"). The user's GSK_RENDERER always wins.
 */
#include "config.h"

#include <string.h>

#include <epoxy/gl.h>

#include "tm-renderer.h"

gboolean
tm_renderer_is_software_gl (const char *gl_renderer)
{
  /* Lower-case pieces of the GL_RENDERER strings of software rasterisers:
   * "llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Software Rasterizer"
   * (Mesa's old swrast), "SWR (LLVM 12.0.0, 256 bits)", "zink (...
   * lavapipe ...)", "D3D12 (Microsoft Basic Render Driver)" (WARP under
   * WSL), "GDI Generic", "Apple Software Renderer". Hardware drivers built
   * with LLVM also name it ("AMD Radeon ... (navi23, LLVM 15.0.6, DRM
   * 3.49)"), so "LLVM" alone says nothing. */
  static const char *const pieces[] = {
    "llvmpipe",
    "softpipe",
    "software rasterizer",
    "swrast",
    "lavapipe",
    "microsoft basic render driver",
    "gdi generic",
    "software renderer",
  };
  g_autofree char *lower = NULL;

  if (gl_renderer == NULL)
    return FALSE;

  lower = g_ascii_strdown (gl_renderer, -1);
  if (g_str_has_prefix (lower, "swr "))
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (pieces); i++)
    if (strstr (lower, pieces[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* The GL_RENDERER string of a GL context of display, made the way GTK's
 * GL renderer makes its own (the same API, EGL or GLX, and version), or
 * NULL with error set when display has no GL. The context is released
 * before returning; GDK keeps the display-wide context it makes for the
 * first one, which with llvmpipe leaves the window's peak within 0.2 MiB
 * of GSK_RENDERER=cairo's. Takes 5–11 ms with llvmpipe. */
static char *
gl_renderer_string (GdkDisplay  *display,
                    GError     **error)
{
  g_autoptr(GdkGLContext) context = NULL;
  const char *renderer;
  char *copy;

  context = gdk_display_create_gl_context (display, error);
  if (context == NULL || !gdk_gl_context_realize (context, error))
    return NULL;

  gdk_gl_context_make_current (context);
  renderer = (const char *) glGetString (GL_RENDERER);
  copy = g_strdup (renderer);
  gdk_gl_context_clear_current ();

  if (copy == NULL)
    g_set_error_literal (error, GDK_GL_ERROR, GDK_GL_ERROR_NOT_AVAILABLE,
                         "the GL context gave no GL_RENDERER string");
  return copy;
}

gboolean
tm_renderer_choose (GdkDisplay *display)
{
  const char *chosen = g_getenv ("GSK_RENDERER");
  g_autofree char *gl_renderer = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;
  double ms;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), FALSE);

  if (chosen != NULL && chosen[0] != '\0')
    {
      g_debug ("renderer: GSK_RENDERER=%s is set: GTK uses it", chosen);
      return FALSE;
    }

  start = g_get_monotonic_time ();
  gl_renderer = gl_renderer_string (display, &error);
  ms = (g_get_monotonic_time () - start) / 1000.0;

  /* Without GL, GTK falls back to cairo by itself. */
  if (gl_renderer == NULL)
    {
      g_debug ("renderer: no GL (%s; %.1f ms): GTK chooses", error->message, ms);
      return FALSE;
    }

  if (!tm_renderer_is_software_gl (gl_renderer))
    {
      g_debug ("renderer: GL is “%s” (%.1f ms): GTK chooses", gl_renderer, ms);
      return FALSE;
    }

  /* GTK reads this data of the display, before GSK_RENDERER, each time it
   * makes a window's renderer (its inspector forces a renderer the same
   * way). Unlike setting GSK_RENDERER, it needs no change to the
   * environment of a process whose threads are running (the D-Bus worker
   * is, by now), and the programs this one launches do not inherit it. */
  g_object_set_data (G_OBJECT (display), "gsk-renderer", (gpointer) "cairo");
  g_debug ("renderer: GL is “%s”, a software rasteriser (%.1f ms): cairo "
           "(GSK_RENDERER=gl keeps GL)", gl_renderer, ms);
  return TRUE;
}
