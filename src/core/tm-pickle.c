/* tm-pickle.c — a safe reader of plain-data pickles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One pass over the opcodes with a value stack, a stack of marks and the
 * memo. Memory: a word (8 bytes) per stack entry, memo entry and container
 * item, 16 bytes per object that does not fit a word (docs/performance.md,
 * "PyTorch snapshots"). Every count is bounded by the pickle's size, since
 * each opcode that adds an entry takes at least one byte.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-pickle-private.h"

/* The parser's state beyond the result. */
typedef struct
{
  TmPickle *p;
  guint64  *stack;
  gsize     n_stack;
  gsize     stack_cap;
  gsize    *marks;
  gsize     n_marks;
  guint64  *memo;
  gsize     memo_cap;    /* slots allocated (all UNSET beyond the ones set) */
  gsize     memo_count;  /* slots set: MEMOIZE's next index */
  guint32   recent[SHAPE_CACHE];  /* shapes used last */
  guint     next_recent;
} Parser;

/* ------------------------------------------------------------------ */
/* Opcodes                                                              */

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

static const char * const op_names[256] = {
  [OP_MARK] = "MARK", [OP_STOP] = "STOP", [OP_POP] = "POP", [OP_POP_MARK] = "POP_MARK",
  [OP_DUP] = "DUP", [OP_FLOAT] = "FLOAT", [OP_INT] = "INT", [OP_BININT] = "BININT",
  [OP_BININT1] = "BININT1", [OP_LONG] = "LONG", [OP_BININT2] = "BININT2", [OP_NONE] = "NONE",
  [OP_PERSID] = "PERSID", [OP_BINPERSID] = "BINPERSID", [OP_REDUCE] = "REDUCE",
  [OP_STRING] = "STRING", [OP_BINSTRING] = "BINSTRING",
  [OP_SHORT_BINSTRING] = "SHORT_BINSTRING", [OP_UNICODE] = "UNICODE",
  [OP_BINUNICODE] = "BINUNICODE", [OP_APPEND] = "APPEND", [OP_BUILD] = "BUILD",
  [OP_GLOBAL] = "GLOBAL", [OP_DICT] = "DICT", [OP_EMPTY_DICT] = "EMPTY_DICT",
  [OP_APPENDS] = "APPENDS", [OP_GET] = "GET", [OP_BINGET] = "BINGET", [OP_INST] = "INST",
  [OP_LONG_BINGET] = "LONG_BINGET", [OP_LIST] = "LIST", [OP_EMPTY_LIST] = "EMPTY_LIST",
  [OP_OBJ] = "OBJ", [OP_PUT] = "PUT", [OP_BINPUT] = "BINPUT", [OP_LONG_BINPUT] = "LONG_BINPUT",
  [OP_SETITEM] = "SETITEM", [OP_TUPLE] = "TUPLE", [OP_EMPTY_TUPLE] = "EMPTY_TUPLE",
  [OP_SETITEMS] = "SETITEMS", [OP_BINFLOAT] = "BINFLOAT", [OP_PROTO] = "PROTO",
  [OP_NEWOBJ] = "NEWOBJ", [OP_EXT1] = "EXT1", [OP_EXT2] = "EXT2", [OP_EXT4] = "EXT4",
  [OP_TUPLE1] = "TUPLE1", [OP_TUPLE2] = "TUPLE2", [OP_TUPLE3] = "TUPLE3",
  [OP_NEWTRUE] = "NEWTRUE", [OP_NEWFALSE] = "NEWFALSE", [OP_LONG1] = "LONG1",
  [OP_LONG4] = "LONG4", [OP_BINBYTES] = "BINBYTES", [OP_SHORT_BINBYTES] = "SHORT_BINBYTES",
  [OP_SHORT_BINUNICODE] = "SHORT_BINUNICODE", [OP_BINUNICODE8] = "BINUNICODE8",
  [OP_BINBYTES8] = "BINBYTES8", [OP_EMPTY_SET] = "EMPTY_SET", [OP_ADDITEMS] = "ADDITEMS",
  [OP_FROZENSET] = "FROZENSET", [OP_NEWOBJ_EX] = "NEWOBJ_EX",
  [OP_STACK_GLOBAL] = "STACK_GLOBAL", [OP_MEMOIZE] = "MEMOIZE", [OP_FRAME] = "FRAME",
  [OP_BYTEARRAY8] = "BYTEARRAY8", [OP_NEXT_BUFFER] = "NEXT_BUFFER",
  [OP_READONLY_BUFFER] = "READONLY_BUFFER",
};

