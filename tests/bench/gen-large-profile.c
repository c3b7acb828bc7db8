/* gen-large-profile.c — writes a large, realistic XSpace for benchmarks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   gen-large-profile [--size-mib N | --small] [--seed S] [shape options] OUT.xplane.pb
 *
 * The file looks like a TensorFlow multi-GPU training profile: a "/host:CPU"
 * plane whose thread lines interleave the memory events of five allocators
 * (GPU_0_bfc … GPU_3_bfc, gpu_host_bfc) with executor and eager events, and
 * "/device:GPU:N" planes full of kernels, copies, op and name-scope
 * events. Its shape, by default like the real GPU profile:
 *   --others-per-memory-event R   other host events per memory event (5)
 *   --stats-per-event N           stats of each of them (4)
 *   --memory-lines N              host lines with memory events (8)
 *   --idle-lines N                host lines without (6)
 *   --device-planes N             device planes (4)
 *   --device-events N             events per device plane (800 000 per GiB)
 * The host plane fills what the device planes leave of the size (about 2
 * million memory events per GiB with the defaults). With
 * --memory-events-per-mib N the memory events are given instead and the
 * device planes fill the rest (4100 and 0.27 others: the earlier files).
 *
 * Memory stays constant: every length-delimited message is preceded by its
 * length, so each plane is generated twice from the same seeds — once to
 * count bytes, once to write them. Lines are generated independently (each
 * allocator is simulated again for every line it feeds), so nothing needs
 * to be held back.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#define MIB               (G_GUINT64_CONSTANT (1024) * 1024)
#define MEMORY_EVENTS_PER_STEP 2750  /* over the five allocators */
#define STEP_PERIOD_PS    G_GINT64_CONSTANT (8000000000)   /* 8 ms */
#define LINE_TIMESTAMP_NS G_GINT64_CONSTANT (1717171717000000000)
#define SINK_CAPACITY     (4 * 1024 * 1024)

enum
{
  WIRE_VARINT  = 0,
  WIRE_FIXED64 = 1,
  WIRE_LEN     = 2,
};

/* ------------------------------------------------------------------ */
/* Random numbers: xoshiro256** seeded by splitmix64                   */

typedef struct
{
  guint64 s[4];
} Rng;

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static void
rng_seed (Rng     *rng,
          guint64  seed,
          guint64  stream)
{
  guint64 x = seed * G_GUINT64_CONSTANT (0x100000001b3) + stream * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + 1;

  for (guint i = 0; i < 4; i++)
    rng->s[i] = splitmix64 (&x);
}

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
rng_next (Rng *rng)
{
  guint64 *s = rng->s;
  guint64 result = rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);

  return result;
}

static inline guint32
rng_below (Rng     *rng,
           guint32  n)
{
  return (guint32) (((rng_next (rng) >> 32) * n) >> 32);
}

static inline double
rng_double (Rng *rng)
{
  return (rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* A gap around mean: uniform in [mean/2, 3·mean/2). */
static inline gint64
rng_gap (Rng    *rng,
         gint64  mean)
{
  if (mean < 2)
    return 1;
  return mean / 2 + (gint64) (rng_next (rng) % (guint64) mean);
}

/* ------------------------------------------------------------------ */
/* Byte buffers and protobuf wire primitives                           */

typedef struct
{
  guint8 *data;
  gsize   len;
  gsize   cap;
} Buf;

static inline void
buf_reserve (Buf   *b,
             gsize  extra)
{
  if (b->len + extra > b->cap)
    {
      b->cap = MAX (b->cap * 2, b->len + extra + 256);
      b->data = g_realloc (b->data, b->cap);
    }
}

static inline void
buf_varint (Buf     *b,
            guint64  v)
{
  buf_reserve (b, 10);
  while (v >= 0x80)
    {
      b->data[b->len++] = (guint8) (v | 0x80);
      v >>= 7;
    }
  b->data[b->len++] = (guint8) v;
}

static inline guint
varint_size (guint64 v)
{
  guint n = 1;

  while (v >= 0x80)
    {
      v >>= 7;
      n++;
    }
  return n;
}

static inline void
buf_append (Buf           *b,
            gconstpointer  data,
            gsize          n)
{
  buf_reserve (b, n);
  memcpy (b->data + b->len, data, n);
  b->len += n;
}

static inline void
buf_tag (Buf   *b,
         guint  field,
         guint  wire_type)
{
  buf_varint (b, ((guint64) field << 3) | wire_type);
}

static inline void
buf_int64_field (Buf    *b,
                 guint   field,
                 gint64  value)
{
  if (value == 0)
    return;
  buf_tag (b, field, WIRE_VARINT);
  buf_varint (b, (guint64) value);
}

static inline void
buf_string_field (Buf        *b,
                  guint       field,
                  const char *s,
                  gsize       n)
{
  if (n == 0)
    return;
  buf_tag (b, field, WIRE_LEN);
  buf_varint (b, n);
  buf_append (b, s, n);
}

/* XStat messages as field `field` of their parent. */
static inline void
stat_varint (Buf     *b,
             guint    field,
             guint64  metadata_id,
             guint    value_field,
             guint64  value)
{
  buf_tag (b, field, WIRE_LEN);
  buf_varint (b, 1 + varint_size (metadata_id) + 1 + varint_size (value));
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, metadata_id);
  buf_tag (b, value_field, WIRE_VARINT);
  buf_varint (b, value);
}

static inline void
stat_int64 (Buf     *b,
            guint    field,
            guint64  metadata_id,
            gint64   value)
{
  stat_varint (b, field, metadata_id, 4, (guint64) value);
}

static inline void
stat_uint64 (Buf     *b,
             guint    field,
             guint64  metadata_id,
             guint64  value)
{
  stat_varint (b, field, metadata_id, 3, value);
}

static inline void
stat_ref (Buf     *b,
          guint    field,
          guint64  metadata_id,
          guint64  ref)
{
  stat_varint (b, field, metadata_id, 7, ref);
}

static inline void
stat_double (Buf     *b,
             guint    field,
             guint64  metadata_id,
             double   value)
{
  guint64 bits;
  guint8 le[8];

  memcpy (&bits, &value, sizeof bits);
  for (guint i = 0; i < 8; i++)
    le[i] = (bits >> (8 * i)) & 0xff;

  buf_tag (b, field, WIRE_LEN);
  buf_varint (b, 1 + varint_size (metadata_id) + 1 + 8);
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, metadata_id);
  buf_tag (b, 2, WIRE_FIXED64);
  buf_append (b, le, sizeof le);
}

static inline void
stat_str_len (Buf        *b,
              guint       field,
              guint64     metadata_id,
              const char *s,
              gsize       n)
{
  buf_tag (b, field, WIRE_LEN);
  buf_varint (b, 1 + varint_size (metadata_id) + 1 + varint_size (n) + n);
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, metadata_id);
  buf_tag (b, 5, WIRE_LEN);
  buf_varint (b, n);
  buf_append (b, s, n);
}

static inline void
stat_str (Buf        *b,
          guint       field,
          guint64     metadata_id,
          const char *s)
{
  stat_str_len (b, field, metadata_id, s, strlen (s));
}

/* ------------------------------------------------------------------ */
/* Output: counts bytes (first pass) or writes them (second pass)      */

typedef struct
{
  int      fd;
  gboolean writing;
  guint8  *buf;
  gsize    len;
  guint64  total;
} Sink;

static void
write_all (int           fd,
           gconstpointer data,
           gsize         n)
{
  const guint8 *p = data;

  while (n > 0)
    {
      gssize r = write (fd, p, n);

      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        {
          g_printerr ("gen-large-profile: write failed: %s\n", g_strerror (errno));
          exit (1);
        }
      p += r;
      n -= r;
    }
}

static void
sink_flush (Sink *sink)
{
  if (sink->writing && sink->len > 0)
    write_all (sink->fd, sink->buf, sink->len);
  sink->len = 0;
}

static inline void
sink_put (Sink          *sink,
          gconstpointer  data,
          gsize          n)
{
  sink->total += n;
  if (!sink->writing)
    return;

  if (sink->len + n > SINK_CAPACITY)
    {
      sink_flush (sink);
      if (n > SINK_CAPACITY)
        {
          write_all (sink->fd, data, n);
          return;
        }
    }
  memcpy (sink->buf + sink->len, data, n);
  sink->len += n;
}

/* Tag + length header of a length-delimited field. */
static inline void
sink_header (Sink    *sink,
             guint    field,
             guint64  length)
{
  Buf b = { 0 };
  guint8 storage[24];

  b.data = storage;
  b.cap = sizeof storage;
  buf_tag (&b, field, WIRE_LEN);
  buf_varint (&b, length);
  sink_put (sink, b.data, b.len);
}

static inline void
sink_message (Sink      *sink,
              guint      field,
              const Buf *body)
{
  sink_header (sink, field, body->len);
  sink_put (sink, body->data, body->len);
}

/* ------------------------------------------------------------------ */
/* Name pools (fixed, independent of the seed)                         */

static const char *const layer_parts[] = {
  "attention/self/query/MatMul",
  "attention/self/key/MatMul",
  "attention/self/value/MatMul",
  "attention/self/MatMul",
  "attention/self/Softmax",
  "attention/self/dropout/Mul_1",
  "attention/self/MatMul_1",
  "attention/output/dense/MatMul",
  "attention/output/dense/BiasAdd",
  "attention/output/LayerNorm/batchnorm/mul_1",
  "intermediate/dense/MatMul",
  "intermediate/dense/BiasAdd",
  "intermediate/Gelu/mul_1",
  "output/dense/MatMul",
  "output/dropout/Mul_1",
  "output/LayerNorm/batchnorm/add_1",
};

