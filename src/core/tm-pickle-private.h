/* tm-pickle-private.h — what the pickle reader's two files share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tm-pickle.c parses; tm-pickle-values.c reads the values it made.
 */
#pragma once

#include "tm-pickle.h"

G_BEGIN_DECLS

/* A word: the low 3 bits say what the rest is. */
#define TAG_BITS  3
#define TAG_MASK  ((guint64) 7)
#define TAG_OBJ   ((guint64) 0)  /* index into the arena */
#define TAG_INT   ((guint64) 1)  /* a signed 61-bit integer */
#define TAG_CONST ((guint64) 2)  /* 0 None, 1 False, 2 True */
#define TAG_LAZY  ((guint64) 3)  /* a dict read again from the pickle: below */
#define UNSET     ((guint64) 7)  /* a memo slot never set */

#define WORD_NONE  (TAG_CONST | (0 << TAG_BITS))
#define WORD_FALSE (TAG_CONST | (1 << TAG_BITS))
#define WORD_TRUE  (TAG_CONST | (2 << TAG_BITS))

#define SMALL_MIN (-((gint64) 1 << 60))
#define SMALL_MAX (((gint64) 1 << 60) - 1)

/* Items and objects are counted in 32 bits. */
#define MAX_COUNT ((gsize) G_MAXUINT32 - 1)

typedef struct
{
  guint32 kind : 8;    /* TmPickleKind */
  guint32 shape : 24;  /* dicts: 0, or the shape whose keys they have;
                        * lists: 0, or 1 + the index of their own run */
  guint32 n;           /* string length; list/tuple items; dict pairs */
  union
  {
    gint64  i;
    guint64 u;
    double  f;
    guint64 offset;  /* strings: where the data starts in the pickle */
    struct
    {
      guint32 start;  /* first item word */
      guint32 cap;    /* words reserved from start */
    } c;
  } v;
} TmPickleObj;

/* Dicts of the same keys (trace entries, frames, blocks) share them: a
 * shape holds the key words once, and each such dict holds only its
 * values. */
#define MAX_SHAPE_KEYS TM_PICKLE_MAX_SHAPE_KEYS
#define MAX_SHAPES     ((1 << 24) - 1)
#define SHAPE_CACHE    8

typedef struct
{
  guint32 start;  /* first key word in shape_keys */
  guint32 n;
  guint32 lazy;   /* 0, or 1 + its index in lazy_shapes */
} TmPickleShape;

/* A lazy dict: a dict of a shape whose keys and values the pickle writes
 * as memo references and small integers only (a trace entry of a memory
 * snapshot), made by EMPTY_DICT, at most one memo opcode, MARK, its pairs
 * and SETITEMS. It takes no memory of its own: its word holds the index of
 * its shape among the lazy shapes (8 bits) and the byte offset of its
 * first key in the pickle (53 bits), and its values are read again from
 * there, with the final memo (docs/formats.md, section 6.1, "Shared
 * values"). The parser makes a dict lazy only when nothing else can hold
 * its word yet, and reads the pickle again without lazy dicts when a memo
 * slot is set twice or a lazy dict gets more items: then a value read
 * again might differ from the one read first. */
#define LAZY_SHAPE_BITS   8
#define MAX_LAZY_SHAPES   (1 << LAZY_SHAPE_BITS)
#define LAZY_OFFSET_SHIFT (TAG_BITS + LAZY_SHAPE_BITS)
#define LAZY_MAX_OFFSET   ((G_GUINT64_CONSTANT (1) << (64 - LAZY_OFFSET_SHIFT)) - 1)

/* A list that outgrew the shared item array: its items in an array of its
 * own, so that appending batch after batch between other containers never
 * copies it twice nor leaves holes behind. */
typedef struct
{
  guint64 *items;
  gsize    cap;
  guint32  list;   /* its list's object */
} TmPickleRun;

struct _TmPickle
{
  const guint8 *data;
  gsize         size;
  guint         protocol;
  TmPickleValue root;

  TmPickleObj          *objs;
  gsize         n_objs;
  gsize         objs_cap;
  guint64      *items;
  gsize         n_items;
  gsize         items_cap;
  TmPickleShape        *shapes;      /* shapes[0] is unused: 0 means none */
  gsize         n_shapes;
  gsize         shapes_cap;
  guint64      *shape_keys;
  gsize         n_shape_keys;
  gsize         shape_keys_cap;
  TmPickleRun  *runs;
  gsize         n_runs;
  gsize         runs_cap;

