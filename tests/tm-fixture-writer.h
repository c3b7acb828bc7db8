/* tm-fixture-writer.h — builds XSpace files (*.xplane.pb) for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A space holds planes, a plane holds lines, a line holds events, an event
 * holds stats. Event metadata and stat metadata are interned per plane by
 * name: the first name asked for gets id 1, the next id 2, and so on (event
 * and stat metadata count separately). Lines get id = their index in the
 * plane, planes id = their index in the space, unless set explicitly.
 *
 * Everything returned by the add/get functions is owned by the space and
 * lives until tm_fixture_space_free(). Strings are copied.
 *
 * tm_fixture_space_serialize() packs the space with protobuf-c (fields in
 * field-number order, as real writers do); tm_fixture_space_serialize_odd()
 * hand-encodes it in orders and shapes that real writers never produce but
 * a reader must accept.
 *
 * XProf's own example, tm_fixture_space_new_xprof_example(): one allocator
 * "GPU_0_bfc" on "/host:CPU", line "Memory", no group_id (every step id is
 * 0 after docs/analysis.md, step 3), in file = time order:
 *
 *   time    kind   stack heap  free frag peak_in_use req alloc addr   op           region dtype     shape
 *   40000   alloc  2000  3000  5000 0.4  8500        200 256   222333 foo/bar      output 1 float   [3, 3, 512, 512]
 *   50000   free   2000  2744  5256 0.45 8500        200 256   222333 (none: copied from the allocation, docs/analysis.md, step 4)
 *   70000   alloc  2000  5000  4000 0.2  9500        300 300   345678 mul_grad/Sum temp   19 half   [1, 2]
 *
 * Step 1 of docs/analysis.md: window peak 7000 (2000 + 5000) at 70000 ps (event 3; event 1 gave
 * 5000, event 2 only 4744), capacity 2000 + 5000 + 4000 = 11000, stack at
 * peak 2000, heap 5000, free 4000, fragmentation 0.2; lifetime peak heap
 * 9500 (last_peak_bytes_in_use 9500 too); 2 allocations, 1 deallocation.
 * Step 5 of docs/analysis.md: peak step 0.
 * Step 6 of docs/analysis.md: unmapped starts at 5000; event 1 records 222333 (5000 − 256 =
 * 4744), event 2 removes it and adds 256 back (5000), event 3 records 345678
 * (5000 − 300 = 4700); nothing unmapped-deallocated. Rows, sorted:
 *   "unused preallocated device memory" 4700/4700, persist/dynamic, INVALID, unknown
 *   "stack"                             2000/2000, stack, INVALID, unknown
 *   "mul_grad/Sum"                       300 alloc / 300 requested, temp, half, [1, 2]
 * The TM_FIXTURE_XPROF_* macros below hold these numbers.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TmFixtureSpace TmFixtureSpace;
typedef struct _TmFixturePlane TmFixturePlane;
typedef struct _TmFixtureLine  TmFixtureLine;
typedef struct _TmFixtureEvent TmFixtureEvent;

/* The value kind of a stat, i.e. which XStat oneof field holds it. */
typedef enum
{
  TM_FIXTURE_STAT_INT64,
  TM_FIXTURE_STAT_UINT64,
  TM_FIXTURE_STAT_DOUBLE,
  TM_FIXTURE_STAT_STR,
  TM_FIXTURE_STAT_REF,     /* ref_value = id of a stat_metadata named str (interned) */
  TM_FIXTURE_STAT_REF_ID,  /* ref_value = u64 as given (may name no stat_metadata) */
  TM_FIXTURE_STAT_BYTES,   /* bytes_value = str, n_bytes long */
  TM_FIXTURE_STAT_STR_LEN, /* str_value = str, n_bytes long: may hold NUL bytes (hostile names) */
} TmFixtureStatKind;

typedef struct
{
  const char        *name;
  TmFixtureStatKind  kind;
  gint64             i64;
  guint64            u64;
  double             dbl;
  const char        *str;
  gsize              n_bytes;
} TmFixtureStat;

