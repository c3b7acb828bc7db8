/* tm-xprof-json.h — XProf's memory-profile JSON in (docs/formats.md, section 2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * JSON → memory stores (tm-memory-store) and HLO modules; one of the
 * readers behind tm-input-picker, which tells this JSON from others.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Parses XProf's JSON (version 1, or TensorFlow's older variant without
 * "version"; camelCase or snake_case names; integers as strings or numbers;
 * enums by name or number) into stores (TmMemoryStore, in the file's
 * order; built, not finished: see tm_memory_store_finish()) and HLO modules
 * (TmHloModule). */
gboolean tm_xprof_json_read  (const guint8   *data,
                              gsize           size,
                              GPtrArray     **stores,
                              GArray        **hlo_modules,
                              GCancellable   *cancellable,
                              GError        **error);

G_END_DECLS