/* The opcode's name, or NULL for a byte that is none. */
static const char *
op_name (guint8 op)
{
  return op_names[op];
}

/* ------------------------------------------------------------------ */
/* Errors                                                               */

static gboolean
fail_truncated (gsize    at,
                guint8   op,
                GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
               _("truncated at byte %zu: the pickle ends inside its %s opcode"),
               at, op_name (op));
  return FALSE;
}

static gboolean
fail_underflow (gsize    at,
                guint8   op,
                GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("invalid pickle at byte %zu: %s finds too few values on the stack"),
               at, op_name (op));
  return FALSE;
}

static gboolean
fail_too_large (gsize    at,
                GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_TOO_LARGE,
               _("too large at byte %zu: the pickle holds more than %zu values"),
               at, MAX_COUNT);
  return FALSE;
}

/* ------------------------------------------------------------------ */
/* Growable arrays                                                      */

static gboolean
reserve (gpointer  *array,
         gsize     *cap,
         gsize      need,
         gsize      elem)
{
  gsize n;

  if (G_LIKELY (need <= *cap))
    return TRUE;
  if (need > MAX_COUNT)
    return FALSE;
  n = MAX (*cap * 2, MAX (need, 64));
  n = MIN (n, MAX_COUNT);
  *array = g_realloc_n (*array, n, elem);
  *cap = n;
  return TRUE;
}

G_ALWAYS_INLINE static inline gboolean
push (Parser  *ps,
      guint64  word,
      gsize    at,
      GError **error)
{
  if (G_UNLIKELY (ps->n_stack == ps->stack_cap) &&
      !reserve ((gpointer *) &ps->stack, &ps->stack_cap, ps->n_stack + 1, sizeof (guint64)))
    return fail_too_large (at, error);
  ps->stack[ps->n_stack++] = word;
  return TRUE;
}

/* A new object; its word is its index. */
G_ALWAYS_INLINE static inline TmPickleObj *
new_obj (TmPickle *p,
         guint32   kind,
         guint64  *word)
{
  TmPickleObj *o;

  if (G_UNLIKELY (p->n_objs == p->objs_cap) &&
      !reserve ((gpointer *) &p->objs, &p->objs_cap, p->n_objs + 1, sizeof (TmPickleObj)))
    return NULL;
  *word = (guint64) p->n_objs << TAG_BITS | TAG_OBJ;
  o = &p->objs[p->n_objs++];
  o->kind = kind;
  o->shape = 0;
  o->n = 0;
  o->v.u = 0;
  return o;
}

G_ALWAYS_INLINE static inline gboolean
push_obj (Parser   *ps,
          guint32   kind,
          TmPickleObj     **out,
          gsize     at,
          GError  **error)
{
  guint64 word;
  TmPickleObj *o = new_obj (ps->p, kind, &word);

  if (o == NULL)
    return fail_too_large (at, error);
  if (!push (ps, word, at, error))
    return FALSE;
  /* push() does not move the arena. */
  *out = o;
  return TRUE;
}

G_ALWAYS_INLINE static inline gboolean
push_int (Parser  *ps,
          gint64   v,
          gsize    at,
          GError **error)
{
  TmPickleObj *o = NULL;

  if (G_LIKELY (v >= SMALL_MIN && v <= SMALL_MAX))
    return push (ps, (guint64) v << TAG_BITS | TAG_INT, at, error);
  if (!push_obj (ps, TM_PICKLE_INT, &o, at, error))
    return FALSE;
  g_assert (o != NULL);
  o->v.i = v;
  return TRUE;
}

