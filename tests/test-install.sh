#!/bin/bash
# Installs the build into a temporary root with `meson install --destdir` and
# checks that the installed tree integrates with the desktop: the desktop file,
# metainfo, icons, schema and translations are there and valid, the MIME
# database built from the installed package maps the profile files to
# Tidemark's types, Tidemark is their default application, and `gio open` on a
# profile launches the installed `tidemark` with that file, and the licence
# is installed unchanged. Offline; needs no display.
#
# usage: test-install.sh MESON BUILDDIR PREFIX BINDIR DATADIR LOCALEDIR APP_ID COPYING
#        (BINDIR, DATADIR and LOCALEDIR absolute, as installed; COPYING the
#        source tree's licence)
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

[ $# -eq 8 ] || fail "usage: $0 MESON BUILDDIR PREFIX BINDIR DATADIR LOCALEDIR APP_ID COPYING"
meson=$1 builddir=$2 prefix=$3 bindir=$4 datadir=$5 localedir=$6 app_id=$7 copying=$8

need desktop-file-validate desktop-file-utils
need appstreamcli appstream
need update-mime-database shared-mime-info
need update-desktop-database desktop-file-utils
need xdg-mime xdg-utils
need gio libglib2.0-bin
need gsettings libglib2.0-bin
need glib-compile-schemas libglib2.0-bin
need msgunfmt gettext
need gzip gzip
need python3 python3

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root

"$meson" install -C "$builddir" --destdir "$root" --no-rebuild --quiet ||
  fail "meson install --destdir failed"

share=$root$datadir
desktop=$share/applications/$app_id.desktop
metainfo=$share/metainfo/$app_id.metainfo.xml
mime_package=$share/mime/packages/$app_id.xml
schema=$share/glib-2.0/schemas/$app_id.gschema.xml
mo=$root$localedir/th/LC_MESSAGES/tidemark.mo
licence=$share/licenses/$app_id/COPYING

for f in "$desktop" "$metainfo" "$mime_package" "$schema" "$mo" "$licence"; do
  [ -f "$f" ] || fail "${f#$root} is not installed"
done

# The licence, unchanged, where Flathub looks for it.
cmp -s "$copying" "$licence" || fail "${licence#$root} differs from $copying"
grep -q '^                       Version 3, 29 June 2007$' "$licence" ||
  fail "${licence#$root} is not the GPL version 3"

# Desktop file: valid, and its Exec and Icon resolve inside the installed tree.
desktop-file-validate "$desktop" || fail "installed desktop file is invalid"
exec_line=$(sed -n 's/^Exec=//p' "$desktop")
exe=${exec_line%% *}
[ "$exec_line" = "$exe %F" ] || fail "Exec=$exec_line does not take files (%F)"
[ -x "$root$bindir/$exe" ] || fail "Exec program $exe is not installed in $bindir"
icon=$(sed -n 's/^Icon=//p' "$desktop")
[ "$icon" = "$app_id" ] || fail "Icon=$icon is not the app id"
[ -f "$share/icons/hicolor/scalable/apps/$icon.svg" ] || fail "icon $icon is not installed in hicolor/scalable/apps"
[ -f "$share/icons/hicolor/symbolic/apps/$icon-symbolic.svg" ] || fail "icon $icon-symbolic is not installed in hicolor/symbolic/apps"
mime_types=$(sed -n 's/^MimeType=//p' "$desktop")

# Metainfo, desktop file and icon together, as software centres read them.
out=$(appstreamcli validate-tree --no-net --explain "$root$prefix" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || fail "appstreamcli validate-tree failed"
printf '%s\n' "$out" | grep -Eq '^ *[EW]: ' && fail "appstreamcli validate-tree reported errors or warnings"

# GSettings schema compiles and has the keys the app uses.
mkdir -p "$tmp/schemas"
glib-compile-schemas --strict --targetdir="$tmp/schemas" "$share/glib-2.0/schemas" ||
  fail "installed schemas do not compile"
keys=$(GSETTINGS_SCHEMA_DIR=$tmp/schemas GSETTINGS_BACKEND=memory gsettings list-keys "$app_id" | sort | tr '\n' ' ')
[ "$keys" = "charts-share hide-small-allocations hlo-share last-folder show-hlo-modules show-memory-map show-table temporary-threshold timeline-share window-height window-maximized window-width " ] ||
  fail "schema keys are: $keys"

# Thai catalogue.
msgunfmt "$mo" | grep -q 'โปรแกรมดูโปรไฟล์หน่วยความจำ' || fail "the Thai catalogue lacks the desktop strings"

# The environment of a session that has the installed tree on its search
# paths, and nothing from this user's own configuration.
mkdir -p "$tmp/home/.config" "$tmp/home/.local/share" "$tmp/xdg-config" "$tmp/files" "$tmp/launch"
export HOME=$tmp/home
export XDG_CONFIG_HOME=$tmp/home/.config
export XDG_DATA_HOME=$tmp/home/.local/share
export XDG_CONFIG_DIRS=$tmp/xdg-config
export XDG_DATA_DIRS=$share:/usr/share
export XDG_CURRENT_DESKTOP=GNOME   # xdg-mime then asks GIO, as GNOME does
export PATH=$root$bindir:$PATH     # GIO ignores desktop files whose Exec is not on PATH
export LC_ALL=C.UTF-8
unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS GIO_LAUNCHED_DESKTOP_FILE

# What gnome.post_install does on a real install (it skips a --destdir one):
# the MIME database, built from the installed package only (the system one
# still provides the parent types application/json and application/gzip), and
# the desktop database, which GIO reads to find the handlers of a type.
update-mime-database "$share/mime" || fail "update-mime-database failed on the installed package"
update-desktop-database "$share/applications" || fail "update-desktop-database failed"
grep -q 'xml:lang="th"' "$share/mime/application/x-xplane+protobuf.xml" ||
  fail "the MIME database has no Thai comment for application/x-xplane+protobuf"

printf 'not a profile\n' > "$tmp/files/host1.xplane.pb"
printf '{"memoryProfilePerAllocator":{}}\n' > "$tmp/files/run.memory_profile.json"
gzip -c "$tmp/files/run.memory_profile.json" > "$tmp/files/run.memory_profile.json.gz"

check_type ()
{
  local file=$1 expected=$2 got
  got=$(xdg-mime query filetype "$file")
  [ "$got" = "$expected" ] || fail "xdg-mime query filetype ${file##*/} gives '$got', not $expected"
  got=$(gio info -a standard::content-type "$file" | sed -n 's/^ *standard::content-type: //p')
  [ "$got" = "$expected" ] || fail "gio info ${file##*/} gives '$got', not $expected"
  case ";$mime_types" in
    *";$expected;"*) ;;
    *) fail "the desktop file does not list $expected in MimeType" ;;
  esac
  got=$(xdg-mime query default "$expected")
  [ "$got" = "$app_id.desktop" ] || fail "xdg-mime query default $expected gives '$got'"
  gio mime "$expected" | grep -Eq "^Default application for .*: $app_id\.desktop\$" ||
    fail "gio mime $expected does not name $app_id.desktop as default"
  echo "ok: ${file##*/} is $expected, opened by $app_id.desktop"
}

