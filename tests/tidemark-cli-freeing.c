/* tidemark-cli-freeing.c — the command line, freeing what it kept
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   tidemark-cli-freeing --summary|--export=… FILE…
 *
 * Tidemark's command line (src/cli) as src/main.c runs it, except that the
 * last profile is freed before the program ends instead of being left to
 * the exit (tm_cli_run_freeing()), so that a leak checker sees every free.
 * By hand (docs/performance.md):
 *   valgrind --leak-check=full build/tests/tidemark-cli-freeing --summary PROFILE
 */

#include "config.h"

#include <locale.h>

#include "tm-cli-private.h"

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  return tm_cli_run_freeing (argc, argv);
}