#define N_LAYERS      24
#define N_FWD_OPS     (N_LAYERS * (int) G_N_ELEMENTS (layer_parts))
#define N_MISC_OPS    8
#define N_OPS         (2 * N_FWD_OPS + N_MISC_OPS)

static const char *const misc_ops[N_MISC_OPS] = {
  "IteratorGetNext",
  "model/bert/embeddings/word_embeddings/Gather",
  "model/bert/embeddings/LayerNorm/batchnorm/add_1",
  "model/cls/predictions/transform/dense/MatMul",
  "model/cls/predictions/MatMul",
  "loss/sparse_categorical_crossentropy/SparseSoftmaxCrossEntropyWithLogits",
  "Adam/Adam/update/ResourceApplyAdam",
  "global_norm/global_norm",
};

typedef struct
{
  char   *shape;       /* "[32,384,1024]" */
  char   *shape_host;  /* "(half[32,384,1024])", as executor events print it */
  gint64  dtype;
  gint64  bytes;
} Tensor;

typedef struct
{
  char     *ops[N_OPS];          /* forward ops, their gradients, misc */
  char     *op_types[N_OPS];     /* "MatMul" …, last path element */
  char     *op_events[N_OPS];    /* "layer_3/attention/self/query/MatMul:MatMul" */
  GPtrArray *gpu_tensors;        /* Tensor */
  GPtrArray *host_tensors;       /* Tensor */
  GPtrArray *kernels;            /* char * */
  GPtrArray *kernel_details;     /* char * */
  GPtrArray *scopes;             /* char * */
} Pools;

static const char *
dtype_name (gint64 dtype)
{
  switch (dtype)
    {
    case 1: return "float";
    case 3: return "int32";
    case 9: return "int64";
    case 10: return "bool";
    case 14: return "bfloat16";
    case 19: return "half";
    default: return "float";
    }
}

static gint64
dtype_size (gint64 dtype)
{
  switch (dtype)
    {
    case 1: case 3: return 4;
    case 9: return 8;
    case 10: return 1;
    default: return 2;
    }
}

static Tensor *
tensor_new (gint64        dtype,
            const gint64 *dims,
            guint         n_dims)
{
  Tensor *t = g_new0 (Tensor, 1);
  GString *s = g_string_new ("[");
  gint64 elements = 1;

  for (guint i = 0; i < n_dims; i++)
    {
      g_string_append_printf (s, "%s%" G_GINT64_FORMAT, i > 0 ? "," : "", dims[i]);
      elements *= dims[i];
    }
  g_string_append_c (s, ']');

  t->dtype = dtype;
  t->bytes = MAX (elements * dtype_size (dtype), 1);
  t->shape = g_string_free (s, FALSE);
  t->shape_host = g_strdup_printf ("(%s%s)", dtype_name (dtype), t->shape);

  return t;
}

static void
tensor_free (gpointer data)
{
  Tensor *t = data;

  g_free (t->shape);
  g_free (t->shape_host);
  g_free (t);
}

static void
pools_init (Pools *pools)
{
  static const gint64 seqs[] = { 128, 384, 512 };
  static const gint64 hiddens[] = { 768, 1024, 3072, 4096 };
  static const gint64 gpu_dtypes[] = { 19, 19, 1, 14, 3, 10 };
  static const char *const kernel_stems[] = {
    "volta_h884gemm_ldg8_nn",
    "volta_sgemm_tn",
    "ampere_fp16_s16816gemm_fp16_ldg8_f2f_stages_32x5_tn",
    "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<Eigen::half, 1, 1, long>, 16, Eigen::MakePointer>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_product_op<Eigen::half, Eigen::half>, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 1, 1, long>, 16> const> const> const, Eigen::GpuDevice>, long>(Eigen::TensorEvaluator<Eigen::half>, long)",
    "void tensorflow::functor::ColumnReduceKernel<Eigen::half const*, float*, cub::Sum>(Eigen::half const*, float*, int, int, cub::Sum, std::iterator_traits<Eigen::half const*>::value_type)",
    "void tensorflow::BiasNHWCKernel<Eigen::half>(int, Eigen::half const*, Eigen::half const*, Eigen::half*, int)",
    "void cub::DeviceReduceSingleTileKernel<cub::DeviceReducePolicy<float, int, cub::Sum>::Policy600, float*, float*, int, cub::Sum, float>(float*, float*, int, cub::Sum, float)",
    "void tensorflow::functor::FillPhiloxRandomKernelLaunch<tensorflow::random::UniformDistribution<tensorflow::random::PhiloxRandom, Eigen::half> >(unsigned long long const*, unsigned long long const*, tensorflow::random::PhiloxRandom, Eigen::half*, long long)",
  };
  Rng rng;
  int n = 0;

  rng_seed (&rng, 20240601, 0);

  for (int l = 0; l < N_LAYERS; l++)
    for (guint p = 0; p < G_N_ELEMENTS (layer_parts); p++)
      pools->ops[n++] = g_strdup_printf ("model/bert/encoder/layer_%d/%s", l, layer_parts[p]);
  for (int i = 0; i < N_FWD_OPS; i++)
    pools->ops[n++] = g_strdup_printf ("gradient_tape/%s/%s", pools->ops[i],
                                       i % 3 == 0 ? "MatMul_1" : "Mul");
  for (int i = 0; i < N_MISC_OPS; i++)
    pools->ops[n++] = g_strdup (misc_ops[i]);
  g_assert (n == N_OPS);

  for (int i = 0; i < N_OPS; i++)
    {
      const char *slash = strrchr (pools->ops[i], '/');
      const char *type = slash != NULL ? slash + 1 : pools->ops[i];
      char *end;

      pools->op_types[i] = g_strdup (type);
      end = strchr (pools->op_types[i], '_');
      if (end != NULL && g_ascii_isdigit (end[1]))
        *end = '\0';
      pools->op_events[i] = g_strdup_printf ("%s:%s", pools->ops[i] + (g_str_has_prefix (pools->ops[i], "model/bert/encoder/") ? 19 : 0),
                                             pools->op_types[i]);
    }

  pools->gpu_tensors = g_ptr_array_new_with_free_func (tensor_free);
  for (guint i = 0; i < 384; i++)
    {
      gint64 dims[4];
      guint n_dims;
      gint64 dtype = gpu_dtypes[rng_below (&rng, G_N_ELEMENTS (gpu_dtypes))];

      switch (rng_below (&rng, 6))
        {
        case 0:  /* weights-like */
          dims[0] = hiddens[rng_below (&rng, 4)];
          dims[1] = hiddens[rng_below (&rng, 4)];
          n_dims = 2;
          break;

        case 1:  /* attention scores */
          dims[0] = 8;
          dims[1] = 16;
          dims[2] = seqs[rng_below (&rng, 3)];
          dims[3] = dims[2];
          n_dims = 4;
          break;

        case 2:  /* bias, small */
          dims[0] = hiddens[rng_below (&rng, 4)];
          n_dims = 1;
          break;

        default:  /* activations */
          dims[0] = 8;
          dims[1] = seqs[rng_below (&rng, 3)];
          dims[2] = hiddens[rng_below (&rng, 4)];
          n_dims = 3;
          break;
        }
      g_ptr_array_add (pools->gpu_tensors, tensor_new (dtype, dims, n_dims));
    }

  pools->host_tensors = g_ptr_array_new_with_free_func (tensor_free);
  for (guint i = 0; i < 64; i++)
    {
      gint64 dims[2] = { 1 + rng_below (&rng, 64), 1 + rng_below (&rng, 512) };
      guint n_dims = rng_below (&rng, 3);
      static const gint64 host_dtypes[] = { 9, 3, 1, 10 };

      g_ptr_array_add (pools->host_tensors,
                       tensor_new (host_dtypes[rng_below (&rng, 4)], dims, n_dims));
    }

  pools->kernels = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < 320; i++)
    {
      const char *stem = kernel_stems[i % G_N_ELEMENTS (kernel_stems)];

      g_ptr_array_add (pools->kernels,
                       g_strdup_printf ("%s <%d,%u>", stem, 32 << (i % 3), 64 + i));
    }

  pools->kernel_details = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < 64; i++)
    g_ptr_array_add (pools->kernel_details,
                     g_strdup_printf ("regs:%u shm:%u grid:%u,1,1 block:%u,1,1",
                                      16 + rng_below (&rng, 240), 1024 * rng_below (&rng, 48),
                                      1 + rng_below (&rng, 4096), 32u << rng_below (&rng, 6)));

  pools->scopes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (pools->scopes, g_strdup ("model"));
  g_ptr_array_add (pools->scopes, g_strdup ("bert"));
  g_ptr_array_add (pools->scopes, g_strdup ("encoder"));
  g_ptr_array_add (pools->scopes, g_strdup ("gradient_tape"));
  for (int l = 0; l < N_LAYERS; l++)
    g_ptr_array_add (pools->scopes, g_strdup_printf ("layer_%d", l));
}

