#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""check-circles.py OUTPUT SRC - no circle of calls between the files of SRC spans more than
two files.

File A depends on file B when A calls a function that B defines, as the built objects say (nm:
A's undefined symbols that B defines as text). A table of ops referenced as data (kind.h's
kinds, output.h's outputs, source_ops) is how a lower file hands work to a higher one without
depending on it, and is not a call.

A circle of two files (a file and the one it hands work to and that calls it back, such as
html.c and the comparison page html_cmp.c) is allowed; three or more fail, with the calls that
close the circle. Also checks that it can fail: three objects built from a planted ring of
calls (a -> b -> c -> a) must be refused, and a planted pair accepted.

Prints "PASS include/no-circle", "PASS include/detects-circle" or FAIL lines; exits 1 on any
failure. Plain Python 3 and binutils' nm; the objects come from the build (make).
"""
import collections
import os
import subprocess
import sys
import tempfile


def symbols(obj):
    """(defined text symbols, undefined symbols) of an object file."""
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] == "T":
            defined.add(f[2])
        elif len(f) == 2 and f[0] == "U":
            undefined.add(f[1])
    return defined, undefined


def graph(pairs):
    """pairs: (source path, object path). Returns (edges, calls) between files."""
    defs, undefs = {}, {}
    for src, obj in pairs:
        d, u = symbols(obj)
        for s in d:
            defs[s] = src
        undefs[src] = u
    edges = collections.defaultdict(set)
    calls = collections.defaultdict(set)
    for src, u in undefs.items():
        a = src
        for s in u:
            if s in defs and defs[s] != a:
                b = defs[s]
                edges[a].add(b)
                calls[(a, b)].add(s)
    return edges, calls


def circles(nodes, edges):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
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
    return out


def check(pairs):
    """The circles of more than two files, each with the calls that close it."""
    nodes = sorted(s for s, _ in pairs)
    edges, calls = graph(pairs)
    bad = []
    for comp in circles(nodes, edges):
        if len(comp) <= 2:
            continue
        why = []
        for a in comp:
            for b in comp:
                if (a, b) in calls:
                    why.append(f"{a} -> {b}: {', '.join(sorted(calls[(a, b)])[:4])}")
        bad.append((comp, why))
    return bad


def self_test():
    """A planted ring of three files must fail; a planted pair must pass."""
    with tempfile.TemporaryDirectory() as d:
        src = {
            "a.c": "void b(void); void a(void) { b(); }\n",
            "b.c": "void c(void); void b(void) { c(); }\n",
            "c.c": "void a(void); void c(void) { a(); }\n",
            "p.c": "void q(void); void p(void) { q(); }\n",
            "q.c": "void p(void); void q(void) { p(); }\n",
        }
        pairs = []
        for name, text in src.items():
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            subprocess.run(["cc", "-c", "-o", path[:-2] + ".o", path], check=True)
            pairs.append((path, path[:-2] + ".o"))
        ring = check([p for p in pairs if p[0][-3] in "abc"])
        pair = check([p for p in pairs if p[0][-3] in "pq"])
        return len(ring) == 1 and len(ring[0][0]) == 3 and not pair


def main():
    if len(sys.argv) != 3:
        print("usage: check-circles.py OUTPUT SRC", file=sys.stderr)
        return 2
    output, src = sys.argv[1], sys.argv[2]
    pairs, missing = [], []
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith(".c") or (root == src and name == "main.c"):
                continue
            path = os.path.join(root, name)
            obj = os.path.join(output, os.path.relpath(path, "."))[:-2] + ".o"
            (pairs if os.path.exists(obj) else missing).append((path, obj))
    failed = False
    if missing:
        print(f"FAIL include/no-circle: {len(missing)} object(s) not built (run make first), "
              f"e.g. {missing[0][1]}")
        failed = True
    else:
        bad = check(pairs)
        if not bad:
            print(f"PASS include/no-circle")
        else:
            failed = True
            print(f"FAIL include/no-circle: {len(bad)} circle(s) of calls over more than two files:")
            for comp, why in bad:
                print(f"{len(comp)} files: {' '.join(comp)}")
                for w in why:
                    print(f"  {w}")
    if self_test():
        print("PASS include/detects-circle")
    else:
        print("FAIL include/detects-circle: a planted ring of three files was not refused, "
              "or a planted pair was")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
