#!/usr/bin/env python3
# Checks the Flatpak manifest without network access (flatpak-builder cannot
# fetch runtimes here): valid JSON, the app id matches the metainfo and the
# desktop file, the runtime is a GNOME release that is still supported on the
# day the check runs, the permissions are the expected ones, every remote
# source is pinned by sha256 or commit and says how its updates are found
# (x-checker-data), local sources exist, the protobuf-c build ships only
# libprotobuf-c and pairs versions that are known to build, and the command is
# an executable the meson build installs into bindir.
#
# usage: validate-flatpak-manifest.py MANIFEST APP_ID METAINFO DESKTOP BUILDDIR BINDIR SRCDIR
#        validate-flatpak-manifest.py --self-test MANIFEST
#
# The day is today (UTC), or SOURCE_DATE_EPOCH when that is set. The
# self-test feeds broken variants of MANIFEST to the same checks and fails
# when one of them is accepted.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import copy
import datetime
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

errors = []
quiet = False


def error(msg):
    errors.append(msg)
    if not quiet:
        print('FAIL: ' + msg, file=sys.stderr)


# GNOME releases a runtime every March (even numbers) and September (odd),
# GNOME 40 in March 2021, and supports it for about a year: until the release
# two after it. Where the end was announced on a given day, that day counts.
GNOME_FIRST = 40
GNOME_FIRST_YEAR = 2021
GNOME_END_OF_LIFE = {
    47: datetime.date(2025, 10, 15),
    48: datetime.date(2026, 3, 24),
}


def gnome_release_month(version):
    n = version - GNOME_FIRST
    return GNOME_FIRST_YEAR + n // 2, 3 if n % 2 == 0 else 9


def gnome_released(version):
    year, month = gnome_release_month(version)
    return datetime.date(year, month, 15)


def gnome_end_of_life(version):
    if version in GNOME_END_OF_LIFE:
        return GNOME_END_OF_LIFE[version]
    year, month = gnome_release_month(version + 2)
    return datetime.date(year, month + 1, 1)


def gnome_supported(version, today):
    return gnome_released(version) <= today < gnome_end_of_life(version)


def the_day():
    epoch = os.environ.get('SOURCE_DATE_EPOCH')
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date()
    return datetime.datetime.now(datetime.timezone.utc).date()


# How flatpak-external-data-checker finds a newer release, by checker type:
# the keys each one needs.
CHECKERS = {
    'anitya': ('project-id',),
    'json': ('url', 'version-query'),
    'git': (),
    'html': ('url',),
    'gnome': ('name',),
    'pypi': ('name',),
}

# Pairs that fail to build (protobuf-c, protobuf major versions): protobuf-c
# 1.4.0 with protobuf 3.20 to 21 under GCC 12; protobuf-c 1.5.2 with protobuf
# 34 and 35, unless patched.
BROKEN_PAIRS = [
    ((1, 4, 0), lambda pb: pb[:2] in ((3, 20), (3, 21)) or pb[0] in (20, 21)),
    ((1, 5, 2), lambda pb: pb[0] >= 34),
]


def version_in(url, name):
    match = re.search(re.escape(name) + r'-(\d+(?:\.\d+)*)\.tar', url or '')
    return tuple(int(x) for x in match.group(1).split('.')) if match else None


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
            check_checker(where + ' ' + str(src.get('url')), src)
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
        if 'url' in src:
            check_checker(where + ' ' + src['url'], src)
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


def check_checker(where, src):
    data = src.get('x-checker-data')
    if not isinstance(data, dict):
        error(f'{where} has no x-checker-data, so its updates are not found')
        return
    kind = data.get('type')
    if kind not in CHECKERS:
        error(f'{where}: x-checker-data type {kind!r} is not one of {", ".join(sorted(CHECKERS))}')
        return
    for key in CHECKERS[kind]:
        if not data.get(key):
            error(f'{where}: x-checker-data of type {kind} lacks {key}')
    if kind in ('anitya', 'html') and src.get('type') != 'git' and not data.get('url-template') \
       and not data.get('pattern'):
        error(f'{where}: x-checker-data of type {kind} lacks url-template')
    if kind == 'json' and src.get('type') != 'git' and not data.get('url-query'):
        error(f'{where}: x-checker-data of type json lacks url-query')


def cleans(mod, path):
    cleanup = mod.get('cleanup', [])
    return '*' in cleanup or path in cleanup