/* A shaped dict that gets more items becomes one of pairs again. */
static gboolean
unshape (TmPickle *p,
         TmPickleObj      *o,
         gsize     at,
         GError  **error)
{
  const TmPickleShape *sh = &p->shapes[o->shape];
  gsize start = p->n_items;
  gsize values = o->v.c.start;

  if (start + 2 * (gsize) o->n > MAX_COUNT ||
      !reserve ((gpointer *) &p->items, &p->items_cap, start + 2 * (gsize) o->n, sizeof (guint64)))
    return fail_too_large (at, error);
  for (guint32 i = 0; i < o->n; i++)
    {
      p->items[start + 2 * i] = p->shape_keys[sh->start + i];
      p->items[start + 2 * i + 1] = p->items[values + i];
    }
  o->shape = 0;
  o->v.c.start = (guint32) start;
  o->v.c.cap = 2 * o->n;
  p->n_items = start + 2 * (gsize) o->n;
  return TRUE;
}

/* The shape of the count / 2 keys at words[0], words[2] ...: one of the
 * recent ones, or a new one; 0 when the dict is better kept as pairs. */
static guint32
find_shape (Parser        *ps,
            const guint64 *words,
            gsize          count)
{
  TmPickle *p = ps->p;
  gsize n = count / 2;
  guint32 id;

  if (n < 2 || n > MAX_SHAPE_KEYS)
    return 0;
  for (guint r = 0; r < SHAPE_CACHE; r++)
    {
      const TmPickleShape *sh;
      gsize i;

      id = ps->recent[r];
      if (id == 0)
        continue;
      sh = &p->shapes[id];
      if (sh->n != n)
        continue;
      for (i = 0; i < n && p->shape_keys[sh->start + i] == words[2 * i]; i++)
        ;
      if (i == n)
        return id;
    }

  if (p->n_shapes == 0)
    p->n_shapes = 1;
  if (p->n_shapes >= MAX_SHAPES || p->n_shape_keys + n > MAX_COUNT ||
      !reserve ((gpointer *) &p->shapes, &p->shapes_cap, p->n_shapes + 1, sizeof (TmPickleShape)) ||
      !reserve ((gpointer *) &p->shape_keys, &p->shape_keys_cap, p->n_shape_keys + n, sizeof (guint64)))
    return 0;
  id = (guint32) p->n_shapes++;
  p->shapes[id].start = (guint32) p->n_shape_keys;
  p->shapes[id].n = (guint32) n;
  for (gsize i = 0; i < n; i++)
    p->shape_keys[p->n_shape_keys++] = words[2 * i];
  ps->recent[ps->next_recent] = id;
  ps->next_recent = (ps->next_recent + 1) % SHAPE_CACHE;
  return id;
}

/* SETITEMS into an empty dict: its values only, when its keys make a
 * shape. FALSE in *done when it does not (the caller adds pairs). */
static gboolean
add_shaped (Parser        *ps,
            guint64        dict,
            const guint64 *words,
            gsize          count,
            gboolean      *done,
            gsize          at,
            GError       **error)
{
  TmPickle *p = ps->p;
  TmPickleObj *o = &p->objs[dict >> TAG_BITS];
  guint32 shape;
  gsize n = count / 2;

  *done = FALSE;
  if (o->n != 0 || (shape = find_shape (ps, words, count)) == 0)
    return TRUE;
  if (p->n_items + n > MAX_COUNT ||
      !reserve ((gpointer *) &p->items, &p->items_cap, p->n_items + n, sizeof (guint64)))
    return fail_too_large (at, error);
  o->shape = shape;
  o->v.c.start = (guint32) p->n_items;
  o->v.c.cap = (guint32) n;
  o->n = (guint32) n;
  for (gsize i = 0; i < n; i++)
    p->items[p->n_items++] = words[2 * i + 1];
  *done = TRUE;
  return TRUE;
}

/* Appends k words to a container's items (pairs count as two words).
 * Items of one container stay in one run: a container whose run cannot
 * grow in place moves to the end with room to double, so appending in
 * batches (APPENDS of a thousand at a time) costs amortised O(1). */
