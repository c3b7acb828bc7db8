/* tm-portal.c — the folder to show for a file, also when it came through
 * the document portal
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The document portal mounts what it exports at $XDG_RUNTIME_DIR/doc
 * (inside a Flatpak sandbox also reachable as /run/flatpak/doc):
 *
 *   doc/<id>/<name>                  the document <id>: a file or a folder
 *   doc/<id>/<name>/<below>          inside a folder document
 *   doc/by-app/<app-id>/<id>/...     the same, as one app sees it
 *
 * GetHostPaths (as ids) -> (a{say}) on org.freedesktop.portal.Documents,
 * /org/freedesktop/portal/documents, gives the host path of each
 * document's <name>; ids the portal does not know, or this app may not see,
 * are left out of the answer. Portals older than version 4 lack the method.
 *
 * Answers are kept per document id for the life of the process, on the main
 * thread only: an id the portal could not tell about is kept as "", so the
 * title shows no folder for it and the portal is not asked again.
 */
#include "config.h"

#include <string.h>

#include "tm-portal.h"

#define DOCUMENTS_NAME      "org.freedesktop.portal.Documents"
#define DOCUMENTS_PATH      "/org/freedesktop/portal/documents"
#define DOCUMENTS_INTERFACE "org.freedesktop.portal.Documents"
#define CALL_TIMEOUT_MS     5000

typedef struct
{
  TmPortalNotify notify;
  GWeakRef       object;
} Waiter;

static GHashTable *host_paths;   /* id -> host path, "" when unknown */
static GHashTable *waiting;      /* id -> GPtrArray of Waiter */

static void
waiter_free (Waiter *waiter)
{
  g_weak_ref_clear (&waiter->object);
  g_free (waiter);
}

/* The part of path after prefix and a slash, or NULL. */
static const char *
after_dir (const char *path,
           const char *prefix)
{
  size_t len;

  if (prefix == NULL || prefix[0] != '/')
    return NULL;
  len = strlen (prefix);
  while (len > 1 && prefix[len - 1] == '/')
    len--;
  if (strncmp (path, prefix, len) != 0 || path[len] != '/')
    return NULL;
  return path + len + 1;
}

/**
 * tm_portal_parse_document_path:
 * @path: an absolute path
 * @runtime_dir: $XDG_RUNTIME_DIR
 * @doc_id: (out) (optional): the document id, or %NULL
 * @below: (out) (optional): the path inside a folder document ("" for the
 *   document itself), or %NULL
 *
 * Returns: whether @path is under the document portal's mount. @doc_id is
 * set only when @path names a document or something inside one; the mount's
 * own folders (doc/, doc/<id>/) have none.
 */
gboolean
tm_portal_parse_document_path (const char  *path,
                               const char  *runtime_dir,
                               char       **doc_id,
                               char       **below)
{
  g_autofree char *mount = runtime_dir ? g_build_filename (runtime_dir, "doc", NULL) : NULL;
  const char *rest;
  const char *slash;
  const char *name;

  if (doc_id != NULL)
    *doc_id = NULL;
  if (below != NULL)
    *below = NULL;
  if (path == NULL)
    return FALSE;

  if (mount != NULL && g_strcmp0 (path, mount) == 0)
    return TRUE;
  if (g_strcmp0 (path, "/run/flatpak/doc") == 0)
    return TRUE;
  rest = after_dir (path, mount);
  if (rest == NULL)
    rest = after_dir (path, "/run/flatpak/doc");
  if (rest == NULL)
    return FALSE;

  if (g_str_has_prefix (rest, "by-app/"))
    {
      slash = strchr (rest + strlen ("by-app/"), '/');
      if (slash == NULL)
        return TRUE;
      rest = slash + 1;
    }

  slash = strchr (rest, '/');
  if (slash == NULL || slash == rest)
    return TRUE;
  name = slash + 1;
  if (*name == '\0' || *name == '/')
    return TRUE;

  if (doc_id != NULL)
    *doc_id = g_strndup (rest, slash - rest);
  if (below != NULL)
    {
      const char *inside = strchr (name, '/');

      while (inside != NULL && *inside == '/')
        inside++;
      *below = g_strdup (inside != NULL ? inside : "");
    }
  return TRUE;
}

