/* tm-portal.h — the folder to show for a file, also when it came through
 * the document portal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * In a sandbox (Flatpak), a file the user chose reaches the app under the
 * document portal's mount, $XDG_RUNTIME_DIR/doc/<id>/<name>. That folder
 * means nothing to the user. The portal (org.freedesktop.portal.Documents,
 * interface version 4 and later) tells where the document is on the host:
 * GetHostPaths. tm_portal_display_folder() shows that folder once the portal
 * has answered, and no folder before or when it cannot tell; never the
 * portal's own path. docs/ui.md, "The title", says what the title shows.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Called on the main thread when the portal has told where a document is. */
typedef void (*TmPortalNotify) (gpointer object);

gboolean    tm_portal_parse_document_path (const char  *path,
                                           const char  *runtime_dir,
                                           char       **doc_id,
                                           char       **below);
GHashTable *tm_portal_parse_host_paths    (GVariant    *reply);
char       *tm_portal_folder_for_display  (const char  *path,
                                           const char  *home);
char       *tm_portal_display_folder      (GFile       *file,
                                           TmPortalNotify notify,
                                           GObject     *object);
char       *tm_portal_display_path        (GFile       *file);
void        tm_portal_forget              (void);

G_END_DECLS