check_type "$tmp/files/host1.xplane.pb" application/x-xplane+protobuf
check_type "$tmp/files/run.memory_profile.json" application/x-xprof-memory-profile+json
check_type "$tmp/files/run.memory_profile.json.gz" application/x-xprof-memory-profile+gzip

# The HLO sidecars, by name; PyTorch snapshots by content (pickled by
# Python's own pickle at the protocols the writers use: 2 for the C++
# writer, 4 and 5 for Python's); gzipped snapshots by name.
printf '\n\x04main' > "$tmp/files/module_0001.jit_step.hlo_proto.pb"
python3 - "$tmp/files" <<'PY' || fail "python3 could not write the pickles"
import gzip, pickle, sys
d = sys.argv[1]
snapshot = {'segments': [{'device': 0, 'address': 1 << 40, 'total_size': 2 << 20, 'blocks': []}],
            'device_traces': [[]]}
for protocol in (2, 4, 5):
    with open(f'{d}/memory-p{protocol}.pickle', 'wb') as f:
        pickle.dump(snapshot, f, protocol=protocol)
with open(f'{d}/traces-first.pkl', 'wb') as f:
    pickle.dump({'device_traces': [[]], 'segments': []}, f, protocol=4)
with open(f'{d}/weights.pickle', 'wb') as f:
    pickle.dump({'layers': [1, 2, 3], 'note': 'segments come later' * 8}, f, protocol=4)
with open(f'{d}/plain.pickle', 'wb') as f:
    f.write(b'segments device_traces, but no pickle header\n')
with open(f'{d}/memory_snapshot.pickle', 'wb') as f:
    pickle.dump(snapshot, f, protocol=4)
with gzip.open(f'{d}/train_snapshot.pickle.gz', 'wb') as f:
    pickle.dump(snapshot, f, protocol=4)
with gzip.open(f'{d}/weights.pickle.gz', 'wb') as f:
    pickle.dump({'layers': [1]}, f, protocol=4)
with gzip.open(f'{d}/snapshot_3.pickle.gz', 'wb') as f:
    pickle.dump(snapshot, f, protocol=4)
PY
check_type "$tmp/files/module_0001.jit_step.hlo_proto.pb" application/x-xla-hlo+protobuf
check_type "$tmp/files/memory-p2.pickle" application/x-pytorch-memory-snapshot
check_type "$tmp/files/memory-p4.pickle" application/x-pytorch-memory-snapshot
check_type "$tmp/files/memory-p5.pickle" application/x-pytorch-memory-snapshot
check_type "$tmp/files/traces-first.pkl" application/x-pytorch-memory-snapshot
check_type "$tmp/files/memory_snapshot.pickle" application/x-pytorch-memory-snapshot
check_type "$tmp/files/train_snapshot.pickle.gz" application/x-pytorch-memory-snapshot+gzip