#define TM_FIXTURE_INT64(n, v)  ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_INT64, .i64 = (v) })
#define TM_FIXTURE_UINT64(n, v) ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_UINT64, .u64 = (v) })
#define TM_FIXTURE_DOUBLE(n, v) ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_DOUBLE, .dbl = (v) })
#define TM_FIXTURE_STR(n, v)    ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_STR, .str = (v) })
#define TM_FIXTURE_REF(n, v)    ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_REF, .str = (v) })
#define TM_FIXTURE_REF_ID(n, v) ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_REF_ID, .u64 = (v) })
#define TM_FIXTURE_STR_LEN(n, p, len) ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_STR_LEN, .str = (p), .n_bytes = (len) })
#define TM_FIXTURE_BYTES(n, p, len) ((TmFixtureStat) { .name = (n), .kind = TM_FIXTURE_STAT_BYTES, .str = (const char *) (p), .n_bytes = (len) })

/* ------------------------------------------------------------------ */
/* Space, planes, lines, events                                        */

TmFixtureSpace *tm_fixture_space_new                     (void);
void            tm_fixture_space_free                    (TmFixtureSpace         *space);

void            tm_fixture_space_add_hostname            (TmFixtureSpace         *space,
                                                          const char             *hostname);
void            tm_fixture_space_add_error               (TmFixtureSpace         *space,
                                                          const char             *message);
void            tm_fixture_space_add_warning             (TmFixtureSpace         *space,
                                                          const char             *message);

/* Always appends a new plane (two planes may share a name). */
TmFixturePlane *tm_fixture_space_add_plane               (TmFixtureSpace         *space,
                                                          const char             *name);
/* The first plane with this name, created if there is none. */
TmFixturePlane *tm_fixture_space_get_plane               (TmFixtureSpace         *space,
                                                          const char             *name);

void            tm_fixture_plane_set_id                  (TmFixturePlane         *plane,
                                                          gint64                  id);
/* Interns and returns the id (>= 1) of the event / stat metadata `name`. */
gint64          tm_fixture_plane_intern_event_metadata   (TmFixturePlane         *plane,
                                                          const char             *name);
gint64          tm_fixture_plane_intern_stat_metadata    (TmFixturePlane         *plane,
                                                          const char             *name);
/* Adds an event metadata entry with an explicit id (e.g. a second id with
 * the same name, or id 0). Later interning of names continues above the
 * largest id used. */
void            tm_fixture_plane_add_event_metadata      (TmFixturePlane         *plane,
                                                          gint64                  id,
                                                          const char             *name);
void            tm_fixture_plane_add_stat_metadata       (TmFixturePlane         *plane,
                                                          gint64                  id,
                                                          const char             *name);
/* A stat on the XEventMetadata named metadata_name (interned) — not an
 * event stat; readers must not take memory stats from here. */
void            tm_fixture_plane_add_event_metadata_stat (TmFixturePlane         *plane,
                                                          const char             *metadata_name,
                                                          const TmFixtureStat    *stat);
/* A stat of the plane itself (XPlane.stats). */
void            tm_fixture_plane_add_stat                (TmFixturePlane         *plane,
                                                          const TmFixtureStat    *stat);

/* Always appends a new line. */
TmFixtureLine  *tm_fixture_plane_add_line                (TmFixturePlane         *plane,
                                                          const char             *name,
                                                          gint64                  timestamp_ns);
/* The first line with this name, created with timestamp_ns if there is none. */
TmFixtureLine  *tm_fixture_plane_get_line                (TmFixturePlane         *plane,
                                                          const char             *name,
                                                          gint64                  timestamp_ns);
void            tm_fixture_line_set_id                   (TmFixtureLine          *line,
                                                          gint64                  id);
void            tm_fixture_line_set_display_name         (TmFixtureLine          *line,
                                                          const char             *display_name);