static void
pools_clear (Pools *pools)
{
  for (int i = 0; i < N_OPS; i++)
    {
      g_free (pools->ops[i]);
      g_free (pools->op_types[i]);
      g_free (pools->op_events[i]);
    }
  g_ptr_array_unref (pools->gpu_tensors);
  g_ptr_array_unref (pools->host_tensors);
  g_ptr_array_unref (pools->kernels);
  g_ptr_array_unref (pools->kernel_details);
  g_ptr_array_unref (pools->scopes);
}

/* ------------------------------------------------------------------ */
/* The plan                                                            */

#define N_ALLOCATORS 5
#define HOST_ALLOCATOR 4

static const char *const allocator_names[N_ALLOCATORS] = {
  "GPU_0_bfc", "GPU_1_bfc", "GPU_2_bfc", "GPU_3_bfc", "gpu_host_bfc",
};

typedef struct
{
  guint64  seed;
  guint64  target_bytes;
  guint    n_steps;
  gint64   duration_ps;
  Pools    pools;
  /* the shape */
  double   others_per_memory_event;
  guint    stats_per_event;        /* of each other host event */
  guint    n_memory_lines;         /* host lines with memory events */
  guint    n_idle_lines;           /* host lines without */
  guint    n_device_planes;
  guint64  device_events;          /* per device plane; 0: they fill the rest */
  guint    n_routes[N_ALLOCATORS]; /* host lines each allocator feeds */
  /* results */
  guint64  memory_events[N_ALLOCATORS];
  guint64  host_other_events;
  guint64  written_device_events;
} Plan;

/* ------------------------------------------------------------------ */
/* Allocator simulation                                                */

/* Host plane stat metadata ids: fixed names first, then the strings that
 * events reference with ref_value. */
enum
{
  HS_ALLOCATOR_NAME = 1,
  HS_BYTES_RESERVED,
  HS_BYTES_ALLOCATED,
  HS_BYTES_AVAILABLE,
  HS_FRAGMENTATION,
  HS_PEAK_BYTES_IN_USE,
  HS_REQUESTED_BYTES,
  HS_ALLOCATION_BYTES,
  HS_ADDR,
  HS_TF_OP,
  HS_ID,
  HS_REGION_TYPE,
  HS_DATA_TYPE,
  HS_SHAPE,
  HS_GROUP_ID,
  HS_ITER_NUM,
  HS_CT,
  HS_C,
  HS_KERNEL_NAME,
  HS_NUM_OUTPUT_EDGES,
  HS_NUM_OUTPUT_CONTROL_EDGES,
  HS_IS_EAGER,
  HS_LONG_NAME,
  HS_STEP_NUM,
  HS_EXTRA_BASE,
  HS_N_FIXED = HS_EXTRA_BASE + 12,
};

static const char *const host_stat_names[HS_N_FIXED] = {
  NULL, "allocator_name", "bytes_reserved", "bytes_allocated", "bytes_available",
  "fragmentation", "peak_bytes_in_use", "requested_bytes", "allocation_bytes",
  "addr", "tf_op", "id", "region_type", "data_type", "shape", "group_id",
  "iter_num", "_ct", "_c", "kernel_name", "num_output_edges",
  "num_output_control_edges", "is_eager", "long_name", "step_num",
  /* Filler stats, for --stats-per-event beyond an event's own. */
  "_r", "producer_type", "producer_id", "consumer_type", "consumer_id",
  "thread_id", "parent_step_id", "context_type", "context_id", "flow_id",
  "graph_type", "tf_function_call",
};

static const char *const region_names[] = { "output", "temp", "persist" };

#define HS_OP_BASE        HS_N_FIXED
#define HS_SHAPE_BASE     (HS_OP_BASE + N_OPS)
#define HS_HOST_SHAPE_BASE(p) (HS_SHAPE_BASE + (p)->pools.gpu_tensors->len)
#define HS_REGION_BASE(p) (HS_HOST_SHAPE_BASE (p) + (p)->pools.host_tensors->len)
#define HS_ALLOC_BASE(p)  (HS_REGION_BASE (p) + G_N_ELEMENTS (region_names))

/* Host plane event metadata ids. */
enum
{
  HE_MEMORY_ALLOCATION = 1,
  HE_MEMORY_DEALLOCATION,
  HE_EXECUTOR_PROCESS,
  HE_EXECUTOR_PROPAGATE,
  HE_EXECUTOR_DONE,
  HE_EAGER_EXECUTE,
  HE_FUNCTION_RUN,
  HE_ITERATOR_GET_NEXT,
  HE_EVENT_MANAGER_POLL,
  HE_N_FIXED,
};

static const char *const host_event_names[HE_N_FIXED] = {
  NULL, "MemoryAllocation", "MemoryDeallocation", "ExecutorState::Process",
  "ExecutorPropagateOutputs", "ExecutorDoneCallback", "EagerExecute",
  "FunctionRun", "IteratorGetNext", "EventMgr::PollEvents",
};

#define HE_OP_BASE HE_N_FIXED

enum
{
  REGION_OUTPUT,
  REGION_TEMP,
  REGION_PERSIST,
};

typedef struct
{
  guint64 addr;
  gint64  requested;
  gint64  allocation;
  guint32 op;
  guint32 tensor;
  guint8  region;
} Chunk;

#define MAX_ACTS   512
#define MAX_TEMPS  8

typedef struct
{
  gboolean allocation;
  gint64   time_ps;
  Chunk    chunk;
  gboolean has_group;
  gint64   group;
  guint    route;           /* 0: the allocator's main thread line, 1: the other */
  guint32  choice;          /* random bits for encoding choices */
  gint64   stack, heap, free, peak;
  double   frag;
} MemEvent;

typedef struct
{
  const Plan *plan;
  guint       index;
  gboolean    host;
  Rng         rng;
  gint64      limit;
  guint64     base_addr;
  guint64     bump;
  guint64     persist_bump;
  gint64      heap;
  gint64      peak;
  double      frag;
  gint64      t;
  gint64      mean_gap;
  guint       step;
  gboolean    forward;
  guint       fwd_left;
  guint       fwd_index;
  guint       n_persist;
  gboolean    done;
  Chunk       acts[MAX_ACTS];
  guint       n_acts;
  Chunk       temps[MAX_TEMPS];
  guint       temp_head;
  guint       n_temps;
} AllocSim;

static void
alloc_sim_start_step (AllocSim *sim)
{
  gint64 start = (gint64) sim->step * STEP_PERIOD_PS + 1000000;

  /* MAX() evaluates its arguments twice: draw first. */
  start += (gint64) rng_below (&sim->rng, 200000000);
  sim->t = MAX (sim->t + 1000, start);
  sim->forward = TRUE;
  sim->fwd_index = 0;
  sim->fwd_left = sim->host ? 60 + rng_below (&sim->rng, 40) : 140 + rng_below (&sim->rng, 50);
  sim->bump = sim->base_addr + (G_GUINT64_CONSTANT (1) << 32);
}

static void
alloc_sim_init (AllocSim   *sim,
                const Plan *plan,
                guint       index)
{
  memset (sim, 0, sizeof *sim);
  sim->plan = plan;
  sim->index = index;
  sim->host = index == HOST_ALLOCATOR;
  rng_seed (&sim->rng, plan->seed, 1000 + index);

  if (sim->host)
    {
      sim->limit = G_GINT64_CONSTANT (68719476736);
      sim->base_addr = G_GUINT64_CONSTANT (0x7f1c00000000);
      sim->heap = 579072;
      sim->peak = 134217728;
      sim->mean_gap = (STEP_PERIOD_PS * 8 / 10) / 260;
    }
  else
    {
      sim->limit = G_GINT64_CONSTANT (15476594688);
      sim->base_addr = G_GUINT64_CONSTANT (0x7f2000000000) + ((guint64) index << 38);
      sim->heap = G_GINT64_CONSTANT (1610612736) + (gint64) index * 104857600;
      sim->peak = sim->heap + G_GINT64_CONSTANT (4294967296) + (gint64) index * 52428800;
      sim->mean_gap = (STEP_PERIOD_PS * 8 / 10) / 520;
    }
  sim->persist_bump = sim->base_addr;
  sim->frag = 0.05;
  alloc_sim_start_step (sim);
}

static void
alloc_sim_new_chunk (AllocSim *sim,
                     Chunk    *chunk,
                     guint8    region)
{
  const Pools *pools = &sim->plan->pools;
  const GPtrArray *tensors = sim->host ? pools->host_tensors : pools->gpu_tensors;
  const Tensor *tensor;
  gint64 allocation;

  if (region == REGION_OUTPUT && !sim->host)
    /* The same layer makes the same tensors every step, with some variety. */
    chunk->tensor = (sim->fwd_index * 2654435761u + (rng_below (&sim->rng, 8) == 0 ? sim->step : 0)) % tensors->len;
  else
    chunk->tensor = rng_below (&sim->rng, tensors->len);
  tensor = g_ptr_array_index (tensors, chunk->tensor);

  if (region == REGION_OUTPUT)
    chunk->op = (sim->fwd_index * N_FWD_OPS / 190) % N_FWD_OPS;
  else if (region == REGION_PERSIST)
    chunk->op = 2 * N_FWD_OPS + rng_below (&sim->rng, N_MISC_OPS);
  else if (sim->forward)
    chunk->op = rng_below (&sim->rng, N_FWD_OPS);
  else
    chunk->op = N_FWD_OPS + rng_below (&sim->rng, N_FWD_OPS);

  allocation = MAX ((tensor->bytes + 255) / 256 * 256, 256);
  chunk->region = region;
  chunk->allocation = allocation;
  chunk->requested = tensor->bytes;

  if (region == REGION_PERSIST)
    {
      chunk->addr = sim->persist_bump;
      sim->persist_bump += allocation;
    }
  else
    {
      chunk->addr = sim->bump;
      sim->bump += allocation;
    }
}

