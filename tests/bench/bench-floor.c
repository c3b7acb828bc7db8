/* bench-floor.c — the machine's floor for reading a file: map it, read every word
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-floor FILE
 *
 * Maps FILE and reads every 8-byte word of it once, on one thread, and
 * prints their sum (so that no compiler drops the reading). The time
 * from its start to its exit is what no reader of the file can beat by
 * much: page faults on the mapping and the memory's bandwidth. bench-open
 * and bench-window run it beside what they measure and give every figure
 * as a multiple of it (docs/performance.md).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

int
main (int   argc,
      char *argv[])
{
  const guint64 *words;
  const guint8 *bytes;
  struct stat st;
  guint64 sum = 0;
  gsize n_words;
  void *map;
  int fd;

  if (argc != 2)
    {
      fprintf (stderr, "usage: bench-floor FILE\n");
      return 2;
    }
  fd = open (argv[1], O_RDONLY);
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      fprintf (stderr, "bench-floor: %s: %s\n", argv[1], g_strerror (errno));
      return 1;
    }
  if (st.st_size == 0)
    {
      printf ("sum=0\n");
      return 0;
    }
  map = mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      fprintf (stderr, "bench-floor: cannot map %s: %s\n", argv[1], g_strerror (errno));
      return 1;
    }

  words = map;
  n_words = (gsize) st.st_size / 8;
  for (gsize i = 0; i < n_words; i++)
    sum += words[i];
  bytes = map;
  for (gsize i = n_words * 8; i < (gsize) st.st_size; i++)
    sum += bytes[i];

  printf ("sum=%" G_GUINT64_FORMAT "\n", sum);
  return 0;
}