void            tm_fixture_line_set_duration_ps          (TmFixtureLine          *line,
                                                          gint64                  duration_ps);

/* Appends an event whose metadata is the plane's event metadata named
 * metadata_name (interned). Events are written in the order added. */
TmFixtureEvent *tm_fixture_line_add_event                (TmFixtureLine          *line,
                                                          const char             *metadata_name,
                                                          gint64                  offset_ps,
                                                          gint64                  duration_ps);
/* Same, with an explicit metadata id (which may name no metadata). */
TmFixtureEvent *tm_fixture_line_add_event_with_id        (TmFixtureLine          *line,
                                                          gint64                  metadata_id,
                                                          gint64                  offset_ps,
                                                          gint64                  duration_ps);
/* Replaces offset_ps by num_occurrences (the other member of the oneof). */
void            tm_fixture_event_set_num_occurrences     (TmFixtureEvent         *event,
                                                          gint64                  num_occurrences);

/* Stats are written in the order added; the same name may be added twice. */
void            tm_fixture_event_add_stat                (TmFixtureEvent         *event,
                                                          const TmFixtureStat    *stat);
void            tm_fixture_event_add_stats               (TmFixtureEvent         *event,
                                                          const TmFixtureStat    *stats,
                                                          gsize                   n_stats);
void            tm_fixture_event_add_int64               (TmFixtureEvent         *event,
                                                          const char             *name,
                                                          gint64                  value);
void            tm_fixture_event_add_uint64              (TmFixtureEvent         *event,
                                                          const char             *name,
                                                          guint64                 value);
void            tm_fixture_event_add_double              (TmFixtureEvent         *event,
                                                          const char             *name,
                                                          double                  value);
void            tm_fixture_event_add_str                 (TmFixtureEvent         *event,
                                                          const char             *name,
                                                          const char             *value);
/* ref_value = id of the stat metadata named value (interned). */
void            tm_fixture_event_add_ref                 (TmFixtureEvent         *event,
                                                          const char             *name,
                                                          const char             *value);
void            tm_fixture_event_add_bytes               (TmFixtureEvent         *event,
                                                          const char             *name,
                                                          const guint8           *data,
                                                          gsize                   n_bytes);

/* ------------------------------------------------------------------ */
/* Memory events                                                       */

typedef enum
{
  TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,  /* allocator_name = allocator_name (string) */
  TM_FIXTURE_MEMORY_ID_INDEX_ON_HOST,   /* index_on_host  = memory_index (number) */
  TM_FIXTURE_MEMORY_ID_DEVICE_ORDINAL,  /* device_ordinal = memory_index (number) */
  TM_FIXTURE_MEMORY_ID_NONE,            /* no id stat at all */
} TmFixtureMemoryIdKind;

/* Bits of TmFixtureMemory.absent: stats that are not written. */
typedef enum
{
  TM_FIXTURE_FIELD_MEMORY_ID         = 1 << 0,
  TM_FIXTURE_FIELD_BYTES_RESERVED    = 1 << 1,
  TM_FIXTURE_FIELD_BYTES_ALLOCATED   = 1 << 2,
  TM_FIXTURE_FIELD_BYTES_AVAILABLE   = 1 << 3,
  TM_FIXTURE_FIELD_FRAGMENTATION     = 1 << 4,
  TM_FIXTURE_FIELD_PEAK_BYTES_IN_USE = 1 << 5,
  TM_FIXTURE_FIELD_REQUESTED_BYTES   = 1 << 6,
  TM_FIXTURE_FIELD_ALLOCATION_BYTES  = 1 << 7,
  TM_FIXTURE_FIELD_ADDR              = 1 << 8,
  TM_FIXTURE_FIELD_TF_OP             = 1 << 9,
  TM_FIXTURE_FIELD_GROUP_ID          = 1 << 10,
  TM_FIXTURE_FIELD_REGION_TYPE       = 1 << 11,
  TM_FIXTURE_FIELD_DATA_TYPE         = 1 << 12,
  TM_FIXTURE_FIELD_SHAPE             = 1 << 13,
} TmFixtureMemoryField;