static void
alloc_sim_fill (AllocSim    *sim,
                MemEvent    *ev,
                gboolean     allocation,
                const Chunk *chunk)
{
  if (allocation)
    sim->heap += chunk->allocation;
  else
    sim->heap -= chunk->allocation;
  sim->peak = MAX (sim->peak, sim->heap);
  if (!sim->host)
    {
      double frag = sim->frag + (rng_double (&sim->rng) - 0.5) * 0.02;

      sim->frag = CLAMP (frag, 0.0, 0.6);
    }

  sim->t += rng_gap (&sim->rng, sim->mean_gap);

  ev->allocation = allocation;
  ev->time_ps = sim->t;
  ev->chunk = *chunk;
  ev->group = sim->step;
  ev->has_group = !(chunk->region == REGION_PERSIST && sim->step == 0) && rng_below (&sim->rng, 100) != 0;
  /* The allocator's first line takes 70 %, its others share the rest. */
  ev->route = rng_below (&sim->rng, 100) < 70 || sim->plan->n_routes[sim->index] < 2
              ? 0 : 1 + rng_below (&sim->rng, sim->plan->n_routes[sim->index] - 1);
  ev->choice = (guint32) rng_next (&sim->rng);
  ev->stack = 0;
  ev->heap = sim->heap;
  ev->free = sim->limit - sim->heap;
  ev->peak = sim->peak;
  ev->frag = sim->host ? 0.0 : sim->frag;
}

/* The next event of this allocator; FALSE after the last step. */
static gboolean
alloc_sim_next (AllocSim *sim,
                MemEvent *ev)
{
  while (!sim->done)
    {
      Chunk chunk;

      if (sim->n_temps > 0 && (sim->n_temps == MAX_TEMPS || rng_below (&sim->rng, 100) < 45))
        {
          chunk = sim->temps[sim->temp_head];
          sim->temp_head = (sim->temp_head + 1) % MAX_TEMPS;
          sim->n_temps--;
          alloc_sim_fill (sim, ev, FALSE, &chunk);
          return TRUE;
        }

      if (sim->forward)
        {
          guint r = rng_below (&sim->rng, 100);

          if (sim->step < 2 && sim->n_persist < 120 && r < 10)
            {
              alloc_sim_new_chunk (sim, &chunk, REGION_PERSIST);
              sim->n_persist++;
            }
          else if (r < 35 || sim->n_acts == MAX_ACTS)
            {
              alloc_sim_new_chunk (sim, &chunk, REGION_TEMP);
              sim->temps[(sim->temp_head + sim->n_temps) % MAX_TEMPS] = chunk;
              sim->n_temps++;
            }
          else
            {
              alloc_sim_new_chunk (sim, &chunk, REGION_OUTPUT);
              sim->acts[sim->n_acts++] = chunk;
              sim->fwd_index++;
              if (--sim->fwd_left == 0)
                sim->forward = FALSE;
            }
          alloc_sim_fill (sim, ev, TRUE, &chunk);
          return TRUE;
        }

      if (sim->n_acts > 0)
        {
          if (rng_below (&sim->rng, 100) < 25)
            {
              alloc_sim_new_chunk (sim, &chunk, REGION_TEMP);
              sim->temps[(sim->temp_head + sim->n_temps) % MAX_TEMPS] = chunk;
              sim->n_temps++;
              alloc_sim_fill (sim, ev, TRUE, &chunk);
            }
          else
            {
              chunk = sim->acts[--sim->n_acts];
              alloc_sim_fill (sim, ev, FALSE, &chunk);
            }
          return TRUE;
        }

      if (sim->n_temps > 0)
        continue;  /* the first branch frees them */

      sim->step++;
      if (sim->step >= sim->plan->n_steps)
        sim->done = TRUE;
      else
        alloc_sim_start_step (sim);
    }

  return FALSE;
}

static void
encode_memory_event (const Plan     *plan,
                     guint           allocator,
                     const MemEvent *ev,
                     Buf            *b)
{
  const Pools *pools = &plan->pools;
  const Chunk *c = &ev->chunk;
  gboolean host = allocator == HOST_ALLOCATOR;
  const Tensor *tensor = g_ptr_array_index (host ? pools->host_tensors : pools->gpu_tensors, c->tensor);
  guint64 shape_id = host ? HS_HOST_SHAPE_BASE (plan) + c->tensor : HS_SHAPE_BASE + c->tensor;
  guint32 choice = ev->choice;

  b->len = 0;
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, ev->allocation ? HE_MEMORY_ALLOCATION : HE_MEMORY_DEALLOCATION);
  buf_tag (b, 2, WIRE_VARINT);
  buf_varint (b, (guint64) ev->time_ps);

  /* The host allocator's name is a ref_value, the GPU ones' str_value. */
  if (host)
    stat_ref (b, 4, HS_ALLOCATOR_NAME, HS_ALLOC_BASE (plan) + allocator);
  else
    stat_str (b, 4, HS_ALLOCATOR_NAME, allocator_names[allocator]);
  stat_int64 (b, 4, HS_BYTES_RESERVED, ev->stack);
  stat_int64 (b, 4, HS_BYTES_ALLOCATED, ev->heap);
  stat_int64 (b, 4, HS_BYTES_AVAILABLE, ev->free);
  if (host)
    stat_int64 (b, 4, HS_FRAGMENTATION, 0);
  else
    stat_double (b, 4, HS_FRAGMENTATION, ev->frag);
  stat_int64 (b, 4, HS_PEAK_BYTES_IN_USE, ev->peak);
  stat_int64 (b, 4, HS_REQUESTED_BYTES, c->requested);
  stat_int64 (b, 4, HS_ALLOCATION_BYTES, c->allocation);
  stat_int64 (b, 4, HS_ADDR, (gint64) c->addr);

  /* tf_op: ref_value mostly, str_value for one in eight. */
  if (choice & 7)
    stat_ref (b, 4, HS_TF_OP, HS_OP_BASE + c->op);
  else
    stat_str (b, 4, HS_TF_OP, pools->ops[c->op]);

  if (ev->allocation)
    {
      if (allocator % 2 == 0)
        stat_str (b, 4, HS_REGION_TYPE, region_names[c->region]);
      else
        stat_ref (b, 4, HS_REGION_TYPE, HS_REGION_BASE (plan) + c->region);
      stat_int64 (b, 4, HS_DATA_TYPE, tensor->dtype);
      if (choice & 8)
        stat_ref (b, 4, HS_SHAPE, shape_id);
      else
        stat_str (b, 4, HS_SHAPE, tensor->shape);
    }
  else
    {
      stat_int64 (b, 4, HS_DATA_TYPE, 0);
    }

  if (ev->has_group)
    stat_int64 (b, 4, HS_GROUP_ID, ev->group);
}

/* ------------------------------------------------------------------ */
/* Other host events                                                   */

typedef enum
{
  HOST_KIND_EXECUTOR,
  HOST_KIND_EAGER,
  HOST_KIND_DATA,
  HOST_KIND_EVENT_MANAGER,
} HostKind;

typedef struct
{
  const Plan *plan;
  HostKind    kind;
  Rng         rng;
  gint64      t;
  gint64      end;
  gint64      mean_gap;
  guint       seq;
  gint64      exec_id;
  guint64     exec_c;
  gint64      next_time;
  gboolean    done;
} OtherGen;

static void
other_gen_init (OtherGen   *gen,
                const Plan *plan,
                HostKind    kind,
                guint       line_index,
                guint64     n_events)
{
  memset (gen, 0, sizeof *gen);
  gen->plan = plan;
  gen->kind = kind;
  rng_seed (&gen->rng, plan->seed, 2000 + line_index);
  gen->end = plan->duration_ps;
  gen->mean_gap = n_events > 0 ? MAX (plan->duration_ps / (gint64) n_events, 2) : G_MAXINT64 / 4;
  gen->t = rng_gap (&gen->rng, gen->mean_gap);
  gen->done = n_events == 0 || gen->t >= gen->end;
  gen->next_time = gen->t;
}

/* A stat of an other event, while stats are left to write. */
static void
other_int (Buf    *b,
           guint  *left,
           guint64 id,
           gint64  value)
{
  if (*left == 0)
    return;
  stat_int64 (b, 4, id, value);
  (*left)--;
}

static void
other_uint (Buf    *b,
            guint  *left,
            guint64 id,
            guint64 value)
{
  if (*left == 0)
    return;
  stat_uint64 (b, 4, id, value);
  (*left)--;
}

static void
other_str (Buf        *b,
           guint      *left,
           guint64     id,
           const char *value)
{
  if (*left == 0)
    return;
  stat_str (b, 4, id, value);
  (*left)--;
}