# Other pickles, and gzips, are not claimed.
check_not_ours ()
{
  local file=$1 got
  got=$(xdg-mime query filetype "$file")
  case "$got" in
    application/x-pytorch-memory-snapshot*|application/x-xla-hlo+protobuf)
      fail "xdg-mime query filetype ${file##*/} gives $got: not a snapshot" ;;
  esac
  echo "ok: ${file##*/} is $got, not ours"
}
check_not_ours "$tmp/files/weights.pickle"
check_not_ours "$tmp/files/plain.pickle"
check_not_ours "$tmp/files/weights.pickle.gz"
check_not_ours "$tmp/files/snapshot_3.pickle.gz"   # a gzip is told by its name only

# As Flatpak exports the package: without its magic rules, every glob at
# weight 5 (flatpak's export rewrites it so). The names still work where no
# glob of the host's competes; a snapshot is then known by its name only,
# and the host's *.json and *.gz (weight 50) win over our JSON and
# gzip-compressed types.
mkdir -p "$tmp/flatpak-export/mime/packages"
python3 - "$mime_package" "$tmp/flatpak-export/mime/packages/$app_id.xml" <<'PY' || fail "cannot rewrite the MIME package as Flatpak exports it"
import sys
import xml.etree.ElementTree as ET
NS = '{http://www.freedesktop.org/standards/shared-mime-info}'
ET.register_namespace('', NS[1:-1])
tree = ET.parse(sys.argv[1])
for mime_type in tree.getroot():
    for magic in mime_type.findall(NS + 'magic'):
        mime_type.remove(magic)
    for glob in mime_type.findall(NS + 'glob'):
        glob.set('weight', '5')
tree.write(sys.argv[2], xml_declaration=True, encoding='UTF-8')
PY
update-mime-database "$tmp/flatpak-export/mime" || fail "update-mime-database failed on the package as Flatpak exports it"
check_exported ()
{
  local file=$1 expected=$2 got
  got=$(XDG_DATA_DIRS=$tmp/flatpak-export:/usr/share xdg-mime query filetype "$file")
  [ "$got" = "$expected" ] || fail "exported by Flatpak, ${file##*/} is '$got', not $expected"
  echo "ok: exported by Flatpak, ${file##*/} is $expected"
}
check_exported "$tmp/files/host1.xplane.pb" application/x-xplane+protobuf
check_exported "$tmp/files/run.memory_profile.json" application/json
check_exported "$tmp/files/module_0001.jit_step.hlo_proto.pb" application/x-xla-hlo+protobuf
check_exported "$tmp/files/memory_snapshot.pickle" application/x-pytorch-memory-snapshot
check_exported "$tmp/files/run.memory_profile.json.gz" application/gzip
check_exported "$tmp/files/train_snapshot.pickle.gz" application/gzip

# The real snapshots, when the suite has them: a missing one is a failure.
if [ -n "${TM_REAL_PROFILES:-}" ]; then
  for name in pytorch_cs336_memory_snapshot.pickle pytorch_select_n_snapshot.pickle; do
    [ -f "$TM_REAL_PROFILES/$name" ] || fail "TM_REAL_PROFILES has no $name"
    check_type "$TM_REAL_PROFILES/$name" application/x-pytorch-memory-snapshot
  done
fi

# `gio open` launches Exec from the installed desktop file through PATH. The
# launcher first on PATH records the arguments and runs the installed binary
# headless (--summary) on them, so no display is needed: the invalid profile
# must come back as exit status 1 with a message naming the file.
log=$tmp/launch/log
cat > "$tmp/launch/$exe" <<EOF
#!/bin/sh
printf '%s\n' "\$@" > "$log.args"
"$root$bindir/$exe" --summary "\$@" > "$log.out" 2> "$log.err"
echo \$? > "$log.rc.part"
mv "$log.rc.part" "$log.rc"
EOF
chmod +x "$tmp/launch/$exe"
PATH=$tmp/launch:$PATH gio open "$tmp/files/host1.xplane.pb" || fail "gio open failed"
for _ in $(seq 1 200); do
  [ -f "$log.rc" ] && break
  sleep 0.1
done
[ -f "$log.rc" ] || fail "gio open did not launch $exe within 20 s"
[ "$(cat "$log.args")" = "$tmp/files/host1.xplane.pb" ] ||
  fail "gio open launched $exe with '$(cat "$log.args")'"
rc=$(cat "$log.rc")
[ "$rc" = 1 ] || fail "installed $exe --summary on an invalid profile exited with $rc, not 1 ($(cat "$log.err"))"
grep -q 'host1.xplane.pb' "$log.err" || fail "the error message does not name the file: $(cat "$log.err")"
echo "ok: gio open launched the installed $exe on the profile: $(cat "$log.err")"

echo "ok: installed tree under ${root#$tmp/}$prefix"
exit 0