def check_protobuf(modules, top_cleanup):
    """protobuf is only a build tool (protoc for protoc-c): nothing of it is
    installed in the app. protobuf-c ships libprotobuf-c alone: no compiler,
    no headers, no static library."""
    by_name = {mod.get('name'): mod for mod in modules if isinstance(mod, dict)}
    names = list(by_name)
    pbc = by_name.get('protobuf-c')
    if pbc is None:
        # The GNOME SDK (org.gnome.Sdk) has neither protoc-c nor libprotobuf-c.
        error('protobuf-c is not built as a module (the GNOME SDK does not ship it)')
        return
    pb = by_name.get('protobuf')
    if pb is None:
        error('no protobuf module builds the protoc that protoc-c needs')
    elif names.index('protobuf') > names.index('protobuf-c'):
        error('the protobuf module comes after protobuf-c, which needs it')
    elif '*' not in pb.get('cleanup', []):
        error('the protobuf module installs files into the app: its cleanup is not ["*"]')
    for path in ('/bin', '/include', '/lib/pkgconfig'):
        if not cleans(pbc, path) and path not in top_cleanup:
            error(f'the protobuf-c module ships {path} (add it to its cleanup)')
    if '--disable-static' not in pbc.get('config-opts', []) and not cleans(pbc, '*.a'):
        error('the protobuf-c module ships a static library')
    if '--disable-protoc' in pbc.get('config-opts', []):
        error('protobuf-c is configured without protoc-c, which the meson build runs')

    pbc_version = None
    for src in pbc.get('sources', []):
        pbc_version = pbc_version or version_in(src.get('url'), 'protobuf-c')
    pb_version = None
    for src in (pb or {}).get('sources', []):
        pb_version = pb_version or version_in(src.get('url'), 'protobuf')
    patched = any(src.get('type') == 'patch' for src in pbc.get('sources', []))
    if pbc_version and pb_version and not patched:
        for broken, with_pb in BROKEN_PAIRS:
            if pbc_version == broken and with_pb(pb_version):
                error('protobuf-c %s does not build with protobuf %s' %
                      ('.'.join(map(str, pbc_version)), '.'.join(map(str, pb_version))))
    if pb_version and pb_version[0] >= 22:
        # protobuf 22 and later need Abseil; offline builds have no way to fetch it.
        if not any('abseil' in (src.get('url') or '') for src in pb.get('sources', [])):
            error('protobuf %s needs Abseil, which the protobuf module does not bring' %
                  '.'.join(map(str, pb_version)))


def check_runtime(m, today):
    if m.get('runtime') != 'org.gnome.Platform' or m.get('sdk') != 'org.gnome.Sdk':
        error('runtime/sdk are not org.gnome.Platform/org.gnome.Sdk')
    version = str(m.get('runtime-version', ''))
    if not re.fullmatch(r'\d+', version) or int(version) < GNOME_FIRST:
        error(f'runtime-version {version!r} is not a GNOME release number')
        return
    n = int(version)
    if today < gnome_released(n):
        error(f'GNOME {n} is not released on {today} (about {gnome_released(n)})')
    elif not gnome_supported(n, today):
        error(f'GNOME {n} is end-of-life since {gnome_end_of_life(n)} (today is {today})')
    elif gnome_released(n + 1) <= today:
        print(f'note: GNOME {n + 1} is out; the manifest names {n}', file=sys.stderr)


def check_finish_args(m):
    finish = m.get('finish-args', [])
    for needed in ('--share=ipc', '--socket=fallback-x11', '--socket=wayland', '--device=dri'):
        if needed not in finish:
            error(f'finish-args lack {needed}')
    for arg in finish:
        if arg in ('--socket=x11', '--device=all', '--share=network') or \
           arg.startswith('--filesystem='):
            error(f'finish-args grant more than the app needs: {arg} '
                  '(files reach the app through the document portal)')


def check_modules(m, manifest_dir, srcdir):
    modules = m.get('modules', [])
    if not modules or modules[-1].get('name') != 'tidemark':
        error('the last module is not tidemark')
    elif modules[-1].get('buildsystem') != 'meson':
        error('the tidemark module is not built with meson')
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
    check_protobuf(modules, m.get('cleanup', []))
    return modules


def check_manifest(m, manifest_dir, srcdir, today):
    check_runtime(m, today)
    check_finish_args(m)
    return check_modules(m, manifest_dir, srcdir)