/* Encodes the next event into b; advances. */
static void
other_gen_encode (OtherGen *gen,
                  Buf      *b)
{
  const Pools *pools = &gen->plan->pools;
  guint op = rng_below (&gen->rng, N_OPS);
  gint64 group = gen->t / STEP_PERIOD_PS;
  guint64 mid;
  gint64 duration;
  guint left;

  b->len = 0;
  switch (gen->kind)
    {
    case HOST_KIND_EXECUTOR:
      switch (gen->seq % 6)
        {
        case 0:
          gen->exec_id = (gint64) rng_next (&gen->rng);
          gen->exec_c = rng_next (&gen->rng);
          mid = HE_EXECUTOR_PROCESS;
          break;
        case 5:
          mid = HE_EXECUTOR_DONE;
          break;
        case 1: case 3:
          mid = HE_OP_BASE + op;
          break;
        default:
          mid = HE_EXECUTOR_PROPAGATE;
          break;
        }
      break;

    case HOST_KIND_EAGER:
      mid = gen->seq % 3 == 0 ? HE_FUNCTION_RUN : HE_EAGER_EXECUTE;
      break;

    case HOST_KIND_DATA:
      mid = gen->seq % 2 == 0 ? HE_ITERATOR_GET_NEXT : HE_OP_BASE + 2 * N_FWD_OPS;
      break;

    case HOST_KIND_EVENT_MANAGER:
    default:
      mid = HE_EVENT_MANAGER_POLL;
      break;
    }

  duration = 1000 + (gint64) rng_below (&gen->rng, 50000000);
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, mid);
  buf_tag (b, 2, WIRE_VARINT);
  buf_varint (b, (guint64) gen->t);
  buf_tag (b, 3, WIRE_VARINT);
  buf_varint (b, (guint64) duration);

  /* The event's own stats, then fillers, --stats-per-event in all. */
  left = gen->plan->stats_per_event;
  switch (mid)
    {
    case HE_EXECUTOR_PROCESS:
      other_int (b, &left, HS_ID, gen->exec_id);
      other_int (b, &left, HS_ITER_NUM, rng_below (&gen->rng, 4));
      other_int (b, &left, HS_CT, 1);
      other_uint (b, &left, HS_C, gen->exec_c);
      break;

    case HE_EXECUTOR_DONE:
      other_int (b, &left, HS_ID, gen->exec_id);
      other_int (b, &left, HS_CT, 1);
      other_uint (b, &left, HS_C, gen->exec_c);
      break;

    case HE_EXECUTOR_PROPAGATE:
      other_int (b, &left, HS_ID, gen->exec_id);
      other_str (b, &left, HS_KERNEL_NAME, pools->op_types[op]);
      other_int (b, &left, HS_NUM_OUTPUT_EDGES, rng_below (&gen->rng, 4));
      other_int (b, &left, HS_NUM_OUTPUT_CONTROL_EDGES, rng_below (&gen->rng, 2));
      break;

    case HE_EAGER_EXECUTE:
      other_str (b, &left, HS_LONG_NAME, pools->op_events[op]);
      other_int (b, &left, HS_IS_EAGER, 1);
      break;

    case HE_FUNCTION_RUN:
    case HE_ITERATOR_GET_NEXT:
      other_int (b, &left, HS_GROUP_ID, group);
      other_int (b, &left, HS_STEP_NUM, group);
      break;

    case HE_EVENT_MANAGER_POLL:
      other_int (b, &left, HS_ITER_NUM, rng_below (&gen->rng, 1000));
      break;

    default:  /* an op */
      {
        const Tensor *tensor = g_ptr_array_index (pools->gpu_tensors, rng_below (&gen->rng, pools->gpu_tensors->len));

        other_str (b, &left, HS_SHAPE, tensor->shape_host);
        other_int (b, &left, HS_IS_EAGER, 0);
        other_int (b, &left, HS_GROUP_ID, group);
      }
      break;
    }
  for (guint i = 0; left > 0; i = (i + 1) % (HS_N_FIXED - HS_EXTRA_BASE))
    {
      guint64 value = rng_next (&gen->rng) >> (8 * (1 + rng_below (&gen->rng, 7)));

      if (i % 4 == 3)
        other_str (b, &left, HS_EXTRA_BASE + i, pools->op_types[op]);
      else
        other_uint (b, &left, HS_EXTRA_BASE + i, value);
    }

  gen->seq++;
  gen->t += rng_gap (&gen->rng, gen->mean_gap);
  gen->next_time = gen->t;
  if (gen->t >= gen->end)
    gen->done = TRUE;
}

/* ------------------------------------------------------------------ */
/* Planes                                                              */

typedef struct
{
  char     *name;
  gint64    id;
  /* host lines */
  guint     n_feeds;
  int       feed[N_ALLOCATORS];       /* allocator index */
  guint     feed_route[N_ALLOCATORS]; /* which of the allocator's lines this is */
  HostKind  kind;
  double    other_weight;
  guint64   n_other;
  /* device lines */
  int       device_kind;
  guint64   budget;           /* first pass: bytes of events at most */
  guint64   n_events;         /* first pass result; second pass limit */
  gboolean  by_count;         /* n_events is given: no budget */
  /* both passes */
  guint64   events_bytes;
} LineSpec;

typedef struct _PlaneSpec PlaneSpec;

struct _PlaneSpec
{
  char     *name;
  gint64    id;
  guint     device;           /* GPU index; unused for the host */
  gboolean  host;
  LineSpec *lines;
  guint     n_lines;
  void    (*gen_line)      (Plan      *plan,
                            PlaneSpec *plane,
                            guint      line,
                            Sink      *sink,
                            gboolean   first_pass);
  void    (*write_tail)    (Plan      *plan,
                            PlaneSpec *plane,
                            Sink      *sink);
};

static void
host_gen_line (Plan      *plan,
               PlaneSpec *plane,
               guint      index,
               Sink      *sink,
               gboolean   first_pass)
{
  LineSpec *line = &plane->lines[index];
  AllocSim *sims[N_ALLOCATORS] = { NULL };
  MemEvent next[N_ALLOCATORS];
  gboolean have[N_ALLOCATORS] = { FALSE };
  OtherGen other;
  Buf b = { 0 };

  for (guint f = 0; f < line->n_feeds; f++)
    {
      sims[f] = g_new (AllocSim, 1);
      alloc_sim_init (sims[f], plan, line->feed[f]);
    }
  other_gen_init (&other, plan, line->kind, index, line->n_other);

  for (;;)
    {
      int pick = -1;
      gint64 best = G_MAXINT64;

      for (guint f = 0; f < line->n_feeds; f++)
        {
          while (sims[f] != NULL && !have[f])
            {
              if (!alloc_sim_next (sims[f], &next[f]))
                {
                  g_clear_pointer (&sims[f], g_free);
                  break;
                }
              have[f] = next[f].route == line->feed_route[f];
            }
          if (have[f] && next[f].time_ps < best)
            {
              best = next[f].time_ps;
              pick = f;
            }
        }

      if (!other.done && other.next_time < best)
        {
          other_gen_encode (&other, &b);
          sink_message (sink, 4, &b);
          if (!first_pass)
            plan->host_other_events++;
          continue;
        }

      if (pick < 0)
        break;

      encode_memory_event (plan, line->feed[pick], &next[pick], &b);
      sink_message (sink, 4, &b);
      if (!first_pass)
        plan->memory_events[line->feed[pick]]++;
      have[pick] = FALSE;
    }

  g_free (b.data);
}

static void
write_stat_metadata_entry (Sink       *sink,
                           Buf        *b,
                           guint64     id,
                           const char *name)
{
  gsize n = strlen (name);
  guint64 value_len = 1 + varint_size (id) + (n > 0 ? 1 + varint_size (n) + n : 0);

  b->len = 0;
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, id);
  buf_tag (b, 2, WIRE_LEN);
  buf_varint (b, value_len);
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, id);
  buf_string_field (b, 2, name, n);
  sink_message (sink, 5, b);
}

static void
write_event_metadata_entry (Sink       *sink,
                            Buf        *b,
                            guint64     id,
                            const char *name)
{
  gsize n = strlen (name);
  guint64 value_len = 1 + varint_size (id) + (n > 0 ? 1 + varint_size (n) + n : 0);

  b->len = 0;
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, id);
  buf_tag (b, 2, WIRE_LEN);
  buf_varint (b, value_len);
  buf_tag (b, 1, WIRE_VARINT);
  buf_varint (b, id);
  buf_string_field (b, 2, name, n);
  sink_message (sink, 4, b);
}

static void
host_write_tail (Plan      *plan,
                 PlaneSpec *plane,
                 Sink      *sink)
{
  const Pools *pools = &plan->pools;
  Buf b = { 0 };

  for (guint i = 1; i < HE_N_FIXED; i++)
    write_event_metadata_entry (sink, &b, i, host_event_names[i]);
  for (guint i = 0; i < N_OPS; i++)
    write_event_metadata_entry (sink, &b, HE_OP_BASE + i, pools->op_events[i]);

  for (guint i = 1; i < HS_N_FIXED; i++)
    write_stat_metadata_entry (sink, &b, i, host_stat_names[i]);
  for (guint i = 0; i < N_OPS; i++)
    write_stat_metadata_entry (sink, &b, HS_OP_BASE + i, pools->ops[i]);
  for (guint i = 0; i < pools->gpu_tensors->len; i++)
    write_stat_metadata_entry (sink, &b, HS_SHAPE_BASE + i,
                               ((Tensor *) g_ptr_array_index (pools->gpu_tensors, i))->shape);
  for (guint i = 0; i < pools->host_tensors->len; i++)
    write_stat_metadata_entry (sink, &b, HS_HOST_SHAPE_BASE (plan) + i,
                               ((Tensor *) g_ptr_array_index (pools->host_tensors, i))->shape);
  for (guint i = 0; i < G_N_ELEMENTS (region_names); i++)
    write_stat_metadata_entry (sink, &b, HS_REGION_BASE (plan) + i, region_names[i]);
  for (guint i = 0; i < N_ALLOCATORS; i++)
    write_stat_metadata_entry (sink, &b, HS_ALLOC_BASE (plan) + i, allocator_names[i]);

  g_free (b.data);
}