static gboolean
add_items (TmPickle      *p,
           guint64        container,
           const guint64 *words,
           gsize          k,
           gsize          at,
           GError       **error)
{
  TmPickleObj *o = &p->objs[container >> TAG_BITS];
  gsize per = o->kind == TM_PICKLE_DICT ? 2 : 1;
  gsize used = (gsize) o->n * per;

  if (k == 0)
    return TRUE;
  if (o->shape != 0 && !unshape (p, o, at, error))
    return FALSE;
  if (used + k > MAX_COUNT)
    return fail_too_large (at, error);
  if (used + k > o->v.c.cap)
    {
      if (used == 0 || (gsize) o->v.c.start + o->v.c.cap == p->n_items)
        {
          /* Empty, or the last run: grow at the end. */
          if (used == 0)
            o->v.c.start = (guint32) p->n_items;
          if (!reserve ((gpointer *) &p->items, &p->items_cap, (gsize) o->v.c.start + used + k,
                        sizeof (guint64)) ||
              (gsize) o->v.c.start + used + k > MAX_COUNT)
            return fail_too_large (at, error);
          o->v.c.cap = (guint32) (used + k);
          p->n_items = (gsize) o->v.c.start + used + k;
        }
      else
        {
          gsize cap = MAX (used * 2, used + k);
          gsize start = p->n_items;

          if (start + cap > MAX_COUNT ||
              !reserve ((gpointer *) &p->items, &p->items_cap, start + cap, sizeof (guint64)))
            return fail_too_large (at, error);
          memcpy (p->items + start, p->items + o->v.c.start, used * sizeof (guint64));
          o->v.c.start = (guint32) start;
          o->v.c.cap = (guint32) cap;
          p->n_items = start + cap;
        }
    }
  memcpy (p->items + o->v.c.start + used, words, k * sizeof (guint64));
  o->n += (guint32) (k / per);
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */

gboolean
tm_pickle_sniff (const guint8 *data,
                 gsize         size)
{
  return size >= 2 && data[0] == OP_PROTO && data[1] >= 2 && data[1] <= 5;
}

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

/* LONG1/LONG4: n bytes of two's complement, little-endian. Exact for every
 * value from -2^63 to 2^64-1; anything else is refused. */
static gboolean
push_long (Parser       *ps,
           const guint8 *q,
           gsize         n,
           gsize         at,
           guint8        op,
           GError      **error)
{
  gboolean negative = n > 0 && (q[n - 1] & 0x80);
  guint64 low;

  if (n <= 8)
    {
      low = read_le (q, (guint) n);
      if (negative && n < 8)
        low |= ~(guint64) 0 << (8 * n);
      return push_int (ps, (gint64) low, at, error);
    }

  for (gsize i = 8; i < n; i++)
    if (q[i] != (negative ? 0xff : 0x00))
      goto too_wide;
  low = read_le (q, 8);
  if (negative)
    {
      /* Only -2^63 .. -1 fit: bit 63 of the low word must be set too. */
      if ((low >> 63) == 0)
        goto too_wide;
      return push_int (ps, (gint64) low, at, error);
    }
  if (low <= (guint64) G_MAXINT64)
    return push_int (ps, (gint64) low, at, error);
  else
    {
      TmPickleObj *o = NULL;

      if (!push_obj (ps, TM_PICKLE_UINT, &o, at, error))
        return FALSE;
      g_assert (o != NULL);
      o->v.u = low;
      return TRUE;
    }

too_wide:
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("integer too large at byte %zu: %s of %zu bytes does not fit 64 bits"),
               at, op_name (op), n);
  return FALSE;
}

static gboolean
push_string (Parser       *ps,
             const guint8 *q,
             gsize         n,
             gboolean      text,
             gsize         at,
             guint8        op,
             GError      **error)
{
  TmPickleObj *o;

  if (n > G_MAXUINT32)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_TOO_LARGE,
                   _("too large at byte %zu: a %s of %zu bytes"), at, op_name (op), n);
      return FALSE;
    }
  if (text && !g_utf8_validate ((const char *) q, (gssize) n, NULL))
    {
      const char *end;

      g_utf8_validate ((const char *) q, (gssize) n, &end);
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: the %s holds bytes that are not UTF-8 at byte %zu"),
                   at, op_name (op), (gsize) ((const guint8 *) end - ps->p->data));
      return FALSE;
    }
  if (!push_obj (ps, text ? TM_PICKLE_STRING : TM_PICKLE_BYTES, &o, at, error))
    return FALSE;
  o->n = (guint32) n;
  o->v.offset = (guint64) (q - ps->p->data);
  return TRUE;
}