  /* The memo, kept while there are lazy dicts: slots [0, memo_len) are
   * set or UNSET, the others UNSET. */
  guint64      *memo;
  gsize         memo_len;
  guint32       lazy_shapes[MAX_LAZY_SHAPES];  /* shape ids */
  guint         n_lazy_shapes;
};

static inline const TmPickleObj *
obj_of (TmPickle      *self,
        TmPickleValue  value)
{
  if ((value & TAG_MASK) != TAG_OBJ || (value >> TAG_BITS) >= self->n_objs)
    return NULL;
  return &self->objs[value >> TAG_BITS];
}

/* The shape of a lazy dict's word. */
static inline guint
lazy_shape (TmPickle      *self,
            TmPickleValue  value)
{
  return self->lazy_shapes[(value >> TAG_BITS) & (MAX_LAZY_SHAPES - 1)];
}

/* The opcodes. */
enum
{
  OP_MARK = '(', OP_STOP = '.', OP_POP = '0', OP_POP_MARK = '1', OP_DUP = '2',
  OP_FLOAT = 'F', OP_INT = 'I', OP_BININT = 'J', OP_BININT1 = 'K', OP_LONG = 'L',
  OP_BININT2 = 'M', OP_NONE = 'N', OP_PERSID = 'P', OP_BINPERSID = 'Q', OP_REDUCE = 'R',
  OP_STRING = 'S', OP_BINSTRING = 'T', OP_SHORT_BINSTRING = 'U', OP_UNICODE = 'V',
  OP_BINUNICODE = 'X', OP_APPEND = 'a', OP_BUILD = 'b', OP_GLOBAL = 'c', OP_DICT = 'd',
  OP_EMPTY_DICT = '}', OP_APPENDS = 'e', OP_GET = 'g', OP_BINGET = 'h', OP_INST = 'i',
  OP_LONG_BINGET = 'j', OP_LIST = 'l', OP_EMPTY_LIST = ']', OP_OBJ = 'o', OP_PUT = 'p',
  OP_BINPUT = 'q', OP_LONG_BINPUT = 'r', OP_SETITEM = 's', OP_TUPLE = 't',
  OP_EMPTY_TUPLE = ')', OP_SETITEMS = 'u', OP_BINFLOAT = 'G',
  OP_PROTO = 0x80, OP_NEWOBJ = 0x81, OP_EXT1 = 0x82, OP_EXT2 = 0x83, OP_EXT4 = 0x84,
  OP_TUPLE1 = 0x85, OP_TUPLE2 = 0x86, OP_TUPLE3 = 0x87, OP_NEWTRUE = 0x88,
  OP_NEWFALSE = 0x89, OP_LONG1 = 0x8a, OP_LONG4 = 0x8b,
  OP_BINBYTES = 'B', OP_SHORT_BINBYTES = 'C',
  OP_SHORT_BINUNICODE = 0x8c, OP_BINUNICODE8 = 0x8d, OP_BINBYTES8 = 0x8e,
  OP_EMPTY_SET = 0x8f, OP_ADDITEMS = 0x90, OP_FROZENSET = 0x91, OP_NEWOBJ_EX = 0x92,
  OP_STACK_GLOBAL = 0x93, OP_MEMOIZE = 0x94, OP_FRAME = 0x95,
  OP_BYTEARRAY8 = 0x96, OP_NEXT_BUFFER = 0x97, OP_READONLY_BUFFER = 0x98,
};


static inline guint64
read_le (const guint8 *q,
         guint         n)
{
  guint64 v = 0;

  switch (n)
    {
    case 2:
      {
        guint16 x;

        memcpy (&x, q, 2);
        return GUINT16_FROM_LE (x);
      }
    case 4:
      {
        guint32 x;

        memcpy (&x, q, 4);
        return GUINT32_FROM_LE (x);
      }
    case 8:
      memcpy (&v, q, 8);
      return GUINT64_FROM_LE (v);
    default:
      for (guint i = n; i-- > 0;)
        v = v << 8 | q[i];
      return v;
    }
}

