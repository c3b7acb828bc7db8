#!/bin/bash
# Validates the desktop integration data: desktop file, AppStream metainfo,
# GSettings schema, translations and icons. Offline, no display needed.
#
#   validate-data.sh desktop FILE
#   validate-data.sh appstream FILE
#   validate-data.sh schemas DIR
#   validate-data.sh po PODIR
#   validate-data.sh po-complete SRCDIR      (every string in POTFILES.in is translated)
#   validate-data.sh icons SCALABLE.svg SYMBOLIC.svg
#
# A missing validator is a failure, not a skip: the README lists the packages.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -u

fail ()
{
  echo "FAIL: $*" >&2
  exit 1
}

need ()
{
  command -v "$1" >/dev/null 2>&1 || fail "$1 is not installed (Debian package: $2)"
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

mode=${1:-}
shift || true

case "$mode" in
  desktop)
    need desktop-file-validate desktop-file-utils
    file=$1
    [ -f "$file" ] || fail "$file does not exist"
    out=$(desktop-file-validate "$file" 2>&1)
    rc=$?
    [ -n "$out" ] && printf '%s\n' "$out"
    [ $rc -eq 0 ] || fail "desktop-file-validate exited with $rc"
    if printf '%s\n' "$out" | grep -Eqi '(error|warning):'; then
      fail "desktop-file-validate reported problems in $file"
    fi
    grep -q '^Name\[th\]=' "$file" || fail "$file has no Thai name"
    grep -q '^Comment\[th\]=' "$file" || fail "$file has no Thai comment"
    echo "ok: $file"
    ;;

  appstream)
    need appstreamcli appstream
    file=$1
    [ -f "$file" ] || fail "$file does not exist"
    out=$(appstreamcli validate --no-net --explain "$file" 2>&1)
    rc=$?
    printf '%s\n' "$out"
    [ $rc -eq 0 ] || fail "appstreamcli validate exited with $rc"
    if printf '%s\n' "$out" | grep -Eq '^[EW]: '; then
      fail "appstreamcli reported errors or warnings in $file"
    fi
    grep -q 'xml:lang="th"' "$file" || fail "$file has no Thai translations merged in"
    echo "ok: $file"
    ;;

  schemas)
    need glib-compile-schemas libglib2.0-bin
    dir=$1
    ls "$dir"/*.gschema.xml >/dev/null 2>&1 || fail "no schema in $dir"
    glib-compile-schemas --strict --dry-run "$dir" || fail "glib-compile-schemas --strict rejected $dir"
    echo "ok: schemas in $dir"
    ;;

  po)
    need msgfmt gettext
    podir=$1
    [ -f "$podir/LINGUAS" ] || fail "$podir/LINGUAS does not exist"
    langs=$(sed -e 's/#.*//' "$podir/LINGUAS" | tr -s ' \t' '\n\n' | grep -v '^$')
    [ -n "$langs" ] || fail "$podir/LINGUAS lists no language"
    for po in "$podir"/*.po; do
      lang=$(basename "$po" .po)
      printf '%s\n' "$langs" | grep -qx "$lang" || fail "$po is not listed in LINGUAS"
    done
    for lang in $langs; do
      po="$podir/$lang.po"
      [ -f "$po" ] || fail "$lang is in LINGUAS but $po does not exist"
      stats=$(LC_ALL=C msgfmt -c --statistics -o /dev/null "$po" 2>&1) || {
        printf '%s\n' "$stats"
        fail "msgfmt -c rejected $po"
      }
      echo "$lang: $stats"
      printf '%s\n' "$stats" | grep -Eq '^[0-9]+ translated messages?\.$' ||
        fail "$po is not 100% translated (fuzzy or untranslated messages)"
    done
    echo "ok: translations in $podir"
    ;;

  po-complete)
    need xgettext gettext
    need msgcmp gettext
    srcdir=$1
    potfiles="$srcdir/po/POTFILES.in"
    [ -f "$potfiles" ] || fail "$potfiles does not exist"
    # The same keywords as meson's i18n 'glib' preset.
    (cd "$srcdir" &&
     xgettext --files-from=po/POTFILES.in --directory=. --output="$tmp/tidemark.pot" \
       --from-code=UTF-8 --add-comments \
       --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
       --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
       --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
       --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
       --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
       --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
       --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
       --flag=g_print:1:c-format --flag=g_printerr:1:c-format \
       --flag=g_printf:1:c-format --flag=g_fprintf:2:c-format \
       --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format) ||
      fail "xgettext failed on the files in POTFILES.in"
    langs=$(sed -e 's/#.*//' "$srcdir/po/LINGUAS" | tr -s ' \t' '\n\n' | grep -v '^$')
    for lang in $langs; do
      po="$srcdir/po/$lang.po"
      # msgcmp fails when a message of the template is missing from the po
      # file; --use-untranslated=no (the default) also rejects empty ones.
      msgcmp "$po" "$tmp/tidemark.pot" ||
        fail "$po lacks translations for strings in POTFILES.in (run ninja tidemark-update-po and translate)"
      # fuzzy entries do not count as translated
      msgattrib --only-fuzzy --no-obsolete "$po" | grep -q '^msgid' &&
        fail "$po has fuzzy messages"
      echo "$lang: every string of POTFILES.in is translated"
    done
    ;;

  icons)
    need rsvg-convert librsvg2-bin
    scalable=$1
    symbolic=$2
    for svg in "$scalable" "$symbolic"; do
      [ -f "$svg" ] || fail "$svg does not exist"
    done
    grep -q 'viewBox="0 0 128 128"' "$scalable" || fail "$scalable is not drawn on a 128x128 canvas"
    grep -q 'viewBox="0 0 16 16"' "$symbolic" || fail "$symbolic is not drawn on a 16x16 canvas"
    for size in 16 32 64 128 256; do
      rsvg-convert -w $size -h $size -o "$tmp/icon-$size.png" "$scalable" ||
        fail "rsvg-convert cannot render $scalable at $size px"
      [ -s "$tmp/icon-$size.png" ] || fail "empty rendering of $scalable at $size px"
    done
    rsvg-convert -w 16 -h 16 -o "$tmp/symbolic.png" "$symbolic" ||
      fail "rsvg-convert cannot render $symbolic"
    # A symbolic icon is recoloured by GTK: every colour must be #2e3436.
    colours=$(grep -Eio '#[0-9a-f]{6}\b|#[0-9a-f]{3}\b' "$symbolic" | tr 'A-F' 'a-f' | sort -u)
    [ "$colours" = "#2e3436" ] || fail "$symbolic uses colours other than #2e3436: $colours"
    if grep -Eq 'Gradient|<image|<text|opacity=' "$symbolic"; then
      fail "$symbolic uses gradients, images, text or opacity"
    fi
    echo "ok: icons render"
    ;;

  *)
    fail "unknown mode '$mode'"
    ;;
esac
exit 0
