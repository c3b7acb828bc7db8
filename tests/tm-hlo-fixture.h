/* tm-hlo-fixture.h — builds serialized xla.HloProtos for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The small modules of XProf's own Memory Viewer tests and larger made-up
 * ones, written with protobuf-c's code generated from proto/hlo.proto.
 */
#pragma once

#include <glib.h>

#include "hlo.pb-c.h"

G_BEGIN_DECLS

typedef struct _TmHloFixture TmHloFixture;

enum
{
  TM_HLO_ALLOC_THREAD_LOCAL    = 1 << 0,
  TM_HLO_ALLOC_TUPLE           = 1 << 1,
  TM_HLO_ALLOC_PARAMETER       = 1 << 2,
  TM_HLO_ALLOC_CONSTANT        = 1 << 3,
  TM_HLO_ALLOC_MAYBE_LIVE_OUT  = 1 << 4,
};

enum { TM_HLO_ALLOC = 0, TM_HLO_FREE = 1, TM_HLO_SHARE_WITH = 2 };

TmHloFixture                *tm_hlo_fixture_new              (const char   *module_name,
                                                              const char   *entry_computation_name);
void                         tm_hlo_fixture_free             (TmHloFixture *self);
/* The proto being built, to set what the functions here do not. */
Xla__HloProto               *tm_hlo_fixture_get_proto        (TmHloFixture *self);

/* An instruction of the one computation whose shape is a tuple of one u64,
 * as in XProf's tests. */
Xla__HloInstructionProto    *tm_hlo_fixture_add_instruction  (TmHloFixture *self,
                                                              const char   *name,
                                                              gint64        id);
Xla__BufferAllocationProto  *tm_hlo_fixture_add_allocation   (TmHloFixture *self,
                                                              gint64        index,
                                                              gint64        size,
                                                              gint64        color,
                                                              guint         flags);
void                         tm_hlo_fixture_assign           (TmHloFixture               *self,
                                                              Xla__BufferAllocationProto *allocation,
                                                              gint64                      logical_buffer_id,
                                                              gint64                      offset,
                                                              gint64                      size);
/* Defined at instruction_id, shape index {0}. */
void                         tm_hlo_fixture_add_logical_buffer (TmHloFixture *self,
                                                              gint64        id,
                                                              gint64        size,
                                                              gint64        color,
                                                              gint64        instruction_id);
/* Starts a new heap simulator trace; events go to the last one. */
void                         tm_hlo_fixture_add_trace        (TmHloFixture *self);
void                         tm_hlo_fixture_add_event        (TmHloFixture *self,
                                                              int           kind,
                                                              gint64        buffer_id,
                                                              gint64        share_with_canonical_id);
/* A copy of s that lives as long as the fixture. */
char                        *tm_hlo_fixture_strdup           (TmHloFixture *self,
                                                              const char   *s);
GBytes                      *tm_hlo_fixture_serialize        (TmHloFixture *self);

/* XProf's test modules. "base": two allocations of 1 MiB in colour 0, one
 * a constant; three buffers (1 and 2 of 0.5 MiB in allocation 0, 3 of
 * 1 MiB in the constant), no events yet. "chain": one allocation of
 * 1.5 MiB, three buffers of 0.5 MiB at offset 0. "display": colour 1,
 * 0.75 MiB, buffers 1–3 of 0.25 MiB at 0 and 4 of 0.5 MiB at 0.25 MiB. */
TmHloFixture                *tm_hlo_fixture_new_base         (void);
TmHloFixture                *tm_hlo_fixture_new_chain        (void);
TmHloFixture                *tm_hlo_fixture_new_display      (void);

/* An XSpace whose "/host:metadata" plane holds the base module with one
 * ALLOC and FREE of buffer 1 ("test_module") and a module whose HloProto
 * is cut short ("b"), and an empty "/host:CPU" plane. *keep holds the good
 * module's bytes, which the space points to. */
struct _TmFixtureSpace;
struct _TmFixtureSpace      *tm_hlo_fixture_new_two_module_space (GBytes **keep);

/* The Memory Viewer page's module "jit_train_step", entry "main": f32
 * arrays with op names and sources (train.py, line 10 + instruction id).
 * Memory space 0: a parameter of 4 MiB (param.0, buffer 1), an output of
 * 1 MiB (tuple.4, buffer 5), and a temporary allocation of 16 MiB whose
 * trace allocates dot.1 (8 MiB, buffer 2), small.5 (4 KiB, buffer 6),
 * fusion.2 (5 MiB for f32[1024,1024], so 1 MiB of padding, buffer 3),
 * frees dot.1, allocates copy.3 (2 MiB, buffer 4) and frees the rest:
 * the peak of 13 MiB + 4 KiB (18 MiB + 4 KiB with the indefinite part)
 * at position 2. Memory space 1: vmem.6 (256 KiB, buffer 7), allocated
 * and freed. Op names "jit(train_step)/add" (fusion.2, small.5) and
 * "jit(train_step)/dot_general" (dot.1, vmem.6) define two buffers each. */
TmHloFixture                *tm_hlo_fixture_new_viewer       (void);
/* An XSpace of it: "/host:metadata" with "jit_train_step" (listed as
 * "jit_train_step(1)"), the base module with one ALLOC and FREE
 * ("test_module(2)") and a module cut short ("b(3)"); "/host:CPU" with
 * allocator GPU_0_bfc: 2 MiB at 1000 ps and the parameter's 4 MiB at 1500,
 * the temporaries' 16 MiB at 3000 and the output's 1 MiB at 4000 (23 MiB
 * in use), the 16 MiB freed at 9000 and 4 MiB at 12000; and one execution
 * of "jit_train_step(1)" over [2000, 10000] on /device:TPU:0. *keep holds
 * the bytes the space points to. */
struct _TmFixtureSpace      *tm_hlo_fixture_new_viewer_space (GBytes **keep);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmHloFixture, tm_hlo_fixture_free)

G_END_DECLS
