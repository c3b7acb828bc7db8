/* tm-input-picker.c — the one place that picks a file's reader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "tm-error.h"
#include "tm-gzip.h"
#include "tm-hlo.h"
#include "tm-input-picker-private.h"
#include "tm-pickle.h"
#include "tm-summaries-reader.h"
#include "tm-torch-snapshot.h"
#include "tm-torch-stores.h"
#include "tm-xprof-json.h"
#include "tm-xspace-reader-private.h"

/* How much of a file tm_input_picker_sniff_file() reads, and how much of a
 * gzip stream's start tm_input_picker_sniff() inflates. */
#define SNIFF_BYTES 65536

static gboolean
is_blank (guint8 c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The offset of the first byte that is not white space (after a UTF-8
 * byte order mark), or size. */
static gsize
first_byte (const guint8 *data,
            gsize         size)
{
  gsize i = 0;

  if (size >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf)
    i = 3;
  while (i < size && is_blank (data[i]))
    i++;
  return i;
}

/* Top-level members that only one of the two JSON formats has: the first
 * of them met in the first value decides. Others ("version", "memory_ids",
 * "num_hosts" are in both) do not. */
static const char * const summary_members[] = {
  "input", "host", "file", "error", "memory", "sparkline",
};
static const char * const xprof_members[] = {
  "memoryProfilePerAllocator", "memory_profile_per_allocator", "memoryIds", "numHosts",
  "hloModules", "hlo_modules",
};

static gboolean
member_decides (const guint8  *name,
                gsize          len,
                TmInputFormat *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (summary_members); i++)
    if (strlen (summary_members[i]) == len && memcmp (summary_members[i], name, len) == 0)
      {
        *format = TM_INPUT_FORMAT_SUMMARIES;
        return TRUE;
      }
  for (guint i = 0; i < G_N_ELEMENTS (xprof_members); i++)
    if (strlen (xprof_members[i]) == len && memcmp (xprof_members[i], name, len) == 0)
      {
        *format = TM_INPUT_FORMAT_XPROF_JSON;
        return TRUE;
      }
  return FALSE;
}

/* JSON from data[i] == '{': XProf's memory-profile JSON is one object;
 * summaries are one object per line. The first value's top-level member
 * names decide when one of them belongs to one format only; else a second
 * value after the first means JSON Lines. The walk only counts brackets
 * outside strings (no recursion, no tree), so any depth is safe; a first
 * value the bytes do not finish is left to the JSON reader, which says
 * where it ends. */
static TmInputFormat
sniff_json (const guint8 *data,
            gsize         size,
            gsize         i)
{
  guint64 depth = 0;
  gboolean expect_name = FALSE;
  TmInputFormat format;

  for (; i < size; i++)
    {
      guint8 c = data[i];

      if (c == '"')
        {
          gsize start = i + 1, j = start;

          while (j < size && data[j] != '"')
            j += data[j] == '\\' ? 2 : 1;
          if (j >= size)
            return TM_INPUT_FORMAT_XPROF_JSON;
          if (depth == 1 && expect_name && member_decides (data + start, j - start, &format))
            return format;
          expect_name = FALSE;
          i = j;
          continue;
        }
      if (c == '{' || c == '[')
        {
          depth++;
          expect_name = c == '{' && depth == 1;
        }
      else if (c == '}' || c == ']')
        {
          if (--depth == 0)
            break;
        }
      else if (c == ',' && depth == 1)
        expect_name = TRUE;
    }
  if (i >= size)
    return TM_INPUT_FORMAT_XPROF_JSON;

  for (i++; i < size; i++)
    if (!is_blank (data[i]))
      return TM_INPUT_FORMAT_SUMMARIES;
  return TM_INPUT_FORMAT_XPROF_JSON;
}

/* A protocol 0 or 1 pickle that starts with GLOBAL: "c", a module name,
 * a line break, a name, a line break. Never a snapshot, but a pickle, to
 * be refused as one (by the pickle reader, which names the opcode) rather
 * than read as a protobuf: no XSpace starts with 'c' (field 12, a group). */
static gboolean
starts_with_global (const guint8 *data,
                    gsize         size)
{
  guint lines = 0;

  if (size < 4 || data[0] != 'c')
    return FALSE;
  for (gsize i = 1; i < size && i < 256; i++)
    {
      if (data[i] == '\n')
        {
          if (++lines == 2)
            return TRUE;
        }
      else if (!g_ascii_isalnum (data[i]) && data[i] != '_' && data[i] != '.')
        return FALSE;
    }
  return FALSE;
}

