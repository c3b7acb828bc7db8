/* tm-types.h — plain value types shared by the core and its views
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Activities, summaries, breakdown rows and HLO modules: values only, no
 * other part of the core.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Saturating 64-bit arithmetic: figures from a file may be anything, and a
 * sum that does not fit stays at the limit instead of wrapping (signed
 * overflow is undefined in C). docs/formats.md "Hostile input". */
static inline gint64
tm_sat_add (gint64 a,
            gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

static inline gint64
tm_sat_sub (gint64 a,
            gint64 b)
{
  gint64 r;

  if (__builtin_sub_overflow (a, b, &r))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

static inline gint64
tm_sat_mul (gint64 a,
            gint64 b)
{
  gint64 r;

  if (__builtin_mul_overflow (a, b, &r))
    return (a < 0) == (b < 0) ? G_MAXINT64 : G_MININT64;
  return r;
}

/* A double as int64, saturating; NaN is 0. */
static inline gint64
tm_sat_from_double (double d)
{
  if (d != d)
    return 0;
  if (d >= 9223372036854775808.0)
    return G_MAXINT64;
  if (d < -9223372036854775808.0)
    return G_MININT64;
  return (gint64) d;
}

typedef enum
{
  TM_ACTIVITY_UNKNOWN      = 0,
  TM_ACTIVITY_ALLOCATION   = 1,
  TM_ACTIVITY_DEALLOCATION = 2,
} TmActivityKind;

/* What one memory event did, decoded on demand (hover, table rows, export).
 * Strings are owned by the struct and never NULL; free with
 * tm_activity_clear(). For a deallocation, op_name/region_type/data_type/
 * shape are those of its matching allocation (docs/analysis.md step 4). */
typedef struct
{
  TmActivityKind kind;
  gint64         time_ps;
  gint64         requested_bytes;
  gint64         allocation_bytes;
  guint64        address;
  gint64         step_id;            /* after the step-id fill-in (docs/analysis.md step 3) */
  gint64         stack_bytes;
  gint64         heap_bytes;
  gint64         free_bytes;
  double         fragmentation;
  gint64         peak_bytes_in_use;  /* allocator's lifetime peak so far */
  char          *op_name;
  char          *region_type;
  char          *data_type;          /* by name: "float", "half", "INVALID" ... */
  char          *shape;
} TmActivity;

void tm_activity_clear (TmActivity *activity);

/* Summary of one memory id: the fold of docs/analysis.md step 1 and the
 * counts of step 8 (the peak step, step 5, is tm-analysis's). */
typedef struct
{
  guint   n_snapshots;
  guint   n_allocations;
  guint   n_deallocations;
  gint64  peak_bytes_usage_lifetime;     /* maximum of peak_bytes_in_use */
  gint64  last_peak_bytes_in_use;        /* XProf's figure: the last event's, file order */
  gint64  peak_bytes_in_use;             /* window peak: stack + heap */
  gint64  peak_time_ps;
  gint64  peak_stack_bytes;
  gint64  peak_heap_bytes;
  gint64  peak_free_bytes;
  double  peak_fragmentation;
  gint64  peak_stats_peak_bytes_in_use;  /* = stack + heap at the peak, as XProf stores it */
  gint64  memory_capacity;               /* stack + heap + free at the peak */
  gint64  first_time_ps;                 /* time of the first snapshot (time order) */
  gint64  last_time_ps;                  /* time of the last snapshot */
} TmSummary;

/* One row of a breakdown table (at the peak, or live at a time t). */
typedef struct
{
  char    *op_name;
  gint64   allocation_bytes;
  gint64   requested_bytes;
  guint64  n_occurrences;
  char    *region_type;
  char    *data_type;
  char    *shape;
  gint64   step_id;
  guint64  address;
  gint64   time_ps;         /* time of the referenced allocation (0 for special rows) */
  guint    snapshot_index;  /* referenced snapshot (time order); G_MAXUINT for special rows */
  gboolean special;         /* "unused preallocated device memory", "stack", "allocated before the profile" */
} TmBreakdownRow;

void tm_breakdown_row_free (TmBreakdownRow *row);

typedef struct
{
  gint64  id;               /* counts from 0 in file order across planes */
  char   *name;
  gint64  start_ps;
  gint64  end_ps;
  char   *device;           /* plane name without "/device:", e.g. "TPU:0" */
} TmHloModule;

/* Frees the strings (a clear function for arrays of TmHloModule). */
void tm_hlo_module_clear (TmHloModule *module);

/* Reports how far a long job got; called from the thread that runs it unless
 * an API says otherwise. done and total are bytes. */
typedef void (*TmProgressFunc) (guint64  done,
                                guint64  total,
                                gpointer user_data);

/* "float", "half", "float_ref", "unknown dtype enum (77)" ... (docs/formats.md, section 1) */
char *tm_data_type_name (gint64 value);

G_END_DECLS
