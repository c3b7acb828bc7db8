/* tm-renderer.h — software GL: the windows draw with cairo instead
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Whether gl_renderer, an OpenGL GL_RENDERER string, names a software
 * rasteriser (Mesa's llvmpipe, softpipe, swrast and SWR; lavapipe under
 * zink; Windows' WARP and GDI; Apple's). NULL is not one. */
gboolean tm_renderer_is_software_gl (const char *gl_renderer);

/* Chooses how the windows of display draw, before the first one is
 * realized: when GSK_RENDERER is unset or empty and the GL that GTK would
 * use is a software rasteriser, GTK's cairo renderer; otherwise GTK's own
 * choice. Logs the choice and why (G_MESSAGES_DEBUG=Tidemark). Returns
 * whether it chose cairo. */
gboolean tm_renderer_choose      (GdkDisplay *display);

G_END_DECLS