/* The position of the top mark, or FALSE with an error. */
static gboolean
pop_mark (Parser  *ps,
          gsize   *base,
          gsize    at,
          guint8   op,
          GError **error)
{
  if (ps->n_marks == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: %s without a MARK before it"), at, op_name (op));
      return FALSE;
    }
  *base = ps->marks[--ps->n_marks];
  return TRUE;
}

/* The lowest stack position the current opcode may pop to. */
static inline gsize
floor_of (Parser *ps)
{
  return ps->n_marks > 0 ? ps->marks[ps->n_marks - 1] : 0;
}

static gboolean
container_kind (Parser  *ps,
                guint64  word,
                guint32  want,
                gsize    at,
                guint8   op,
                GError **error)
{
  TmPickleKind kind = tm_pickle_kind (ps->p, word);

  if (kind == want)
    return TRUE;
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("invalid pickle at byte %zu: %s adds to a %s, not a %s"),
               at, op_name (op), tm_pickle_kind_name (kind), tm_pickle_kind_name (want));
  return FALSE;
}

/* Replaces the top count values (above floor) with a new container. */
static gboolean
collect (Parser  *ps,
         guint32  kind,
         gsize    base,
         gsize    at,
         guint8   op,
         GError **error)
{
  gsize count = ps->n_stack - base;
  guint64 word;
  TmPickleObj *o;

  if (kind == TM_PICKLE_DICT && count % 2 != 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: %s finds a key without a value"), at, op_name (op));
      return FALSE;
    }
  o = new_obj (ps->p, kind, &word);
  if (o == NULL)
    return fail_too_large (at, error);
  /* An empty stack may have no array yet: no items, no pointer. */
  if (count > 0 && !add_items (ps->p, word, ps->stack + base, count, at, error))
    return FALSE;
  ps->n_stack = base;
  return push (ps, word, at, error);
}

G_ALWAYS_INLINE static inline gboolean
memo_put (Parser  *ps,
          gsize    index,
          gsize    at,
          guint8   op,
          GError **error)
{
  if (ps->n_stack == floor_of (ps))
    return fail_underflow (at, op, error);
  /* A pickle sets memo slots in order; allow any slot up to the number of
   * values made so far (each opcode makes at most one). */
  if (index > ps->p->n_objs + ps->n_stack + ps->memo_count + 1024)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: %s to memo slot %zu, far beyond the %zu values so far"),
                   at, op_name (op), index, ps->p->n_objs + ps->n_stack);
      return FALSE;
    }
  if (index >= ps->memo_cap)
    {
      gsize old = ps->memo_cap;

      if (!reserve ((gpointer *) &ps->memo, &ps->memo_cap, index + 1, sizeof (guint64)))
        return fail_too_large (at, error);
      for (gsize i = old; i < ps->memo_cap; i++)
        ps->memo[i] = UNSET;
    }
  if (ps->memo[index] == UNSET)
    ps->memo_count++;
  ps->memo[index] = ps->stack[ps->n_stack - 1];
  return TRUE;
}

G_ALWAYS_INLINE static inline gboolean
memo_get (Parser  *ps,
          gsize    index,
          gsize    at,
          guint8   op,
          GError **error)
{
  if (G_UNLIKELY (index >= ps->memo_cap || ps->memo[index] == UNSET))
    {
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: %s of memo slot %zu, which was never set"),
                   at, op_name (op), index);
      return FALSE;
    }
  return push (ps, ps->memo[index], at, error);
}

static gboolean
refuse (gsize    at,
        guint8   op,
        GError **error)
{
  const char *name = op_name (op);

  switch (op)
    {
    case OP_GLOBAL: case OP_STACK_GLOBAL: case OP_REDUCE: case OP_BUILD: case OP_INST:
    case OP_OBJ: case OP_NEWOBJ: case OP_NEWOBJ_EX: case OP_EXT1: case OP_EXT2: case OP_EXT4:
    case OP_PERSID: case OP_BINPERSID:
      g_set_error (error, TM_ERROR, TM_ERROR_UNSAFE,
                   _("holds Python objects, not a memory snapshot: pickle opcode %s at byte %zu "
                     "imports, calls or builds an object; refusing to load it"),
                   name, at);
      break;
    default:
      if (name != NULL)
        g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                     _("not a memory snapshot: pickle opcode %s at byte %zu is not used by "
                       "memory snapshots"), name, at);
      else
        g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                     _("invalid pickle at byte %zu: 0x%02x is not a pickle opcode"), at, op);
      break;
    }
  return FALSE;
}

