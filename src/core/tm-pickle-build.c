/* tm-pickle-build.c — making the values of a pickle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the parser's opcodes make, beyond the few it makes in its own
 * loop (tm-pickle.c): objects in the arena, shaped dicts and lazy ones,
 * containers' items, large integers, strings, the memo, and the errors
 * the opcodes report.
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "tm-error.h"
#include "tm-pickle-private.h"

/* ------------------------------------------------------------------ */
/* Errors                                                               */

gboolean
tm_pickle_fail_truncated (gsize    at,
                          guint8   op,
                          GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_TRUNCATED,
               _("truncated at byte %zu: the pickle ends inside its %s opcode"),
               at, tm_pickle_op_name (op));
  return FALSE;
}

gboolean
tm_pickle_fail_underflow (gsize    at,
                          guint8   op,
                          GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("invalid pickle at byte %zu: %s finds too few values on the stack"),
               at, tm_pickle_op_name (op));
  return FALSE;
}

gboolean
tm_pickle_fail_too_large (gsize    at,
                          GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_TOO_LARGE,
               _("too large at byte %zu: the pickle holds more than %zu values"),
               at, MAX_COUNT);
  return FALSE;
}

gboolean
tm_pickle_fail_odd (gsize    at,
                    guint8   op,
                    GError **error)
{
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("invalid pickle at byte %zu: %s finds a key without a value"), at, tm_pickle_op_name (op));
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

gboolean
tm_pickle_grow_stack (Parser  *ps,
                      gsize    at,
                      GError **error)
{
  if (!reserve ((gpointer *) &ps->stack, &ps->stack_cap, ps->n_stack + 1, sizeof (guint64)))
    return tm_pickle_fail_too_large (at, error);
  return TRUE;
}

static gboolean
push (Parser  *ps,
      guint64  word,
      gsize    at,
      GError **error)
{
  if (G_UNLIKELY (ps->n_stack == ps->stack_cap) && !tm_pickle_grow_stack (ps, at, error))
    return FALSE;
  ps->stack[ps->n_stack++] = word;
  return TRUE;
}

