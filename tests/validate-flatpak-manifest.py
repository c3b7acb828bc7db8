#!/usr/bin/env python3
# Checks the Flatpak manifest without network access (flatpak-builder cannot
# fetch runtimes here): valid JSON, the app id matches the metainfo and the
# desktop file, the runtime and permissions are the expected ones, every
# remote source is pinned by sha256 or commit, local sources exist, and the
# command is an executable the meson build installs into bindir.
#
# usage: validate-flatpak-manifest.py MANIFEST APP_ID METAINFO DESKTOP BUILDDIR BINDIR SRCDIR
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

errors = []


def error(msg):
    errors.append(msg)
    print('FAIL: ' + msg, file=sys.stderr)


def check_source(module_name, src, manifest_dir, srcdir):
    kind = src.get('type')
    where = f'module {module_name}: {kind} source'
    if kind in ('archive', 'file'):
        if 'url' in src or 'mirror-urls' in src:
            if not re.fullmatch(r'[0-9a-f]{64}', src.get('sha256', '')) and \
               not re.fullmatch(r'[0-9a-f]{128}', src.get('sha512', '')):
                error(f'{where} {src.get("url")} is not pinned by sha256/sha512')
            if not src.get('url', '').startswith('https://'):
                error(f'{where} {src.get("url")} is not fetched over https')
        elif 'path' in src:
            if not os.path.exists(os.path.join(manifest_dir, src['path'])):
                error(f'{where} {src["path"]} does not exist')
        else:
            error(f'{where} has neither url nor path')
    elif kind == 'git':
        if 'url' in src and not re.fullmatch(r'[0-9a-f]{40}', src.get('commit', '')):
            error(f'{where} {src.get("url")} is not pinned by a full commit id')
        if 'branch' in src and 'commit' not in src:
            error(f'{where} follows branch {src["branch"]}')
    elif kind in ('dir', 'patch'):
        paths = src.get('paths', []) + ([src['path']] if 'path' in src else [])
        if not paths:
            error(f'{where} has no path')
        for path in paths:
            full = os.path.realpath(os.path.join(manifest_dir, path))
            if not os.path.exists(full):
                error(f'{where} {path} does not exist')
            elif kind == 'dir' and module_name == 'tidemark' and full != os.path.realpath(srcdir):
                error(f'{where} {path} is not the project directory')
    elif kind in ('script', 'shell', 'inline'):
        pass
    else:
        error(f'{where} has a type this check does not know')


def main(argv):
    if len(argv) != 8:
        print('usage: validate-flatpak-manifest.py MANIFEST APP_ID METAINFO DESKTOP '
              'BUILDDIR BINDIR SRCDIR', file=sys.stderr)
        return 2
    manifest, app_id, metainfo, desktop, builddir, bindir, srcdir = argv[1:]

    try:
        with open(manifest, encoding='utf-8') as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        error(f'{manifest} is not valid JSON: {e}')
        return 1
    manifest_dir = os.path.dirname(os.path.abspath(manifest))

    # identity
    mid = m.get('id', m.get('app-id'))
    if mid != app_id:
        error(f'manifest id {mid!r} is not {app_id!r}')
    if os.path.basename(manifest) != app_id + '.json':
        error(f'manifest file name {os.path.basename(manifest)} does not match the app id')

    comp = ET.parse(metainfo).getroot()
    meta_id = comp.findtext('id')
    if meta_id != app_id:
        error(f'metainfo id {meta_id!r} is not {app_id!r}')
    launchable = comp.find("launchable[@type='desktop-id']")
    if launchable is None or launchable.text != app_id + '.desktop':
        error('metainfo launchable is not ' + app_id + '.desktop')
    if os.path.basename(desktop) != app_id + '.desktop':
        error(f'desktop file {os.path.basename(desktop)} does not match the app id')
    with open(desktop, encoding='utf-8') as f:
        entries = dict(line.rstrip('\n').split('=', 1) for line in f
                       if '=' in line and not line.startswith('#'))
    if entries.get('Icon') != app_id:
        error(f'desktop Icon {entries.get("Icon")!r} is not {app_id!r}')

    # runtime and permissions
    if m.get('runtime') != 'org.gnome.Platform' or m.get('sdk') != 'org.gnome.Sdk':
        error('runtime/sdk are not org.gnome.Platform/org.gnome.Sdk')
    version = str(m.get('runtime-version', ''))
    if not re.fullmatch(r'\d+', version) or int(version) < 44:
        error(f'runtime-version {version!r} is not a current stable GNOME release')
    finish = m.get('finish-args', [])
    for needed in ('--share=ipc', '--socket=fallback-x11', '--socket=wayland', '--device=dri'):
        if needed not in finish:
            error(f'finish-args lack {needed}')
    for arg in finish:
        if arg in ('--socket=x11', '--device=all', '--share=network') or \
           re.fullmatch(r'--filesystem=(host|host-os|home|/)(:rw)?', arg):
            error(f'finish-args grant more than the app needs: {arg}')

    # command
    command = m.get('command', '')
    exe = entries.get('Exec', '').split(' ')[0]
    if command != exe:
        error(f'command {command!r} differs from the desktop file Exec {exe!r}')
    installed_path = os.path.join(builddir, 'meson-info', 'intro-installed.json')
    try:
        with open(installed_path, encoding='utf-8') as f:
            installed = json.load(f)
    except (OSError, ValueError) as e:
        error(f'cannot read {installed_path}: {e}')
        installed = {}
    target = os.path.join(bindir, command)
    built = [src for src, dest in installed.items() if dest == target]
    if not built:
        error(f'the build installs nothing as {target}')
    for src in built:
        if not os.access(src, os.X_OK):
            error(f'{src} (installed as {target}) is not an executable in the build')

    # modules and sources
    modules = m.get('modules', [])
    if not modules or modules[-1].get('name') != 'tidemark':
        error('the last module is not tidemark')
    elif modules[-1].get('buildsystem') != 'meson':
        error('the tidemark module is not built with meson')
    names = [mod.get('name') for mod in modules if isinstance(mod, dict)]
    if 'protobuf-c' not in names:
        error('protobuf-c is not built as a module')
    for mod in modules:
        if not isinstance(mod, dict):
            error(f'module {mod!r} is not inline; this check cannot follow it')
            continue
        if not mod.get('sources'):
            error(f'module {mod.get("name")} has no sources')
        for src in mod.get('sources', []):
            if isinstance(src, str):
                error(f'module {mod.get("name")}: external source file {src} is not checked')
                continue
            check_source(mod.get('name'), src, manifest_dir, srcdir)

    if errors:
        return 1
    print(f'ok: {manifest}: {len(modules)} modules, every source pinned, '
          f'command {command} is installed as {target}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
