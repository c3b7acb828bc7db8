/* make-seeds.c — the fuzz targets' seed corpora, from the test fixtures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * make-seeds OUTDIR writes OUTDIR/corpus-xspace (fixtures as *.xplane.pb,
 * in the usual and the odd encodings), OUTDIR/corpus-xprof-json (their
 * XProf JSON exports, plain, gzip-compressed, and 'Z' + JSON for the gzip
 * path of fuzz-xprof-json), OUTDIR/corpus-json-round-trip (both),
 * OUTDIR/corpus-memory-only-round-trip and OUTDIR/corpus-two-threads
 * (the XSpace seeds) and
 * OUTDIR/corpus-summaries (their `--summary --json` lines, written by the
 * core's exporter: one host per file, a failed host, and all in one run
 * file), OUTDIR/corpus-pickle (small PyTorch snapshots, see
 * seed_snapshot()), then touches OUTDIR/seeds.stamp.
 */
#include "config.h"

#include <string.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "tm-export.h"
#include "tm-fixture-writer.h"
#include "tm-hlo-fixture.h"
#include "tm-profile.h"

static char *outdir;
static guint n_seeds;
static GString *run_lines;  /* every summary line, for one run file */

static void
put (const char *corpus,
     const char *name,
     const void *data,
     gsize       size)
{
  g_autofree char *dir = g_build_filename (outdir, corpus, NULL);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (dir, 0755);
  if (!g_file_set_contents (path, data, (gssize) size, &error))
    g_error ("%s", error->message);
  n_seeds++;
}

