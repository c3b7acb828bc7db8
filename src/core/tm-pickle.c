/* tm-pickle.c — a safe reader of plain-data pickles
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One pass over the opcodes with a value stack, a stack of marks and the
 * memo. Memory: a word (8 bytes) per stack entry, memo entry and container
 * item, 16 bytes per object that does not fit a word, nothing for a lazy
 * dict beyond the memo slot and the list item that hold it
 * (docs/performance.md, "PyTorch snapshots"). Every count is bounded by
 * the pickle's size, since each opcode that adds an entry takes at least
 * one byte.
 *
 * The loop keeps the value stack and the memo in local variables: the
 * opcodes of a snapshot's trace entries (memo references, small integers,
 * MARK and SETITEMS) run without a call or a reload; everything else
 * writes them back, calls a helper of tm-pickle-build.c and reads them
 * again.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-pickle-private.h"


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
const char *
tm_pickle_op_name (guint8 op)
{
  return op_names[op];
}


/* ------------------------------------------------------------------ */
/* Errors                                                               */

static gboolean
fail_memo_unset (gsize    at,
                 guint8   op,
                 gsize    index,
                 GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("invalid pickle at byte %zu: %s of memo slot %zu, which was never set"),
               at, tm_pickle_op_name (op), index);
  return FALSE;
}

