/* tm-output.c — a file replaced only when complete, or a stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The bytes go through TmFdStream, a GOutputStream over a file
 * descriptor of our own, so a failed write keeps its errno (ENOSPC,
 * EIO, ...) for the message, and a test can make it fail where it wants
 * (tm-output-private.h). What the outputs guarantee is in tm-output.h and
 * docs/formats.md, "How outputs are written".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tm-output.h"
#include "tm-output-private.h"

/* ------------------------------------------------------------------ */
/* TmFdStream                                                          */

#define TM_TYPE_FD_STREAM (tm_fd_stream_get_type ())
G_DECLARE_FINAL_TYPE (TmFdStream, tm_fd_stream, TM, FD_STREAM, GOutputStream)

struct _TmFdStream
{
  GOutputStream  parent_instance;

  int            fd;
  goffset        written;
  goffset        fail_after;   /* -1: never */
  int            fail_errno;
};

G_DEFINE_FINAL_TYPE (TmFdStream, tm_fd_stream, G_TYPE_OUTPUT_STREAM)

static void
set_errno_error (GError **error,
                 int      saved_errno)
{
  g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (saved_errno), g_strerror (saved_errno));
}

static gssize
tm_fd_stream_write (GOutputStream  *stream,
                    const void     *buffer,
                    gsize           count,
                    GCancellable   *cancellable,
                    GError        **error)
{
  TmFdStream *self = TM_FD_STREAM (stream);
  gssize n;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return -1;

  if (self->fail_after >= 0 && self->written + (goffset) count > self->fail_after)
    {
      if (self->written >= self->fail_after)
        {
          set_errno_error (error, self->fail_errno);
          return -1;
        }
      count = (gsize) (self->fail_after - self->written);
    }

  do
    n = write (self->fd, buffer, MIN (count, (gsize) G_MAXSSIZE));
  while (n < 0 && errno == EINTR);

  if (n < 0)
    {
      set_errno_error (error, errno);
      return -1;
    }
  self->written += n;
  return n;
}

static gboolean
tm_fd_stream_close (GOutputStream  *stream,
                    GCancellable   *cancellable,
                    GError        **error)
{
  /* The descriptor belongs to the TmOutput, which closes it. */
  return TRUE;
}

static void
tm_fd_stream_class_init (TmFdStreamClass *klass)
{
  GOutputStreamClass *stream_class = G_OUTPUT_STREAM_CLASS (klass);

  stream_class->write_fn = tm_fd_stream_write;
  stream_class->close_fn = tm_fd_stream_close;
}

static void
tm_fd_stream_init (TmFdStream *self)
{
  self->fd = -1;
  self->fail_after = -1;
}

static GOutputStream *
tm_fd_stream_new (int fd)
{
  TmFdStream *self = g_object_new (TM_TYPE_FD_STREAM, NULL);

  self->fd = fd;
  return G_OUTPUT_STREAM (self);
}

/* ------------------------------------------------------------------ */
/* TmOutput                                                            */

typedef enum
{
  KIND_FILE,     /* a temporary file beside target, renamed over it */
  KIND_STREAM,   /* written in place */
  KIND_GIO,      /* a location without a local path: g_file_replace */
} Kind;

struct _TmOutput
{
  Kind           kind;
  char          *display;   /* the path as given, for people */
  char          *target;    /* KIND_FILE: the file replaced (symbolic links followed) */
  char          *temp;      /* KIND_FILE: the temporary file, until renamed or removed */
  int            fd;        /* KIND_FILE, KIND_STREAM; -1: none */
  gboolean       close_fd;  /* KIND_STREAM: FALSE for standard output itself */
  GFile         *file;      /* KIND_GIO */
  gboolean       existed;   /* KIND_GIO */
  GOutputStream *stream;
  gboolean       finished;
};

/* "No space left on device" → "no space left on device"; a word that
 * starts with two capitals (an acronym) stays. */
static char *
lower_first (const char *message)
{
  char *copy = g_strdup (message != NULL ? message : "");

  if (g_ascii_isupper (copy[0]) && !g_ascii_isupper (copy[1]))
    copy[0] = g_ascii_tolower (copy[0]);
  return copy;
}