/* Device planes. */
enum
{
  DEV_H2D,
  DEV_COMPUTE,
  DEV_D2H,
  DEV_TF_OPS,
  DEV_NAME_SCOPE,
  DEV_STEPS,
  DEV_N_KINDS,
};

static const char *const device_line_names[DEV_N_KINDS] = {
  "MemcpyH2D", "Compute", "MemcpyD2H",
  "TensorFlow Ops", "TensorFlow Name Scope", "Steps",
};
static const double device_line_shares[DEV_N_KINDS] = { 0.05, 0.62, 0.05, 0.18, 0.10, 0.0 };
static const guint device_event_sizes[DEV_N_KINDS] = { 80, 150, 80, 20, 18, 20 };

enum
{
  DS_CORRELATION_ID = 1,
  DS_ANNOTATION,
  DS_CONTEXT_ID,
  DS_KERNEL_DETAILS,
  DS_SHAPE,
  DS_LEVEL_0,
  DS_GROUP_ID,
  DS_IS_EAGER,
  DS_MEMCPY_DETAILS,
  DS_STEP_NAME,
  DS_CLOCK_RATE,
  DS_CORE_COUNT,
  DS_MEMORY_BANDWIDTH,
  DS_MEMORY_SIZE,
  DS_COMPUTE_CAP_MAJOR,
  DS_COMPUTE_CAP_MINOR,
  DS_N_FIXED,
};

static const char *const device_stat_names[DS_N_FIXED] = {
  NULL, "correlation_id", "annotation", "context_id", "kernel_details", "shape",
  "level 0", "group_id", "is_eager", "memcpy_details", "step_name",
  "clock_rate", "core_count", "memory_bandwidth", "memory_size",
  "compute_cap_major", "compute_cap_minor",
};

#define DS_OP_BASE       DS_N_FIXED
#define DS_DETAILS_BASE  (DS_OP_BASE + N_OPS)

/* Device event metadata: copies, kernels, ops, scopes, steps. */
#define DE_H2D           1
#define DE_D2H           2
#define DE_KERNEL_BASE   3
#define DE_OP_BASE(p)    (DE_KERNEL_BASE + (p)->pools.kernels->len)
#define DE_SCOPE_BASE(p) (DE_OP_BASE (p) + N_OPS)
#define DE_STEP_BASE(p)  (DE_SCOPE_BASE (p) + (p)->pools.scopes->len)

static void
device_gen_line (Plan      *plan,
                 PlaneSpec *plane,
                 guint      index,
                 Sink      *sink,
                 gboolean   first_pass)
{
  const Pools *pools = &plan->pools;
  LineSpec *line = &plane->lines[index];
  guint64 budget = line->budget;
  guint64 limit = first_pass && !line->by_count ? G_MAXUINT64 : line->n_events;
  guint64 produced = 0;
  guint64 bytes = 0;
  guint64 correlation = 1 + plane->device * G_GUINT64_CONSTANT (100000000);
  gint64 expected, mean_gap, t;
  Buf b = { 0 };
  Rng rng;

  rng_seed (&rng, plan->seed, 3000 + plane->device * 16 + index);

  if (line->device_kind == DEV_STEPS)
    {
      expected = plan->n_steps;
      limit = MIN (limit, (guint64) plan->n_steps);
      budget = G_MAXUINT64;
    }
  else if (line->by_count)
    {
      expected = MAX ((gint64) line->n_events, 1);
      budget = G_MAXUINT64;
    }
  else
    {
      expected = MAX ((gint64) (budget / device_event_sizes[line->device_kind]), 1);
    }
  mean_gap = MAX (plan->duration_ps / expected, 2);
  t = rng_gap (&rng, mean_gap);

  while (produced < limit)
    {
      guint op = rng_below (&rng, N_OPS);
      gint64 duration = 0;
      guint64 header_len;

      b.len = 0;
      switch (line->device_kind)
        {
        case DEV_H2D:
        case DEV_D2H:
          {
            char details[64];

            duration = 1000000 + rng_below (&rng, 8000000);
            buf_tag (&b, 1, WIRE_VARINT);
            buf_varint (&b, line->device_kind == DEV_H2D ? DE_H2D : DE_D2H);
            buf_tag (&b, 2, WIRE_VARINT);
            buf_varint (&b, (guint64) t);
            buf_tag (&b, 3, WIRE_VARINT);
            buf_varint (&b, (guint64) duration);
            stat_uint64 (&b, 4, DS_CORRELATION_ID, correlation++);
            stat_ref (&b, 4, DS_ANNOTATION, DS_OP_BASE + op);
            stat_str (&b, 4, DS_CONTEXT_ID, "$$1");
            g_snprintf (details, sizeof details, "size:%u dest:%u async:1",
                        4u << rng_below (&rng, 20), plane->device);
            stat_str (&b, 4, DS_MEMCPY_DETAILS, details);
            stat_int64 (&b, 4, DS_IS_EAGER, 0);
          }
          break;

        case DEV_COMPUTE:
          {
            const Tensor *tensor = g_ptr_array_index (pools->gpu_tensors, rng_below (&rng, pools->gpu_tensors->len));

            duration = 2000000 + rng_below (&rng, 300000000);
            buf_tag (&b, 1, WIRE_VARINT);
            buf_varint (&b, DE_KERNEL_BASE + rng_below (&rng, pools->kernels->len));
            buf_tag (&b, 2, WIRE_VARINT);
            buf_varint (&b, (guint64) t);
            buf_tag (&b, 3, WIRE_VARINT);
            buf_varint (&b, (guint64) duration);
            stat_uint64 (&b, 4, DS_CORRELATION_ID, correlation++);
            stat_ref (&b, 4, DS_ANNOTATION, DS_OP_BASE + op);
            stat_str (&b, 4, DS_CONTEXT_ID, "$$1");
            stat_ref (&b, 4, DS_KERNEL_DETAILS, DS_DETAILS_BASE + rng_below (&rng, pools->kernel_details->len));
            stat_str (&b, 4, DS_SHAPE, tensor->shape_host);
            stat_ref (&b, 4, DS_LEVEL_0, DS_OP_BASE + op);
            stat_int64 (&b, 4, DS_GROUP_ID, t / STEP_PERIOD_PS);
            stat_int64 (&b, 4, DS_IS_EAGER, 0);
          }
          break;

        case DEV_TF_OPS:
          duration = 2000000 + rng_below (&rng, 300000000);
          buf_tag (&b, 1, WIRE_VARINT);
          buf_varint (&b, DE_OP_BASE (plan) + op);
          buf_tag (&b, 2, WIRE_VARINT);
          buf_varint (&b, (guint64) t);
          buf_tag (&b, 3, WIRE_VARINT);
          buf_varint (&b, (guint64) duration);
          stat_int64 (&b, 4, DS_GROUP_ID, t / STEP_PERIOD_PS);
          break;

        case DEV_NAME_SCOPE:
          duration = 2000000 + rng_below (&rng, 3000000000u);
          buf_tag (&b, 1, WIRE_VARINT);
          buf_varint (&b, DE_SCOPE_BASE (plan) + rng_below (&rng, pools->scopes->len));
          buf_tag (&b, 2, WIRE_VARINT);
          buf_varint (&b, (guint64) t);
          buf_tag (&b, 3, WIRE_VARINT);
          buf_varint (&b, (guint64) duration);
          stat_int64 (&b, 4, DS_GROUP_ID, t / STEP_PERIOD_PS);
          break;

        case DEV_STEPS:
        default:
          {
            char step_name[24];

            t = (gint64) produced * STEP_PERIOD_PS + 1000000;
            duration = STEP_PERIOD_PS - 2000000;
            buf_tag (&b, 1, WIRE_VARINT);
            buf_varint (&b, DE_STEP_BASE (plan) + produced);
            buf_tag (&b, 2, WIRE_VARINT);
            buf_varint (&b, (guint64) t);
            buf_tag (&b, 3, WIRE_VARINT);
            buf_varint (&b, (guint64) duration);
            stat_int64 (&b, 4, DS_GROUP_ID, (gint64) produced);
            g_snprintf (step_name, sizeof step_name, "%" G_GUINT64_FORMAT, produced);
            stat_str (&b, 4, DS_STEP_NAME, step_name);
          }
          break;
        }

      header_len = 1 + varint_size (b.len);
      if (first_pass && bytes + header_len + b.len > budget)
        break;
      bytes += header_len + b.len;
      sink_message (sink, 4, &b);
      produced++;
      t += rng_gap (&rng, mean_gap);
    }

  if (first_pass)
    line->n_events = produced;
  else
    plan->written_device_events += produced;

  g_free (b.data);
}

