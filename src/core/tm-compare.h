/* tm-compare.h — two memory ids side by side: a baseline and the current one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Compares two analysed memory ids (two files, two hosts of a run, or two
 * memory ids of one file): the difference of every summary figure, a diff
 * by op name and a diff by name scope of the two breakdowns at their own
 * peaks, and how far apart the two time axes are for each way of aligning
 * them. Every difference is current − baseline. The rules are in
 * docs/compare.md. Uses tm-analysis, tm-scopes and tm-allocations; the
 * result is immutable and safe from any thread.
 */
#pragma once

#include <gio/gio.h>

#include "tm-allocations.h"
#include "tm-analysis.h"
#include "tm-scopes.h"

G_BEGIN_DECLS

/* Where the two time axes are pinned together (docs/compare.md,
 * "Alignment"). */
typedef enum
{
  TM_COMPARE_ALIGN_START,       /* the first snapshots */
  TM_COMPARE_ALIGN_PEAK,        /* the window peaks */
  TM_COMPARE_ALIGN_FIRST_STEP,  /* the first step boundaries */
} TmCompareAlignment;

#define TM_COMPARE_N_ALIGNMENTS 3

typedef enum
{
  TM_COMPARE_FIGURE_COUNT,
  TM_COMPARE_FIGURE_BYTES,
  TM_COMPARE_FIGURE_TIME,      /* picoseconds */
  TM_COMPARE_FIGURE_FRACTION,  /* in [0, 1]: the *_fraction members */
  TM_COMPARE_FIGURE_STEP,      /* a step id */
} TmCompareFigureKind;

/* One summary figure of both memory ids. */
typedef struct
{
  const char          *key;        /* its key in tidemark --summary --json */
  TmCompareFigureKind  kind;
  gint64               baseline;   /* integers (0 for a fraction) */
  gint64               current;
  gint64               delta;
  double               baseline_fraction;  /* fractions only */
  double               current_fraction;
  double               delta_fraction;
} TmCompareFigure;

typedef enum
{
  TM_COMPARE_CHANGED,    /* in both (the bytes may be equal) */
  TM_COMPARE_NEW,        /* only in the current memory id */
  TM_COMPARE_GONE,       /* only in the baseline */
} TmCompareStatus;

/* One op (or one name scope) at both peaks. */
typedef struct
{
  char            *name;                  /* op name; a scope's parts joined by '/' */
  guint            depth;                 /* scopes: 1 for a top-level scope; ops: 0 */
  gboolean         special;               /* "stack", "unused preallocated device memory" ... */
  gint64           baseline_bytes;        /* allocation bytes at the baseline's peak */
  gint64           current_bytes;         /* allocation bytes at the current's peak */
  gint64           delta;                 /* current − baseline */
  guint64          baseline_occurrences;
  guint64          current_occurrences;
  TmCompareStatus  status;
  /* Matched by position: the two names differ only in the numeric
   * suffixes a framework numbers layers and models with ("conv2d_11" and
   * "conv2d_14"; docs/compare.md, "Matching"). baseline_name is then the
   * baseline's name, else NULL. */
  gboolean         renumbered;
  char            *baseline_name;
} TmCompareEntry;

#define TM_TYPE_COMPARE (tm_compare_get_type ())

G_DECLARE_FINAL_TYPE (TmCompare, tm_compare, TM, COMPARE, GObject)

/* Compares current with baseline. The allocation indices give the
 * never-freed figures; either may be NULL, then they are counted from the
 * store (one pass over it). Fails only when the mapped file changed. */
TmCompare             *tm_compare_new               (TmAnalysis         *baseline,
                                                     TmAllocations      *baseline_allocations,
                                                     TmAnalysis         *current,
                                                     TmAllocations      *current_allocations,
                                                     GError            **error);

TmAnalysis            *tm_compare_get_baseline      (TmCompare          *self);
TmAnalysis            *tm_compare_get_current       (TmCompare          *self);

/* Every summary figure, in the order of tidemark --summary --json. */
const TmCompareFigure *tm_compare_get_figures       (TmCompare          *self,
                                                     guint              *n_figures);
/* The figure of key, or NULL. */
const TmCompareFigure *tm_compare_lookup_figure     (TmCompare          *self,
                                                     const char         *key);

/* The ops of both breakdowns at their peaks (TmCompareEntry), rows of one
 * op name added up; sorted by |delta|, largest first, then by name. Owned
 * by the comparison. */
GPtrArray             *tm_compare_get_op_diff       (TmCompare          *self);
/* The same for every node of the two name-scope trees at their peaks
 * (tm-scopes), sorted the same way. */
GPtrArray             *tm_compare_get_scope_diff    (TmCompare          *self);

/* The time of the alignment's anchor in the baseline or the current memory
 * id, and the shift to add to a baseline time to draw it on the current
 * time axis (current anchor − baseline anchor). */
gint64                 tm_compare_get_anchor        (TmCompare          *self,
                                                     TmCompareAlignment  alignment,
                                                     gboolean            baseline);
gint64                 tm_compare_get_shift         (TmCompare          *self,
                                                     TmCompareAlignment  alignment);

/* The anchor of one store: its first snapshot's time, its window peak's
 * time, or the time its first step begins (docs/compare.md). */
gint64                 tm_compare_anchor_of         (TmMemoryStore      *store,
                                                     TmCompareAlignment  alignment);

/* The node of tree that matches scope the way the scope diff matches
 * exactly (docs/compare.md, "Matching": a level "replica_N" matches any
 * other "replica_M"), or NULL. For the scope view's Δ against a baseline. */
const TmScopeNode     *tm_compare_match_scope       (TmScopeTree        *tree,
                                                     const TmScope      *scope);

/* The baseline's scope that scope (a name scope of the current memory id)
 * was matched with by position in the scope diff (docs/compare.md,
 * "Matching": renumbered layers and models), or NULL when it was not.
 * The scope view's Δ looks the baseline up with this name when the exact
 * match finds none. */
TmScope               *tm_compare_lookup_renumbered_scope (TmCompare     *self,
                                                           const TmScope *scope);

/* "start", "peak", "first-step" (for the command line and settings). */
const char            *tm_compare_alignment_to_string (TmCompareAlignment alignment);

G_END_DECLS
