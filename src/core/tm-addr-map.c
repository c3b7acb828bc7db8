/* tm-addr-map.c — a map from a 64-bit address to a snapshot index
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tm-addr-map.h"

#define EMPTY_VALUE G_MAXUINT32

typedef struct
{
  guint64 key;
  guint32 value;
} Slot;

struct _TmAddrMap
{
  Slot  *slots;
  gsize  mask;
  gsize  count;
};

static inline gsize
hash_addr (guint64 addr)
{
  /* Addresses are aligned: mix the bits (a 64-bit finaliser). */
  addr ^= addr >> 33;
  addr *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  addr ^= addr >> 33;
  return (gsize) addr;
}

static void
addr_map_init_slots (TmAddrMap *map,
                     gsize      n_slots)
{
  map->slots = g_new (Slot, n_slots);
  for (gsize i = 0; i < n_slots; i++)
    map->slots[i].value = EMPTY_VALUE;
  map->mask = n_slots - 1;
}

TmAddrMap *
tm_addr_map_new (void)
{
  TmAddrMap *map = g_new0 (TmAddrMap, 1);

  addr_map_init_slots (map, 64);
  return map;
}

void
tm_addr_map_free (TmAddrMap *map)
{
  if (map == NULL)
    return;
  g_free (map->slots);
  g_free (map);
}

static void
addr_map_rehash (TmAddrMap *map)
{
  Slot *old = map->slots;
  gsize old_n = map->mask + 1;

  addr_map_init_slots (map, old_n * 2);
  for (gsize i = 0; i < old_n; i++)
    {
      if (old[i].value != EMPTY_VALUE)
        {
          gsize j = hash_addr (old[i].key) & map->mask;

          while (map->slots[j].value != EMPTY_VALUE)
            j = (j + 1) & map->mask;
          map->slots[j] = old[i];
        }
    }
  g_free (old);
}

gboolean
tm_addr_map_lookup (TmAddrMap *map,
                    guint64    addr,
                    guint32   *value)
{
  gsize j = hash_addr (addr) & map->mask;

  while (map->slots[j].value != EMPTY_VALUE)
    {
      if (map->slots[j].key == addr)
        {
          if (value != NULL)
            *value = map->slots[j].value;
          return TRUE;
        }
      j = (j + 1) & map->mask;
    }

  return FALSE;
}

gboolean
tm_addr_map_exchange (TmAddrMap *map,
                      guint64    addr,
                      guint32    value,
                      guint32   *old)
{
  gsize j;

  g_assert (value != EMPTY_VALUE);

  if ((map->count + 1) * 2 > map->mask + 1)
    addr_map_rehash (map);

  j = hash_addr (addr) & map->mask;
  while (map->slots[j].value != EMPTY_VALUE)
    {
      if (map->slots[j].key == addr)
        {
          if (old != NULL)
            *old = map->slots[j].value;
          map->slots[j].value = value;
          return TRUE;
        }
      j = (j + 1) & map->mask;
    }

  map->slots[j].key = addr;
  map->slots[j].value = value;
  map->count++;
  return FALSE;
}

void
tm_addr_map_insert (TmAddrMap *map,
                    guint64    addr,
                    guint32    value)
{
  tm_addr_map_exchange (map, addr, value, NULL);
}

gboolean
tm_addr_map_remove (TmAddrMap *map,
                    guint64    addr,
                    guint32   *value)
{
  gsize j = hash_addr (addr) & map->mask;

  while (map->slots[j].value != EMPTY_VALUE)
    {
      if (map->slots[j].key == addr)
        {
          gsize hole = j;

          if (value != NULL)
            *value = map->slots[j].value;

          /* Shift back the entries of the cluster that hashed before the hole. */
          for (gsize k = (j + 1) & map->mask; map->slots[k].value != EMPTY_VALUE; k = (k + 1) & map->mask)
            {
              gsize home = hash_addr (map->slots[k].key) & map->mask;

              if (((k - home) & map->mask) >= ((k - hole) & map->mask))
                {
                  map->slots[hole] = map->slots[k];
                  hole = k;
                }
            }
          map->slots[hole].value = EMPTY_VALUE;
          map->count--;
          return TRUE;
        }
      j = (j + 1) & map->mask;
    }

  return FALSE;
}

gboolean
tm_addr_map_iter_next (TmAddrMap *map,
                       gsize     *pos,
                       guint64   *addr,
                       guint32   *value)
{
  for (gsize j = *pos; j <= map->mask; j++)
    {
      if (map->slots[j].value != EMPTY_VALUE)
        {
          if (addr != NULL)
            *addr = map->slots[j].key;
          if (value != NULL)
            *value = map->slots[j].value;
          *pos = j + 1;
          return TRUE;
        }
    }

  *pos = map->mask + 1;
  return FALSE;
}