static void
device_write_tail (Plan      *plan,
                   PlaneSpec *plane,
                   Sink      *sink)
{
  const Pools *pools = &plan->pools;
  Buf b = { 0 };

  write_event_metadata_entry (sink, &b, DE_H2D, "MemcpyH2D");
  write_event_metadata_entry (sink, &b, DE_D2H, "MemcpyD2H");
  for (guint i = 0; i < pools->kernels->len; i++)
    write_event_metadata_entry (sink, &b, DE_KERNEL_BASE + i, g_ptr_array_index (pools->kernels, i));
  for (guint i = 0; i < N_OPS; i++)
    write_event_metadata_entry (sink, &b, DE_OP_BASE (plan) + i, pools->ops[i]);
  for (guint i = 0; i < pools->scopes->len; i++)
    write_event_metadata_entry (sink, &b, DE_SCOPE_BASE (plan) + i, g_ptr_array_index (pools->scopes, i));
  for (guint i = 0; i < plan->n_steps; i++)
    {
      char name[24];

      g_snprintf (name, sizeof name, "%u", i);
      write_event_metadata_entry (sink, &b, DE_STEP_BASE (plan) + i, name);
    }

  for (guint i = 1; i < DS_N_FIXED; i++)
    write_stat_metadata_entry (sink, &b, i, device_stat_names[i]);
  for (guint i = 0; i < N_OPS; i++)
    {
      g_autofree char *annotation = g_strdup_printf ("%s:%s", pools->ops[i], pools->op_types[i]);

      write_stat_metadata_entry (sink, &b, DS_OP_BASE + i, annotation);
    }
  for (guint i = 0; i < pools->kernel_details->len; i++)
    write_stat_metadata_entry (sink, &b, DS_DETAILS_BASE + i, g_ptr_array_index (pools->kernel_details, i));

  /* Plane stats (XPlane.stats, field 6). */
  b.len = 0;
  stat_int64 (&b, 6, DS_CLOCK_RATE, 1530000);
  stat_int64 (&b, 6, DS_CORE_COUNT, 80);
  stat_uint64 (&b, 6, DS_MEMORY_BANDWIDTH, G_GUINT64_CONSTANT (898048000000));
  stat_uint64 (&b, 6, DS_MEMORY_SIZE, G_GUINT64_CONSTANT (16945512448));
  stat_int64 (&b, 6, DS_COMPUTE_CAP_MAJOR, 7);
  stat_int64 (&b, 6, DS_COMPUTE_CAP_MINOR, 0);
  sink_put (sink, b.data, b.len);

  g_free (b.data);
}

static void
line_header (const LineSpec *line,
             Buf            *b)
{
  b->len = 0;
  buf_int64_field (b, 1, line->id);
  buf_string_field (b, 2, line->name, strlen (line->name));
  buf_int64_field (b, 3, LINE_TIMESTAMP_NS);
}

/* Counts, then writes one plane as field 1 of the XSpace. */
static void
write_plane (Plan      *plan,
             PlaneSpec *plane,
             Sink      *out)
{
  Sink counter = { .writing = FALSE };
  guint64 body = 0;
  Buf b = { 0 };

  for (guint l = 0; l < plane->n_lines; l++)
    {
      Sink line_counter = { .writing = FALSE };
      guint64 line_len;

      plane->gen_line (plan, plane, l, &line_counter, TRUE);
      plane->lines[l].events_bytes = line_counter.total;
      line_header (&plane->lines[l], &b);
      line_len = b.len + line_counter.total;
      body += 1 + varint_size (line_len) + line_len;
    }
  plane->write_tail (plan, plane, &counter);
  body += counter.total;

  b.len = 0;
  buf_int64_field (&b, 1, plane->id);
  buf_string_field (&b, 2, plane->name, strlen (plane->name));
  body += b.len;

  sink_header (out, 1, body);
  sink_put (out, b.data, b.len);

  for (guint l = 0; l < plane->n_lines; l++)
    {
      guint64 before;

      line_header (&plane->lines[l], &b);
      sink_header (out, 3, b.len + plane->lines[l].events_bytes);
      sink_put (out, b.data, b.len);
      before = out->total;
      plane->gen_line (plan, plane, l, out, FALSE);
      if (out->total - before != plane->lines[l].events_bytes)
        g_error ("line %s: second pass wrote %" G_GUINT64_FORMAT " bytes, first counted %" G_GUINT64_FORMAT,
                 plane->lines[l].name, out->total - before, plane->lines[l].events_bytes);
    }
  plane->write_tail (plan, plane, out);

  g_free (b.data);
}

static void
plane_spec_clear (PlaneSpec *plane)
{
  for (guint l = 0; l < plane->n_lines; l++)
    g_free (plane->lines[l].name);
  g_free (plane->lines);
  g_free (plane->name);
}

/* The host plane: --memory-lines thread lines carry the allocators' memory
 * events among other events (with five or more, line l carries allocator
 * l mod 5; with fewer, each carries several allocators), --idle-lines
 * carry other events only, each a quarter as many as a memory line. */
static void
host_plane_init (Plan      *plan,
                 PlaneSpec *plane)
{
  static const char *const gpu_threads[] = { "tf_gpu_private", "tf_Compute", "tf_gpu_stream" };
  static const char *const host_threads[] = { "python3", "tf_data_iterator_get_next", "tf_data_private" };
  static const struct { const char *thread; HostKind kind; } idle[] = {
    { "tf_GPU_Event_Manager", HOST_KIND_EVENT_MANAGER },
    { "tf_data_iterator_resource", HOST_KIND_DATA },
    { "collective_ops", HOST_KIND_EXECUTOR },
    { "tf_data_multi_device_iterator_get_next", HOST_KIND_DATA },
  };
  guint n_memory = plan->n_memory_lines;
  guint64 n_other = (guint64) (plan->others_per_memory_event * MEMORY_EVENTS_PER_STEP * plan->n_steps);
  double total_weight = n_memory + 0.25 * plan->n_idle_lines;

  plane->name = g_strdup ("/host:CPU");
  plane->id = 0;
  plane->host = TRUE;
  plane->n_lines = n_memory + plan->n_idle_lines;
  plane->lines = g_new0 (LineSpec, plane->n_lines);
  plane->gen_line = host_gen_line;
  plane->write_tail = host_write_tail;

  memset (plan->n_routes, 0, sizeof plan->n_routes);
  for (guint l = 0; l < n_memory; l++)
    {
      LineSpec *line = &plane->lines[l];
      guint tid = 1000003u * (l + 1) + 7919u;

      if (n_memory >= N_ALLOCATORS)
        {
          line->feed[0] = l % N_ALLOCATORS;
          line->feed_route[0] = l / N_ALLOCATORS;
          line->n_feeds = 1;
          plan->n_routes[l % N_ALLOCATORS]++;
        }
      else
        for (guint a = l; a < N_ALLOCATORS; a += n_memory)
          {
            line->feed[line->n_feeds] = a;
            line->feed_route[line->n_feeds] = 0;
            line->n_feeds++;
            plan->n_routes[a] = 1;
          }

      /* The main Python thread is plain "python3", others "<pool>/<tid>". */
      if (line->feed[0] == HOST_ALLOCATOR && line->feed_route[0] == 0)
        line->name = g_strdup ("python3");
      else if (line->feed[0] == HOST_ALLOCATOR)
        line->name = g_strdup_printf ("%s/%u", host_threads[MIN (line->feed_route[0], 2)], tid);
      else
        line->name = g_strdup_printf ("%s_%d/%u", gpu_threads[MIN (line->feed_route[0], 2)], line->feed[0], tid);
      line->id = tid;
      line->kind = line->feed[0] == HOST_ALLOCATOR ? HOST_KIND_EAGER : HOST_KIND_EXECUTOR;
      line->n_other = (guint64) (n_other / total_weight);
    }

  for (guint i = 0; i < plan->n_idle_lines; i++)
    {
      LineSpec *line = &plane->lines[n_memory + i];
      guint tid = 2000003u * (i + 1) + 104729u;

      line->name = g_strdup_printf ("%s/%u", idle[i % G_N_ELEMENTS (idle)].thread, tid);
      line->id = tid;
      line->n_feeds = 0;
      line->kind = idle[i % G_N_ELEMENTS (idle)].kind;
      line->n_other = (guint64) (0.25 * n_other / total_weight);
    }
}

/* A device plane of n_events events when by_count (the lines' shares
 * of bytes turned into shares of events), else of about budget bytes. */
static void
device_plane_init (Plan      *plan,
                   PlaneSpec *plane,
                   guint      device,
                   gint64     budget,
                   gboolean   by_count,
                   guint64    n_events)
{
  double event_shares = 0;

  Sink counter = { .writing = FALSE };
  gint64 lines_budget;

  plane->name = g_strdup_printf ("/device:GPU:%u", device);
  plane->id = device;
  plane->device = device;
  plane->n_lines = DEV_N_KINDS;
  plane->lines = g_new0 (LineSpec, plane->n_lines);
  plane->gen_line = device_gen_line;
  plane->write_tail = device_write_tail;

  /* What the metadata, the header and the steps line take comes first. */
  plane->write_tail (plan, plane, &counter);
  lines_budget = budget - (gint64) counter.total - 64 - 40 * (gint64) plan->n_steps;

  for (guint k = 0; k < DEV_N_KINDS; k++)
    {
      LineSpec *line = &plane->lines[k];

      if (k < DEV_TF_OPS)
        line->name = g_strdup_printf ("Stream #%u(%s)", 7 + 8 * device + k, device_line_names[k]);
      else
        line->name = g_strdup (device_line_names[k]);
      line->id = k < DEV_TF_OPS ? 7 + 8 * device + k : -559038734 - (gint64) k;
      line->device_kind = k;
      line->budget = lines_budget > 0 ? (guint64) (lines_budget * device_line_shares[k]) : 0;
      event_shares += device_line_shares[k] / device_event_sizes[k];
    }

  if (by_count)
    for (guint k = 0; k < DEV_N_KINDS; k++)
      if (k != DEV_STEPS)
        {
          plane->lines[k].by_count = TRUE;
          plane->lines[k].n_events = (guint64) (n_events * (device_line_shares[k] / device_event_sizes[k]) / event_shares);
        }
}

