/* tm-cli-torch.c — the command line on PyTorch memory snapshots
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "tm-cli-private.h"
#include "tm-cli-torch.h"
#include "tm-error.h"
#include "tm-format.h"
#include "tm-output.h"
#include "tm-source.h"
#include "tm-torch-export.h"
#include "tm-torch-snapshot.h"

static int
fail (const char   *path,
      const GError *error)
{
  g_autofree char *display = g_filename_display_name (path);

  g_printerr ("tidemark: %s: %s\n", display, error->message);
  return 1;
}

#define LABEL_WIDTH 26

static void
print_bytes (const char *label,
             gint64      bytes)
{
  g_autofree char *human = tm_format_bytes (bytes);
  g_autofree char *exact = tm_format_bytes_exact (bytes);
  g_autofree char *text = g_strdup_printf ("%s (%s)", human, exact);

  tm_cli_print_row (label, text, LABEL_WIDTH);
}

static void
print_count (const char *label,
             guint64     count)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, count);

  tm_cli_print_row (label, text, LABEL_WIDTH);
}

static void
print_summary (TmTorchSnapshot *snap,
               const char      *path)
{
  g_autofree char *display = g_filename_display_name (path);

  g_print (ngettext ("%s: PyTorch memory snapshot (pickle protocol %u), %u memory id\n",
                     "%s: PyTorch memory snapshot (pickle protocol %u), %u memory ids\n",
                     tm_torch_snapshot_get_n_devices (snap)),
           display, tm_torch_snapshot_get_protocol (snap), tm_torch_snapshot_get_n_devices (snap));
  for (guint i = 0; i < tm_torch_snapshot_get_n_devices (snap); i++)
    {
      const TmTorchFigures *f = tm_torch_snapshot_get_figures (snap, i);

      g_print ("\n");
      g_print (_("Memory id %s (CUDA device %s)\n"), tm_torch_snapshot_get_device_id (snap, i),
               tm_torch_snapshot_get_device_id (snap, i));
      print_count (_("Trace entries"), f->n_entries);
      if (f->n_entries == 0)
        g_print ("  %s\n", _("No trace was recorded: everything is live from the start, the timeline is flat"));
      print_bytes (_("Peak allocated"), f->peak_bytes);
      if (f->peak_index >= 0)
        print_count (_("Peak at trace entry"), (guint64) f->peak_index);
      else
        tm_cli_print_row (_("Peak at trace entry"), _("before the first"), LABEL_WIDTH);
      print_bytes (_("Peak reserved"), f->peak_reserved_bytes);
      print_count (_("Allocations"), f->n_allocations);
      print_count (_("Live from the start"), f->n_initially_allocated);
      print_count (_("Live at the peak"), f->n_live_at_peak);
      print_count (_("Never freed"), f->n_never_freed);
      print_bytes (_("Never freed bytes"), f->never_freed_bytes);
      print_count (_("Out-of-memory entries"), f->n_by_action[TM_TORCH_OOM]);
      g_print ("  %s\n", _("At snapshot time:"));
      print_count (_("  Segments"), f->n_segments);
      print_count (_("  Blocks"), f->n_blocks);
      print_bytes (_("  Reserved"), f->snapshot_reserved_bytes);
      print_bytes (_("  Allocated"), f->snapshot_allocated_bytes);
      print_bytes (_("  Free (internal)"), f->free_internal_bytes);
      print_bytes (_("  Free (external)"), f->free_external_bytes);
      print_bytes (_("  Largest inactive block"), f->largest_inactive_block_bytes);
    }
}

/* Through tm-output, as every export: a file is replaced only when
 * complete, and "-", a pipe or a terminal is a stream. */
static gboolean
write_out (const char  *output,
           GString     *text,
           GError     **error)
{
  g_autoptr(TmOutput) out = tm_output_open (output != NULL ? output : "-", error);
  gboolean ok;

  if (out == NULL)
    return FALSE;
  ok = g_output_stream_write_all (tm_output_get_stream (out), text->str, text->len, NULL, NULL, error);
  return tm_output_finish (out, ok, error) && ok;
}

int
tm_cli_torch_run (GFile      *file,
                  const char *path,
                  gboolean    json,
                  const char *export_format,
                  const char *memory_id,
                  const char *output,
                  gboolean    first)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TmSource) source = NULL;
  g_autoptr(TmTorchSnapshot) snap = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *abs = g_file_get_path (file);
  guint device = G_MAXUINT;

  source = abs != NULL ? tm_source_open (abs, &error) : NULL;
  if (source == NULL)
    {
      if (error == NULL)
        g_set_error (&error, TM_ERROR, TM_ERROR_READ, _("cannot be read: only local files can be opened"));
      return fail (path, error);
    }
  snap = tm_torch_snapshot_read (source, NULL, &error);
  if (snap == NULL)
    return fail (path, error);

  if (export_format == NULL)
    {
      if (json)
        {
          g_autofree char *input = g_path_get_basename (path);

          tm_torch_export_summary_json (snap, input, abs, text);
          if (!write_out (NULL, text, &error))
            return fail ("-", error);
        }
      else
        {
          if (!first)
            g_print ("\n");
          print_summary (snap, path);
        }
      return 0;
    }

  if (!g_str_equal (export_format, "collapsed") && !g_str_equal (export_format, "csv") &&
      !g_str_equal (export_format, "allocations"))
    {
      g_set_error (&error, TM_ERROR, TM_ERROR_INVALID,
                   _("is a PyTorch memory snapshot: --export=%s is for XLA profiles "
                     "(a snapshot exports collapsed, csv or allocations)"), export_format);
      return fail (path, error);
    }

  /* The memory id asked for, or the device with the highest peak. */
  for (guint i = 0; i < tm_torch_snapshot_get_n_devices (snap); i++)
    {
      if (memory_id != NULL && g_str_equal (memory_id, tm_torch_snapshot_get_device_id (snap, i)))
        device = i;
      if (memory_id == NULL &&
          (device == G_MAXUINT ||
           tm_torch_snapshot_get_figures (snap, i)->peak_bytes > tm_torch_snapshot_get_figures (snap, device)->peak_bytes))
        device = i;
    }
  if (device == G_MAXUINT)
    {
      if (memory_id != NULL)
        g_set_error (&error, TM_ERROR, TM_ERROR_NO_MEMORY_ID, _("has no memory id “%s”"), memory_id);
      else
        g_set_error (&error, TM_ERROR, TM_ERROR_NO_MEMORY_ID, _("has no memory data to export"));
      return fail (path, error);
    }

  if (g_str_equal (export_format, "collapsed"))
    {
      g_autofree char *lines = tm_torch_export_collapsed (snap, device, FALSE);

      g_string_append (text, lines);
    }
  else if (g_str_equal (export_format, "csv"))
    tm_torch_export_breakdown_csv (snap, device, text);
  else
    tm_torch_export_allocations_csv (snap, device, text);
  if (!write_out (output, text, &error))
    {
      g_autofree char *message = tm_format_for_terminal (error->message, NULL);

      g_printerr ("tidemark: %s\n", message);
      return 1;
    }
  return 0;
}