/* Uncompressed bytes, the start of a file of file_size bytes: a pickle by
 * its magic bytes (a PyTorch snapshot), JSON of one kind or the other, an
 * HloProto by its structure, else XSpace. */
static TmInputFormat
sniff_start (const guint8 *data,
             gsize         size,
             guint64       file_size)
{
  gsize i = first_byte (data, size);

  if (tm_pickle_sniff (data, size) || starts_with_global (data, size))
    return TM_INPUT_FORMAT_TORCH_SNAPSHOT;
  if (i < size && data[i] == '{')
    return sniff_json (data, size, i);
  if (tm_hlo_sniff (data, size, file_size))
    return TM_INPUT_FORMAT_HLO_PROTO;
  return TM_INPUT_FORMAT_XSPACE;
}

static TmInputFormat
sniff_plain (const guint8 *data,
             gsize         size)
{
  return sniff_start (data, size, size);
}

TmInputFormat
tm_input_picker_sniff (const guint8 *data,
                       gsize         size)
{
  g_autofree guint8 *start = NULL;
  gsize n;

  g_return_val_if_fail (data != NULL || size == 0, TM_INPUT_FORMAT_XSPACE);

  if (!tm_gzip_sniff (data, size))
    return sniff_plain (data, size);

  /* What the stream's start inflates to; an error or the end of the bytes
   * only ends it early (the full read reports them). */
  start = g_malloc (SNIFF_BYTES);
  n = tm_gzip_inflate_start (data, size, start, SNIFF_BYTES);

  /* Inside gzip only JSON and pickles of protocol 2 to 5 are read;
   * anything else is the JSON path's error. */
  if (tm_pickle_sniff (start, n))
    return TM_INPUT_FORMAT_TORCH_SNAPSHOT;
  if (sniff_plain (start, n) == TM_INPUT_FORMAT_SUMMARIES)
    return TM_INPUT_FORMAT_SUMMARIES;
  return TM_INPUT_FORMAT_XPROF_JSON;
}

typedef struct
{
  const guint8  *data;
  gsize          size;
  TmInputFormat  format;
} SniffJob;

static gboolean
sniff_job (gpointer   user_data,
           GError   **error)
{
  SniffJob *job = user_data;

  job->format = tm_input_picker_sniff (job->data, job->size);
  return TRUE;
}

gboolean
tm_input_picker_sniff_source (TmSource      *source,
                              TmInputFormat *format,
                              GError       **error)
{
  SniffJob job = { 0 };

  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  job.data = tm_source_get_data (source);
  job.size = tm_source_get_size (source);
  if (!tm_source_run_guarded (source, sniff_job, &job, error))
    return FALSE;
  *format = job.format;
  return TRUE;
}

TmInputFormat
tm_input_picker_sniff_file (GFile        *file,
                            GCancellable *cancellable)
{
  g_autofree char *path = NULL;
  g_autofree guint8 *start = NULL;
  struct stat st;
  gsize n = 0;
  int fd;

  g_return_val_if_fail (G_IS_FILE (file), TM_INPUT_FORMAT_XSPACE);

  /* Opened without blocking, and read only when it is a regular file: a
   * FIFO or a device is never waited for (opening then fails with its own
   * message). */
  path = g_file_get_path (file);
  if (path == NULL || g_cancellable_is_cancelled (cancellable))
    return TM_INPUT_FORMAT_XSPACE;
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    return TM_INPUT_FORMAT_XSPACE;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return TM_INPUT_FORMAT_XSPACE;
    }
  start = g_malloc (SNIFF_BYTES);
  while (n < SNIFF_BYTES)
    {
      gssize got = read (fd, start + n, SNIFF_BYTES - n);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      n += (gsize) got;
    }
  close (fd);
  if (!tm_gzip_sniff (start, n))
    return sniff_start (start, n, (guint64) st.st_size);
  return tm_input_picker_sniff (start, n);
}

/* ------------------------------------------------------------------ */
/* Gzip                                                                 */

typedef struct
{
  const guint8  *data;
  gsize          size;
  GBytes        *plain;
} GunzipJob;

