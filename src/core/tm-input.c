/* tm-input.c — what every reader of a file delivers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib-object.h>
#include <glib/gi18n.h>

#include "tm-input.h"
#include "tm-types.h"

/* In the order of TmInputFormat. */
static const TmInputFormatInfo formats[TM_INPUT_N_FORMATS] = {
  { TM_INPUT_FORMAT_XSPACE, "xspace", N_("XSpace"), TM_INPUT_AXIS_TIME,
    TM_INPUT_HAS_PROFILE | TM_INPUT_COMPLETE | TM_INPUT_HAS_TIME_AXIS | TM_INPUT_HAS_ALLOCATIONS |
    TM_INPUT_HAS_SCOPES | TM_INPUT_HAS_XPROF_JSON_EXPORT | TM_INPUT_HAS_MEMORY_ONLY_EXPORT },
  { TM_INPUT_FORMAT_XPROF_JSON, "xprof-json", N_("XProf memory-profile JSON (sampled points only)"), TM_INPUT_AXIS_TIME,
    TM_INPUT_HAS_PROFILE | TM_INPUT_HAS_TIME_AXIS | TM_INPUT_HAS_ALLOCATIONS | TM_INPUT_HAS_SCOPES |
    TM_INPUT_HAS_XPROF_JSON_EXPORT },
  { TM_INPUT_FORMAT_SUMMARIES, "summaries", N_("gathered host summaries (JSON Lines)"), TM_INPUT_AXIS_NONE,
    TM_INPUT_HAS_RUN },
  /* Every trace entry, in picoseconds from the first entry's time (the
   * entry index as microseconds when the snapshot has no times); no XProf
   * JSON, which would have to be made up, and no memory-only XSpace. */
  { TM_INPUT_FORMAT_TORCH_SNAPSHOT, "pytorch-snapshot", N_("PyTorch memory snapshot"), TM_INPUT_AXIS_TIME,
    TM_INPUT_HAS_PROFILE | TM_INPUT_COMPLETE | TM_INPUT_HAS_TIME_AXIS | TM_INPUT_HAS_ALLOCATIONS |
    TM_INPUT_HAS_SCOPES },
  /* The compiler's plan of one module, in program order: nothing of the
   * memory profile, only the Memory Viewer. */
  { TM_INPUT_FORMAT_HLO_PROTO, "hlo-proto", N_("XLA HloProto (one module's compiled plan)"), TM_INPUT_AXIS_PROGRAM_ORDER,
    TM_INPUT_HAS_PROFILE },
};

const TmInputFormatInfo *
tm_input_format_get_info (TmInputFormat format)
{
  g_return_val_if_fail ((guint) format < TM_INPUT_N_FORMATS, &formats[0]);

  g_assert (formats[format].format == format);
  return &formats[format];
}

void
tm_input_init (TmInput       *input,
               TmInputFormat  format)
{
  g_return_if_fail (input != NULL);
  g_return_if_fail ((guint) format < TM_INPUT_N_FORMATS);

  memset (input, 0, sizeof *input);
  input->format = format;
  input->stores = g_ptr_array_new_with_free_func (g_object_unref);
  input->hlo_modules = g_array_new (FALSE, FALSE, sizeof (TmHloModule));
  g_array_set_clear_func (input->hlo_modules, (GDestroyNotify) tm_hlo_module_clear);
  input->problems = g_ptr_array_new_with_free_func (g_free);
  input->has_memory_trace = TRUE;
}

void
tm_input_clear (TmInput *input)
{
  g_return_if_fail (input != NULL);

  g_clear_pointer (&input->stores, g_ptr_array_unref);
  g_clear_pointer (&input->hlo_modules, g_array_unref);
  g_clear_pointer (&input->hlo_entries, g_array_unref);
  g_clear_pointer (&input->hosts, g_ptr_array_unref);
  g_clear_pointer (&input->problems, g_ptr_array_unref);
  g_clear_pointer (&input->inflated, g_bytes_unref);
  g_clear_pointer (&input->segments, g_ptr_array_unref);
}