/* Bytes of a plane as write_plane() would write it. */
static guint64
count_plane (Plan      *plan,
             PlaneSpec *plane)
{
  Sink counter = { .writing = FALSE };

  write_plane (plan, plane, &counter);
  plane_spec_clear (plane);
  return counter.total;
}

static guint64
count_host_plane (Plan  *plan,
                  guint  n_steps)
{
  PlaneSpec host = { 0 };

  plan->n_steps = n_steps;
  plan->duration_ps = (gint64) n_steps * STEP_PERIOD_PS;
  host_plane_init (plan, &host);
  return count_plane (plan, &host);
}

static guint64
count_device_plane (Plan    *plan,
                    guint64  n_events)
{
  PlaneSpec device = { 0 };

  device_plane_init (plan, &device, 0, 0, TRUE, n_events);
  return count_plane (plan, &device);
}

/* The steps, so that the host plane fills what the device planes leave of
 * the size: both measured on small plans (the bytes of each grow linearly
 * with the steps and with the device events). */
static void
plan_steps (Plan *plan)
{
  guint64 h8 = count_host_plane (plan, 8);
  guint64 h24 = count_host_plane (plan, 24);
  double per_step = MAX ((double) h24 - (double) h8, 16.0) / 16.0;
  double host_tail = (double) h8 - 8 * per_step;
  double device = 0;

  if (plan->n_device_planes > 0)
    {
      guint64 d0 = count_device_plane (plan, 0);
      guint64 d1 = count_device_plane (plan, 20000);

      device = plan->n_device_planes * (d0 + (d1 - d0) / 20000.0 * plan->device_events);
    }
  plan->n_steps = (guint) MAX (2.0, (plan->target_bytes - device - host_tail) / per_step);

  /* The counting wrote nothing: forget what it counted. */
  memset (plan->memory_events, 0, sizeof plan->memory_events);
  plan->host_other_events = 0;
  plan->written_device_events = 0;
}

/* ------------------------------------------------------------------ */

int
main (int    argc,
      char **argv)
{
  gint64 size_mib = 1024;
  gint64 seed = 1;
  gboolean small = FALSE;
  gboolean quiet = FALSE;
  double others = 5.0;
  gint64 stats = 4;
  gint64 memory_lines = 8;
  gint64 idle_lines = 6;
  gint64 device_planes = 4;
  gint64 device_events = -1;
  gint64 memory_per_mib = 0;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "size-mib", 's', 0, G_OPTION_ARG_INT64, &size_mib, "Approximate file size in MiB (default 1024)", "N" },
    { "small", 0, 0, G_OPTION_ARG_NONE, &small, "A small profile of 4 MiB", NULL },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "Seed of the generator (default 1)", "S" },
    { "others-per-memory-event", 0, 0, G_OPTION_ARG_DOUBLE, &others,
      "Other host events per memory event (default 5, like the real GPU profile)", "R" },
    { "stats-per-event", 0, 0, G_OPTION_ARG_INT64, &stats, "Stats of each other host event (default 4)", "N" },
    { "memory-lines", 0, 0, G_OPTION_ARG_INT64, &memory_lines,
      "Host lines that carry memory events (default 8)", "N" },
    { "idle-lines", 0, 0, G_OPTION_ARG_INT64, &idle_lines,
      "Host lines without memory events (default 6)", "N" },
    { "device-planes", 0, 0, G_OPTION_ARG_INT64, &device_planes, "Device planes (default 4)", "N" },
    { "device-events", 0, 0, G_OPTION_ARG_INT64, &device_events,
      "Events of each device plane (default 800 000 per GiB of the size); the host plane fills the rest", "N" },
    { "memory-events-per-mib", 0, 0, G_OPTION_ARG_INT64, &memory_per_mib,
      "Memory events per MiB instead (4100: the earlier files); the device planes then fill the rest", "N" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing but errors", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, "OUT.xplane.pb" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp_path = NULL;
  Plan plan = { 0 };
  PlaneSpec host = { 0 };
  Sink out = { 0 };
  guint64 total_memory = 0;
  gint64 start;
  double seconds;

  context = g_option_context_new ("- write a large synthetic XSpace profile");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("gen-large-profile: %s\n", error->message);
      return 2;
    }
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      g_printerr ("gen-large-profile: give exactly one output file\n");
      return 2;
    }
  if (small)
    size_mib = 4;
  if (size_mib < 1 || size_mib > 1024 * 1024)
    {
      g_printerr ("gen-large-profile: --size-mib must be between 1 and 1048576\n");
      return 2;
    }
  if (!(others >= 0 && others <= 1000) || stats < 0 || stats > 64 || memory_lines < 1 || memory_lines > 64 ||
      idle_lines < 0 || idle_lines > 64 || device_planes < 0 || device_planes > 64 || memory_per_mib < 0 ||
      device_events < -1)
    {
      g_printerr ("gen-large-profile: a shape option is out of range (see --help)\n");
      return 2;
    }

  start = g_get_monotonic_time ();

  plan.seed = (guint64) seed;
  plan.target_bytes = (guint64) size_mib * MIB;
  plan.others_per_memory_event = others;
  plan.stats_per_event = (guint) stats;
  plan.n_memory_lines = (guint) memory_lines;
  plan.n_idle_lines = (guint) idle_lines;
  plan.n_device_planes = (guint) device_planes;
  pools_init (&plan.pools);
  if (memory_per_mib > 0)
    {
      /* The memory events are given; the device planes fill the rest. */
      plan.n_steps = MAX (2, (guint) ((guint64) size_mib * memory_per_mib / MEMORY_EVENTS_PER_STEP));
      plan.device_events = 0;
    }
  else
    {
      plan.device_events = device_events >= 0 ? (guint64) device_events
                           : (guint64) (800000.0 * size_mib / 1024.0);
      plan_steps (&plan);
    }
  plan.duration_ps = (gint64) plan.n_steps * STEP_PERIOD_PS;

  /* Write to a temporary name, renamed at the end: a reader never sees a
   * half-written profile under the final name. */
  tmp_path = g_strdup_printf ("%s.tmp-%d", rest[0], (int) getpid ());
  out.fd = g_open (tmp_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out.fd < 0)
    {
      g_printerr ("gen-large-profile: cannot create %s: %s\n", tmp_path, g_strerror (errno));
      return 1;
    }
  out.writing = TRUE;
  out.buf = g_malloc (SINK_CAPACITY);

  host_plane_init (&plan, &host);
  write_plane (&plan, &host, &out);
  plane_spec_clear (&host);

  for (guint d = 0; d < plan.n_device_planes; d++)
    {
      PlaneSpec device = { 0 };
      gint64 remaining = (gint64) plan.target_bytes - (gint64) out.total;

      device_plane_init (&plan, &device, d, remaining / (gint64) (plan.n_device_planes - d),
                         plan.device_events > 0, plan.device_events);
      write_plane (&plan, &device, &out);
      plane_spec_clear (&device);
    }

  {
    Buf b = { 0 };

    buf_string_field (&b, 4, "tidemark-bench-host", strlen ("tidemark-bench-host"));
    sink_put (&out, b.data, b.len);
    g_free (b.data);
  }

  sink_flush (&out);
  if (close (out.fd) != 0 || g_rename (tmp_path, rest[0]) != 0)
    {
      g_printerr ("gen-large-profile: cannot write %s: %s\n", rest[0], g_strerror (errno));
      g_unlink (tmp_path);
      return 1;
    }
  g_free (out.buf);

  seconds = (g_get_monotonic_time () - start) / 1e6;

  for (guint i = 0; i < N_ALLOCATORS; i++)
    total_memory += plan.memory_events[i];

  if (!quiet)
    {
      g_print ("file: %s\n", rest[0]);
      g_print ("bytes: %" G_GUINT64_FORMAT "\n", out.total);
      g_print ("seed: %" G_GINT64_FORMAT "\n", seed);
      g_print ("steps: %u\n", plan.n_steps);
      g_print ("memory_events: %" G_GUINT64_FORMAT "\n", total_memory);
      for (guint i = 0; i < N_ALLOCATORS; i++)
        g_print ("memory_events.%s: %" G_GUINT64_FORMAT "\n", allocator_names[i], plan.memory_events[i]);
      g_print ("host_other_events: %" G_GUINT64_FORMAT "\n", plan.host_other_events);
      g_print ("others_per_memory_event: %.2f\n", total_memory > 0 ? (double) plan.host_other_events / total_memory : 0.0);
      g_print ("stats_per_event: %u\n", plan.stats_per_event);
      g_print ("host_lines: %u with memory events, %u without\n", plan.n_memory_lines, plan.n_idle_lines);
      g_print ("device_planes: %u\n", plan.n_device_planes);
      g_print ("device_events: %" G_GUINT64_FORMAT "\n", plan.written_device_events);
      g_print ("seconds: %.2f\n", seconds);
    }

  pools_clear (&plan.pools);

  return 0;
}
