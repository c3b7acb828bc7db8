#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the shape of the code (docs/architecture.md):

- in src/core, no two files call each other, directly or through others:
  the graph of "file A calls a function defined in file B" has no cycle;
  more than that, each file uses only files above it in CORE_CHAIN, the
  order docs/architecture.md lists them in, and every file is in it;
- in src/app, no view calls another view: a view only talks to the session,
  the core and the drawing helpers;
- no file in src/ is longer than the line limit;
- nothing cites a document outside the repository, and nothing uses the
  old specification's section signs (U+00A7): comments cite a page of
  docs/ and its section by name or number ("docs/formats.md, section 1.6").

A file's functions are the non-static functions defined in its .c and the
static inline functions of its headers; tm-foo-private.h belongs to
tm-foo.c, and files named tm-foo-*.c that share a tm-foo-private.h are one
unit with tm-foo.c (a class split by concern). Usage:
check-layering.py REPOSITORY_ROOT
"""

import os
import re
import sys

MAX_LINES = 1200

# The core in the order of the chain (docs/architecture.md, "Core"): each
# unit may use only units before it. A new file goes in where it belongs.
CORE_CHAIN = [
    'tm-error', 'tm-types', 'tm-format',
    'tm-source',
    'tm-wire',
    'tm-xplane',
    # serialized HloProtos: where they are, decoded on first use
    'tm-hlo-info', 'tm-hlo',
    'tm-host-event',
    'tm-addr-map',
    'tm-column',
    'tm-lod',
    'tm-viewport',
    'tm-memory-store',
    # what every reader delivers, the readers, the one place that picks them
    'tm-input',
    'tm-xspace-reader', 'tm-xprof-json', 'tm-summaries-reader',
    # PyTorch snapshots: the pickle reader, the snapshot, its stores
    'tm-pickle', 'tm-torch-snapshot', 'tm-torch-stores',
    'tm-input-picker',
    'tm-analysis',
    'tm-scopes',
    'tm-allocations',
    'tm-compare',
    'tm-buffer-assignment',
    'tm-profile',
    'tm-run',
    'tm-run-summary',
    'tm-export',
    'tm-torch-export',
    'tm-memory-viewer-json',
    'tm-xspace-writer',
    'tm-run-loader',
]

# The views of the profile page: each takes a session and nothing else.
VIEWS = {
    'tm-summary-cards', 'tm-timeline', 'tm-overview', 'tm-hlo-view',
    'tm-breakdown-view', 'tm-memory-map', 'tm-scope-view', 'tm-run-overview',
    'tm-op-diff-view',
}

DEF_RE = re.compile(r'^(tm_[a-z0-9_]+)\s*\(', re.M)
INLINE_RE = re.compile(r'^static inline[^\n;]*\n(?:[^\n;{]*\n)?(tm_[a-z0-9_]+)\s*\(', re.M)
INLINE_ONE_LINE_RE = re.compile(r'^static inline [^\n(;]*?\b(tm_[a-z0-9_]+)\s*\(', re.M)
TYPE_RE = re.compile(r'G_DEFINE_[A-Z_]*TYPE[A-Z_]*\s*\(\s*Tm(\w+)\s*,\s*(tm_[a-z0-9_]+)')
CALL_RE = re.compile(r'\b(tm_[a-z0-9_]+)\s*\(')
TYPE_USE_RE = re.compile(r'\bTM_(?:TYPE|IS)_([A-Z0-9_]+)\b')
COMMENT_RE = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
STRING_RE = re.compile(r'"(?:\\.|[^"\\])*"')


def strip(text):
    return STRING_RE.sub('""', COMMENT_RE.sub(' ', text))


def unit_of(path, units):
    """The unit a source or header belongs to."""
    name = os.path.basename(path)
    stem = re.sub(r'(-private)?\.[ch]$', '', name)
    # tm-window-actions.c shares tm-window-private.h: one unit tm-window.
    best = stem
    for u in units:
        if stem.startswith(u + '-') and os.path.exists(
                os.path.join(os.path.dirname(path), u + '-private.h')):
            if len(u) < len(best):
                best = u
    return best


def scan(directory):
    files = sorted(f for f in os.listdir(directory) if f.endswith(('.c', '.h')))
    stems = {re.sub(r'\.[ch]$', '', f) for f in files}
    defined = {}   # function -> unit
    types = {}     # TYPE_NAME -> unit
    texts = {}
    for f in files:
        path = os.path.join(directory, f)
        with open(path, encoding='utf-8') as fh:
            text = strip(fh.read())
        unit = unit_of(path, stems)
        texts.setdefault(unit, []).append(text)
        if f.endswith('.c'):
            for m in DEF_RE.finditer(text):
                defined.setdefault(m.group(1), unit)
            for m in TYPE_RE.finditer(text):
                func = m.group(2) + '_get_type'
                defined.setdefault(func, unit)
                types[m.group(2)[3:].upper()] = unit
        else:
            for rx in (INLINE_RE, INLINE_ONE_LINE_RE):
                for m in rx.finditer(text):
                    defined.setdefault(m.group(1), unit)
    edges = {u: set() for u in texts}
    for unit, parts in texts.items():
        text = '\n'.join(parts)
        for m in CALL_RE.finditer(text):
            target = defined.get(m.group(1))
            if target is not None and target != unit:
                edges[unit].add(target)
        for m in TYPE_USE_RE.finditer(text):
            target = types.get(m.group(1))
            if target is not None and target != unit:
                edges[unit].add(target)
    return edges


def cycles(edges):
    """Strongly connected components with more than one unit (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


CITED_DIRS = ('src', 'tests', 'docs', 'data', 'ui', 'po', 'proto', 'flatpak', 'fuzz')
OUTSIDE_RE = re.compile(r'product\.md|\.\./shared|shared/docs')


def citations(root):
    """Citations of documents that are not in the repository."""
    out = []
    paths = [os.path.join(root, 'README.md'), os.path.join(root, 'meson.build')]
    for d in CITED_DIRS:
        for base, _, names in os.walk(os.path.join(root, d)):
            paths += [os.path.join(base, n) for n in names]
    for path in sorted(paths):
        if path.endswith(('.png', '.svg', '.mo', '.pb', '.gz')) or not os.path.isfile(path):
            continue
        try:
            with open(path, encoding='utf-8') as fh:
                text = fh.read()
        except UnicodeDecodeError:
            continue
        rel = os.path.relpath(path, root)
        if rel == os.path.join('tests', 'check-layering.py'):
            continue
        for m in OUTSIDE_RE.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            out.append(f'{rel}:{line}: cites a document outside the repository')
        for m in re.finditer('\u00a7', text):
            line = text.count('\n', 0, m.start()) + 1
            out.append(f'{rel}:{line}: "\u00a7": cite a page of docs/ and its section instead')
    return out


def main():
    root = sys.argv[1]
    src = os.path.join(root, 'src')
    problems = citations(root)

    core = scan(os.path.join(src, 'core'))
    for comp in cycles(core):
        detail = '; '.join(f'{a} → {b}' for a in comp for b in sorted(core[a]) if b in comp)
        problems.append(f'src/core: files call each other: {detail}')

    rank = {u: i for i, u in enumerate(CORE_CHAIN)}
    for unit, targets in sorted(core.items()):
        if unit not in rank:
            problems.append(f'src/core: {unit} is not in CORE_CHAIN of tests/check-layering.py '
                            f'(nor in the chain of docs/architecture.md)')
            continue
        for t in sorted(targets):
            if t in rank and rank[t] > rank[unit]:
                problems.append(f'src/core: {unit} uses {t}, which comes after it in the chain')

    app = scan(os.path.join(src, 'app'))
    for unit, targets in sorted(app.items()):
        if unit in VIEWS:
            for t in sorted(targets & VIEWS):
                problems.append(f'src/app: view {unit} calls view {t}')

    for root, _, names in os.walk(src):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                path = os.path.join(root, name)
                with open(path, encoding='utf-8') as fh:
                    n = sum(1 for _ in fh)
                if n > MAX_LINES:
                    problems.append(f'{os.path.relpath(path, src)}: {n} lines (limit {MAX_LINES})')

    for p in problems:
        print(p)
    n_core = sum(len(v) for v in core.values())
    print(f'{len(core)} core units, {n_core} dependencies; {len(app)} app units; '
          f'{len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