/* LONG1/LONG4 of n ≤ 8 bytes: two's complement, little-endian. */
static inline gint64
small_long (const guint8 *q,
            gsize         n)
{
  guint64 low;

  if (n == 0)
    return 0;
  low = read_le (q, (guint) n);
  if (n < 8 && (q[n - 1] & 0x80))
    low |= ~(guint64) 0 << (8 * n);
  return (gint64) low;
}

/* LONG1 of n ≤ 8 bytes at q, with at least 8 bytes readable from q. */
static inline gint64
small_long_8 (const guint8 *q,
              gsize         n)
{
  guint64 v;

  if (n == 0)
    return 0;
  memcpy (&v, q, 8);
  v = GUINT64_FROM_LE (v);
  if (n < 8)
    {
      guint shift = 64 - 8 * (guint) n;

      /* Sign-extends from byte n - 1. */
      v = (guint64) ((gint64) (v << shift) >> shift);
    }
  return (gint64) v;
}

/* What tm_pickle_read_plain() found. */
typedef enum
{
  PLAIN_VALUE,  /* a memo reference, a small integer, None or a boolean */
  PLAIN_FRAME,  /* a FRAME, skipped */
  PLAIN_MEMO,   /* MEMOIZE, BINPUT or LONG_BINPUT, skipped */
  PLAIN_OTHER,  /* anything else, or the end: *pos is left as it was */
} PlainKind;

/* The opcode at data[*pos] when it is one of those a lazy dict holds:
 * its word, and *pos moves past it. */
G_ALWAYS_INLINE static inline PlainKind
tm_pickle_read_plain (const guint8  *data,
                      gsize          size,
                      gsize         *pos,
                      const guint64 *memo,
                      gsize          memo_len,
                      guint64       *word)
{
  gsize q = *pos;
  gsize index;
  guint8 op;

  if (G_UNLIKELY (q >= size))
    return PLAIN_OTHER;
  op = data[q++];
  if (op == OP_LONG_BINGET)
    {
      if (G_UNLIKELY (size - q < 4))
        return PLAIN_OTHER;
      index = (gsize) read_le (data + q, 4);
      q += 4;
    }
  else if (op == OP_BINGET)
    {
      if (G_UNLIKELY (size - q < 1))
        return PLAIN_OTHER;
      index = data[q];
      q += 1;
    }
  else
    {
      switch (op)
        {
        case OP_LONG1:
          {
            gsize n;
            gint64 v;

            if (size - q < 1 || (n = data[q]) > 8 || size - q < 1 + n)
              return PLAIN_OTHER;
            v = size - q >= 9 ? small_long_8 (data + q + 1, n) : small_long (data + q + 1, n);
            if (v < SMALL_MIN || v > SMALL_MAX)
              return PLAIN_OTHER;
            *word = (guint64) v << TAG_BITS | TAG_INT;
            q += 1 + n;
          }
          break;
        case OP_BININT1:
          if (size - q < 1)
            return PLAIN_OTHER;
          *word = (guint64) data[q] << TAG_BITS | TAG_INT;
          q += 1;
          break;
        case OP_BININT:
          if (size - q < 4)
            return PLAIN_OTHER;
          *word = (guint64) (gint64) (gint32) (guint32) read_le (data + q, 4) << TAG_BITS | TAG_INT;
          q += 4;
          break;
        case OP_BININT2:
          if (size - q < 2)
            return PLAIN_OTHER;
          *word = read_le (data + q, 2) << TAG_BITS | TAG_INT;
          q += 2;
          break;
        case OP_NONE:
          *word = WORD_NONE;
          break;
        case OP_NEWTRUE:
          *word = WORD_TRUE;
          break;
        case OP_NEWFALSE:
          *word = WORD_FALSE;
          break;
        case OP_FRAME:
          if (size - q < 8 || read_le (data + q, 8) > size - q - 8)
            return PLAIN_OTHER;
          *pos = q + 8;
          return PLAIN_FRAME;
        case OP_MEMOIZE:
        case OP_BINPUT:
        case OP_LONG_BINPUT:
          q += op == OP_MEMOIZE ? 0 : op == OP_BINPUT ? 1 : 4;
          if (q > size)
            return PLAIN_OTHER;
          *pos = q;
          return PLAIN_MEMO;
        default:
          return PLAIN_OTHER;
        }
      *pos = q;
      return PLAIN_VALUE;
    }
  if (G_UNLIKELY (index >= memo_len || memo[index] == UNSET))
    return PLAIN_OTHER;
  *word = memo[index];
  *pos = q;
  return PLAIN_VALUE;
}