static gboolean
gunzip_job (gpointer   user_data,
            GError   **error)
{
  GunzipJob *job = user_data;

  job->plain = tm_gzip_inflate (job->data, job->size, TM_GZIP_JSON, NULL, error);
  return job->plain != NULL;
}

/* ------------------------------------------------------------------ */
/* The readers                                                          */

typedef gboolean (*ReadFunc) (TmSource                  *source,
                              const TmXSpaceReadOptions *options,
                              TmInput                   *input,
                              TmProgressFunc             progress,
                              gpointer                   progress_data,
                              GCancellable              *cancellable,
                              GError                   **error);

static gboolean
read_xspace (TmSource                  *source,
             const TmXSpaceReadOptions *options,
             TmInput                   *input,
             TmProgressFunc             progress,
             gpointer                   progress_data,
             GCancellable              *cancellable,
             GError                   **error)
{
  static const TmXSpaceReadOptions defaults = { TM_XSPACE_READ_PARALLEL_MIN_BYTES, FALSE };
  TmXSpaceResult result;

  if (!tm_xspace_read_with_options (source, options != NULL ? options : &defaults, &result,
                                    progress, progress_data, cancellable, error))
    return FALSE;

  g_ptr_array_unref (input->stores);
  input->stores = g_steal_pointer (&result.stores);
  g_array_unref (input->hlo_modules);
  input->hlo_modules = g_steal_pointer (&result.hlo_modules);
  input->hlo_entries = g_steal_pointer (&result.hlo_entries);
  input->has_memory_trace = result.has_host_plane;
  input->has_clock_origin = result.has_clock_origin;
  input->clock_origin_ns = result.clock_origin_ns;
  tm_xspace_result_clear (&result);
  return TRUE;
}

typedef struct
{
  const guint8  *data;
  gsize          size;
  TmInput       *input;
  GCancellable  *cancellable;
} JsonJob;

static gboolean
xprof_json_job (gpointer   user_data,
                GError   **error)
{
  JsonJob *job = user_data;
  g_autoptr(GPtrArray) stores = NULL;
  g_autoptr(GArray) hlo_modules = NULL;

  if (!tm_xprof_json_read (job->data, job->size, &stores, &hlo_modules, job->cancellable, error))
    return FALSE;
  g_ptr_array_unref (job->input->stores);
  job->input->stores = g_steal_pointer (&stores);
  g_array_unref (job->input->hlo_modules);
  job->input->hlo_modules = g_steal_pointer (&hlo_modules);
  return TRUE;
}

/* A reader of text in memory, run under the source's guard, with its
 * progress at the start and the end (it has none in between). */
static gboolean
read_guarded (TmSource        *source,
              TmGuardedFunc    func,
              TmInput         *input,
              TmProgressFunc   progress,
              gpointer         progress_data,
              GCancellable    *cancellable,
              GError         **error)
{
  JsonJob job = { tm_source_get_data (source), tm_source_get_size (source), input, cancellable };

  if (progress != NULL)
    progress (0, job.size, progress_data);
  if (!tm_source_run_guarded (source, func, &job, error))
    return FALSE;
  if (progress != NULL)
    progress (job.size, job.size, progress_data);
  return TRUE;
}

static gboolean
read_xprof_json (TmSource                  *source,
                 const TmXSpaceReadOptions *options,
                 TmInput                   *input,
                 TmProgressFunc             progress,
                 gpointer                   progress_data,
                 GCancellable              *cancellable,
                 GError                   **error)
{
  return read_guarded (source, xprof_json_job, input, progress, progress_data, cancellable, error);
}

static gboolean
summaries_job (gpointer   user_data,
               GError   **error)
{
  JsonJob *job = user_data;

  job->input->hosts = tm_summaries_read ((const char *) job->data, job->size, job->input->problems, error);
  return job->input->hosts != NULL;
}

static gboolean
read_summaries (TmSource                  *source,
                const TmXSpaceReadOptions *options,
                TmInput                   *input,
                TmProgressFunc             progress,
                gpointer                   progress_data,
                GCancellable              *cancellable,
                GError                   **error)
{
  return read_guarded (source, summaries_job, input, progress, progress_data, cancellable, error);
}

/* A snapshot pickle, plain or gzip: the snapshot reader inflates a gzip
 * file itself, within its own limit for pickles (docs/formats.md, section
 * 6), and reads under the source's guard. */
