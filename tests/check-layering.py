#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the shape of the code (docs/architecture.md):

- in src/core and in src/charts, no two files call each other, directly
  or through others: the graph of "file A calls a function defined in
  file B" has no cycle (a chart calls its layers, the layers the canvas
  and the painters, never back); more than that, each file of src/core
  uses only files above it in CORE_CHAIN, the order docs/architecture.md
  lists them in, and every file is in it;
- in src/app, no view calls another view: a view only talks to the session,
  the core and the drawing helpers. The views are found by their type: a
  type whose parent is TM_TYPE_VIEW (tm-view.h), or a subclass of one,
  and any other unit that installs a "session" property of its own, so a
  new view cannot escape the rule;
- the files of one view split by concern (the timeline's tm-timeline.c,
  tm-timeline-input.c, ...; the memory map's) call each other one way
  only: the graph of "file A calls or names a function defined in file B"
  among them has no cycle (a static inline function of the view's private
  header belongs to the header);
- no file in src/ is longer than the line limit;
- src/ reads no environment variable but those of ENVIRONMENT, which a
  user sets: test hooks stay out of the product (docs/architecture.md,
  "Tests");
- nothing cites a document outside the repository, and nothing uses the
  old specification's section signs (U+00A7): comments cite a page of
  docs/ and its section by name or number ("docs/formats.md, section 1.6").

A file's functions are the non-static functions defined in its .c and the
static inline functions of its headers; tm-foo-private.h belongs to
tm-foo.c, and files named tm-foo-*.c that share a tm-foo-private.h are one
unit with tm-foo.c (a class split by concern). Usage:
check-layering.py REPOSITORY_ROOT, or check-layering.py --self-test
(the rules on a small made-up tree: a view that calls another, and a
test's switch read from the environment, are found).
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
    # files written whole or not at all, and streams
    'tm-output',
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
    # the memory map's picture of the allocation index, in threads
    'tm-alloc-raster',
    # temporary allocations and the rate per step, over the allocation index
    'tm-alloc-stats',
    # the allocations of a range, filtered and sorted, for the window's list
    'tm-alloc-list',
    'tm-compare',
    'tm-buffer-assignment',
    # modules' static plans listed, and set against the run
    'tm-static-plan',
    'tm-profile',
    'tm-run',
    'tm-run-summary',
    'tm-export',
    'tm-torch-export',
    'tm-memory-viewer-json',
    'tm-xspace-writer',
    'tm-run-loader',
]

# The environment variables src/ may read, each one a user's (or GTK's)
# setting; a test's knob is an entry point in a private header instead.
ENVIRONMENT = {
    'GTK_THEME': "GTK's theme, which the application then leaves alone",
    'GSK_RENDERER': "GTK's renderer, which tm-renderer then leaves alone",
    'TIDEMARK_LOCALEDIR': 'where the translations are (docs/ui.md)',
}
GETENV_RE = re.compile(r'\b(?:g_)?getenv\s*\(\s*"([^"]*)"')

# The base every view derives from (src/app/tm-view.h); not a view itself.
VIEW_BASE = 'tm-view'
VIEW_BASE_TYPE = 'TM_TYPE_VIEW'

DEF_RE = re.compile(r'^(tm_[a-z0-9_]+)\s*\(', re.M)
INLINE_RE = re.compile(r'^static inline[^\n;]*\n(?:[^\n;{]*\n)?(tm_[a-z0-9_]+)\s*\(', re.M)
INLINE_ONE_LINE_RE = re.compile(r'^static inline [^\n(;]*?\b(tm_[a-z0-9_]+)\s*\(', re.M)
TYPE_RE = re.compile(r'G_DEFINE_[A-Z_]*TYPE[A-Z_]*\s*\(\s*Tm(\w+)\s*,\s*(tm_[a-z0-9_]+)')
PARENT_RE = re.compile(r'G_DEFINE_[A-Z_]*TYPE[A-Z_]*\s*\(\s*Tm\w+\s*,\s*(tm_[a-z0-9_]+)\s*,\s*(\w+)')
SESSION_PROP_RE = re.compile(r'g_param_spec_object\s*\(\s*"session"')
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
    parents = {}   # TM_TYPE_NAME -> (unit, the parent type's macro)
    session_props = set()
    texts = {}
    for f in files:
        path = os.path.join(directory, f)
        with open(path, encoding='utf-8') as fh:
            raw = fh.read()
        text = strip(raw)
        unit = unit_of(path, stems)
        texts.setdefault(unit, []).append(text)
        if f.endswith('.c'):
            for m in PARENT_RE.finditer(text):
                parents['TM_TYPE_' + m.group(1)[3:].upper()] = (unit, m.group(2))
            if SESSION_PROP_RE.search(raw):
                session_props.add(unit)
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
        # A subclass names its parent type; that alone is no call.
        own_parents = {p for u, p in parents.values() if u == unit}
        for m in TYPE_USE_RE.finditer(text):
            target = types.get(m.group(1))
            if target is not None and target != unit and 'TM_TYPE_' + m.group(1) not in own_parents:
                edges[unit].add(target)
    return edges, views_of(parents, session_props)


FILE_DEF_RE = re.compile(r'^(_?tm_[a-z0-9_]+)\s*\(', re.M)
FILE_INLINE_RE = re.compile(r'^static inline[^\n;]*\n(?:[^\n;{]*\n)?(_?tm_[a-z0-9_]+)\s*\(', re.M)
FILE_REF_RE = re.compile(r'(?<![A-Za-z0-9_])(_?tm_[a-z0-9_]+)(?![A-Za-z0-9_])')
INLINE_BODY_RE = re.compile(r'^static inline.*?^}', re.M | re.S)


def file_cycles(directory, units):
    """For each unit split over several files: the cycles among its files,
    where a file depends on another when it calls or names a function the
    other defines."""
    names = sorted(f for f in os.listdir(directory) if f.endswith(('.c', '.h')))
    stems = {re.sub(r'\.[ch]$', '', f) for f in names}
    by_unit = {}
    for f in names:
        unit = unit_of(os.path.join(directory, f), stems)
        if unit in units:
            by_unit.setdefault(unit, []).append(f)
    out = {}
    for unit, files in sorted(by_unit.items()):
        if sum(1 for f in files if f.endswith('.c')) < 2:
            continue
        texts, defined = {}, {}
        for f in files:
            with open(os.path.join(directory, f), encoding='utf-8') as fh:
                texts[f] = strip(fh.read())
            rx = FILE_DEF_RE if f.endswith('.c') else FILE_INLINE_RE
            for m in rx.finditer(texts[f]):
                defined.setdefault(m.group(1), f)
        edges = {f: set() for f in files}
        for f, text in texts.items():
            # A header's declarations name what the files define; only its
            # inline functions use anything.
            if f.endswith('.h'):
                text = '\n'.join(m.group(0) for m in INLINE_BODY_RE.finditer(text))
            for m in FILE_REF_RE.finditer(text):
                target = defined.get(m.group(1))
                if target is not None and target != f:
                    edges[f].add(target)
        comps = cycles(edges)
        if comps:
            out[unit] = (comps, edges)
    return out


def views_of(parents, session_props):
    """The units that hold a view: a type derived from TmView, directly or
    through another type, or a unit with a "session" property of its own."""
    views = set(session_props)
    for unit, parent in parents.values():
        seen = set()
        while parent in parents and parent not in seen and parent != VIEW_BASE_TYPE:
            seen.add(parent)
            parent = parents[parent][1]
        if parent == VIEW_BASE_TYPE:
            views.add(unit)
    views.discard(VIEW_BASE)
    return views


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


def check(root):
    """Every problem of the tree at root, and a line of figures."""
    src = os.path.join(root, 'src')
    problems = citations(root)

    core, _ = scan(os.path.join(src, 'core'))
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

    charts, _ = scan(os.path.join(src, 'charts')) if os.path.isdir(os.path.join(src, 'charts')) else ({}, set())
    for comp in cycles(charts):
        detail = '; '.join(f'{a} → {b}' for a in comp for b in sorted(charts[a]) if b in comp)
        problems.append(f'src/charts: files call each other: {detail}')

    app, views = scan(os.path.join(src, 'app'))
    for unit, targets in sorted(app.items()):
        if unit in views:
            for t in sorted(targets & views):
                problems.append(f'src/app: view {unit} calls view {t}')
    for unit, (comps, edges) in file_cycles(os.path.join(src, 'app'), views).items():
        for comp in comps:
            detail = '; '.join(f'{a} → {b}' for a in comp for b in sorted(edges[a]) if b in comp)
            problems.append(f'src/app: the files of view {unit} call each other: {detail}')

    for root, _, names in os.walk(src):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                path = os.path.join(root, name)
                with open(path, encoding='utf-8') as fh:
                    n = sum(1 for _ in fh)
                if n > MAX_LINES:
                    problems.append(f'{os.path.relpath(path, src)}: {n} lines (limit {MAX_LINES})')
                with open(path, encoding='utf-8') as fh:
                    code = COMMENT_RE.sub('', fh.read())
                for var in GETENV_RE.findall(code):
                    if var not in ENVIRONMENT:
                        problems.append(f'{os.path.relpath(path, src)}: reads ${var}, which is not in '
                                        f'ENVIRONMENT of tests/check-layering.py (test hooks stay out '
                                        f'of src/: docs/architecture.md, "Tests")')

    n_core = sum(len(v) for v in core.values())
    n_charts = sum(len(v) for v in charts.values())
    figures = (f'{len(core)} core units, {n_core} dependencies; {len(charts)} chart units, '
               f'{n_charts} dependencies; {len(app)} app units, '
               f'{len(views)} views ({", ".join(sorted(views))}); {len(problems)} problem(s)')
    return problems, figures


SELF_TEST_TREE = {
    'src/core/tm-error.c': 'void\ntm_error_quark (void)\n{\n}\n',
    'src/app/tm-view.c': 'G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TmView, tm_view, GTK_TYPE_WIDGET)\n'
                         'void\ntm_view_set_session (void)\n{\n}\n',
    # Two views on the base, one through a subclass of it.
    'src/app/tm-one-view.c': 'G_DEFINE_FINAL_TYPE (TmOneView, tm_one_view, TM_TYPE_VIEW)\n'
                             'void\ntm_one_view_poke (void)\n{\n  tm_view_set_session ();\n  tm_two_view_poke ();\n}\n',
    'src/app/tm-chart-view.c': 'G_DEFINE_TYPE (TmChartView, tm_chart_view, TM_TYPE_VIEW)\n'
                               'gboolean\ntm_chart_view_redraw (gpointer data)\n{\n'
                               '  _tm_chart_view_input_init ();\n  return FALSE;\n}\n',
    'src/app/tm-two-view.c': 'G_DEFINE_FINAL_TYPE (TmTwoView, tm_two_view, TM_TYPE_CHART_VIEW)\n'
                             'void\ntm_two_view_poke (void)\n{\n}\n',
    # A widget with a session property of its own is a view too.
    'src/app/tm-old.c': 'G_DEFINE_FINAL_TYPE (TmOld, tm_old, GTK_TYPE_WIDGET)\n'
                        'static void\nf (void)\n{\n  g_param_spec_object ("session", NULL, NULL, 0, 0);\n'
                        '  tm_one_view_poke ();\n}\n',
    # A test's switch read from the environment.
    'src/cli/tm-cli.c': 'static int\nh (void)\n{\n  return g_getenv ("TM_CLEAN") != NULL && g_getenv ("GTK_THEME");\n}\n',
    # Not a view: the window may call views.
    'src/app/tm-window.c': 'G_DEFINE_FINAL_TYPE (TmWindow, tm_window, GTK_TYPE_APPLICATION_WINDOW)\n'
                           'static void\ng (void)\n{\n  tm_one_view_poke ();\n}\n',
    # A view split by concern whose files go round in a circle: the widget
    # calls its input, the input a part of the drawing, and that part
    # names the widget's function (a callback counts as much as a call).
    'src/app/tm-chart-view-private.h': 'static inline gboolean\n_tm_chart_view_ready (void)\n{\n  return TRUE;\n}\n',
    'src/app/tm-chart-view-input.c': 'void\n_tm_chart_view_input_init (void)\n{\n  _tm_chart_view_draw ();\n'
                                     '  _tm_chart_view_ready ();\n}\n',
    'src/app/tm-chart-view-draw.c': 'void\n_tm_chart_view_draw (void)\n{\n'
                                    '  g_idle_add (tm_chart_view_redraw, NULL);\n}\n',
    # Split the same way, one way only: no problem.
    'src/app/tm-two-view-private.h': '',
    'src/app/tm-two-view-input.c': 'void\n_tm_two_view_input_init (void)\n{\n  tm_one_view_helper ();\n}\n',
}


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELF_TEST_TREE.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), 'w', encoding='utf-8') as fh:
                fh.write(text)
        problems, figures = check(root)
    print(figures)
    expected = ['cli/tm-cli.c: reads $TM_CLEAN, which is not in ENVIRONMENT of tests/check-layering.py '
                '(test hooks stay out of src/: docs/architecture.md, "Tests")',
                'src/app: the files of view tm-chart-view call each other: '
                'tm-chart-view-draw.c → tm-chart-view.c; tm-chart-view-input.c → tm-chart-view-draw.c; '
                'tm-chart-view.c → tm-chart-view-input.c',
                'src/app: view tm-old calls view tm-one-view',
                'src/app: view tm-one-view calls view tm-two-view']
    if sorted(problems) != expected:
        print('self-test: expected', expected, 'got', problems)
        return 1
    print('self-test: ok')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    problems, figures = check(sys.argv[1])
    for p in problems:
        print(p)
    print(figures)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