/* A new object; its word is its index. */
TmPickleObj *
tm_pickle_new_obj (TmPickle *p,
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

gboolean
tm_pickle_push_obj (Parser       *ps,
                    guint32       kind,
                    TmPickleObj **out,
                    gsize         at,
                    GError      **error)
{
  guint64 word;
  TmPickleObj *o = tm_pickle_new_obj (ps->p, kind, &word);

  if (o == NULL)
    return tm_pickle_fail_too_large (at, error);
  if (!push (ps, word, at, error))
    return FALSE;
  /* push() does not move the arena. */
  *out = o;
  return TRUE;
}

static gboolean
push_int (Parser  *ps,
          gint64   v,
          gsize    at,
          GError **error)
{
  TmPickleObj *o = NULL;

  if (G_LIKELY (v >= SMALL_MIN && v <= SMALL_MAX))
    return push (ps, (guint64) v << TAG_BITS | TAG_INT, at, error);
  if (!tm_pickle_push_obj (ps, TM_PICKLE_INT, &o, at, error))
    return FALSE;
  g_assert (o != NULL);
  o->v.i = v;
  return TRUE;
}

/* ------------------------------------------------------------------ */
/* Shapes and items                                                     */

/* A shaped dict that gets more items becomes one of pairs again. */
static gboolean
unshape (TmPickle    *p,
         TmPickleObj *o,
         gsize        at,
         GError     **error)
{
  const TmPickleShape *sh = &p->shapes[o->shape];
  gsize start = p->n_items;
  gsize values = o->v.c.start;

  if (start + 2 * (gsize) o->n > MAX_COUNT ||
      !reserve ((gpointer *) &p->items, &p->items_cap, start + 2 * (gsize) o->n, sizeof (guint64)))
    return tm_pickle_fail_too_large (at, error);
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
  p->shapes[id].lazy = 0;
  for (gsize i = 0; i < n; i++)
    p->shape_keys[p->n_shape_keys++] = words[2 * i];
  ps->recent[ps->next_recent] = id;
  ps->next_recent = (ps->next_recent + 1) % SHAPE_CACHE;
  return id;
}

/* SETITEMS into an empty dict: its values only, when its keys make a
 * shape. FALSE in *done when it does not (the caller adds pairs). */
gboolean
tm_pickle_add_shaped (Parser        *ps,
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
    return tm_pickle_fail_too_large (at, error);
  o->shape = shape;
  o->v.c.start = (guint32) p->n_items;
  o->v.c.cap = (guint32) n;
  o->n = (guint32) n;
  for (gsize i = 0; i < n; i++)
    p->items[p->n_items++] = words[2 * i + 1];
  *done = TRUE;
  return TRUE;
}

/* Makes the dict the last EMPTY_DICT made, whose pairs start at byte
 * region_at, a lazy dict of shape: its word, or 0 when it cannot be. Its
 * MARK came right after it (and a memo opcode) and only memo references
 * and small integers came since, none of them the dict itself: its word
 * is then only on the stack (the caller replaces it) and in that memo
 * slot (replaced here), and its object is the last one (given back). */
guint64
tm_pickle_lazy_commit (Parser  *ps,
                       guint32  shape,
                       gsize    region_at)
{
  TmPickle *p = ps->p;
  guint64 dict = ps->dict_word;
  TmPickleShape *sh = &p->shapes[shape];
  guint64 word;

  if ((dict >> TAG_BITS) + 1 != p->n_objs || p->objs[dict >> TAG_BITS].n != 0 ||
      region_at > LAZY_MAX_OFFSET)
    return 0;
  if (sh->lazy == 0)
    {
      if (p->n_lazy_shapes == MAX_LAZY_SHAPES)
        return 0;
      p->lazy_shapes[p->n_lazy_shapes++] = shape;
      sh->lazy = (guint32) p->n_lazy_shapes;
    }
  word = TAG_LAZY | (guint64) (sh->lazy - 1) << TAG_BITS | (guint64) region_at << LAZY_OFFSET_SHIFT;
  if (ps->dict_memo_at != G_MAXSIZE && p->memo[ps->dict_memo_slot] == dict)
    p->memo[ps->dict_memo_slot] = word;
  p->n_objs--;
  ps->n_lazy++;
  ps->dict_word = UNSET;
  ps->last_lazy_shape = shape;
  return word;
}

/* SETITEMS of count words (pairs) at words into the dict the last
 * EMPTY_DICT made, with its MARK as tm_pickle_lazy_commit() says: its lazy
 * word, or 0 when it cannot be lazy. */
guint64
tm_pickle_make_lazy (Parser        *ps,
                     const guint64 *words,
                     gsize          count)
{
  guint32 shape;

  for (gsize i = 1; i < count; i += 2)
    if (words[i] == ps->dict_word)
      return 0;
  shape = find_shape (ps, words, count);
  if (shape == 0)
    return 0;
  return tm_pickle_lazy_commit (ps, shape, ps->region_at);
}

/* The least a list's run holds before it gets an array of its own. */
#define OWN_RUN_MIN 4096

/* Appends k words to a list that has an array of its own. */
static gboolean
add_to_run (TmPickle    *p,
            TmPickleObj *o,
            const guint64 *words,
            gsize        k,
            gsize        at,
            GError     **error)
{
  TmPickleRun *r = &p->runs[o->shape - 1];

  if (!reserve ((gpointer *) &r->items, &r->cap, (gsize) o->n + k, sizeof (guint64)))
    return tm_pickle_fail_too_large (at, error);
  memcpy (r->items + o->n, words, k * sizeof (guint64));
  o->n += (guint32) k;
  return TRUE;
}

/* Appends k words to a container's items (pairs count as two words).
 * Items of one container stay in one run: a container whose run cannot
 * grow in place moves to the end with room to double, so appending in
 * batches (APPENDS of a thousand at a time) costs amortised O(1); a large
 * list moves into an array of its own instead. */
gboolean
tm_pickle_add_items (TmPickle      *p,
                     guint64        container,
                     const guint64 *words,
                     gsize          k,
                     gsize          at,
                     GError       **error)
{
  TmPickleObj *o = &p->objs[container >> TAG_BITS];
  gboolean dict = o->kind == TM_PICKLE_DICT;
  gsize per = dict ? 2 : 1;
  gsize used = (gsize) o->n * per;

  if (k == 0)
    return TRUE;
  if (used + k > MAX_COUNT)
    return tm_pickle_fail_too_large (at, error);
  if (dict && o->shape != 0 && !unshape (p, o, at, error))
    return FALSE;
  if (!dict && o->shape != 0)
    return add_to_run (p, o, words, k, at, error);
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
            return tm_pickle_fail_too_large (at, error);
          o->v.c.cap = (guint32) (used + k);
          p->n_items = (gsize) o->v.c.start + used + k;
        }
      else if (!dict && used >= OWN_RUN_MIN && p->n_runs < MAX_SHAPES)
        {
          TmPickleRun *r;

          if (!reserve ((gpointer *) &p->runs, &p->runs_cap, p->n_runs + 1, sizeof (TmPickleRun)))
            return tm_pickle_fail_too_large (at, error);
          r = &p->runs[p->n_runs++];
          r->list = (guint32) (container >> TAG_BITS);
          r->cap = MAX (used * 2, used + k);
          r->items = g_new (guint64, r->cap);
          memcpy (r->items, p->items + o->v.c.start, used * sizeof (guint64));
          /* Its old place is left as a hole: it was at most what the
           * list held, once. */
          o->shape = (guint32) p->n_runs;
          return add_to_run (p, o, words, k, at, error);
        }
      else
        {
          gsize cap = MAX (used * 2, used + k);
          gsize start = p->n_items;

          if (start + cap > MAX_COUNT ||
              !reserve ((gpointer *) &p->items, &p->items_cap, start + cap, sizeof (guint64)))
            return tm_pickle_fail_too_large (at, error);
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

/* LONG1/LONG4: n bytes of two's complement, little-endian. Exact for every
 * value from -2^63 to 2^64-1; anything else is refused. */
gboolean
tm_pickle_push_long (Parser       *ps,
                     const guint8 *q,
                     gsize         n,
                     gsize         at,
                     guint8        op,
                     GError      **error)
{
  gboolean negative = n > 0 && (q[n - 1] & 0x80);
  guint64 low;

  if (n <= 8)
    return push_int (ps, small_long (q, n), at, error);

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

      if (!tm_pickle_push_obj (ps, TM_PICKLE_UINT, &o, at, error))
        return FALSE;
      g_assert (o != NULL);
      o->v.u = low;
      return TRUE;
    }

too_wide:
  g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
               _("integer too large at byte %zu: %s of %zu bytes does not fit 64 bits"),
               at, tm_pickle_op_name (op), n);
  return FALSE;
}