/* Replaces *error by one that names the path, keeping its domain and code. */
static void
reword (TmOutput  *self,
        GError   **error)
{
  g_autofree char *reason = NULL;
  GError *reworded;

  if (error == NULL || *error == NULL)
    return;
  reason = lower_first ((*error)->message);
  if (self->kind == KIND_STREAM)
    /* Translators: the first %s is why, as "no space left on device"; the second a path */
    reworded = g_error_new ((*error)->domain, (*error)->code, _("%s: could not write to %s"), reason, self->display);
  else
    /* Translators: the first %s is why, as "no space left on device"; the second a path */
    reworded = g_error_new ((*error)->domain, (*error)->code, _("%s: nothing was written to %s"), reason, self->display);
  g_error_free (*error);
  *error = reworded;
}

static TmOutput *
output_new (Kind        kind,
            const char *display)
{
  TmOutput *self = g_new0 (TmOutput, 1);

  self->kind = kind;
  self->display = g_strdup (display);
  self->fd = -1;
  return self;
}

static void abort_output (TmOutput *self);

static TmOutput *
fail_open (TmOutput  *self,
           int        saved_errno,
           GError   **error)
{
  GError *cause = NULL;

  set_errno_error (&cause, saved_errno);
  reword (self, &cause);
  g_propagate_error (error, cause);
  abort_output (self);
  self->finished = TRUE;
  tm_output_free (self);
  return NULL;
}

static gboolean
same_file_as_stdout (const struct stat *st)
{
  struct stat out;

  return fstat (STDOUT_FILENO, &out) == 0 && out.st_dev == st->st_dev && out.st_ino == st->st_ino;
}

TmOutput *
tm_output_open (const char  *path,
                GError     **error)
{
  g_autofree char *display = NULL;
  g_autofree char *dir = NULL;
  TmOutput *self;
  struct stat st;
  gboolean exists;
  int saved_errno;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_str_equal (path, "-"))
    {
      self = output_new (KIND_STREAM, _("standard output"));
      self->fd = STDOUT_FILENO;
      self->stream = tm_fd_stream_new (self->fd);
      return self;
    }

  exists = stat (path, &st) == 0;
  saved_errno = errno;
  display = g_filename_display_name (path);
  if (!exists && saved_errno != ENOENT)
    return fail_open (output_new (KIND_FILE, display), saved_errno, error);

  if (exists && S_ISDIR (st.st_mode))
    return fail_open (output_new (KIND_FILE, display), EISDIR, error);

  /* Not a regular file: a pipe, a terminal, a device. Written in place. */
  if (exists && !S_ISREG (st.st_mode))
    {
      self = output_new (KIND_STREAM, display);
      if (same_file_as_stdout (&st))
        self->fd = dup (STDOUT_FILENO);
      else
        self->fd = g_open (path, O_WRONLY | O_NOCTTY | O_CLOEXEC, 0);
      if (self->fd < 0)
        return fail_open (self, errno, error);
      self->close_fd = TRUE;
      self->stream = tm_fd_stream_new (self->fd);
      return self;
    }

  self = output_new (KIND_FILE, display);
  /* Through a symbolic link, the file it points to is replaced. */
  if (exists && g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      char *resolved = realpath (path, NULL);

      if (resolved == NULL)
        return fail_open (self, errno, error);
      self->target = g_strdup (resolved);
      free (resolved);
    }
  else
    self->target = g_strdup (path);

  dir = g_path_get_dirname (self->target);
  self->temp = g_build_filename (dir, ".tidemark-XXXXXX", NULL);
  /* 0666 less the umask, as a new file gets. */
  self->fd = g_mkstemp_full (self->temp, O_WRONLY | O_CLOEXEC, 0666);
  if (self->fd < 0)
    {
      saved_errno = errno;
      g_clear_pointer (&self->temp, g_free);
      return fail_open (self, saved_errno, error);
    }
  if (exists)
    {
      /* The replacement keeps the old file's permissions and, where we
       * may, its owner. Neither is worth failing for: a file system that
       * refuses (some FUSE ones, a document portal) gets what it gives,
       * and a file that is not ours to give away becomes ours. */
      if (fchmod (self->fd, st.st_mode & 07777) != 0)
        g_debug ("cannot keep the permissions of %s: %s", self->display, g_strerror (errno));
      if (fchown (self->fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)
        g_debug ("cannot keep the owner of %s: %s", self->display, g_strerror (errno));
    }
  self->stream = tm_fd_stream_new (self->fd);
  return self;
}

