/* tm-input.h — what every reader of a file delivers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tidemark reads several formats (docs/formats.md). Whatever the format,
 * its reader hands over one TmInput: the memory ids with their stores
 * (built with tm-memory-store's builder, not yet finished), the HLO
 * modules, the hosts of a gathered run, and where the clock starts. What
 * a format allows (a time axis, allocations, scopes, which exports) is
 * the same for every file of it and is said once, by its
 * TmInputFormatInfo. The reader for a file is chosen by its content, in
 * one place (tm-input-picker); docs/architecture.md, "Adding an input
 * format", says what a new format touches.
 *
 * This file knows the shape of what is delivered, nothing of any reader.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TM_INPUT_FORMAT_XSPACE,      /* XSpace protobuf (*.xplane.pb), docs/formats.md, section 1 */
  TM_INPUT_FORMAT_XPROF_JSON,  /* XProf's memory-profile JSON, or it gzipped: sampled points only (section 2) */
  TM_INPUT_FORMAT_SUMMARIES,   /* JSON Lines of gathered host summaries: a run, no profile (section 3.1) */
  TM_INPUT_FORMAT_TORCH_SNAPSHOT,  /* a PyTorch memory snapshot pickle, or it gzipped (section 6) */
  TM_INPUT_FORMAT_HLO_PROTO,   /* one XLA module's serialized HloProto (a sidecar *.hlo_proto.pb):
                                * no memory ids, its module for the Memory Viewer (docs/buffer-assignment.md) */
  TM_INPUT_N_FORMATS
} TmInputFormat;

/* What the x axis of a format's memory ids counts. */
typedef enum
{
  TM_INPUT_AXIS_NONE,           /* no memory ids of its own (a run of summaries) */
  TM_INPUT_AXIS_TIME,           /* picoseconds on one clock */
  TM_INPUT_AXIS_PROGRAM_ORDER,  /* positions in a program's order: no clock, no durations */
} TmInputAxis;

/* Which analyses and exports make sense for a format. */
typedef enum
{
  TM_INPUT_HAS_PROFILE            = 1 << 0,  /* memory ids with stores: opens as a profile */
  TM_INPUT_HAS_RUN                = 1 << 1,  /* hosts of a run (TmInput.hosts): opens as a run overview */
  TM_INPUT_COMPLETE               = 1 << 2,  /* every event, not a sample of points */
  TM_INPUT_HAS_TIME_AXIS          = 1 << 3,  /* the timeline, times of peaks, --at */
  TM_INPUT_HAS_ALLOCATIONS        = 1 << 4,  /* allocations with addresses: the memory map, the allocations CSV */
  TM_INPUT_HAS_SCOPES             = 1 << 5,  /* op names as scopes: the scope view, collapsed stacks */
  TM_INPUT_HAS_XPROF_JSON_EXPORT  = 1 << 6,  /* --export=xprof-json */
  TM_INPUT_HAS_MEMORY_ONLY_EXPORT = 1 << 7,  /* --export=memory-xplane, Save Memory-Only Profile */
} TmInputFeatures;

typedef struct
{
  TmInputFormat    format;
  const char      *id;        /* stable, ASCII: the "format" member of --summary --json */
  const char      *name;      /* for people, to be translated with _() */
  TmInputAxis      axis;
  TmInputFeatures  features;
} TmInputFormatInfo;

/* The description of format (never NULL for a format of the enum). */
const TmInputFormatInfo *tm_input_format_get_info (TmInputFormat format);

/* What a reader delivers. */
typedef struct
{
  TmInputFormat  format;
  /* TmMemoryStore, in the reader's order (the profile sorts them); built
   * with the store's builder, not finished: see tm_memory_store_finish(). */
  GPtrArray     *stores;
  GArray        *hlo_modules;       /* TmHloModule, may be empty */
  /* TmHloEntry (tm-hlo): where the file holds serialized HloProtos, to be
   * decoded on first use; NULL when the format holds none. */
  GArray        *hlo_entries;
  /* TmHostSummary (tm-summaries-reader) of a run's hosts, for a format
   * with TM_INPUT_HAS_RUN; NULL otherwise (one file is one host, named
   * after the file: tm_run_host_name()). */
  GPtrArray     *hosts;
  /* char *: the parts the reader skipped and why, each naming where it
   * is ("line 3 of the summaries …"); empty when it skipped nothing.
   * Readers that fail on the first problem leave it empty. */
  GPtrArray     *problems;
  /* Where the clock of TM_INPUT_AXIS_TIME starts: time 0 is this
   * timestamp_ns of the profiler (nanoseconds, as the file writes them),
   * when the file says (has_clock_origin). */
  gboolean       has_clock_origin;
  gint64         clock_origin_ns;
  /* FALSE only when the file cannot hold memory events at all (an XSpace
   * without a "/host:CPU" plane), to say why there are no memory ids. */
  gboolean       has_memory_trace;
  /* What a gzip file inflated to, which the reader read; NULL when it
   * read the file's own bytes. */
  GBytes        *inflated;
  /* TmSegments (tm-segments), each naming its memory id: what a caching
   * allocator reserved; NULL for formats without one. */
  GPtrArray     *segments;
} TmInput;

/* Empties input for format: empty arrays, no clock, a memory trace. */
void tm_input_init  (TmInput       *input,
                     TmInputFormat  format);
/* Frees what input holds (its arrays free their elements). */
void tm_input_clear (TmInput       *input);

G_END_DECLS