gboolean
tm_pickle_push_string (Parser       *ps,
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
                   _("too large at byte %zu: a %s of %zu bytes"), at, tm_pickle_op_name (op), n);
      return FALSE;
    }
  if (text && !g_utf8_validate ((const char *) q, (gssize) n, NULL))
    {
      const char *end;

      g_utf8_validate ((const char *) q, (gssize) n, &end);
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: the %s holds bytes that are not UTF-8 at byte %zu"),
                   at, tm_pickle_op_name (op), (gsize) ((const guint8 *) end - ps->p->data));
      return FALSE;
    }
  if (!tm_pickle_push_obj (ps, text ? TM_PICKLE_STRING : TM_PICKLE_BYTES, &o, at, error))
    return FALSE;
  o->n = (guint32) n;
  o->v.offset = (guint64) (q - ps->p->data);
  return TRUE;
}

/* The position of the top mark, or FALSE with an error. */
gboolean
tm_pickle_pop_mark (Parser  *ps,
                    gsize   *base,
                    gsize    at,
                    guint8   op,
                    GError **error)
{
  if (ps->n_marks == 0)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: %s without a MARK before it"), at, tm_pickle_op_name (op));
      return FALSE;
    }
  *base = ps->marks[--ps->n_marks];
  return TRUE;
}

gboolean
tm_pickle_container_kind (Parser  *ps,
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
               at, tm_pickle_op_name (op), tm_pickle_kind_name (kind), tm_pickle_kind_name (want));
  return FALSE;
}

/* Replaces the top count values (above floor) with a new container. */
gboolean
tm_pickle_collect (Parser  *ps,
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
    return tm_pickle_fail_odd (at, op, error);
  o = tm_pickle_new_obj (ps->p, kind, &word);
  if (o == NULL)
    return tm_pickle_fail_too_large (at, error);
  /* An empty stack may have no array yet: no items, no pointer. */
  if (count > 0 && !tm_pickle_add_items (ps->p, word, ps->stack + base, count, at, error))
    return FALSE;
  ps->n_stack = base;
  return push (ps, word, at, error);
}

/* Sets memo slot index to the top value. A pickle sets memo slots in
 * order; any slot up to the number of values made so far is allowed
 * (each takes at least one byte of the pickle). */
gboolean
tm_pickle_memo_put (Parser  *ps,
                    gsize    index,
                    gsize    at,
                    guint8   op,
                    gsize    op_len,
                    GError **error)
{
  TmPickle *p = ps->p;

  if (ps->n_stack == floor_of (ps))
    return tm_pickle_fail_underflow (at, op, error);
  if (index > at + 1024)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_PICKLE,
                   _("invalid pickle at byte %zu: %s to memo slot %zu, far beyond the values made before it"),
                   at, tm_pickle_op_name (op), index);
      return FALSE;
    }
  if (index >= p->memo_len)
    {
      if (!reserve ((gpointer *) &p->memo, &ps->memo_cap, index + 1, sizeof (guint64)))
        return tm_pickle_fail_too_large (at, error);
      for (gsize i = p->memo_len; i < index; i++)
        p->memo[i] = UNSET;
      p->memo_len = index + 1;
      ps->memo_count++;
    }
  else if (p->memo[index] != UNSET)
    ps->memo_reset = TRUE;
  else
    ps->memo_count++;
  p->memo[index] = ps->stack[ps->n_stack - 1];
  if (at == ps->dict_at + 1)
    {
      ps->dict_memo_at = at;
      ps->dict_memo_len = op_len;
      ps->dict_memo_slot = index;
    }
  return TRUE;
}