static GBytes *
gzip (const char *data,
      gsize       size)
{
  gsize cap = compressBound (size) + 64;
  guint8 *gz = g_malloc (cap);
  z_stream zs = { 0 };

  g_assert (deflateInit2 (&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  zs.next_in = (Bytef *) data;
  zs.avail_in = size;
  zs.next_out = gz;
  zs.avail_out = cap;
  g_assert (deflate (&zs, Z_FINISH) == Z_STREAM_END);
  deflateEnd (&zs);
  return g_bytes_new_take (gz, zs.total_out);
}

/* The `--summary --json` line of a loaded profile, or of one that failed,
 * as a seed of its own; each is also kept for the run file. */
static void
add_summary (const char *name,
             GFile      *file,
             TmProfile  *profile,
             GError     *load_error)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *sn = g_strconcat (name, ".jsonl", NULL);
  GMemoryOutputStream *mem = G_MEMORY_OUTPUT_STREAM (out);
  gboolean ok;

  if (profile != NULL)
    ok = tm_export_summary_json (profile, name, out, NULL, &error);
  else
    ok = tm_export_summary_json_error (file, name, load_error->message, out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok && g_output_stream_close (out, NULL, NULL));
  put ("corpus-summaries", sn, g_memory_output_stream_get_data (mem), g_memory_output_stream_get_data_size (mem));
  g_string_append_len (run_lines, g_memory_output_stream_get_data (mem),
                       (gssize) g_memory_output_stream_get_data_size (mem));
}

/* The space as XSpace seeds, and its JSON export as JSON seeds. */
static void
add_space (const char     *name,
           TmFixtureSpace *space,
           gboolean        odd)
{
  g_autoptr(GBytes) bytes = tm_fixture_space_serialize (space);
  g_autofree char *pb = g_strconcat (name, ".xplane.pb", NULL);
  g_autofree char *tmp = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TmProfile) profile = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;

  put ("corpus-xspace", pb, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  put ("corpus-json-round-trip", pb, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  put ("corpus-memory-only-round-trip", pb, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  put ("corpus-two-threads", pb, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (odd)
    {
      const TmFixtureOddFlags flags[] = {
        TM_FIXTURE_ODD_METADATA_FIRST, TM_FIXTURE_ODD_INTERLEAVED, TM_FIXTURE_ODD_REVERSED,
        TM_FIXTURE_ODD_UNKNOWN_FIELDS | TM_FIXTURE_ODD_LONG_VARINTS,
        TM_FIXTURE_ODD_EXPLICIT_ZEROS | TM_FIXTURE_ODD_SPLIT_VALUES | TM_FIXTURE_ODD_DUPLICATE_NAME,
      };

      for (guint i = 0; i < G_N_ELEMENTS (flags); i++)
        {
          g_autoptr(GBytes) b = tm_fixture_space_serialize_odd (space, flags[i]);
          g_autofree char *n = g_strdup_printf ("%s-odd%u.xplane.pb", name, i);

          put ("corpus-xspace", n, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
          put ("corpus-memory-only-round-trip", n, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
          put ("corpus-two-threads", n, g_bytes_get_data (b, NULL), g_bytes_get_size (b));
        }
    }

  /* Its XProf JSON, through the real loader and exporter. */
  tmp = tm_fixture_write_bytes (bytes, NULL, "seed.xplane.pb", &error);
  g_assert_no_error (error);
  file = g_file_new_for_path (tmp);
  profile = tm_profile_load (file, NULL, NULL, NULL, &error);
  add_summary (name, file, profile, error);
  tm_fixture_remove (tmp);
  if (profile == NULL)
    return;  /* a seed that is meant to fail */

  out = g_memory_output_stream_new_resizable ();
  if (tm_export_xprof_json (profile, out, NULL, &error) && g_output_stream_close (out, NULL, NULL))
    {
      GMemoryOutputStream *mem = G_MEMORY_OUTPUT_STREAM (out);
      const char *json = g_memory_output_stream_get_data (mem);
      gsize len = g_memory_output_stream_get_data_size (mem);
      g_autoptr(GBytes) gz = gzip (json, len);
      g_autofree char *z = g_strdup_printf ("Z%.*s", (int) len, json);
      g_autofree char *jn = g_strconcat (name, ".json", NULL);
      g_autofree char *gn = g_strconcat (name, ".json.gz", NULL);
      g_autofree char *zn = g_strconcat (name, ".z", NULL);

      put ("corpus-xprof-json", jn, json, len);
      put ("corpus-xprof-json", gn, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
      put ("corpus-xprof-json", zn, z, len + 1);
      put ("corpus-json-round-trip", jn, json, len);
    }
}

static void
add_memory (TmFixtureSpace *space,
            const char     *allocator,
            gint64          time_ps,
            gboolean        alloc,
            gint64          heap,
            guint64         addr,
            const char     *op,
            gint64          group)
{
  TmFixtureLine *line = tm_fixture_plane_get_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory", 1000);
  TmFixtureMemory m = {
    .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME, .allocator_name = allocator,
    .bytes_reserved = 256, .bytes_allocated = heap, .bytes_available = 1 << 20, .fragmentation = 0.25,
    .peak_bytes_in_use = heap / 2 + 4096, .requested_bytes = 100, .allocation_bytes = 128, .addr = addr,
    .tf_op = op, .has_group_id = group >= 0, .group_id = group, .region_type = "output",
    .data_type = 1, .shape = "[2, 64]",
  };

  tm_fixture_line_add_memory_event (line, alloc, time_ps, &m);
}

/* A small PyTorch snapshot pickle, written the way Python's pickler
 * (protocol 4 or 5: MEMOIZE, FRAME at 5) or PyTorch's C++ pickler
 * (protocol 2: BINPUT, BINUNICODE) writes one: a segment of two blocks,
 * a trace of every action with a frames list shared through the memo, an
 * address above 2^63 as a LONG1 of 9 bytes. For fuzz-pickle. */
typedef struct
{
  GByteArray *b;
  guint       protocol;
  guint       memo;
} Pk;

static void
pk_bytes (Pk         *pk,
          const void *data,
          gsize       n)
{
  g_byte_array_append (pk->b, data, (guint) n);
}

static void
pk_op (Pk     *pk,
       guint8  op)
{
  pk_bytes (pk, &op, 1);
}

static guint
pk_put (Pk *pk)
{
  if (pk->protocol >= 4)
    pk_op (pk, 0x94);
  else
    {
      guint8 put[] = { 'q', (guint8) pk->memo };

      pk_bytes (pk, put, 2);
    }
  return pk->memo++;
}

static void
pk_get (Pk    *pk,
        guint  index)
{
  guint8 get[] = { 'h', (guint8) index };

  pk_bytes (pk, get, 2);
}

static void
pk_str (Pk         *pk,
        const char *s)
{
  guint8 n = (guint8) strlen (s);

  if (pk->protocol >= 4)
    {
      pk_op (pk, 0x8c);
      pk_bytes (pk, &n, 1);
    }
  else
    {
      guint8 len[] = { 'X', n, 0, 0, 0 };

      pk_bytes (pk, len, 5);
    }
  pk_bytes (pk, s, n);
}

static void
pk_int (Pk      *pk,
        guint64  v)
{
  guint8 b[10] = { 0x8a, 9 };

  if (v < 256)
    {
      guint8 k[] = { 'K', (guint8) v };

      pk_bytes (pk, k, 2);
      return;
    }
  for (guint i = 0; i < 8; i++)
    b[2 + i] = (guint8) (v >> (8 * i));
  pk_bytes (pk, b, 10);
  pk_op (pk, 0);
}

static GBytes *
seed_snapshot (guint protocol)
{
  Pk pk = { g_byte_array_new (), protocol, 0 };
  guint k_action, k_addr, k_size, k_frames, frames;
  const char *actions[] = { "segment_alloc", "alloc", "alloc", "free_requested", "free_completed",
                            "free_completed", "oom", "snapshot", "segment_free" };
  guint8 head[] = { 0x80, (guint8) protocol };

  pk_bytes (&pk, head, 2);
  pk_op (&pk, '}'); pk_put (&pk);
  pk_op (&pk, '(');
  pk_str (&pk, "segments"); pk_put (&pk);
  pk_op (&pk, ']'); pk_put (&pk);
  pk_op (&pk, '}'); pk_put (&pk);
  pk_op (&pk, '(');
  pk_str (&pk, "device"); pk_put (&pk); pk_int (&pk, 0);
  pk_str (&pk, "address"); pk_put (&pk); pk_int (&pk, 4096);
  pk_str (&pk, "total_size"); pk_put (&pk); pk_int (&pk, 200);
  pk_str (&pk, "stream"); pk_put (&pk); pk_int (&pk, 0);
  pk_str (&pk, "segment_pool_id"); pk_put (&pk); pk_int (&pk, 0); pk_int (&pk, 0); pk_op (&pk, 0x86);
  pk_str (&pk, "blocks"); pk_put (&pk);
  pk_op (&pk, ']');
  pk_op (&pk, '(');
  for (guint i = 0; i < 2; i++)
    {
      pk_op (&pk, '}');
      pk_op (&pk, '(');
      pk_str (&pk, "size"); pk_int (&pk, 100);
      pk_str (&pk, "requested_size"); pk_int (&pk, 60);
      pk_str (&pk, "state"); pk_str (&pk, i == 0 ? "active_allocated" : "inactive");
      pk_op (&pk, 'u');
    }
  pk_op (&pk, 'e');
  pk_op (&pk, 'u');
  pk_op (&pk, 'a');
  pk_str (&pk, "device_traces");
  pk_op (&pk, ']');
  pk_op (&pk, ']');
  pk_op (&pk, '(');
  k_action = k_addr = k_size = k_frames = frames = 0;
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      pk_op (&pk, '}');
      pk_op (&pk, '(');
      if (i == 0)
        {
          pk_str (&pk, "action"); k_action = pk_put (&pk);
        }
      else
        pk_get (&pk, k_action);
      pk_str (&pk, actions[i]);
      if (i == 0)
        {
          pk_str (&pk, "addr"); k_addr = pk_put (&pk);
          pk_str (&pk, "size"); k_size = pk_put (&pk);
          pk_str (&pk, "frames"); k_frames = pk_put (&pk);
        }
      pk_get (&pk, k_addr);
      pk_int (&pk, i == 2 ? G_MAXUINT64 - 511 : 4096 + 256 * (i % 3));
      pk_get (&pk, k_size);
      pk_int (&pk, 16 * i);
      pk_get (&pk, k_frames);
      if (i == 0)
        {
          pk_op (&pk, ']'); frames = pk_put (&pk);
          pk_op (&pk, '}');
          pk_op (&pk, '(');
          pk_str (&pk, "name"); pk_str (&pk, "forward");
          pk_str (&pk, "filename"); pk_str (&pk, "/src/model.py");
          pk_str (&pk, "line"); pk_int (&pk, 42);
          pk_op (&pk, 'u');
          pk_op (&pk, 'a');
        }
      else
        pk_get (&pk, frames);
      pk_str (&pk, "time_us"); pk_int (&pk, 1000 + i);
      pk_op (&pk, 'u');
    }
  pk_op (&pk, 'e');
  pk_op (&pk, 'a');
  pk_op (&pk, 'u');
  pk_op (&pk, '.');
  return g_byte_array_free_to_bytes (pk.b);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *stamp = NULL;

  if (argc != 2)
    {
      g_printerr ("usage: make-seeds OUTDIR\n");
      return 2;
    }
  outdir = argv[1];
  run_lines = g_string_new (NULL);

  {
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new_xprof_example ();

    add_space ("xprof-example", space, TRUE);
  }

  {
    /* Two allocators, steps, a pair, a free without its allocation, HLO
     * modules on two TPUs, a second host line on another clock. */
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixtureLine *second;
    TmFixtureMemory m = {
      .id_kind = TM_FIXTURE_MEMORY_ID_INDEX_ON_HOST, .memory_index = 3,
      .bytes_reserved = 1, .bytes_allocated = 2, .bytes_available = 3, .peak_bytes_in_use = 4,
      .requested_bytes = 2, .allocation_bytes = 2, .addr = 77, .tf_op = "idx", .region_type = "temp",
      .data_type = 19, .shape = "[]",
      .flags = TM_FIXTURE_MEMORY_NUMBERS_AS_UINT64 | TM_FIXTURE_MEMORY_STRINGS_AS_REF,
    };

    add_memory (space, "GPU_0_bfc", 10, TRUE, 1000, 64, "a/b", 1);
    add_memory (space, "GPU_0_bfc", 20, TRUE, 2000, 128, "c/d", 1);
    add_memory (space, "GPU_0_bfc", 30, FALSE, 1000, 64, "a/b", 2);
    add_memory (space, "GPU_0_bfc", 40, FALSE, 500, 4096, "gone", -1);
    add_memory (space, "gpu_host_bfc", 15, TRUE, 10, 8, "h", -1);
    second = tm_fixture_plane_add_line (tm_fixture_space_get_plane (space, "/host:CPU"), "Memory 2", 2000);
    tm_fixture_line_add_memory_event (second, TRUE, 5, &m);
    tm_fixture_space_add_hlo_module (space, 0, "jit_step", 0, 100);
    tm_fixture_space_add_hlo_module (space, 1, "jit_step", 50, 150);
    add_space ("two-allocators", space, TRUE);
  }

  {
    /* Three host lines that take turns in time, two allocators, a step
     * every few events and some without one: the two reading threads of
     * fuzz-two-threads each get several runs of steps, and free memory
     * that is the rest of one capacity in one allocator, not in the
     * other. */
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();
    TmFixturePlane *host = tm_fixture_space_get_plane (space, "/host:CPU");
    gint64 heap[2] = { 0, 0 };

    for (guint l = 0; l < 3; l++)
      {
        TmFixtureLine *line = tm_fixture_plane_add_line (host, "Memory", 1000 + l);

        for (guint k = 0; k < 24; k++)
          {
            guint a = (k / 4) % 2;
            gboolean alloc = k % 4 < 2;
            TmFixtureMemory m = {
              .id_kind = TM_FIXTURE_MEMORY_ID_ALLOCATOR_NAME,
              .allocator_name = a == 0 ? "GPU_0_bfc" : "GPU_1_bfc",
              .bytes_reserved = a == 0 ? 0 : 256 * (k % 3), .fragmentation = 0.125 * (k % 5),
              .requested_bytes = 256, .allocation_bytes = 256,
              .addr = 4096 * (1 + l * 8 + k % 2), .tf_op = alloc ? "op/x" : NULL,
              .has_group_id = k % 7 != 3, .group_id = k / 3, .region_type = "output",
              .data_type = 1, .shape = "[64]",
            };

            heap[a] += alloc ? 256 : -256;
            m.bytes_allocated = heap[a];
            m.peak_bytes_in_use = MAX (heap[a], 0);
            m.bytes_available = a == 0 ? (1 << 20) - heap[a] : 1 << 20;
            tm_fixture_line_add_memory_event (line, alloc, 10 * k + l, &m);
          }
      }
    add_space ("lines-and-steps", space, TRUE);
  }

  {
    /* Names that are not UTF-8 and extreme values. */
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();

    add_memory (space, "GPU\xff", 10, TRUE, G_MAXINT64, 64, "op\xc3", 0);
    add_memory (space, "GPU\xff", G_MAXINT64, TRUE, G_MININT64, 64, "\xed\xa0\x80", G_MAXINT64);
    add_memory (space, "GPU\xff", G_MININT64, FALSE, 0, 64, "x", -1);
    tm_fixture_space_add_hlo_module (space, 0, "wide", G_MININT64, G_MAXINT64);
    add_space ("hostile", space, FALSE);
  }

  {
    /* No host plane; an empty space. */
    g_autoptr(TmFixtureSpace) space = tm_fixture_space_new ();

    tm_fixture_space_add_hlo_module (space, 0, "only", 1, 2);
    add_space ("no-host", space, FALSE);
  }

  /* Small JSON of the older TensorFlow form and of trailing data. */
  {
    const char *tf =
      "{\"memory_profile_per_allocator\":{\"GPU_0_bfc\":{\"memory_profile_snapshots\":[{\"time_offset_ps\":1,"
      "\"aggregation_stats\":{\"stack_reserved_bytes\":1,\"heap_allocated_bytes\":2,\"free_memory_bytes\":3,"
      "\"fragmentation\":0.5,\"peak_bytes_in_use\":4},\"activity_metadata\":{\"memory_activity\":1,"
      "\"requested_bytes\":2,\"allocation_bytes\":2,\"address\":5,\"tf_op_name\":\"x\",\"step_id\":3,"
      "\"region_type\":\"output\",\"data_type\":\"float\",\"tensor_shape\":\"[1]\"}}],"
      "\"profile_summary\":{\"peak_bytes_usage_lifetime\":4,\"peak_stats\":{\"stack_reserved_bytes\":1,"
      "\"heap_allocated_bytes\":2},\"peak_stats_time_ps\":1,\"memory_capacity\":6},\"active_allocations\":"
      "[{\"snapshot_index\":0,\"special_index\":-1,\"num_occurrences\":1}]}},\"memory_ids\":[\"GPU_0_bfc\"]}";

    put ("corpus-xprof-json", "tensorflow.json", tf, strlen (tf));
    put ("corpus-json-round-trip", "tensorflow.json", tf, strlen (tf));
  }

  {
    /* A failed host, then every host in one run file. */
    g_autoptr(GFile) missing = g_file_new_for_path ("/nonexistent/worker-5.xplane.pb");
    g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No such file or directory");

    add_summary ("worker-5", missing, NULL, error);
    put ("corpus-summaries", "run.jsonl", run_lines->str, run_lines->len);
    g_string_free (run_lines, TRUE);
  }

  /* fuzz-hlo: the modules of XProf's Memory Viewer tests, with traces that
   * share, chain and free. */
  {
    static const int base_events[] = { 0, 1, 0, 2, 2, 1, 1, 1, 0, 1, 2, 0 };
    static const int chain_events[] = { 0, 1, 0, 2, 2, 1, 1, 1, 0, 1, 2, 0, 2, 3, 2, 1, 3, 0 };
    static const int display_events[] = { 0, 1, 0, 2, 2, 1, 1, 1, 0, 1, 2, 0, 0, 4, 0, 2, 3, 2, 1, 3, 0, 1, 4, 0 };
    struct { const char *name; TmHloFixture *(*make) (void); const int *events; guint n; } hlo[] = {
      { "base.hlo_proto.pb", tm_hlo_fixture_new_base, base_events, G_N_ELEMENTS (base_events) },
      { "chain.hlo_proto.pb", tm_hlo_fixture_new_chain, chain_events, G_N_ELEMENTS (chain_events) },
      { "display.hlo_proto.pb", tm_hlo_fixture_new_display, display_events, G_N_ELEMENTS (display_events) },
    };

    for (guint i = 0; i < G_N_ELEMENTS (hlo); i++)
      {
        g_autoptr(TmHloFixture) f = hlo[i].make ();
        g_autoptr(GBytes) bytes = NULL;

        for (guint k = 0; k < hlo[i].n; k += 3)
          tm_hlo_fixture_add_event (f, hlo[i].events[k], hlo[i].events[k + 1], hlo[i].events[k + 2]);
        bytes = tm_hlo_fixture_serialize (f);
        put ("corpus-hlo", hlo[i].name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
      }
  }

  {
    /* PyTorch snapshots for fuzz-pickle: protocols 2, 4 and 5, plain,
     * gzip-compressed, and 'Z' + pickle for its gzip path. */
    const guint protocols[] = { 2, 4, 5 };

    for (guint i = 0; i < G_N_ELEMENTS (protocols); i++)
      {
        g_autoptr(GBytes) pickle = seed_snapshot (protocols[i]);
        const char *data = g_bytes_get_data (pickle, NULL);
        gsize len = g_bytes_get_size (pickle);
        g_autoptr(GBytes) gz = gzip (data, len);
        g_autofree char *name = g_strdup_printf ("snapshot-%u.pickle", protocols[i]);
        g_autofree char *gz_name = g_strdup_printf ("snapshot-%u.pickle.gz", protocols[i]);
        g_autofree char *z_name = g_strdup_printf ("z-snapshot-%u", protocols[i]);
        g_autofree char *z = g_malloc (len + 1);

        z[0] = 'Z';
        memcpy (z + 1, data, len);
        put ("corpus-pickle", name, data, len);
        put ("corpus-pickle", gz_name, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
        put ("corpus-pickle", z_name, z, len + 1);
      }
  }

  stamp = g_build_filename (outdir, "seeds.stamp", NULL);
  g_file_set_contents (stamp, "", 0, NULL);
  g_print ("%u seeds in %s\n", n_seeds, outdir);
  return 0;
}
