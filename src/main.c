/* main.c — hands argv to the command line (headless options) or the app
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdlib.h>

#include "tm-cli.h"

#ifdef TM_HAVE_GUI
# include "tm-application.h"
#endif

/* Where the translations are: $TIDEMARK_LOCALEDIR when set; the build
 * tree's when this is the program built there (a developer running
 * ./build/src/tidemark); else the installed ones. */
static const char *
locale_dir (void)
{
  const char *env = g_getenv ("TIDEMARK_LOCALEDIR");
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
  g_autofree char *build_dir = realpath (BUILD_EXE_DIR, NULL);

  if (env != NULL && env[0] != '\0')
    return env;
  if (exe_dir != NULL && build_dir != NULL && g_str_equal (exe_dir, build_dir) &&
      g_file_test (BUILD_LOCALEDIR, G_FILE_TEST_IS_DIR))
    return BUILD_LOCALEDIR;
  return LOCALEDIR;
}

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* --summary, --export and --help-cli never touch a display. */
  if (tm_cli_wants (argc, argv))
    return tm_cli_run (argc, argv);

#ifdef TM_HAVE_GUI
  {
    g_autoptr(TmApplication) app = tm_application_new ();
    status = g_application_run (G_APPLICATION (app), argc, argv);
  }
#else
  /* Without the application, the command line's own --help lists the
   * options. */
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h") || g_str_equal (argv[i], "--help-all"))
      return tm_cli_run (argc, argv);
  g_printerr ("%s\n", _("This build of Tidemark has no graphical interface; use --summary or --export."));
  status = 2;
#endif

  return status;
}