/* Encoding switches for memory events. */
typedef enum
{
  TM_FIXTURE_MEMORY_DEFAULT               = 0,
  /* allocator_name, tf_op, region_type, shape as ref_value instead of str_value */
  TM_FIXTURE_MEMORY_STRINGS_AS_REF        = 1 << 0,
  /* integer stats (sizes, addr, group_id, data_type, index) as uint64_value */
  TM_FIXTURE_MEMORY_NUMBERS_AS_UINT64     = 1 << 1,
  /* integer stats as double_value */
  TM_FIXTURE_MEMORY_NUMBERS_AS_DOUBLE     = 1 << 2,
  /* fragmentation written as int64_value 0 (whatever .fragmentation says) */
  TM_FIXTURE_MEMORY_FRAGMENTATION_INT64_0 = 1 << 3,
} TmFixtureMemoryFlags;

/* The usual stats of a MemoryAllocation / MemoryDeallocation event. By
 * default numbers are int64_value (addr too), fragmentation double_value,
 * strings str_value; a NULL string is not written; group_id is written only
 * when has_group_id. Stats are written in the order of the fields below. */
typedef struct
{
  TmFixtureMemoryIdKind id_kind;
  const char           *allocator_name;     /* for TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME */
  gint64                memory_index;       /* for INDEX_ON_HOST / DEVICE_ORDINAL */
  gint64                bytes_reserved;     /* stack */
  gint64                bytes_allocated;    /* heap */
  gint64                bytes_available;    /* free */
  double                fragmentation;
  gint64                peak_bytes_in_use;
  gint64                requested_bytes;
  gint64                allocation_bytes;
  guint64               addr;
  const char           *tf_op;
  gboolean              has_group_id;
  gint64                group_id;
  const char           *region_type;
  gint64                data_type;          /* TensorFlow DataType enum */
  const char           *shape;
  guint                 absent;             /* TmFixtureMemoryField bits */
  TmFixtureMemoryFlags  flags;
} TmFixtureMemory;

/* Appends a "MemoryAllocation" (allocation TRUE) or "MemoryDeallocation"
 * event at offset_ps, duration 0, with memory's stats. The returned event
 * may get more stats (e.g. a second memory-id stat). */
TmFixtureEvent *tm_fixture_line_add_memory_event         (TmFixtureLine          *line,
                                                          gboolean                allocation,
                                                          gint64                  offset_ps,
                                                          const TmFixtureMemory  *memory);

/* ------------------------------------------------------------------ */
/* HLO modules                                                         */

/* Appends an event named module_name, [start_ps, end_ps), to line
 * "XLA Modules" (timestamp 0) of plane "/device:TPU:<tpu_index>", both
 * created as needed. */
TmFixtureEvent *tm_fixture_space_add_hlo_module          (TmFixtureSpace         *space,
                                                          guint                   tpu_index,
                                                          const char             *module_name,
                                                          gint64                  start_ps,
                                                          gint64                  end_ps);

/* ------------------------------------------------------------------ */
/* Encoding and files                                                  */

/* protobuf-c pack of the space. */
GBytes         *tm_fixture_space_serialize               (TmFixtureSpace         *space);

/* Encodings a reader must accept although real writers do not produce them.
 * Flags combine. */
