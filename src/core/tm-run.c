/* tm-run.c — what a path to open holds: one profile, or a run of hosts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tm-input-picker.h"
#include "tm-run.h"

static const char * const profile_suffixes[] = {
  ".xplane.pb",
  ".memory_profile.json.gz",
  ".memory_profile.json",
  ".pickle.gz",
  ".pickle",
};

void
tm_run_item_free (TmRunItem *item)
{
  if (item == NULL)
    return;

  g_clear_object (&item->file);
  g_clear_object (&item->run_directory);
  g_clear_pointer (&item->hosts, g_ptr_array_unref);
  g_free (item);
}

char *
tm_run_host_name (GFile *file)
{
  g_autofree char *raw = NULL;
  g_autofree char *basename = NULL;
  gsize len;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  raw = g_file_get_basename (file);
  basename = g_filename_display_name (raw);
  len = strlen (basename);

  for (guint i = 0; i < G_N_ELEMENTS (profile_suffixes); i++)
    {
      gsize suffix_len = strlen (profile_suffixes[i]);

      if (len > suffix_len && g_str_has_suffix (basename, profile_suffixes[i]))
        return g_strndup (basename, len - suffix_len);
    }

  return g_steal_pointer (&basename);
}

int
tm_run_compare_host_names (const char *a,
                           const char *b)
{
  g_autofree char *key_a = NULL;
  g_autofree char *key_b = NULL;
  int cmp;

  g_return_val_if_fail (a != NULL && b != NULL, 0);

  key_a = g_utf8_collate_key_for_filename (a, -1);
  key_b = g_utf8_collate_key_for_filename (b, -1);
  cmp = strcmp (key_a, key_b);

  return cmp != 0 ? cmp : strcmp (a, b);
}

static int
compare_host_files (gconstpointer a,
                    gconstpointer b)
{
  g_autofree char *name_a = tm_run_host_name (*(GFile **) a);
  g_autofree char *name_b = tm_run_host_name (*(GFile **) b);

  return tm_run_compare_host_names (name_a, name_b);
}

static gboolean
is_json_profile_name (const char *name)
{
  return g_str_has_suffix (name, ".memory_profile.json") ||
         g_str_has_suffix (name, ".memory_profile.json.gz");
}

/* The profiles of a run directory: its *.xplane.pb (one per host; its XProf
 * memory-profile JSON files when it has none; its PyTorch snapshots,
 * *.pickle and *.pickle.gz, one per rank, when it has neither), or, for a log directory,
 * those of the newest run in plugins/profile/. *run_directory is set to
 * the directory that holds them. */
static void
collect_run_directory (GFile         *dir,
                       GPtrArray     *out,
                       GFile        **run_directory,
                       guint          depth,
                       GCancellable  *cancellable)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) xspaces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) jsons = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) pickles = g_ptr_array_new_with_free_func (g_object_unref);
  GPtrArray *profiles;
  g_autofree char *newest_run = NULL;
  gboolean has_plugins = FALSE;

  enumerator = g_file_enumerate_children (dir,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE,
                                          G_FILE_QUERY_INFO_NONE, cancellable, NULL);
  if (enumerator == NULL)
    return;

  for (;;)
    {
      GFileInfo *info = NULL;
      const char *name;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, cancellable, NULL) || info == NULL)
        break;

      name = g_file_info_get_name (info);
      /* A folder named as a profile is a host that cannot be read: it is
       * listed, and loading it says so, as for a FIFO or an empty file. */
      if (g_file_info_get_file_type (info) == G_FILE_TYPE_DIRECTORY &&
          !g_str_has_suffix (name, ".xplane.pb") && !is_json_profile_name (name))
        {
          if (depth == 0 && g_strcmp0 (name, "plugins") == 0)
            has_plugins = TRUE;
          else if (depth == 2 && (newest_run == NULL || g_strcmp0 (name, newest_run) > 0))
            {
              g_free (newest_run);
              newest_run = g_strdup (name);
            }
        }
      else if (g_str_has_suffix (name, ".xplane.pb"))
        {
          g_ptr_array_add (xspaces, g_file_get_child (dir, name));
        }
      else if (is_json_profile_name (name))
        {
          g_ptr_array_add (jsons, g_file_get_child (dir, name));
        }
      else if (g_str_has_suffix (name, ".pickle") || g_str_has_suffix (name, ".pickle.gz"))
        {
          g_ptr_array_add (pickles, g_file_get_child (dir, name));
        }
    }

  profiles = xspaces->len > 0 ? xspaces : jsons->len > 0 ? jsons : pickles;
  if (profiles->len > 0)
    {
      g_ptr_array_sort (profiles, compare_host_files);
      for (guint i = 0; i < profiles->len; i++)
        g_ptr_array_add (out, g_object_ref (g_ptr_array_index (profiles, i)));
      g_set_object (run_directory, dir);
      return;
    }

  if (depth == 0 && has_plugins)
    {
      g_autoptr(GFile) profile_dir = g_file_resolve_relative_path (dir, "plugins/profile");

      collect_run_directory (profile_dir, out, run_directory, 2, cancellable);
    }
  else if (depth == 2 && newest_run != NULL)
    {
      g_autoptr(GFile) run = g_file_get_child (dir, newest_run);

      collect_run_directory (run, out, run_directory, 3, cancellable);
    }
}