static gboolean
parse (Parser  *ps,
       GError **error)
{
  TmPickle *p = ps->p;
  const guint8 *data = p->data;
  gsize size = p->size;
  gsize pos = 0;

#define NEED(n)                                           \
  G_STMT_START {                                          \
    if (G_UNLIKELY (size - pos < (gsize) (n)))            \
      return fail_truncated (at, op, error);              \
  } G_STMT_END
#define NEED_STACK(n)                                     \
  G_STMT_START {                                          \
    if (G_UNLIKELY (ps->n_stack - floor_of (ps) < (gsize) (n))) \
      return fail_underflow (at, op, error);              \
  } G_STMT_END

  for (;;)
    {
      gsize at = pos;
      guint8 op;
      TmPickleObj *o;
      gsize base;

      if (G_UNLIKELY (pos >= size))
        {
          g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                       _("truncated at byte %zu: the pickle ends before its STOP opcode"), pos);
          return FALSE;
        }
      op = data[pos++];

      switch (op)
        {
        case OP_BINGET:
          NEED (1);
          if (!memo_get (ps, data[pos], at, op, error))
            return FALSE;
          pos += 1;
          break;

        case OP_LONG_BINGET:
          NEED (4);
          if (!memo_get (ps, (gsize) read_le (data + pos, 4), at, op, error))
            return FALSE;
          pos += 4;
          break;

        case OP_MEMOIZE:
          if (!memo_put (ps, ps->memo_count, at, op, error))
            return FALSE;
          break;

        case OP_BINPUT:
          NEED (1);
          if (!memo_put (ps, data[pos], at, op, error))
            return FALSE;
          pos += 1;
          break;

        case OP_LONG_BINPUT:
          NEED (4);
          if (!memo_put (ps, (gsize) read_le (data + pos, 4), at, op, error))
            return FALSE;
          pos += 4;
          break;

        case OP_BININT1:
          NEED (1);
          if (!push_int (ps, data[pos], at, error))
            return FALSE;
          pos += 1;
          break;

        case OP_BININT2:
          NEED (2);
          if (!push_int (ps, (gint64) read_le (data + pos, 2), at, error))
            return FALSE;
          pos += 2;
          break;

        case OP_BININT:
          NEED (4);
          if (!push_int (ps, (gint32) (guint32) read_le (data + pos, 4), at, error))
            return FALSE;
          pos += 4;
          break;

        case OP_LONG1:
          NEED (1);
          NEED (1 + (gsize) data[pos]);
          if (!push_long (ps, data + pos + 1, data[pos], at, op, error))
            return FALSE;
          pos += 1 + (gsize) data[pos];
          break;

        case OP_LONG4:
          {
            gint32 n;

            NEED (4);
            n = (gint32) (guint32) read_le (data + pos, 4);
            if (n < 0)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                             _("invalid pickle at byte %zu: LONG4 with a negative length"), at);
                return FALSE;
              }
            NEED (4 + (gsize) n);
            if (!push_long (ps, data + pos + 4, (gsize) n, at, op, error))
              return FALSE;
            pos += 4 + (gsize) n;
          }
          break;

        case OP_BINFLOAT:
          {
            union { guint64 u; double d; } bits;

            NEED (8);
            /* The 8 bytes may sit at any address. */
            memcpy (&bits.u, data + pos, 8);
            bits.u = GUINT64_FROM_BE (bits.u);
            pos += 8;
            if (!push_obj (ps, TM_PICKLE_FLOAT, &o, at, error))
              return FALSE;
            o->v.f = bits.d;
          }
          break;

        case OP_NONE:
          if (!push (ps, WORD_NONE, at, error))
            return FALSE;
          break;

        case OP_NEWTRUE:
        case OP_NEWFALSE:
          if (!push (ps, op == OP_NEWTRUE ? WORD_TRUE : WORD_FALSE, at, error))
            return FALSE;
          break;

        case OP_SHORT_BINUNICODE:
        case OP_SHORT_BINBYTES:
          NEED (1);
          NEED (1 + (gsize) data[pos]);
          if (!push_string (ps, data + pos + 1, data[pos], op == OP_SHORT_BINUNICODE, at, op, error))
            return FALSE;
          pos += 1 + (gsize) data[pos];
          break;

        case OP_BINUNICODE:
        case OP_BINBYTES:
          {
            gsize n;

            NEED (4);
            n = (gsize) read_le (data + pos, 4);
            NEED (4 + n);
            if (!push_string (ps, data + pos + 4, n, op == OP_BINUNICODE, at, op, error))
              return FALSE;
            pos += 4 + n;
          }
          break;

        case OP_BINUNICODE8:
        case OP_BINBYTES8:
        case OP_BYTEARRAY8:
          {
            guint64 n;

            NEED (8);
            n = read_le (data + pos, 8);
            if (n > size - pos - 8)
              return fail_truncated (at, op, error);
            if (!push_string (ps, data + pos + 8, (gsize) n, op == OP_BINUNICODE8, at, op, error))
              return FALSE;
            pos += 8 + (gsize) n;
          }
          break;

        case OP_EMPTY_DICT:
        case OP_EMPTY_LIST:
        case OP_EMPTY_TUPLE:
          if (!push_obj (ps, op == OP_EMPTY_DICT ? TM_PICKLE_DICT
                             : op == OP_EMPTY_LIST ? TM_PICKLE_LIST : TM_PICKLE_TUPLE,
                         &o, at, error))
            return FALSE;
          break;

        case OP_MARK:
          if (ps->n_marks == TM_PICKLE_MAX_DEPTH)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_TOO_DEEP,
                           _("nested too deep at byte %zu: more than %u MARKs open"),
                           at, TM_PICKLE_MAX_DEPTH);
              return FALSE;
            }
          ps->marks[ps->n_marks++] = ps->n_stack;
          break;

        case OP_APPEND:
          NEED_STACK (2);
          if (!container_kind (ps, ps->stack[ps->n_stack - 2], TM_PICKLE_LIST, at, op, error) ||
              !add_items (p, ps->stack[ps->n_stack - 2], ps->stack + ps->n_stack - 1, 1, at, error))
            return FALSE;
          ps->n_stack -= 1;
          break;

        case OP_SETITEM:
          NEED_STACK (3);
          if (!container_kind (ps, ps->stack[ps->n_stack - 3], TM_PICKLE_DICT, at, op, error) ||
              !add_items (p, ps->stack[ps->n_stack - 3], ps->stack + ps->n_stack - 2, 2, at, error))
            return FALSE;
          ps->n_stack -= 2;
          break;

        case OP_APPENDS:
        case OP_SETITEMS:
          {
            guint32 want = op == OP_APPENDS ? TM_PICKLE_LIST : TM_PICKLE_DICT;
            gsize count;

            if (!pop_mark (ps, &base, at, op, error))
              return FALSE;
            if (base == floor_of (ps))
              return fail_underflow (at, op, error);
            count = ps->n_stack - base;
            if (want == TM_PICKLE_DICT && count % 2 != 0)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                             _("invalid pickle at byte %zu: %s finds a key without a value"),
                             at, op_name (op));
                return FALSE;
              }
            if (!container_kind (ps, ps->stack[base - 1], want, at, op, error))
              return FALSE;
            if (want == TM_PICKLE_DICT)
              {
                gboolean done;

                if (!add_shaped (ps, ps->stack[base - 1], ps->stack + base, count, &done, at, error))
                  return FALSE;
                if (done)
                  {
                    ps->n_stack = base;
                    break;
                  }
              }
            if (!add_items (p, ps->stack[base - 1], ps->stack + base, count, at, error))
              return FALSE;
            ps->n_stack = base;
          }
          break;

        case OP_TUPLE1:
        case OP_TUPLE2:
        case OP_TUPLE3:
          NEED_STACK (op - OP_TUPLE1 + 1);
          if (!collect (ps, TM_PICKLE_TUPLE, ps->n_stack - (op - OP_TUPLE1 + 1), at, op, error))
            return FALSE;
          break;

        case OP_TUPLE:
        case OP_LIST:
        case OP_DICT:
          if (!pop_mark (ps, &base, at, op, error) ||
              !collect (ps, op == OP_TUPLE ? TM_PICKLE_TUPLE
                            : op == OP_LIST ? TM_PICKLE_LIST : TM_PICKLE_DICT,
                        base, at, op, error))
            return FALSE;
          break;

        case OP_POP:
          if (ps->n_stack > floor_of (ps))
            ps->n_stack--;
          else if (!pop_mark (ps, &base, at, op, error))
            return FALSE;
          break;

        case OP_POP_MARK:
          if (!pop_mark (ps, &base, at, op, error))
            return FALSE;
          ps->n_stack = base;
          break;

        case OP_DUP:
          NEED_STACK (1);
          if (!push (ps, ps->stack[ps->n_stack - 1], at, error))
            return FALSE;
          break;

        case OP_FRAME:
          {
            guint64 n;

            NEED (8);
            n = read_le (data + pos, 8);
            pos += 8;
            if (n > size - pos)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                             _("truncated at byte %zu: a FRAME of %llu bytes but the file ends at byte %zu"),
                             at, (unsigned long long) n, size);
                return FALSE;
              }
          }
          break;

        case OP_PROTO:
          NEED (1);
          if (data[pos] < 2 || data[pos] > 5)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                           _("unsupported pickle at byte %zu: protocol %u (Tidemark reads protocols 2 to 5)"),
                           at, data[pos]);
              return FALSE;
            }
          if (p->protocol == 0)
            p->protocol = data[pos];
          pos += 1;
          break;

        case OP_STOP:
          if (ps->n_stack == 0)
            return fail_underflow (at, op, error);
          p->root = ps->stack[ps->n_stack - 1];
          return TRUE;

        default:
          return refuse (at, op, error);
        }
    }