static gboolean
refuse (gsize    at,
        guint8   op,
        GError **error)
{
  const char *name = tm_pickle_op_name (op);

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

/* ------------------------------------------------------------------ */
/* Reading                                                              */

/* ------------------------------------------------------------------ */
/* Reading                                                              */

gboolean
tm_pickle_sniff (const guint8 *data,
                 gsize         size)
{
  return size >= 2 && data[0] == OP_PROTO && data[1] >= 2 && data[1] <= 5;
}

/* ------------------------------------------------------------------ */
/* The loop                                                             */

static ParseResult
parse (Parser  *ps,
       GError **error)
{
  TmPickle *p = ps->p;
  const guint8 *data = p->data;
  const gsize size = p->size;
  gsize pos = 0;
  guint64 *stack = ps->stack;
  gsize n_stack = ps->n_stack;
  gsize stack_cap = ps->stack_cap;
  guint64 *memo = p->memo;
  gsize memo_len = p->memo_len;

  /* The locals and the parser's copies. */
#define SAVE()                                            \
  G_STMT_START {                                          \
    ps->stack = stack;                                    \
    ps->n_stack = n_stack;                                \
    ps->stack_cap = stack_cap;                            \
  } G_STMT_END
#define LOAD()                                            \
  G_STMT_START {                                          \
    stack = ps->stack;                                    \
    n_stack = ps->n_stack;                                \
    stack_cap = ps->stack_cap;                            \
    memo = p->memo;                                       \
    memo_len = p->memo_len;                               \
  } G_STMT_END
  /* A helper that works on the parser's copies. */
#define CALL(expr)                                        \
  G_STMT_START {                                          \
    gboolean ok_;                                         \
    SAVE ();                                              \
    ok_ = (expr);                                         \
    LOAD ();                                              \
    if (!ok_)                                             \
      return PARSE_FAILED;                                \
  } G_STMT_END
#define PUSH(word)                                        \
  G_STMT_START {                                          \
    guint64 w_ = (word);                                  \
    if (G_UNLIKELY (n_stack == stack_cap))                \
      CALL (tm_pickle_grow_stack (ps, at, error));                  \
    stack[n_stack++] = w_;                                \
  } G_STMT_END
#define NEED(n)                                           \
  G_STMT_START {                                          \
    if (G_UNLIKELY (size - pos < (gsize) (n)))            \
      return tm_pickle_fail_truncated (at, op, error), PARSE_FAILED;        \
  } G_STMT_END
#define NEED_STACK(n)                                     \
  G_STMT_START {                                          \
    if (G_UNLIKELY (n_stack - floor_of (ps) < (gsize) (n))) \
      return tm_pickle_fail_underflow (at, op, error), PARSE_FAILED;        \
  } G_STMT_END
  /* Anything but memo references and small integers: the pairs of the
   * open MARK can no longer make a lazy dict. */
#define DIRTY()                                           \
  G_STMT_START {                                          \
    if (ps->n_marks > 0)                                  \
      ps->mark_lazy[ps->n_marks - 1] = 0;                 \
  } G_STMT_END

  for (;;)
    {
      gsize at = pos;
      guint8 op;
      gsize index, base, n;
      TmPickleObj *o;
      guint64 word;

      if (G_UNLIKELY (pos >= size))
        {
          g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                       _("truncated at byte %zu: the pickle ends before its STOP opcode"), pos);
          return PARSE_FAILED;
        }
      op = data[pos++];

      switch (op)
        {
        case OP_BINGET:
          NEED (1);
          index = data[pos];
          pos += 1;
          goto get;

        case OP_LONG_BINGET:
          NEED (4);
          index = (gsize) read_le (data + pos, 4);
          pos += 4;
        get:
          if (G_UNLIKELY (index >= memo_len || memo[index] == UNSET))
            return fail_memo_unset (at, op, index, error), PARSE_FAILED;
          PUSH (memo[index]);
          break;

        case OP_MEMOIZE:
          CALL (tm_pickle_memo_put (ps, ps->memo_count, at, op, 1, error));
          if (G_UNLIKELY (ps->memo_reset && ps->lazy))
            return PARSE_AGAIN;
          break;

        case OP_BINPUT:
          NEED (1);
          CALL (tm_pickle_memo_put (ps, data[pos], at, op, 2, error));
          if (G_UNLIKELY (ps->memo_reset && ps->lazy))
            return PARSE_AGAIN;
          pos += 1;
          break;

        case OP_LONG_BINPUT:
          NEED (4);
          CALL (tm_pickle_memo_put (ps, (gsize) read_le (data + pos, 4), at, op, 5, error));
          if (G_UNLIKELY (ps->memo_reset && ps->lazy))
            return PARSE_AGAIN;
          pos += 4;
          break;

        case OP_BININT1:
          NEED (1);
          PUSH ((guint64) data[pos] << TAG_BITS | TAG_INT);
          pos += 1;
          break;

        case OP_BININT2:
          NEED (2);
          PUSH (read_le (data + pos, 2) << TAG_BITS | TAG_INT);
          pos += 2;
          break;

        case OP_BININT:
          NEED (4);
          PUSH ((guint64) (gint64) (gint32) (guint32) read_le (data + pos, 4) << TAG_BITS | TAG_INT);
          pos += 4;
          break;

        case OP_LONG1:
          NEED (1);
          n = data[pos];
          NEED (1 + n);
          if (G_LIKELY (n <= 8 && size - pos >= 9))
            {
              gint64 v = small_long_8 (data + pos + 1, n);

              if (G_LIKELY (v >= SMALL_MIN && v <= SMALL_MAX))
                {
                  PUSH ((guint64) v << TAG_BITS | TAG_INT);
                  pos += 1 + n;
                  break;
                }
            }
          DIRTY ();
          CALL (tm_pickle_push_long (ps, data + pos + 1, n, at, op, error));
          pos += 1 + n;
          break;

        case OP_LONG4:
          {
            gint32 len;

            DIRTY ();
            NEED (4);
            len = (gint32) (guint32) read_le (data + pos, 4);
            if (len < 0)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                             _("invalid pickle at byte %zu: LONG4 with a negative length"), at);
                return PARSE_FAILED;
              }
            NEED (4 + (gsize) len);
            CALL (tm_pickle_push_long (ps, data + pos + 4, (gsize) len, at, op, error));
            pos += 4 + (gsize) len;
          }
          break;

        case OP_NONE:
          PUSH (WORD_NONE);
          break;

        case OP_NEWTRUE:
          PUSH (WORD_TRUE);
          break;

        case OP_NEWFALSE:
          PUSH (WORD_FALSE);
          break;

        case OP_BINFLOAT:
          {
            union { guint64 u; double d; } bits;

            DIRTY ();
            NEED (8);
            /* The 8 bytes may sit at any address. */
            memcpy (&bits.u, data + pos, 8);
            bits.u = GUINT64_FROM_BE (bits.u);
            pos += 8;
            CALL (tm_pickle_push_obj (ps, TM_PICKLE_FLOAT, &o, at, error));
            o->v.f = bits.d;
          }
          break;

        case OP_SHORT_BINUNICODE:
        case OP_SHORT_BINBYTES:
          DIRTY ();
          NEED (1);
          NEED (1 + (gsize) data[pos]);
          CALL (tm_pickle_push_string (ps, data + pos + 1, data[pos], op == OP_SHORT_BINUNICODE, at, op, error));
          pos += 1 + (gsize) data[pos];
          break;

        case OP_BINUNICODE:
        case OP_BINBYTES:
          DIRTY ();
          NEED (4);
          n = (gsize) read_le (data + pos, 4);
          NEED (4 + n);
          CALL (tm_pickle_push_string (ps, data + pos + 4, n, op == OP_BINUNICODE, at, op, error));
          pos += 4 + n;
          break;

        case OP_BINUNICODE8:
        case OP_BINBYTES8:
        case OP_BYTEARRAY8:
          {
            guint64 len;

            DIRTY ();
            NEED (8);
            len = read_le (data + pos, 8);
            if (len > size - pos - 8)
              return tm_pickle_fail_truncated (at, op, error), PARSE_FAILED;
            CALL (tm_pickle_push_string (ps, data + pos + 8, (gsize) len, op == OP_BINUNICODE8, at, op, error));
            pos += 8 + (gsize) len;
          }
          break;

        case OP_EMPTY_DICT:
        case OP_EMPTY_LIST:
        case OP_EMPTY_TUPLE:
          DIRTY ();
          o = tm_pickle_new_obj (p, op == OP_EMPTY_DICT ? TM_PICKLE_DICT
                          : op == OP_EMPTY_LIST ? TM_PICKLE_LIST : TM_PICKLE_TUPLE, &word);
          if (o == NULL)
            return tm_pickle_fail_too_large (at, error), PARSE_FAILED;
          PUSH (word);
          if (op == OP_EMPTY_DICT)
            {
              ps->dict_at = at;
              ps->dict_word = word;
              ps->dict_memo_at = G_MAXSIZE;
            }
          break;

        case OP_MARK:
          {
            gboolean lazy_ok;

            if (ps->n_marks == TM_PICKLE_MAX_DEPTH)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_TOO_DEEP,
                             _("nested too deep at byte %zu: more than %u MARKs open"),
                             at, TM_PICKLE_MAX_DEPTH);
                return PARSE_FAILED;
              }
            DIRTY ();
            /* Right after an EMPTY_DICT (and its memo opcode): the pairs
             * may make a lazy dict. */
            lazy_ok = ps->lazy && n_stack > 0 && stack[n_stack - 1] == ps->dict_word &&
                      (at == ps->dict_at + 1 ||
                       (ps->dict_memo_at == ps->dict_at + 1 && at == ps->dict_memo_at + ps->dict_memo_len));
            /* Most dicts of a snapshot are trace entries of the shape the
             * last lazy dict had: read their pairs against its keys, and
             * make the dict lazy without a value on the stack. Anything
             * else and the MARK is read as any other. */
            if (lazy_ok && ps->last_lazy_shape != 0)
              {
                const TmPickleShape *sh = &p->shapes[ps->last_lazy_shape];
                const guint64 *keys = p->shape_keys + sh->start;
                guint want = 2 * sh->n, k = 0;
                gsize q = pos;

                while (k < want)
                  {
                    PlainKind kind = tm_pickle_read_plain (data, size, &q, memo, memo_len, &word);

                    if (kind == PLAIN_FRAME)
                      continue;
                    if (kind != PLAIN_VALUE || ((k & 1) ? word == ps->dict_word : word != keys[k >> 1]))
                      break;
                    k++;
                  }
                while (k == want && q < size && data[q] == OP_FRAME &&
                       tm_pickle_read_plain (data, size, &q, memo, memo_len, &word) == PLAIN_FRAME)
                  ;
                if (k == want && q < size && data[q] == OP_SETITEMS &&
                    (word = tm_pickle_lazy_commit (ps, ps->last_lazy_shape, pos)) != 0)
                  {
                    stack[n_stack - 1] = word;
                    pos = q + 1;
                    break;
                  }
              }
            ps->marks[ps->n_marks] = n_stack;
            ps->mark_lazy[ps->n_marks] = (guint8) lazy_ok;
            ps->n_marks++;
            if (lazy_ok)
              ps->region_at = pos;
          }
          break;

        case OP_SETITEMS:
          {
            gboolean lazy_ok, done = FALSE;
            gsize count;

            if (G_UNLIKELY (ps->n_marks == 0))
              return tm_pickle_pop_mark (ps, &base, at, op, error), PARSE_FAILED;
            base = ps->marks[--ps->n_marks];
            lazy_ok = ps->mark_lazy[ps->n_marks];
            if (G_UNLIKELY (base == floor_of (ps)))
              return tm_pickle_fail_underflow (at, op, error), PARSE_FAILED;
            count = n_stack - base;
            if (G_UNLIKELY (count % 2 != 0))
              return tm_pickle_fail_odd (at, op, error), PARSE_FAILED;
            word = stack[base - 1];
            /* A lazy dict that gets more items: read it again without. */
            if (G_UNLIKELY ((word & TAG_MASK) == TAG_LAZY))
              return PARSE_AGAIN;
            if (G_UNLIKELY (!tm_pickle_container_kind (ps, word, TM_PICKLE_DICT, at, op, error)))
              return PARSE_FAILED;
            if (lazy_ok && word == ps->dict_word && count >= 4)
              {
                guint64 lazy = tm_pickle_make_lazy (ps, stack + base, count);

                if (lazy != 0)
                  {
                    stack[base - 1] = lazy;
                    n_stack = base;
                    break;
                  }
              }
            CALL (tm_pickle_add_shaped (ps, word, stack + base, count, &done, at, error));
            if (!done)
              CALL (tm_pickle_add_items (p, word, stack + base, count, at, error));
            n_stack = base;
          }
          break;

        case OP_APPENDS:
          if (G_UNLIKELY (ps->n_marks == 0))
            return tm_pickle_pop_mark (ps, &base, at, op, error), PARSE_FAILED;
          base = ps->marks[--ps->n_marks];
          if (G_UNLIKELY (base == floor_of (ps)))
            return tm_pickle_fail_underflow (at, op, error), PARSE_FAILED;
          if (G_UNLIKELY (!tm_pickle_container_kind (ps, stack[base - 1], TM_PICKLE_LIST, at, op, error)))
            return PARSE_FAILED;
          CALL (tm_pickle_add_items (p, stack[base - 1], stack + base, n_stack - base, at, error));
          n_stack = base;
          break;

        case OP_APPEND:
          DIRTY ();
          NEED_STACK (2);
          if (!tm_pickle_container_kind (ps, stack[n_stack - 2], TM_PICKLE_LIST, at, op, error))
            return PARSE_FAILED;
          CALL (tm_pickle_add_items (p, stack[n_stack - 2], stack + n_stack - 1, 1, at, error));
          n_stack -= 1;
          break;

        case OP_SETITEM:
          DIRTY ();
          NEED_STACK (3);
          if ((stack[n_stack - 3] & TAG_MASK) == TAG_LAZY)
            return PARSE_AGAIN;
          if (!tm_pickle_container_kind (ps, stack[n_stack - 3], TM_PICKLE_DICT, at, op, error))
            return PARSE_FAILED;
          CALL (tm_pickle_add_items (p, stack[n_stack - 3], stack + n_stack - 2, 2, at, error));
          n_stack -= 2;
          break;

        case OP_TUPLE1:
        case OP_TUPLE2:
        case OP_TUPLE3:
          DIRTY ();
          NEED_STACK (op - OP_TUPLE1 + 1);
          CALL (tm_pickle_collect (ps, TM_PICKLE_TUPLE, ps->n_stack - (op - OP_TUPLE1 + 1), at, op, error));
          break;

        case OP_TUPLE:
        case OP_LIST:
        case OP_DICT:
          DIRTY ();
          CALL (tm_pickle_pop_mark (ps, &base, at, op, error) &&
                tm_pickle_collect (ps, op == OP_TUPLE ? TM_PICKLE_TUPLE
                             : op == OP_LIST ? TM_PICKLE_LIST : TM_PICKLE_DICT,
                         base, at, op, error));
          break;

        case OP_POP:
          DIRTY ();
          if (n_stack > floor_of (ps))
            n_stack--;
          else if (!tm_pickle_pop_mark (ps, &base, at, op, error))
            return PARSE_FAILED;
          break;

        case OP_POP_MARK:
          DIRTY ();
          if (!tm_pickle_pop_mark (ps, &base, at, op, error))
            return PARSE_FAILED;
          n_stack = base;
          break;

        case OP_DUP:
          DIRTY ();
          NEED_STACK (1);
          PUSH (stack[n_stack - 1]);
          break;

        case OP_FRAME:
          {
            guint64 len;

            NEED (8);
            len = read_le (data + pos, 8);
            pos += 8;
            if (len > size - pos)
              {
                g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
                             _("truncated at byte %zu: a FRAME of %llu bytes but the file ends at byte %zu"),
                             at, (unsigned long long) len, size);
                return PARSE_FAILED;
              }
          }
          break;

        case OP_PROTO:
          DIRTY ();
          NEED (1);
          if (data[pos] < 2 || data[pos] > 5)
            {
              g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                           _("unsupported pickle at byte %zu: protocol %u (Tidemark reads protocols 2 to 5)"),
                           at, data[pos]);
              return PARSE_FAILED;
            }
          if (p->protocol == 0)
            p->protocol = data[pos];
          pos += 1;
          break;

        case OP_STOP:
          if (n_stack == 0)
            return tm_pickle_fail_underflow (at, op, error), PARSE_FAILED;
          p->root = stack[n_stack - 1];
          SAVE ();
          return PARSE_DONE;

        default:
          return refuse (at, op, error), PARSE_FAILED;
        }
    }

