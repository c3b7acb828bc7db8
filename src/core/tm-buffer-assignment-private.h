/* tm-buffer-assignment-private.h — what tm-buffer-assignment.c and
 * tm-buffer-assignment-sort.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tm-buffer-assignment.h"

G_BEGIN_DECLS

/* Fills by_size and by_padding from max_heap. */
void tm_buffer_assignment_sort_orders (TmBufferAssignment *self);

G_END_DECLS