/**
 * tm_portal_parse_host_paths:
 * @reply: GetHostPaths' reply, of type (a{say})
 *
 * Returns: (transfer full): document id -> host path, for every entry that
 * names an absolute path; %NULL when @reply has another type.
 */
GHashTable *
tm_portal_parse_host_paths (GVariant *reply)
{
  g_autoptr(GVariant) map = NULL;
  GHashTable *paths;
  GVariantIter iter;
  const char *id;
  GVariant *value;

  if (reply == NULL || !g_variant_is_of_type (reply, G_VARIANT_TYPE ("(a{say})")))
    return NULL;

  paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  map = g_variant_get_child_value (reply, 0);
  g_variant_iter_init (&iter, map);
  while (g_variant_iter_next (&iter, "{&s@ay}", &id, &value))
    {
      gsize len = 0;
      const char *bytes = g_variant_get_fixed_array (value, &len, 1);

      /* A bytestring ends with its NUL; one without is taken whole. */
      while (len > 0 && bytes[len - 1] == '\0')
        len--;
      if (len > 0 && bytes[0] == '/' && memchr (bytes, '\0', len) == NULL)
        g_hash_table_insert (paths, g_strdup (id), g_strndup (bytes, len));
      g_variant_unref (value);
    }
  return paths;
}

/**
 * tm_portal_folder_for_display:
 * @path: an absolute path of a folder
 * @home: the home folder
 *
 * Returns: (transfer full): "~" for @home, "~/…" below it, else @path as the
 * user reads it.
 */
char *
tm_portal_folder_for_display (const char *path,
                              const char *home)
{
  g_autoptr(GFile) folder = g_file_new_for_path (path);
  g_autoptr(GFile) home_folder = g_file_new_for_path (home);
  g_autofree char *relative = NULL;

  if (g_file_equal (folder, home_folder))
    return g_strdup ("~");
  if ((relative = g_file_get_relative_path (home_folder, folder)))
    return g_build_filename ("~", relative, NULL);
  return g_file_get_parse_name (folder);
}

static void
tables_ensure (void)
{
  if (host_paths == NULL)
    host_paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (waiting == NULL)
    waiting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) g_ptr_array_unref);
}

/* Keeps the answer for id (NULL: the portal cannot tell) and tells those
 * who wait for it. */
static void
resolved (const char *id,
          const char *path)
{
  g_autoptr(GPtrArray) waiters = NULL;
  g_autofree char *key = NULL;

  tables_ensure ();
  g_hash_table_insert (host_paths, g_strdup (id), g_strdup (path != NULL ? path : ""));
  if (!g_hash_table_steal_extended (waiting, id, (gpointer *) &key, (gpointer *) &waiters))
    return;

  g_debug ("Document %s is %s on the host", id, path != NULL ? path : "unknown");
  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      g_autoptr(GObject) object = g_weak_ref_get (&waiter->object);

      if (object != NULL)
        waiter->notify (object);
    }
}

static void
get_host_paths_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autofree char *id = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GHashTable) paths = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL)
    {
      g_debug ("The document portal cannot tell where %s is: %s", id, error->message);
      resolved (id, NULL);
      return;
    }
  paths = tm_portal_parse_host_paths (reply);
  resolved (id, paths != NULL ? g_hash_table_lookup (paths, id) : NULL);
}

static void
session_bus_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  char *id = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = g_bus_get_finish (result, &error);
  const char *ids[] = { id, NULL };

  if (bus == NULL)
    {
      g_debug ("No session bus to ask the document portal: %s", error->message);
      resolved (id, NULL);
      g_free (id);
      return;
    }

  g_dbus_connection_call (bus, DOCUMENTS_NAME, DOCUMENTS_PATH, DOCUMENTS_INTERFACE,
                          "GetHostPaths", g_variant_new ("(^as)", ids),
                          G_VARIANT_TYPE ("(a{say})"), G_DBUS_CALL_FLAGS_NONE,
                          CALL_TIMEOUT_MS, NULL, get_host_paths_cb, id);
}

