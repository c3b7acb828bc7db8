/* main.c — hands argv to the command line (headless options) or the app
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "tm-cli.h"

#ifdef TM_HAVE_GUI
# include "tm-application.h"
#endif

int
main (int   argc,
      char *argv[])
{
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
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
  g_printerr ("%s\n", _("This build of Tidemark has no graphical interface; use --summary or --export."));
  status = 2;
#endif

  return status;
}
