/* tm-hlo.h — XLA modules' HloProtos: where they are, and decoding one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An XSpace carries one serialized xla.HloProto per XLA module in its
 * "/host:metadata" plane (docs/buffer-assignment.md, section 1); a run folder may also hold sidecar "<module>.hlo_proto.pb" files.
 * Listing the modules only notes where each one's bytes are (and reads the
 * module's name from them); decoding one, with protobuf-c's code generated
 * from proto/hlo.proto, happens on first use and is bounded in nesting and
 * memory. Uses tm-source, tm-wire and tm-xplane.
 */
#pragma once

#include <gio/gio.h>

#include "hlo.pb-c.h"
#include "tm-source.h"
#include "tm-xplane.h"

G_BEGIN_DECLS

#define TM_HLO_METADATA_PLANE_NAME "/host:metadata"
#define TM_HLO_SIDECAR_SUFFIX ".hlo_proto.pb"

/* Messages nested deeper than this are refused before decoding. */
#define TM_HLO_MAX_DEPTH 64

/* One module's HloProto: the bytes [offset, offset + size) of source. */
typedef struct
{
  TmSource *source;
  gsize     offset;
  gsize     size;
  char     *name;         /* as XProf lists it: "<hlo_module.name>(<program id>)",
                           * or a sidecar's file name without ".hlo_proto.pb" */
  gint64    program_id;   /* 0 for a sidecar */
  gboolean  sidecar;
} TmHloEntry;

/* Drops the source and frees the name (a clear function for arrays). */
void           tm_hlo_entry_clear            (TmHloEntry          *entry);
/* A new array of TmHloEntry that clears its elements. */
GArray        *tm_hlo_entries_new            (void);

static inline gboolean
tm_xplane_is_hlo_metadata (const TmXPlaneParts *parts)
{
  return parts->has_name && tm_str_equal (parts->name, TM_HLO_METADATA_PLANE_NAME);
}

/* Appends the modules of a "/host:metadata" plane (scanned with collect)
 * to entries, skipping names already there (the first wins). Must run under
 * source's guard. Only the module name is read from each HloProto. */
gboolean       tm_hlo_read_metadata_plane    (TmSource            *source,
                                              const TmXPlaneParts *parts,
                                              GArray              *entries,
                                              GError             **error);

/* A mapped sidecar as an entry (the whole file is one HloProto, a
 * reference to source is taken): named after its file, without
 * ".hlo_proto.pb". */
void           tm_hlo_sidecar_entry          (TmSource            *source,
                                              TmHloEntry          *entry);
/* Whether bytes (the start of a file of file_size bytes, or all of it)
 * begin like a serialized HloProto rather than an XSpace: field 1 (the
 * module) is a message inside the file whose first field is field 1 (its
 * name, a string inside the bytes); an XSpace's field 1 is a plane, whose
 * field 1 is a number. Must run under the source's guard. */
gboolean       tm_hlo_sniff                  (const guint8        *data,
                                              gsize                size,
                                              guint64              file_size);
/* A sidecar file as an entry (the whole file is one HloProto). */
gboolean       tm_hlo_open_sidecar           (const char          *path,
                                              TmHloEntry          *entry,
                                              GError             **error);
/* The "*.hlo_proto.pb" files of folder dir, sorted by name, as entries not
 * already in entries (by name); unreadable ones are skipped. */
void           tm_hlo_add_sidecars           (const char          *dir,
                                              GArray              *entries);

/* A decoded HloProto and the memory budget it was decoded in. */
typedef struct _TmHloProto TmHloProto;

struct _TmHloProto
{
  Xla__HloProto *proto;
};

/* Decodes bytes as an xla.HloProto. Refuses, with an error that names
 * module_name and says what and where (byte offsets from the start of
 * bytes): a malformed wire encoding, nesting deeper than TM_HLO_MAX_DEPTH,
 * more memory than a bounded multiple of the input size, a missing
 * hlo_module or buffer_assignment. */
TmHloProto    *tm_hlo_proto_decode           (const guint8        *data,
                                              gsize                size,
                                              const char          *module_name,
                                              GError             **error);
/* The same for an entry, under its source's guard. */
TmHloProto    *tm_hlo_entry_decode           (const TmHloEntry    *entry,
                                              GError             **error);
void           tm_hlo_proto_free             (TmHloProto          *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHloProto, tm_hlo_proto_free)

G_END_DECLS