static gboolean
read_torch_snapshot (TmSource                  *source,
                     const TmXSpaceReadOptions *options,
                     TmInput                   *input,
                     TmProgressFunc             progress,
                     gpointer                   progress_data,
                     GCancellable              *cancellable,
                     GError                   **error)
{
  g_autoptr(TmTorchSnapshot) snapshot = NULL;
  gsize size = tm_source_get_size (source);

  if (progress != NULL)
    progress (0, size, progress_data);
  snapshot = tm_torch_snapshot_read (source, cancellable, error);
  if (snapshot == NULL)
    return FALSE;
  g_ptr_array_unref (input->stores);
  input->stores = tm_torch_snapshot_build_stores (snapshot);
  input->segments = tm_torch_snapshot_build_segments (snapshot);
  if (progress != NULL)
    progress (size, size, progress_data);
  return TRUE;
}

/* A sidecar given by itself: its module, nothing decoded (that is done
 * on first use, docs/buffer-assignment.md). */
static gboolean
read_hlo_proto (TmSource                  *source,
                const TmXSpaceReadOptions *options,
                TmInput                   *input,
                TmProgressFunc             progress,
                gpointer                   progress_data,
                GCancellable              *cancellable,
                GError                   **error)
{
  TmHloEntry entry;

  input->hlo_entries = tm_hlo_entries_new ();
  tm_hlo_sidecar_entry (source, &entry);
  g_array_append_val (input->hlo_entries, entry);
  input->has_memory_trace = FALSE;
  if (progress != NULL)
    progress (tm_source_get_size (source), tm_source_get_size (source), progress_data);
  return TRUE;
}

/* In the order of TmInputFormat. */
static const ReadFunc readers[TM_INPUT_N_FORMATS] = {
  read_xspace,
  read_xprof_json,
  read_summaries,
  read_torch_snapshot,
  read_hlo_proto,
};

gboolean
tm_input_picker_read_with_options (TmSource                  *source,
                                   const TmXSpaceReadOptions *options,
                                   TmInput                   *input,
                                   TmProgressFunc             progress,
                                   gpointer                   progress_data,
                                   GCancellable              *cancellable,
                                   GError                   **error)
{
  g_autoptr(TmSource) plain = NULL;
  g_autoptr(GBytes) bytes = NULL;
  TmInputFormat format;

  g_return_val_if_fail (source != NULL, FALSE);
  g_return_val_if_fail (input != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  memset (input, 0, sizeof *input);

  if (!tm_input_picker_sniff_source (source, &format, error))
    return FALSE;

  /* JSON inside gzip is inflated here; a snapshot's reader inflates its
   * pickle itself. */
  if (format != TM_INPUT_FORMAT_TORCH_SNAPSHOT &&
      tm_gzip_sniff (tm_source_get_data (source), tm_source_get_size (source)))
    {
      GunzipJob job = { tm_source_get_data (source), tm_source_get_size (source), NULL };
      gsize at;

      if (!tm_source_run_guarded (source, gunzip_job, &job, error))
        {
          g_clear_pointer (&job.plain, g_bytes_unref);
          return FALSE;
        }
      bytes = job.plain;
      plain = tm_source_new_from_bytes (bytes, tm_source_get_path (source));
      source = plain;
      at = first_byte (tm_source_get_data (source), tm_source_get_size (source));
      if (at >= tm_source_get_size (source) || tm_source_get_data (source)[at] != '{')
        {
          g_set_error (error, TM_ERROR, TM_ERROR_NOT_PROTOBUF,
                       _("not a profile: the compressed file does not hold a memory-profile JSON"));
          return FALSE;
        }
      if (!tm_input_picker_sniff_source (source, &format, error))
        return FALSE;
    }

  tm_input_init (input, format);
  if (plain != NULL)
    input->inflated = g_bytes_ref (bytes);
  if (!readers[format] (source, options, input, progress, progress_data, cancellable, error))
    {
      tm_input_clear (input);
      return FALSE;
    }
  return TRUE;
}

gboolean
tm_input_picker_read (TmSource        *source,
                      TmInput         *input,
                      TmProgressFunc   progress,
                      gpointer         progress_data,
                      GCancellable    *cancellable,
                      GError         **error)
{
  return tm_input_picker_read_with_options (source, NULL, input, progress, progress_data, cancellable, error);
}