/* The parser's state beyond the result. */
typedef struct
{
  TmPickle *p;
  guint64  *stack;
  gsize     n_stack;
  gsize     stack_cap;
  gsize    *marks;       /* the stack's size at each open MARK */
  guint8   *mark_lazy;   /* per open MARK: its pairs may still make a lazy dict */
  gsize     n_marks;
  gsize     memo_cap;
  gsize     memo_count;  /* slots set: MEMOIZE's next index */
  guint32   recent[SHAPE_CACHE];  /* shapes used last */
  guint     next_recent;
  gboolean  lazy;        /* this pass makes lazy dicts */
  gboolean  memo_reset;  /* a memo slot was set a second time */
  gsize     n_lazy;
  /* The last EMPTY_DICT (its opcode's offset and its word), the memo
   * opcode right after it (offset, length, slot) and, when a MARK follows
   * them, where that MARK's pairs start. */
  gsize     dict_at;
  guint64   dict_word;
  gsize     dict_memo_at;
  gsize     dict_memo_len;
  gsize     dict_memo_slot;
  gsize     region_at;
  guint32   last_lazy_shape;  /* the shape of the last lazy dict, or 0 */
} Parser;

typedef enum
{
  PARSE_FAILED,
  PARSE_DONE,
  PARSE_AGAIN,  /* read it again without lazy dicts */
} ParseResult;

/* The lowest stack position the current opcode may pop to. */
static inline gsize
floor_of (Parser *ps)
{
  return ps->n_marks > 0 ? ps->marks[ps->n_marks - 1] : 0;
}


/* The opcode's name, or NULL for a byte that is none. */
const char    *tm_pickle_op_name        (guint8          op);

/* tm-pickle-build.c: errors (each returns FALSE) */
gboolean       tm_pickle_fail_truncated (gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_fail_underflow (gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_fail_too_large (gsize           at,
                                         GError        **error);
gboolean       tm_pickle_fail_odd       (gsize           at,
                                         guint8          op,
                                         GError        **error);

/* tm-pickle-build.c: what the opcodes make */
gboolean       tm_pickle_grow_stack     (Parser         *ps,
                                         gsize           at,
                                         GError        **error);
TmPickleObj   *tm_pickle_new_obj        (TmPickle       *p,
                                         guint32         kind,
                                         guint64        *word);
gboolean       tm_pickle_push_obj       (Parser         *ps,
                                         guint32         kind,
                                         TmPickleObj   **out,
                                         gsize           at,
                                         GError        **error);
gboolean       tm_pickle_push_long      (Parser         *ps,
                                         const guint8   *q,
                                         gsize           n,
                                         gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_push_string    (Parser         *ps,
                                         const guint8   *q,
                                         gsize           n,
                                         gboolean        text,
                                         gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_add_shaped     (Parser         *ps,
                                         guint64         dict,
                                         const guint64  *words,
                                         gsize           count,
                                         gboolean       *done,
                                         gsize           at,
                                         GError        **error);
guint64        tm_pickle_lazy_commit    (Parser         *ps,
                                         guint32         shape,
                                         gsize           region_at);
guint64        tm_pickle_make_lazy      (Parser         *ps,
                                         const guint64  *words,
                                         gsize           count);
gboolean       tm_pickle_add_items      (TmPickle       *p,
                                         guint64         container,
                                         const guint64  *words,
                                         gsize           k,
                                         gsize           at,
                                         GError        **error);
gboolean       tm_pickle_pop_mark       (Parser         *ps,
                                         gsize          *base,
                                         gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_container_kind (Parser         *ps,
                                         guint64         word,
                                         guint32         want,
                                         gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_collect        (Parser         *ps,
                                         guint32         kind,
                                         gsize           base,
                                         gsize           at,
                                         guint8          op,
                                         GError        **error);
gboolean       tm_pickle_memo_put       (Parser         *ps,
                                         gsize           index,
                                         gsize           at,
                                         guint8          op,
                                         gsize           op_len,
                                         GError        **error);

/* Reads a lazy dict's first n_values values again (at most its shape's
 * number of them) into values; FALSE if the pickle no longer holds them
 * (it changed). */
gboolean tm_pickle_lazy_values (TmPickle      *self,
                                TmPickleValue  dict,
                                guint          n_values,
                                TmPickleValue *values);

G_END_DECLS