/* Asks the portal once per id; notify is called (once per object) when it
 * has answered. */
static void
ask (const char     *id,
     TmPortalNotify  notify,
     GObject        *object)
{
  GPtrArray *waiters;
  gboolean asked;

  tables_ensure ();
  waiters = g_hash_table_lookup (waiting, id);
  asked = waiters != NULL;
  if (!asked)
    {
      waiters = g_ptr_array_new_with_free_func ((GDestroyNotify) waiter_free);
      g_hash_table_insert (waiting, g_strdup (id), waiters);
    }
  for (guint i = 0; notify != NULL && object != NULL && i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      g_autoptr(GObject) waiting_object = g_weak_ref_get (&waiter->object);

      if (waiter->notify == notify && waiting_object == object)
        return;
    }
  if (notify != NULL && object != NULL)
    {
      Waiter *waiter = g_new0 (Waiter, 1);

      waiter->notify = notify;
      g_weak_ref_init (&waiter->object, object);
      g_ptr_array_add (waiters, waiter);
    }
  if (!asked)
    g_bus_get (G_BUS_TYPE_SESSION, NULL, session_bus_cb, g_strdup (id));
}

/**
 * tm_portal_display_folder:
 * @file: a file or folder that was opened
 * @notify: (nullable): called with @object once the portal has told where
 *   @file is, when it had to be asked
 * @object: (nullable): weakly referenced; @notify is not called once it is
 *   finalized
 *
 * Main thread only.
 *
 * Returns: (transfer full) (nullable): the folder that holds @file, as the
 * title shows it ("~/runs"), or %NULL to show no folder: @file has none,
 * or it is in the document portal's mount and the portal has not told (or
 * cannot tell) where it is on the host.
 */
char *
tm_portal_display_folder (GFile          *file,
                          TmPortalNotify  notify,
                          GObject        *object)
{
  g_autofree char *path = NULL;
  g_autofree char *id = NULL;
  g_autofree char *below = NULL;
  g_autofree char *host = NULL;
  g_autofree char *parent = NULL;
  const char *document;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path == NULL || !tm_portal_parse_document_path (path, g_get_user_runtime_dir (), &id, &below))
    {
      g_autoptr(GFile) folder = g_file_get_parent (file);
      g_autofree char *folder_path = NULL;

      if (folder == NULL)
        return NULL;
      if ((folder_path = g_file_get_path (folder)) == NULL)
        return g_file_get_parse_name (folder);
      return tm_portal_folder_for_display (folder_path, g_get_home_dir ());
    }

  if (id == NULL)
    return NULL;

  tables_ensure ();
  document = g_hash_table_lookup (host_paths, id);
  if (document == NULL)
    {
      ask (id, notify, object);
      return NULL;
    }
  if (*document == '\0')
    return NULL;

  host = *below != '\0' ? g_build_filename (document, below, NULL) : g_strdup (document);
  parent = g_path_get_dirname (host);
  return tm_portal_folder_for_display (parent, g_get_home_dir ());
}

/**
 * tm_portal_display_path:
 * @file: a file or folder that was opened
 *
 * For tooltips. Main thread only; does not ask the portal.
 *
 * Returns: (transfer full): "~/runs/host.xplane.pb" (the folder as
 * tm_portal_display_folder() shows it, and the name), or the name alone
 * when the folder is not known.
 */
char *
tm_portal_display_path (GFile *file)
{
  g_autofree char *folder = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  folder = tm_portal_display_folder (file, NULL, NULL);
  name = g_file_get_basename (file);
  if (name == NULL || g_strcmp0 (name, "/") == 0)
    return g_file_get_parse_name (file);
  if (folder == NULL)
    return g_steal_pointer (&name);
  return g_build_filename (folder, name, NULL);
}

/**
 * tm_portal_forget:
 *
 * Drops what the portal said; the next question asks it again. For tests.
 */
void
tm_portal_forget (void)
{
  g_clear_pointer (&host_paths, g_hash_table_unref);
  g_clear_pointer (&waiting, g_hash_table_unref);
}