def self_test(manifest):
    """Every variant must be refused, and the manifest itself accepted."""
    global quiet
    with open(manifest, encoding='utf-8') as f:
        good = json.load(f)
    manifest_dir = os.path.dirname(os.path.abspath(manifest))
    srcdir = os.path.dirname(manifest_dir)
    day = datetime.date(2026, 12, 2)

    def module(m, name):
        return next(mod for mod in m['modules'] if mod.get('name') == name)

    def runtime(v):
        return lambda m: m.update({'runtime-version': v})

    def drop_checker(name):
        return lambda m: module(m, name)['sources'][0].pop('x-checker-data')

    def set_url(name, url):
        return lambda m: module(m, name)['sources'][0].update({'url': url})

    def uncleanup(name, path):
        return lambda m: module(m, name)['cleanup'].remove(path)

    variants = [
        ('GNOME 47 (end-of-life)', runtime('47'), day),
        ('GNOME 48 (end-of-life)', runtime('48'), day),
        ('GNOME 49 (end-of-life since GNOME 51)', runtime('49'), day),
        ('GNOME 52 (not released yet)', runtime('52'), day),
        ('GNOME 51 in 2025', lambda m: None, datetime.date(2025, 12, 2)),
        ('GNOME 51 after GNOME 53', lambda m: None, datetime.date(2027, 10, 2)),
        ('no x-checker-data on protobuf-c', drop_checker('protobuf-c'), day),
        ('no x-checker-data on protobuf', drop_checker('protobuf'), day),
        ('x-checker-data without a type', lambda m: module(m, 'protobuf-c')['sources'][0]
         ['x-checker-data'].pop('type'), day),
        ('protobuf-c ships protoc-c', uncleanup('protobuf-c', '/bin'), day),
        ('protobuf-c ships its static library', lambda m: (
            module(m, 'protobuf-c')['config-opts'].remove('--disable-static'),
            uncleanup('protobuf-c', '*.a')(m)), day),
        ('protobuf installs into the app', lambda m: module(m, 'protobuf').update(
            {'cleanup': ['/bin']}), day),
        ('no protobuf-c module', lambda m: m['modules'].remove(module(m, 'protobuf-c')), day),
        ('protobuf-c 1.5.2 with protobuf 34.0', set_url(
            'protobuf', 'https://github.com/protocolbuffers/protobuf/releases/download/'
            'v34.0/protobuf-34.0.tar.gz'), day),
        ('protobuf-c 1.4.0 with protobuf 3.21.12', lambda m: (
            set_url('protobuf-c', 'https://github.com/protobuf-c/protobuf-c/releases/download/'
                    'v1.4.0/protobuf-c-1.4.0.tar.gz')(m),
            set_url('protobuf', 'https://github.com/protocolbuffers/protobuf/releases/download/'
                    'v21.12/protobuf-21.12.tar.gz')(m)), day),
        ('protobuf 33 without Abseil', lambda m: module(m, 'protobuf')['sources'].pop(1), day),
        ('an unpinned source', lambda m: module(m, 'protobuf-c')['sources'][0].pop('sha256'), day),
        ('home directory access', lambda m: m['finish-args'].append('--filesystem=home'), day),
        ('access to a folder', lambda m: m['finish-args'].append('--filesystem=xdg-download:ro'),
         day),
    ]
    failed = []
    quiet = True
    errors.clear()
    check_manifest(copy.deepcopy(good), manifest_dir, srcdir, day)
    if errors:
        failed.append('the manifest itself is refused: ' + '; '.join(errors))
    for what, change, today in variants:
        m = copy.deepcopy(good)
        change(m)
        errors.clear()
        check_manifest(m, manifest_dir, srcdir, today)
        if errors:
            print(f'ok: refused {what}: {errors[0]}')
        else:
            failed.append(f'{what} is accepted')
    quiet = False
    errors.clear()
    for msg in failed:
        error(msg)
    return 1 if failed else 0


def main(argv):
    if len(argv) == 3 and argv[1] == '--self-test':
        return self_test(argv[2])
    if len(argv) != 8:
        print('usage: validate-flatpak-manifest.py MANIFEST APP_ID METAINFO DESKTOP '
              'BUILDDIR BINDIR SRCDIR\n'
              '       validate-flatpak-manifest.py --self-test MANIFEST', file=sys.stderr)
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

    # runtime, permissions, modules and sources
    modules = check_manifest(m, manifest_dir, srcdir, the_day())

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

    if errors:
        return 1
    print(f'ok: {manifest}: GNOME {m.get("runtime-version")}, {len(modules)} modules, '
          f'every source pinned and checked for updates, command {command} is installed as {target}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
