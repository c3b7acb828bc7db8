/* tm-pickle.h — a safe reader of plain-data pickles (docs/formats.md, section 6)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reads a pickle of protocol 2 to 5 that holds only plain data: dicts,
 * lists, tuples, strings, bytes, integers, floats, booleans and None. Any
 * opcode that imports, calls or builds an object (GLOBAL, STACK_GLOBAL,
 * REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4, PERSID,
 * BINPERSID) is refused with the opcode and its byte offset; nothing is
 * ever executed. Uses only tm-error.
 *
 * Values are 64-bit words (TmPickleValue): None, booleans and integers that
 * fit 61 bits are held in the word itself; everything else is an object in
 * one arena, and containers' items are runs of words in one array. Strings
 * and bytes are (offset, length) into the pickle's bytes, which must stay
 * mapped while the TmPickle lives. The memo holds words, so a value the
 * pickle shares (frames lists in PyTorch snapshots) is one value, shared.
 * A dict whose pairs are only memo references and small integers (the
 * trace entries of a snapshot) is kept as its place in the pickle and read
 * again when asked for (docs/formats.md, section 6.1).
 *
 * A pickle can make a list that holds itself (through the memo): code that
 * walks values must bound its depth. A finished TmPickle is immutable and
 * can be read from any thread.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TmPickle TmPickle;

typedef guint64 TmPickleValue;

/* The word of None (a default for absent keys). */
#define TM_PICKLE_VALUE_NONE ((TmPickleValue) 2)

/* Integers from -2^60 to 2^60 - 1 are the word itself (low bits 001):
 * read them without a call. */
#define TM_PICKLE_IS_SMALL_INT(v) (((v) & 7) == 1)
#define TM_PICKLE_SMALL_INT(v)    ((gint64) (v) >> 3)

typedef enum
{
  TM_PICKLE_NONE,
  TM_PICKLE_BOOL,
  TM_PICKLE_INT,    /* fits gint64 */
  TM_PICKLE_UINT,   /* above G_MAXINT64, up to G_MAXUINT64 */
  TM_PICKLE_FLOAT,
  TM_PICKLE_STRING, /* UTF-8, not NUL-terminated */
  TM_PICKLE_BYTES,  /* bytes and bytearray */
  TM_PICKLE_TUPLE,
  TM_PICKLE_LIST,
  TM_PICKLE_DICT,
} TmPickleKind;

/* Nesting of MARKs (open tuples, lists and dicts being built) at most. */
#define TM_PICKLE_MAX_DEPTH 1000

/* TRUE if data starts as a pickle of protocol 2 to 5 (0x80, then 2..5):
 * the content check for picking this reader. */
gboolean       tm_pickle_sniff           (const guint8   *data,
                                          gsize           size);

/* Reads the pickle in data[0..size) up to its STOP (bytes after it are
 * ignored). data must outlive the result. Errors are TM_ERROR_PICKLE
 * (malformed, with the byte offset), TM_ERROR_UNSAFE (an opcode that is not
 * plain data), TM_ERROR_TOO_DEEP, TM_ERROR_TOO_LARGE. */
TmPickle      *tm_pickle_read            (const guint8   *data,
                                          gsize           size,
                                          GError        **error);
void           tm_pickle_free            (TmPickle       *self);

/* The protocol of the PROTO opcode (0 without one), and the top value. */
guint          tm_pickle_get_protocol    (TmPickle       *self);
TmPickleValue  tm_pickle_get_root        (TmPickle       *self);
/* Bytes the values take beyond the pickle's own bytes. */
gsize          tm_pickle_get_memory_size (TmPickle       *self);

TmPickleKind   tm_pickle_kind            (TmPickle       *self,
                                          TmPickleValue   value);
/* The kind's name for messages: "dict", "int", ... */
const char    *tm_pickle_kind_name       (TmPickleKind    kind);

/* Integers and booleans as gint64: FALSE for other kinds and for a UINT
 * above G_MAXINT64. */
gboolean       tm_pickle_get_int         (TmPickle       *self,
                                          TmPickleValue   value,
                                          gint64         *out);
/* Integers as guint64 (addresses): FALSE for other kinds and negatives. */
gboolean       tm_pickle_get_uint        (TmPickle       *self,
                                          TmPickleValue   value,
                                          guint64        *out);
/* Floats, and integers converted. */
gboolean       tm_pickle_get_double      (TmPickle       *self,
                                          TmPickleValue   value,
                                          double         *out);
/* A string's or bytes' data (not NUL-terminated) and length; NULL for
 * other kinds. */
const char    *tm_pickle_get_string      (TmPickle       *self,
                                          TmPickleValue   value,
                                          gsize          *length);
/* TRUE if value is a string equal to s. */
gboolean       tm_pickle_string_equal    (TmPickle       *self,
                                          TmPickleValue   value,
                                          const char     *s);
/* The byte offset of a string's data in the pickle (for messages). */
gsize          tm_pickle_get_string_offset (TmPickle     *self,
                                          TmPickleValue   value);

/* Items of a list or tuple (and the number of a dict's pairs); 0 for
 * other kinds. The pointer stays valid while the TmPickle lives. */
gsize          tm_pickle_get_length      (TmPickle       *self,
                                          TmPickleValue   value);
const TmPickleValue *tm_pickle_get_items (TmPickle       *self,
                                          TmPickleValue   value,
                                          gsize          *n_items);
/* A dict's pairs, in the order the pickle set them (a key set twice
 * appears twice; the later wins). */
gsize          tm_pickle_dict_size       (TmPickle       *self,
                                          TmPickleValue   dict);
gboolean       tm_pickle_dict_item       (TmPickle       *self,
                                          TmPickleValue   dict,
                                          gsize           i,
                                          TmPickleValue  *key,
                                          TmPickleValue  *value);
/* The value of the string key in dict (the last one set), or FALSE. */
gboolean       tm_pickle_dict_lookup     (TmPickle       *self,
                                          TmPickleValue   dict,
                                          const char     *key,
                                          TmPickleValue  *out);

/* Dicts with the same keys in the same order (made by SETITEMS, 2 to
 * TM_PICKLE_MAX_SHAPE_KEYS keys) share a shape: for reading many of them,
 * find a key's slot once per shape and take values by slot. Shape 0 is
 * none. */
#define TM_PICKLE_MAX_SHAPE_KEYS 64

guint          tm_pickle_dict_shape      (TmPickle       *self,
                                          TmPickleValue   dict);
/* Shapes are numbered 1 to tm_pickle_get_n_shapes () - 1. */
guint          tm_pickle_get_n_shapes    (TmPickle       *self);
/* The slot of key in shape (the last one set), or -1. */
gint           tm_pickle_shape_find      (TmPickle       *self,
                                          guint           shape,
                                          const char     *key);
TmPickleValue  tm_pickle_dict_value_at   (TmPickle       *self,
                                          TmPickleValue   dict,
                                          guint           slot);
/* A shaped dict's values, in its shape's key order, copied into values
 * (room for TM_PICKLE_MAX_SHAPE_KEYS), and its shape; 0 (values left as
 * they are) for a dict of pairs or another kind. The fast way to read
 * many dicts of a few shapes. */
guint          tm_pickle_dict_get_values (TmPickle       *self,
                                          TmPickleValue   dict,
                                          TmPickleValue  *values);
/* The same for its first n values only (a lazy dict is read again only
 * that far); its shape, or 0. */
guint          tm_pickle_dict_get_first_values (TmPickle      *self,
                                                TmPickleValue  dict,
                                                guint          n,
                                                TmPickleValue *values);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TmPickle, tm_pickle_free)

G_END_DECLS
