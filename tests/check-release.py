#!/usr/bin/env python3
# The release records agree: the version in meson.build is the newest entry
# of NEWS and the newest <release> of the AppStream metainfo, and the two give
# it the same date. Each record lists its releases newest first.
#
# Then the check is run on altered copies of the real files (a version bumped
# in only one place, a date changed in one place) and must reject each of
# them, and accept a copy where all three were bumped together.
#
# usage: check-release.py SRCDIR VERSION    (VERSION: meson.project_version())
# Output is TAP.
#
# SPDX-License-Identifier: GPL-3.0-or-later

import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

NEWS_HEADING = re.compile(r'^Tidemark (\S+) \((\d{4}-\d{2}-\d{2})\)$')
DATE = re.compile(r'^\d{4}-\d{2}-\d{2}$')


def version_key(version):
    return tuple(int(p) if p.isdigit() else -1 for p in version.split('.'))


def news_releases(text):
    """[(version, date)] of NEWS, in file order, and the problems found."""
    problems = []
    releases = []
    lines = text.splitlines()
    first = next((l for l in lines if l.strip()), '')
    if not NEWS_HEADING.match(first):
        problems.append(f'NEWS does not start with a heading "Tidemark VERSION (YYYY-MM-DD)": {first!r}')
    for i, line in enumerate(lines):
        m = NEWS_HEADING.match(line)
        if not m:
            continue
        underline = lines[i + 1] if i + 1 < len(lines) else ''
        if underline != '=' * len(line):
            problems.append(f'NEWS heading {line!r} is not underlined with {len(line)} "="')
        releases.append((m.group(1), m.group(2)))
    return releases, problems


def metainfo_releases(text):
    """[(version, date)] of the metainfo's <releases>, in file order, and the problems found."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        return [], [f'the metainfo is not well-formed XML: {e}']
    releases = [(r.get('version', ''), r.get('date', '')) for r in root.findall('./releases/release')]
    return releases, []


def check_order(what, releases):
    problems = []
    for (newer, _), (older, _) in zip(releases, releases[1:]):
        if version_key(newer) <= version_key(older):
            problems.append(f'{what} lists {newer} before {older}: not newest first')
    for version, date in releases:
        if not DATE.match(date):
            problems.append(f'{what} release {version} has no date YYYY-MM-DD ({date!r})')
    return problems


def check(version, news_text, metainfo_text):
    """The problems that make the three records disagree; empty when they agree."""
    news, problems = news_releases(news_text)
    meta, meta_problems = metainfo_releases(metainfo_text)
    problems += meta_problems
    if not news:
        problems.append('NEWS has no release entry')
    if not meta:
        problems.append('the metainfo has no <release>')
    problems += check_order('NEWS', news) + check_order('the metainfo', meta)
    if news and news[0][0] != version:
        problems.append(f'meson.build says {version}, the newest NEWS entry is {news[0][0]}')
    if meta and meta[0][0] != version:
        problems.append(f'meson.build says {version}, the newest metainfo release is {meta[0][0]}')
    if news and meta and news[0][0] == meta[0][0] and news[0][1] != meta[0][1]:
        problems.append(f'{news[0][0]} is dated {news[0][1]} in NEWS and {meta[0][1]} in the metainfo')
    return problems


def bump(version):
    parts = version.split('.')
    parts[-1] = str(int(parts[-1]) + 1) if parts[-1].isdigit() else parts[-1] + '1'
    return '.'.join(parts)


def with_news_entry(news_text, version, date):
    heading = f'Tidemark {version} ({date})'
    return f'{heading}\n{"=" * len(heading)}\n\n- A change.\n\n' + news_text


def with_metainfo_release(metainfo_text, version, date):
    new = (f'<release version="{version}" date="{date}">'
           '<description><p>A change.</p></description></release>\n    ')
    altered = metainfo_text.replace('<release ', new + '<release ', 1)
    assert altered != metainfo_text, 'the metainfo has no <release to put a new one before'
    return altered


def with_news_date(news_text, date):
    heading = re.compile(NEWS_HEADING.pattern, re.MULTILINE)
    return heading.sub(lambda m: f'Tidemark {m.group(1)} ({date})', news_text, count=1)


def main():
    if len(sys.argv) != 3:
        print(f'usage: {sys.argv[0]} SRCDIR VERSION', file=sys.stderr)
        return 2
    srcdir, version = sys.argv[1], sys.argv[2]
    metainfos = glob.glob(os.path.join(srcdir, 'data', '*.metainfo.xml.in'))
    if len(metainfos) != 1:
        print(f'Bail out! expected one data/*.metainfo.xml.in, found {metainfos}')
        return 1
    with open(os.path.join(srcdir, 'NEWS'), encoding='utf-8') as f:
        news = f.read()
    with open(metainfos[0], encoding='utf-8') as f:
        metainfo = f.read()

    failed = 0
    print('1..6')

    problems = check(version, news, metainfo)
    for p in problems:
        print(f'# {p}')
    if problems:
        failed += 1
    print(f'{"not ok" if problems else "ok"} 1 - meson.build, NEWS and the metainfo agree on {version}')

    # The same check on altered copies: each disagreement must be reported.
    newer = bump(version)
    date = '2099-01-01'
    cases = [
        ('a version bumped only in meson.build', newer, news, metainfo, 'meson.build says'),
        ('a release added only to NEWS', version, with_news_entry(news, newer, date), metainfo,
         'newest NEWS entry'),
        ('a release added only to the metainfo', version, news, with_metainfo_release(metainfo, newer, date),
         'newest metainfo release'),
        ('the newest release dated differently in NEWS', version, with_news_date(news, date), metainfo,
         'is dated'),
    ]
    for n, (what, v, n_text, m_text, expected) in enumerate(cases, start=2):
        got = check(v, n_text, m_text)
        for p in got:
            print(f'# {what}: {p}')
        ok = any(expected in p for p in got)
        if not ok:
            failed += 1
        print(f'{"ok" if ok else "not ok"} {n} - rejects {what}')

    got = check(newer, with_news_entry(news, newer, date), with_metainfo_release(metainfo, newer, date))
    for p in got:
        print(f'# all bumped together: {p}')
    if got:
        failed += 1
    print(f'{"not ok" if got else "ok"} 6 - accepts {newer} added to all three')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
