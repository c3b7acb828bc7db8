/* tm-hlo-info.h — what XProf reads from an HLO module's instructions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain functions over decoded protos (tm-hlo): shapes, sources, scoped
 * memory. Uses protobuf-c's generated code and json-glib only.
 */
#pragma once

#include <glib.h>

#include "hlo.pb-c.h"

G_BEGIN_DECLS

typedef struct
{
  char   *file;          /* NULL when there is none */
  gint32  line;          /* -1 when unknown */
  char   *stack_frame;   /* "file:line:column" per frame, innermost first, one per line */
} TmHloSourceInfo;

/* The sub-shape of a logical buffer: chosen by the last element of its
 * shape index only, as XProf does; the shape itself when out of range. */
const Xla__ShapeProto *tm_hlo_shape_resolve       (const Xla__ShapeProto *shape,
                                                   const gint64          *shape_index,
                                                   gsize                  n_shape_index);
/* XLA's ShapeUtil::HumanStringWithLayout: "f32[8,128]{1,0:T(8,128)}",
 * "(f32[2]{0}, s32[])", "<=" before a dynamic dimension. */
char                  *tm_hlo_shape_string        (const Xla__ShapeProto *shape);
/* The bytes of the shape's elements without layout padding: tiles are
 * ignored, a packed element size (E(n)) is honoured, a tuple is a pointer
 * per element, opaque is a pointer, a token nothing. */
gint64                 tm_hlo_shape_unpadded_size (const Xla__ShapeProto *shape);

/* The source of an instruction: its metadata's file and line with the
 * stack of frames from the module's index, else the file and line of the
 * stack's first frame. A cycle of parent frames stops after one round. */
void                   tm_hlo_source_info         (const Xla__HloModuleProto      *module,
                                                   const Xla__HloInstructionProto *inst,
                                                   TmHloSourceInfo                *out);
void                   tm_hlo_source_info_clear   (TmHloSourceInfo                *info);

/* The largest scoped allocation of memory_space that an instruction's
 * backend configuration (JSON, "used_scoped_memory_configs") asks for, and
 * that instruction's name (a new string, NULL when 0). Only memory space 1
 * (VMEM) has them; 0 for any other. */
gint64                 tm_hlo_max_scoped_memory   (const Xla__HloModuleProto      *module,
                                                   gint64                          memory_space,
                                                   char                          **instruction);

G_END_DECLS