typedef enum
{
  TM_FIXTURE_ODD_NONE            = 0,
  /* each plane: event_metadata and stat_metadata maps, plane stats, then
   * lines, then name, then id */
  TM_FIXTURE_ODD_METADATA_FIRST  = 1 << 0,
  /* each plane split: its lines in two runs with the metadata maps and the
   * name in between, every metadata map written as two runs */
  TM_FIXTURE_ODD_INTERLEAVED     = 1 << 1,
  /* each plane's name written twice, first as "/ignored:overwritten"; the
   * later one wins */
  TM_FIXTURE_ODD_DUPLICATE_NAME  = 1 << 2,
  /* every message's fields in descending field-number order (XLine events
   * before name and timestamp, XEvent stats before metadata_id, XStat value
   * before metadata_id, map entry value before key) */
  TM_FIXTURE_ODD_REVERSED        = 1 << 3,
  /* unknown fields in every message: 15 varint, 1000 fixed64, 1001 fixed32,
   * 536870911 length-delimited (after the known fields) */
  TM_FIXTURE_ODD_UNKNOWN_FIELDS  = 1 << 4,
  /* every varint value and length (not tags) one byte longer than needed,
   * 0x80-padded, where it stays within 10 bytes */
  TM_FIXTURE_ODD_LONG_VARINTS    = 1 << 5,
  /* proto3 default values (0, "") written explicitly instead of omitted */
  TM_FIXTURE_ODD_EXPLICIT_ZEROS  = 1 << 6,
  /* every metadata map entry's value written as two occurrences of field 2,
   * which a parser merges: the first holds only the name, the second the
   * id and the rest */
  TM_FIXTURE_ODD_SPLIT_VALUES    = 1 << 7,
} TmFixtureOddFlags;

/* Hand-encoded; with TM_FIXTURE_ODD_NONE the bytes equal the protobuf-c
 * pack. The result decodes (protobuf-c) to the same space. */
GBytes         *tm_fixture_space_serialize_odd           (TmFixtureSpace         *space,
                                                          TmFixtureOddFlags       flags);

/* Writes bytes to dir/basename, or (dir NULL) to basename in a new
 * directory made by g_dir_make_tmp ("tidemark-fixture-XXXXXX"). Returns the
 * file's path. */
char           *tm_fixture_write_bytes                   (GBytes                 *bytes,
                                                          const char             *dir,
                                                          const char             *basename,
                                                          GError                **error);
/* tm_fixture_space_serialize() + tm_fixture_write_bytes(). */
char           *tm_fixture_space_write                   (TmFixtureSpace         *space,
                                                          const char             *dir,
                                                          const char             *basename,
                                                          GError                **error);
/* A new empty temp directory (g_dir_make_tmp). */
char           *tm_fixture_make_temp_dir                 (GError                **error);
/* Removes path (a file, or a directory with everything below it). For a
 * file written with dir NULL, also removes its temp directory. */
void            tm_fixture_remove                        (const char             *path);

/* ------------------------------------------------------------------ */
/* Ready-made fixtures                                                 */

/* XProf's example (see the top of this file). */
TmFixtureSpace *tm_fixture_space_new_xprof_example       (void);

#define TM_FIXTURE_XPROF_ALLOCATOR             "GPU_0_bfc"
#define TM_FIXTURE_XPROF_N_SNAPSHOTS           3
#define TM_FIXTURE_XPROF_N_ALLOCATIONS         2
#define TM_FIXTURE_XPROF_N_DEALLOCATIONS       1
#define TM_FIXTURE_XPROF_PEAK_BYTES            G_GINT64_CONSTANT (7000)
#define TM_FIXTURE_XPROF_PEAK_TIME_PS          G_GINT64_CONSTANT (70000)
#define TM_FIXTURE_XPROF_PEAK_STACK            G_GINT64_CONSTANT (2000)
#define TM_FIXTURE_XPROF_PEAK_HEAP             G_GINT64_CONSTANT (5000)
#define TM_FIXTURE_XPROF_PEAK_FREE             G_GINT64_CONSTANT (4000)
#define TM_FIXTURE_XPROF_PEAK_FRAGMENTATION    0.2
#define TM_FIXTURE_XPROF_CAPACITY              G_GINT64_CONSTANT (11000)
#define TM_FIXTURE_XPROF_LIFETIME_PEAK         G_GINT64_CONSTANT (9500)
#define TM_FIXTURE_XPROF_PEAK_STEP             G_GINT64_CONSTANT (0)
#define TM_FIXTURE_XPROF_FIRST_TIME_PS         G_GINT64_CONSTANT (40000)
#define TM_FIXTURE_XPROF_LAST_TIME_PS          G_GINT64_CONSTANT (70000)
#define TM_FIXTURE_XPROF_UNUSED_BYTES          G_GINT64_CONSTANT (4700)
#define TM_FIXTURE_XPROF_OP_BYTES              G_GINT64_CONSTANT (300)
#define TM_FIXTURE_XPROF_OP_NAME               "mul_grad/Sum"
#define TM_FIXTURE_XPROF_OP_REGION             "temp"
#define TM_FIXTURE_XPROF_OP_DATA_TYPE          "half"
#define TM_FIXTURE_XPROF_OP_SHAPE              "[1, 2]"
#define TM_FIXTURE_XPROF_OP_ADDR               G_GUINT64_CONSTANT (345678)
#define TM_FIXTURE_XPROF_FIRST_OP_NAME         "foo/bar"
#define TM_FIXTURE_XPROF_FIRST_ADDR            G_GUINT64_CONSTANT (222333)

