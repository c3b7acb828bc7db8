/* tm-allocation-list.c — the Allocations tab's rows as a list model
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>
#include <glib/gi18n.h>

#include "tm-alloc-list.h"
#include "tm-allocation-list.h"

/* ------------------------------------------------------------------ */
/* One row                                                              */

struct _TmAllocationItem
{
  GObject        parent_instance;
  TmAllocations *allocations;
  guint          index;
  char          *shape;   /* decoded on first use */
};

G_DEFINE_FINAL_TYPE (TmAllocationItem, tm_allocation_item, G_TYPE_OBJECT)

static void
tm_allocation_item_finalize (GObject *object)
{
  TmAllocationItem *self = TM_ALLOCATION_ITEM (object);

  g_clear_object (&self->allocations);
  g_free (self->shape);
  G_OBJECT_CLASS (tm_allocation_item_parent_class)->finalize (object);
}

static void
tm_allocation_item_class_init (TmAllocationItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_allocation_item_finalize;
}

static void
tm_allocation_item_init (TmAllocationItem *self)
{
}

static TmAllocationItem *
item_new (TmAllocations *allocations,
          guint          index)
{
  TmAllocationItem *self = g_object_new (TM_TYPE_ALLOCATION_ITEM, NULL);

  self->allocations = g_object_ref (allocations);
  self->index = index;
  return self;
}

TmAllocations *
tm_allocation_item_get_allocations (TmAllocationItem *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ITEM (self), NULL);
  return self->allocations;
}

guint
tm_allocation_item_get_index (TmAllocationItem *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ITEM (self), TM_ALLOCATIONS_NONE);
  return self->index;
}

static const TmAllocationLabel *
item_label (TmAllocationItem *self)
{
  return tm_allocations_get_label (self->allocations, TM_ALLOCATION_LABEL (tm_allocations_get (self->allocations, self->index)));
}

const char *
tm_allocation_item_get_op_name (TmAllocationItem *self)
{
  const char *op;

  g_return_val_if_fail (TM_IS_ALLOCATION_ITEM (self), NULL);
  op = item_label (self)->op_name;
  return op[0] != '\0' ? op : _("unknown");
}

const char *
tm_allocation_item_get_region (TmAllocationItem *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ITEM (self), NULL);
  return item_label (self)->region_type;
}

const char *
tm_allocation_item_get_data_type (TmAllocationItem *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_ITEM (self), NULL);
  return item_label (self)->data_type;
}

const char *
tm_allocation_item_get_shape (TmAllocationItem *self)
{
  TmAllocShapes *shapes;
  TmActivity act;

  g_return_val_if_fail (TM_IS_ALLOCATION_ITEM (self), NULL);

  if (self->shape != NULL)
    return self->shape;
  shapes = g_object_get_data (G_OBJECT (self->allocations), TM_ALLOCATION_LIST_SHAPES_KEY);
  if (shapes != NULL)
    return tm_alloc_shapes_get (shapes, self->index);
  if (tm_memory_store_get_activity (tm_allocations_get_store (self->allocations),
                                    tm_allocations_get_event (self->allocations, self->index), &act, NULL))
    {
      self->shape = g_strdup (act.shape);
      tm_activity_clear (&act);
    }
  else
    self->shape = g_strdup ("");
  return self->shape;
}

/* ------------------------------------------------------------------ */
/* The list                                                             */

struct _TmAllocationList
{
  GObject        parent_instance;
  TmAllocations *allocations;
  GArray        *indices;
};

static GType
list_get_item_type (GListModel *model)
{
  return TM_TYPE_ALLOCATION_ITEM;
}

static guint
list_get_n_items (GListModel *model)
{
  TmAllocationList *self = TM_ALLOCATION_LIST (model);

  return self->indices != NULL ? self->indices->len : 0;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  TmAllocationList *self = TM_ALLOCATION_LIST (model);

  if (self->indices == NULL || position >= self->indices->len)
    return NULL;
  return item_new (self->allocations, g_array_index (self->indices, guint, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (TmAllocationList, tm_allocation_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
tm_allocation_list_finalize (GObject *object)
{
  TmAllocationList *self = TM_ALLOCATION_LIST (object);

  g_clear_object (&self->allocations);
  g_clear_pointer (&self->indices, g_array_unref);
  G_OBJECT_CLASS (tm_allocation_list_parent_class)->finalize (object);
}

static void
tm_allocation_list_class_init (TmAllocationListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tm_allocation_list_finalize;
}

static void
tm_allocation_list_init (TmAllocationList *self)
{
}

TmAllocationList *
tm_allocation_list_new (void)
{
  return g_object_new (TM_TYPE_ALLOCATION_LIST, NULL);
}

void
tm_allocation_list_set (TmAllocationList *self,
                        TmAllocations    *allocations,
                        GArray           *indices)
{
  guint removed;

  g_return_if_fail (TM_IS_ALLOCATION_LIST (self));
  g_return_if_fail (indices == NULL || allocations != NULL);

  /* Emptied first, then filled: when rows that had widgets go in the same
   * change as new rows come, GTK 4.8's list views look for each new row's
   * item among the widgets of the old ones, making an item per row of the
   * whole list (seconds for millions). */
  removed = list_get_n_items (G_LIST_MODEL (self));
  g_clear_pointer (&self->indices, g_array_unref);
  if (removed > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
  g_set_object (&self->allocations, allocations);
  self->indices = indices;
  if (list_get_n_items (G_LIST_MODEL (self)) > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, list_get_n_items (G_LIST_MODEL (self)));
}

TmAllocations *
tm_allocation_list_get_allocations (TmAllocationList *self)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_LIST (self), NULL);
  return self->allocations;
}

guint
tm_allocation_list_get_index (TmAllocationList *self,
                              guint             position)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_LIST (self), TM_ALLOCATIONS_NONE);
  g_return_val_if_fail (self->indices != NULL && position < self->indices->len, TM_ALLOCATIONS_NONE);
  return g_array_index (self->indices, guint, position);
}

guint
tm_allocation_list_find (TmAllocationList *self,
                         guint             index)
{
  g_return_val_if_fail (TM_IS_ALLOCATION_LIST (self), GTK_INVALID_LIST_POSITION);

  for (guint i = 0; self->indices != NULL && i < self->indices->len; i++)
    if (g_array_index (self->indices, guint, i) == index)
      return i;
  return GTK_INVALID_LIST_POSITION;
}