#undef SAVE
#undef LOAD
#undef CALL
#undef PUSH
#undef NEED
#undef NEED_STACK
#undef DIRTY
}

/* ------------------------------------------------------------------ */
/* The pickle                                                           */

static void
clear_values (TmPickle *p)
{
  for (gsize i = 0; i < p->n_runs; i++)
    g_free (p->runs[i].items);
  g_clear_pointer (&p->runs, g_free);
  g_clear_pointer (&p->objs, g_free);
  g_clear_pointer (&p->items, g_free);
  g_clear_pointer (&p->shapes, g_free);
  g_clear_pointer (&p->shape_keys, g_free);
  g_clear_pointer (&p->memo, g_free);
}

static ParseResult
read_pass (TmPickle  *p,
           gboolean   lazy,
           GError   **error)
{
  Parser ps;
  ParseResult result;

  memset (&ps, 0, sizeof ps);
  ps.p = p;
  ps.lazy = lazy;
  ps.dict_word = UNSET;
  ps.dict_at = G_MAXSIZE - 1;
  ps.dict_memo_at = G_MAXSIZE;
  ps.marks = g_new (gsize, TM_PICKLE_MAX_DEPTH);
  ps.mark_lazy = g_new (guint8, TM_PICKLE_MAX_DEPTH);
  result = parse (&ps, error);
  g_free (ps.stack);
  g_free (ps.marks);
  g_free (ps.mark_lazy);
  if (result == PARSE_DONE && ps.n_lazy == 0)
    {
      /* Nothing reads the memo again. */
      g_clear_pointer (&p->memo, g_free);
      p->memo_len = 0;
    }
  return result;
}

