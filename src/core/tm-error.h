/* tm-error.h — errors of the core, each with a specific message
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The TM_ERROR domain and its codes; every step of the core uses it, it
 * uses nothing of the core.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TM_ERROR (tm_error_quark ())

/* Every message names the problem and, where it has one, the byte offset. */
typedef enum
{
  TM_ERROR_EMPTY,          /* file is empty */
  TM_ERROR_IS_DIRECTORY,   /* path is a directory */
  TM_ERROR_PERMISSION,     /* cannot be read (permission) */
  TM_ERROR_READ,           /* any other I/O failure */
  TM_ERROR_CHANGED,        /* changed (truncated) while reading */
  TM_ERROR_NOT_PROTOBUF,   /* neither a protobuf nor a memory-profile JSON */
  TM_ERROR_TRUNCATED,      /* ends inside a field, at byte N */
  TM_ERROR_WIRE_TYPE,      /* field F has wire type W */
  TM_ERROR_LENGTH,         /* a length runs past the end */
  TM_ERROR_TOO_DEEP,       /* nested too deep */
  TM_ERROR_INVALID,        /* structurally valid but not an XSpace */
  TM_ERROR_JSON,           /* invalid memory-profile JSON */
  TM_ERROR_NO_MEMORY_ID,   /* asked for a memory id the profile does not have */
  TM_ERROR_TOO_LARGE,      /* would take far more memory than the file's size justifies */
  TM_ERROR_PICKLE,         /* a malformed pickle, or one that is not a memory snapshot */
  TM_ERROR_UNSAFE,         /* a pickle that imports, calls or builds Python objects */
} TmError;

GQuark tm_error_quark (void);

G_END_DECLS
