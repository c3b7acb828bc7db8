/* tm-source.c — a mapped file and the guard that makes reading it safe
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tm-error.h"
#include "tm-source.h"

struct _TmSource
{
  gatomicrefcount  ref_count;
  char            *path;
  GMappedFile     *mapped;
  GBytes          *bytes;
  const guint8    *data;
  gsize            size;
  gint64           mtime_us;
  gint64           st_size;
};

/* The innermost guard of this thread, or NULL. */
typedef struct _Guard Guard;
struct _Guard
{
  sigjmp_buf     jmp;
  const guint8  *start;
  const guint8  *end;
  Guard         *outer;
};

static _Thread_local Guard *current_guard;
static struct sigaction previous_sigbus;

static void
sigbus_handler (int        signum,
                siginfo_t *info,
                void      *context)
{
  for (Guard *g = current_guard; g != NULL; g = g->outer)
    {
      const guint8 *addr = info != NULL ? info->si_addr : NULL;

      if (addr == NULL || (addr >= g->start && addr < g->end))
        {
          current_guard = g->outer;
          siglongjmp (g->jmp, 1);
        }
    }

  /* Not ours: let the default action (or whoever was there) have it. */
  sigaction (SIGBUS, &previous_sigbus, NULL);
  raise (SIGBUS);
}

static void
install_sigbus_handler (void)
{
  static gsize installed;

  if (g_once_init_enter (&installed))
    {
      struct sigaction sa;

      memset (&sa, 0, sizeof sa);
      sa.sa_sigaction = sigbus_handler;
      sa.sa_flags = SA_SIGINFO | SA_NODEFER;
      sigemptyset (&sa.sa_mask);
      sigaction (SIGBUS, &sa, &previous_sigbus);
      g_once_init_leave (&installed, 1);
    }
}

static void
stat_times (const struct stat *st,
            gint64            *mtime_us,
            gint64            *size)
{
  *mtime_us = (gint64) st->st_mtim.tv_sec * G_USEC_PER_SEC + st->st_mtim.tv_nsec / 1000;
  *size = (gint64) st->st_size;
}

TmSource *
tm_source_open (const char  *path,
                GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *display = NULL;
  struct stat st;
  TmSource *self;
  GMappedFile *mapped;

  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_basename (path);

  if (g_stat (path, &st) != 0)
    {
      int saved = errno;

      if (saved == EACCES || saved == EPERM)
        g_set_error (error, TM_ERROR, TM_ERROR_PERMISSION,
                     _("cannot be read: permission denied"));
      else
        g_set_error (error, TM_ERROR, TM_ERROR_READ,
                     _("cannot be read: %s"), g_strerror (saved));
      return NULL;
    }

  if (S_ISDIR (st.st_mode))
    {
      /* Opening a folder expands it first (tm-run): a folder that gets
       * here held no profile where a run or a log directory keeps them,
       * or is an entry of a run folder named like a profile. */
      g_autofree char *base = g_path_get_basename (path);

      if (g_str_has_suffix (base, ".xplane.pb") || g_str_has_suffix (base, ".json") ||
          g_str_has_suffix (base, ".json.gz") || g_str_has_suffix (base, ".pickle") ||
          g_str_has_suffix (base, ".pickle.gz"))
        {
          g_set_error (error, TM_ERROR, TM_ERROR_IS_DIRECTORY, _("is a directory, not a profile file"));
          return NULL;
        }
      g_set_error (error, TM_ERROR, TM_ERROR_IS_DIRECTORY,
                   _("no profile found in this folder: looked in it for *.xplane.pb files "
                     "(else *.memory_profile.json or *.memory_profile.json.gz) and, as a log directory, "
                     "in the newest run under its plugins/profile/ folder; open a log directory or one run folder"));
      return NULL;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_READ,
                   _("is not a regular file"));
      return NULL;
    }

  if (st.st_size == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_EMPTY, _("file is empty"));
      return NULL;
    }

  mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
          g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_PERM))
        g_set_error (error, TM_ERROR, TM_ERROR_PERMISSION,
                     _("cannot be read: permission denied"));
      else
        g_set_error (error, TM_ERROR, TM_ERROR_READ,
                     _("cannot be read: %s"), local_error->message);
      return NULL;
    }

  if (g_mapped_file_get_length (mapped) == 0)
    {
      g_mapped_file_unref (mapped);
      g_set_error (error, TM_ERROR, TM_ERROR_EMPTY, _("file is empty"));
      return NULL;
    }

  install_sigbus_handler ();

  self = g_new0 (TmSource, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->path = g_strdup (path);
  self->mapped = mapped;
  self->data = (const guint8 *) g_mapped_file_get_contents (mapped);
  self->size = g_mapped_file_get_length (mapped);
  stat_times (&st, &self->mtime_us, &self->st_size);

  return self;
}

TmSource *
tm_source_new_from_bytes (GBytes     *bytes,
                          const char *path)
{
  TmSource *self;

  g_return_val_if_fail (bytes != NULL, NULL);

  self = g_new0 (TmSource, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->path = g_strdup (path != NULL ? path : "");
  self->bytes = g_bytes_ref (bytes);
  self->data = g_bytes_get_data (bytes, &self->size);
  self->mtime_us = -1;

  return self;
}

TmSource *
tm_source_ref (TmSource *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tm_source_unref (TmSource *self)
{
  g_return_if_fail (self != NULL);

  if (g_atomic_ref_count_dec (&self->ref_count))
    {
      g_clear_pointer (&self->mapped, g_mapped_file_unref);
      g_clear_pointer (&self->bytes, g_bytes_unref);
      g_free (self->path);
      g_free (self);
    }
}

const guint8 *
tm_source_get_data (TmSource *self)
{
  return self->data;
}

gsize
tm_source_get_size (TmSource *self)
{
  return self->size;
}

const char *
tm_source_get_path (TmSource *self)
{
  return self->path;
}

gboolean
tm_source_run_guarded (TmSource       *self,
                       TmGuardedFunc   func,
                       gpointer        data,
                       GError        **error)
{
  Guard guard;
  gboolean ret;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);

  /* Memory that is not mapped from a file cannot raise SIGBUS. */
  if (self->mapped == NULL)
    return func (data, error);

  guard.start = self->data;
  guard.end = self->data + self->size;
  guard.outer = current_guard;

  /* No signal mask to save: the handler runs with SA_NODEFER, so SIGBUS is
   * never left blocked, and saving it would cost a system call per read. */
  if (sigsetjmp (guard.jmp, 0) != 0)
    {
      /* The handler already popped the guard. */
      g_clear_error (error);
      g_set_error (error, TM_ERROR, TM_ERROR_CHANGED,
                   _("changed while reading: the file was truncated by another program"));
      return FALSE;
    }

  current_guard = &guard;
  ret = func (data, error);
  current_guard = guard.outer;

  return ret;
}

gboolean
tm_source_check_unchanged (TmSource  *self,
                           GError   **error)
{
  struct stat st;
  gint64 mtime_us, size;

  if (self->mapped == NULL)
    return TRUE;

  if (g_stat (self->path, &st) != 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_CHANGED,
                   _("changed while reading: the file was removed or renamed"));
      return FALSE;
    }

  stat_times (&st, &mtime_us, &size);
  if (mtime_us != self->mtime_us || size != self->st_size)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_CHANGED,
                   _("changed while reading: the file was modified by another program"));
      return FALSE;
    }

  return TRUE;
}