#undef NEED
#undef NEED_STACK
}

TmPickle *
tm_pickle_read (const guint8  *data,
                gsize          size,
                GError       **error)
{
  g_autoptr(TmPickle) p = g_new0 (TmPickle, 1);
  Parser ps = { p, NULL, 0, 0, NULL, 0, NULL, 0, 0, { 0 }, 0 };
  gboolean ok;

  g_return_val_if_fail (data != NULL || size == 0, NULL);

  if (size == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_EMPTY, _("the pickle is empty"));
      return NULL;
    }

  p->data = data;
  p->size = size;
  ps.marks = g_new (gsize, TM_PICKLE_MAX_DEPTH);
  ok = parse (&ps, error);
  g_free (ps.stack);
  g_free (ps.marks);
  g_free (ps.memo);
  if (!ok)
    return NULL;

  /* Give back what the doubling reserved beyond the end. */
  if (p->objs_cap > p->n_objs)
    {
      p->objs = g_renew (TmPickleObj, p->objs, MAX (p->n_objs, 1));
      p->objs_cap = MAX (p->n_objs, 1);
    }
  if (p->items_cap > p->n_items)
    {
      p->items = g_renew (guint64, p->items, MAX (p->n_items, 1));
      p->items_cap = MAX (p->n_items, 1);
    }
  return g_steal_pointer (&p);
}

void
tm_pickle_free (TmPickle *self)
{
  if (self == NULL)
    return;
  g_free (self->objs);
  g_free (self->items);
  g_free (self->shapes);
  g_free (self->shape_keys);
  g_free (self);
}

guint
tm_pickle_get_protocol (TmPickle *self)
{
  return self->protocol;
}

TmPickleValue
tm_pickle_get_root (TmPickle *self)
{
  return self->root;
}

gsize
tm_pickle_get_memory_size (TmPickle *self)
{
  return sizeof *self + self->objs_cap * sizeof (TmPickleObj) + self->items_cap * sizeof (guint64) +
         self->shapes_cap * sizeof (TmPickleShape) + self->shape_keys_cap * sizeof (guint64);
}
