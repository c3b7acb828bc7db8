/* tm-window-compare.h — comparing the shown profile with a baseline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Compare With…" (docs/compare.md): the baseline is another file,
 * another host of the shown run, or another memory id of the shown
 * profile. A file or a host not loaded yet is loaded on a worker, by the
 * same loader as files; one that fails shows its error in the comparison
 * bar, and the shown profile stays. The comparison itself is the
 * session's (tm_session_set_baseline); the window adds the bar under the
 * header (what is compared, the alignment, Swap, End Comparison), the
 * "Difference" page next to the table, and the title.
 */
#pragma once

#include "tm-window.h"

G_BEGIN_DECLS

/* Loads file and compares the shown memory id with its memory id of the
 * same name (else its busiest one). */
void        tm_window_compare_with_file       (TmWindow   *self,
                                               GFile      *file);
/* Another memory id of the shown profile; FALSE if it has none such. */
gboolean    tm_window_compare_with_memory_id  (TmWindow   *self,
                                               const char *memory_id);
/* Another host of the shown run (loaded if it was not yet); FALSE if the
 * run has no such host. */
gboolean    tm_window_compare_with_host       (TmWindow   *self,
                                               const char *host);
/* The baseline becomes the shown profile and the other way round. */
void        tm_window_swap_comparison         (TmWindow   *self);
void        tm_window_end_comparison          (TmWindow   *self);
/* What the comparison bar says (NULL while it is hidden), and whether it
 * shows an error. */
const char *tm_window_get_comparison_message  (TmWindow   *self,
                                               gboolean   *is_error);
/* Whether a baseline is loading. */
gboolean    tm_window_get_comparison_loading  (TmWindow   *self);

G_END_DECLS