TmPickle *
tm_pickle_read (const guint8  *data,
                gsize          size,
                GError       **error)
{
  g_autoptr(TmPickle) p = g_new0 (TmPickle, 1);
  ParseResult result;

  g_return_val_if_fail (data != NULL || size == 0, NULL);

  if (size == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_EMPTY, _("the pickle is empty"));
      return NULL;
    }

  p->data = data;
  p->size = size;
  result = read_pass (p, TRUE, error);
  if (result == PARSE_AGAIN)
    {
      /* A memo slot set twice, or a lazy dict that got more items: what a
       * lazy dict would read again might not be what it held. */
      clear_values (p);
      memset (p, 0, sizeof *p);
      p->data = data;
      p->size = size;
      result = read_pass (p, FALSE, error);
    }
  if (result != PARSE_DONE)
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
  if (p->memo != NULL)
    p->memo = g_renew (guint64, p->memo, MAX (p->memo_len, 1));
  for (gsize i = 0; i < p->n_runs; i++)
    {
      TmPickleRun *r = &p->runs[i];
      gsize n = MAX (p->objs[r->list].n, 1);

      if (r->cap > n)
        {
          r->items = g_renew (guint64, r->items, n);
          r->cap = n;
        }
    }
  return g_steal_pointer (&p);
}

void
tm_pickle_free (TmPickle *self)
{
  if (self == NULL)
    return;
  clear_values (self);
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
  gsize bytes = sizeof *self + self->objs_cap * sizeof (TmPickleObj) + self->items_cap * sizeof (guint64) +
                self->shapes_cap * sizeof (TmPickleShape) + self->shape_keys_cap * sizeof (guint64) +
                self->runs_cap * sizeof (TmPickleRun) + (self->memo != NULL ? self->memo_len * sizeof (guint64) : 0);

  for (gsize i = 0; i < self->n_runs; i++)
    bytes += self->runs[i].cap * sizeof (guint64);
  return bytes;
}

