/* tm-static-plan.h — XLA modules' static plans, listed and set against the run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the Memory Viewer page and the summaries need beyond one module's
 * computation (tm-buffer-assignment, docs/buffer-assignment.md):
 *   - every module's static peak in memory space 0, and the order the
 *     page lists them in (the module with the most heap simulator events
 *     first, then biggest peak first);
 *   - a module's executions on the XLA Modules line (TmHloModule);
 *   - the static peak plus what was live before an execution set against
 *     what the allocator really held during it, with the difference
 *     explained in words (docs/buffer-assignment.md, section 6);
 *   - the logical buffers of a module that an op of the memory profile
 *     (its tf/jax op name) or an instruction name defines.
 * Uses tm-hlo, tm-buffer-assignment, tm-memory-store and tm-types.
 */
#pragma once

#include <gio/gio.h>

#include "tm-buffer-assignment.h"
#include "tm-hlo.h"
#include "tm-memory-store.h"
#include "tm-types.h"

G_BEGIN_DECLS

/* One module's plan in memory space 0, as the list of modules shows it. */
typedef struct
{
  char   *name;            /* as XProf lists it (TmHloEntry.name) */
  gint64  peak;            /* the static peak with the indefinite part, bytes (0 with an error) */
  gint64  n_trace_events;  /* events of the heap simulator trace memory space 0 uses */
  GArray *memory_spaces;   /* gint64, ascending (NULL with an error) */
  char   *error;           /* NULL, or why decoding or computing failed (names the module) */
} TmModulePlan;

void            tm_module_plan_clear        (TmModulePlan       *plan);

/* Decodes and computes every entry (TmHloEntry) in memory space 0, one at
 * a time, each dropped before the next: a new array of TmModulePlan in the
 * entries' order (it clears its elements). A module that fails carries
 * its error; the others are there all the same. progress (may be NULL)
 * gets (modules done, modules) after each. Returns NULL with
 * G_IO_ERROR_CANCELLED when cancelled. */
GArray         *tm_static_plan_summarize    (GArray             *entries,
                                             TmProgressFunc      progress,
                                             gpointer            progress_data,
                                             GCancellable       *cancellable,
                                             GError            **error);

/* The order the page lists plans in: first the module with the most heap
 * simulator events in memory space 0 (of equals the bigger peak, then the
 * name), then the others by peak, biggest first (then by name), and those
 * that failed last, by name. A new array of guint indices into plans. */
GArray         *tm_static_plan_order        (GArray             *plans);

/* The executions of module (a TmModulePlan or TmHloEntry name) among
 * modules (TmHloModule, the XLA Modules line), in their order: a new
 * array of guint indices. An execution named exactly as the module is
 * one; so is one whose name carries no program id, "(…)", and equals
 * the module's name without its own. */
GArray         *tm_static_plan_executions   (GArray             *modules,
                                             const char         *module);
/* The module (the name of one of plans, TmModulePlan) an execution named
 * execution on the XLA Modules line is of, as tm_static_plan_executions()
 * matches them: the one named exactly so, else the first whose name
 * without its program id is execution; NULL for none. */
const char     *tm_static_plan_module_of    (GArray             *plans,
                                             const char         *execution);

/* The memory space of a plan that a memory id of the profile (an
 * allocator) holds (docs/buffer-assignment.md, section 6): 5, XLA's host
 * memory space, for a host allocator ("pinned_host", "cuda_host_bfc", a
 * name starting with "cpu" or "host"), else 0, the device's memory. */
gint64          tm_static_plan_memory_space_of_id (const char   *memory_id);

typedef enum
{
  TM_PLAN_AS_PLANNED,       /* the allocator held exactly the static peak plus what was live before */
  TM_PLAN_PARAMETERS_TWICE, /* less, by no more than the parameters, which are in both */
  TM_PLAN_HELD_LESS,        /* less than that even with the parameters counted once */
  TM_PLAN_HELD_MORE,        /* more */
} TmPlanVerdict;

/* One execution of a module against its plan. Memory is memory in use
 * (stack + heap) of a memory id; the state at a time is the one its last
 * snapshot at or before that time left (docs/analysis.md). */
typedef struct
{
  gint64        start_ps;
  gint64        end_ps;
  gboolean      has_before;    /* a snapshot at or before start_ps */
  gint64        live_before;   /* memory in use when it started (0 without one) */
  gint64        held;          /* the most in use from its start to its end */
  gint64        held_time_ps;  /* the first time it was held (start_ps: at its start) */
  gint64        static_peak;   /* the plan's peak, with the indefinite part */
  gint64        parameters;    /* the plan's entry parameters (memory space 0) */
  gint64        expected;      /* live_before + static_peak */
  gint64        difference;    /* held − expected */
  TmPlanVerdict verdict;
} TmPlanComparison;

/* Sets the plan (memory space 0) of a module against one execution
 * [start_ps, end_ps] on store. FALSE when store has no snapshot at or
 * before end_ps (nothing to compare with). */
gboolean        tm_static_plan_compare      (TmMemoryStore            *store,
                                             const TmBufferAssignment *plan,
                                             gint64                    start_ps,
                                             gint64                    end_ps,
                                             TmPlanComparison         *out);
/* Every execution of the plan's module among modules (TmHloModule):
 * a new array of TmPlanComparison, those that can be compared, in time
 * order. */
GArray         *tm_static_plan_compare_all  (TmMemoryStore            *store,
                                             const TmBufferAssignment *plan,
                                             const char               *module,
                                             GArray                   *modules);
/* The level the plan puts the memory in use at over one execution: the
 * static peak plus what was in use just before it started, as
 * tm_static_plan_compare() expects it (docs/buffer-assignment.md,
 * section 6), and what the allocator held then. */
typedef struct
{
  guint    execution;     /* its index among the modules (TmHloModule) */
  gint64   start_ps;
  gint64   end_ps;
  gboolean has_before;    /* a snapshot at or before start_ps */
  gint64   live_before;   /* memory in use when it started (0 without one) */
  gint64   expected;      /* live_before + the static peak */
  gint64   held;          /* the most in use from its start to its end; -1: no snapshot then */
  gint64   held_time_ps;  /* the first time it was held */
} TmPlanLevel;

/* Every execution of module among modules (TmHloModule) with its level on
 * store for a static peak of static_peak bytes (memory space 0, with the
 * indefinite part): a new array of TmPlanLevel in the executions' order,
 * one for each execution even without snapshots around it. */
GArray         *tm_static_plan_levels       (TmMemoryStore            *store,
                                             gint64                    static_peak,
                                             const char               *module,
                                             GArray                   *modules);
/* The index in comparisons of the execution that held the most (the first
 * of equals); G_MAXUINT when empty. */
guint           tm_static_plan_busiest      (GArray                   *comparisons);
/* The comparison in words, for people: what was live, what the plan
 * adds, what the allocator held and why they differ (translated). */
char           *tm_static_plan_explain      (const TmPlanComparison   *comparison,
                                             const char               *module,
                                             const char               *memory_id);

/* A logical buffer an op defines. */
typedef struct
{
  gint64      logical_buffer_id;
  gint64      memory_space;     /* its colour */
  gint64      size;             /* bytes, as the buffer assignment has it */
  const char *instruction;      /* the defining instruction's name (the proto's string) */
} TmOpBuffer;

/* The logical buffers of proto whose defining instruction has op as its
 * metadata's op name (XProf's tfOpName) or as its own name, by id: a new
 * array of TmOpBuffer, whose strings live as long as proto. */
GArray         *tm_static_plan_find_op      (const TmHloProto         *proto,
                                             const char               *op);

G_END_DECLS