/* One run of a small Keras model as Keras names it in a process that
 * built models before: ops "MODEL/LAYER/OP" under model "sequential_<model>"
 * with three layers "conv2d_<first_conv>", "conv2d_<first_conv + 1>",
 * "conv2d_<first_conv + 2>" (ops Conv2D, BiasAdd) and two layers
 * "dense_<first_dense>", "dense_<first_dense + 1>" (op MatMul); a number
 * -1 names the first without a suffix ("sequential", "conv2d", then
 * "conv2d_1"), as Keras does. Allocator "GPU_0_bfc"; everything is
 * allocated in step 1 and live at the peak, the last allocation. Layer k
 * of its kind (k from 0) takes (k + 1) × 1024 × scale bytes for Conv2D,
 * (k + 1) × 256 × scale for BiasAdd and (k + 1) × 2048 × scale for MatMul,
 * so two runs of another scale differ in every op. */
TmFixtureSpace *tm_fixture_space_new_keras_run           (int                     model,
                                                          int                     first_conv,
                                                          int                     first_dense,
                                                          gint64                  scale);

/* A run folder of n_hosts small profiles, "worker-0.xplane.pb" …, in dir:
 * host i has allocator "TPU_0_bfc" (and "TPU_1_bfc" for even i) with a
 * few dozen allocations and deallocations; host TM_FIXTURE_RUN_BUSIEST (if
 * there) peaks highest. Host corrupt (G_MAXUINT: none) is not a protobuf,
 * host no_data (G_MAXUINT: none) has a host plane without memory events.
 * Returns the paths, by host index (NULL-terminated). */
#define TM_FIXTURE_RUN_BUSIEST 17
char          **tm_fixture_write_run                     (const char             *dir,
                                                          guint                   n_hosts,
                                                          guint                   corrupt,
                                                          guint                   no_data);

/* The profile the window tests tour the views with: GPU_0_bfc on a 16 GiB
 * device, an allocation of (i + 1) × 2 MiB (never freed) at 1, 2 … 10 ms,
 * a quiet stretch, then 90, 91, 92, 93 ms; long op names
 * "replica_6/bert_span_labeler/bert_encoder_1/transformer/layer_<i>/
 * self_attention/dropout_<i % 3>/dropout/Cast"; the first two in step 2,
 * the others in step 3 (so the peak table has "unused preallocated device
 * memory"); the fifth with nothing but its sizes (no op, step, address,
 * request, region or shape); fragmentation 5 % and 90 % by turns; two HLO
 * modules, "jit_train_step" over 1–9 ms and one without a name over
 * 90–93 ms. */
TmFixtureSpace *tm_fixture_space_new_tour                (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmFixtureSpace, tm_fixture_space_free)

G_END_DECLS