static TmRunItem *
expand_one (GFile        *file,
            GCancellable *cancellable)
{
  TmRunItem *item = g_new0 (TmRunItem, 1);

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
    {
      g_autoptr(GPtrArray) profiles = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GFile) run_directory = NULL;

      collect_run_directory (file, profiles, &run_directory, 0, cancellable);
      if (profiles->len > 1)
        {
          item->run_directory = g_steal_pointer (&run_directory);
          item->hosts = g_steal_pointer (&profiles);
        }
      else if (profiles->len == 1)
        {
          item->file = g_object_ref (g_ptr_array_index (profiles, 0));
        }
    }

  /* A plain file, or a directory without profiles (the core then says
   * what is wrong with it). A file given by itself may hold gathered
   * summaries: its content says so, not its name. */
  if (item->file == NULL && item->hosts == NULL)
    {
      item->file = g_object_ref (file);
      item->summaries = tm_input_picker_sniff_file (file, cancellable) == TM_INPUT_FORMAT_SUMMARIES;
    }

  return item;
}

GPtrArray *
tm_run_expand (GFile        **files,
               guint          n_files,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(GPtrArray) out = NULL;

  g_return_val_if_fail (files != NULL || n_files == 0, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  out = g_ptr_array_new_full (n_files, (GDestroyNotify) tm_run_item_free);
  for (guint i = 0; i < n_files; i++)
    {
      g_return_val_if_fail (G_IS_FILE (files[i]), NULL);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_ptr_array_add (out, expand_one (files[i], cancellable));
    }

  /* Cancelled half-way: what was listed may be incomplete. */
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  return g_steal_pointer (&out);
}

static void
expand_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GPtrArray *files = task_data;
  GError *error = NULL;
  GPtrArray *items;

  items = tm_run_expand ((GFile **) files->pdata, files->len, cancellable, &error);
  if (items == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, items, (GDestroyNotify) g_ptr_array_unref);
}

void
tm_run_expand_async (GFile               **files,
                     guint                 n_files,
                     GCancellable         *cancellable,
                     GAsyncReadyCallback   callback,
                     gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  GPtrArray *copy;

  g_return_if_fail (files != NULL || n_files == 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  /* GFile is thread-safe; the worker holds its own references. */
  copy = g_ptr_array_new_full (n_files, g_object_unref);
  for (guint i = 0; i < n_files; i++)
    {
      g_return_if_fail (G_IS_FILE (files[i]));
      g_ptr_array_add (copy, g_object_ref (files[i]));
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tm_run_expand_async);
  g_task_set_name (task, "[tidemark] expand run");
  g_task_set_task_data (task, copy, (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, expand_thread);
}

GPtrArray *
tm_run_expand_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tm_run_expand_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