TmOutput *
tm_output_open_file (GFile   *file,
                     GError **error)
{
  g_autofree char *path = NULL;
  g_autofree char *display = NULL;
  g_autoptr(GFileOutputStream) stream = NULL;
  TmOutput *self;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  path = g_file_get_path (file);
  if (path != NULL)
    return tm_output_open (path, error);

  display = g_file_get_parse_name (file);
  self = output_new (KIND_GIO, display);
  self->file = g_object_ref (file);
  self->existed = g_file_query_exists (file, NULL);
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    {
      reword (self, error);
      self->finished = TRUE;
      tm_output_free (self);
      return NULL;
    }
  self->stream = G_OUTPUT_STREAM (g_steal_pointer (&stream));
  return self;
}

GOutputStream *
tm_output_get_stream (TmOutput *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->stream;
}

gboolean
tm_output_is_stream (TmOutput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->kind == KIND_STREAM;
}

gboolean
tm_output_is_terminal (TmOutput *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->kind == KIND_STREAM && isatty (self->fd);
}

const char *
tm_output_get_display_name (TmOutput *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->display;
}

static void
abort_output (TmOutput *self)
{
  if (self->kind == KIND_GIO && self->stream != NULL)
    {
      /* Closing with a cancelled cancellable drops GIO's replacement. */
      g_autoptr(GCancellable) abandon = g_cancellable_new ();

      g_cancellable_cancel (abandon);
      g_output_stream_close (self->stream, abandon, NULL);
      if (!self->existed)
        g_file_delete (self->file, NULL, NULL);
    }
  if (self->fd >= 0 && (self->kind == KIND_FILE || self->close_fd))
    close (self->fd);
  self->fd = -1;
  if (self->temp != NULL)
    g_unlink (self->temp);
  g_clear_pointer (&self->temp, g_free);
}

static gboolean
commit_file (TmOutput  *self,
             GError   **error)
{
  g_autofree char *dir = NULL;
  int fd = self->fd;
  int dir_fd;

  self->fd = -1;
  if (fsync (fd) != 0)
    {
      set_errno_error (error, errno);
      close (fd);
      return FALSE;
    }
  if (close (fd) != 0)
    {
      set_errno_error (error, errno);
      return FALSE;
    }
  if (g_rename (self->temp, self->target) != 0)
    {
      set_errno_error (error, errno);
      return FALSE;
    }
  g_clear_pointer (&self->temp, g_free);

  /* The rename itself on disk; a folder that cannot be synced (some
   * FUSE file systems) does not undo it. */
  dir = g_path_get_dirname (self->target);
  dir_fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (dir_fd >= 0)
    {
      fsync (dir_fd);
      close (dir_fd);
    }
  return TRUE;
}

gboolean
tm_output_finish (TmOutput  *self,
                  gboolean   ok,
                  GError   **error)
{
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (!self->finished, FALSE);
  g_return_val_if_fail (ok || error == NULL || *error != NULL, FALSE);

  self->finished = TRUE;
  if (ok)
    {
      gboolean done = g_output_stream_close (self->stream, NULL, &local);

      if (done && self->kind == KIND_FILE)
        done = commit_file (self, &local);
      else if (done && self->kind == KIND_STREAM && self->close_fd)
        {
          done = close (self->fd) == 0;
          if (!done)
            set_errno_error (&local, errno);
          self->fd = -1;
        }
      if (done)
        return TRUE;
      abort_output (self);
      reword (self, &local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  abort_output (self);
  reword (self, error);
  return FALSE;
}

void
tm_output_free (TmOutput *self)
{
  if (self == NULL)
    return;
  if (!self->finished)
    abort_output (self);
  else if (self->fd >= 0 && (self->kind == KIND_FILE || self->close_fd))
    close (self->fd);
  g_clear_object (&self->stream);
  g_clear_object (&self->file);
  g_free (self->temp);
  g_free (self->target);
  g_free (self->display);
  g_free (self);
}

void
tm_output_inject_failure (TmOutput *self,
                          goffset   after_bytes,
                          int       errno_value)
{
  TmFdStream *stream;

  g_return_if_fail (self != NULL);
  g_return_if_fail (TM_IS_FD_STREAM (self->stream));

  stream = TM_FD_STREAM (self->stream);
  stream->fail_after = stream->written + MAX (after_bytes, 0);
  stream->fail_errno = errno_value;
}
