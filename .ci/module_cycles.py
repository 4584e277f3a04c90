#!/usr/bin/env python3
"""Reads the module graph that `cargo modules dependencies` prints (Graphviz), adds the uses
that it does not draw, and fails if the "uses" edges between modules form a cycle, at two
levels:

* between the crate's top-level modules (the layers: each may use only those below it);
* between the child modules of any one module (siblings).

cargo-modules draws the modules that `use` lines name. A path written in code
(`super::parsed::first_occurrences(..)`, `crate::template::LintKind::RepeatedName`) uses a
module as much, so the library's sources are read for those too (outside comments and test
modules).

An edge between a module and its own descendants is not counted: a parent is the facade of its
children (it declares and re-exports them, they extend its types), and cargo-modules attributes
an impl block to the module of its type. Usage: module_cycles.py GRAPH.dot SRC_DIR
"""
import collections
import re
import sys
from pathlib import Path


def read_edges(path):
    edges = set()
    pattern = re.compile(r'\s*"([^"]+)" -> "([^"]+)" \[label="uses"')
    with open(path, encoding="utf-8") as graph:
        for line in graph:
            m = pattern.match(line)
            if m:
                edges.add((tuple(m.group(1).split("::")), tuple(m.group(2).split("::"))))
    return edges


def module_of(src, file):
    """The module path of a source file of the library, without the crate's name."""
    parts = list(file.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def code_of(file):
    """A file's code: without comments, and up to its test module, whose `super` is the file's
    own module, not its parent."""
    kept = []
    for line in file.read_text(encoding="utf-8").splitlines():
        if re.match(r"\s*mod tests \{", line):
            break
        kept.append(line.split("//", 1)[0])
    return "\n".join(kept)


def path_edges(src, crate):
    """The uses made by paths in code (`crate::a::b`, `super::c::d`), as edges between the
    modules they name: the longest known module at the start of each path."""
    files = {f: module_of(src, f) for f in src.rglob("*.rs") if "bin" not in f.relative_to(src).parts}
    known = set(files.values())
    # Test modules (`#[cfg(test)] mod tests;`) are not in the library the graph is drawn of.
    tests = {
        files[f] + (name,)
        for f in files
        for name in re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\(\w+\))?\s+)?mod (\w+);", f.read_text(encoding="utf-8"))
    }
    edges = set()
    for file, here in files.items():
        if any(here[: len(t)] == t for t in tests):
            continue
        for path in re.findall(r"\b((?:crate|super)(?:::\w+)+)", code_of(file)):
            parts = path.split("::")
            base = () if parts[0] == "crate" else here
            while parts and parts[0] in ("crate", "super"):
                if parts.pop(0) == "super":
                    base = base[:-1]
            target = base
            for part in parts:
                if target + (part,) not in known:
                    break
                target = target + (part,)
            if target != here:
                edges.add(((crate,) + here, (crate,) + target))
    return edges


def cycles(edges):
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
        graph[b]
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in list(graph):
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main():
    edges = read_edges(sys.argv[1])
    crate = next(iter(edges))[0][0]
    drawn = len(edges)
    edges |= path_edges(Path(sys.argv[2]), crate)
    levels = collections.defaultdict(set)  # parent path -> edges between its children
    for a, b in edges:
        common = 0
        while common < min(len(a), len(b)) and a[common] == b[common]:
            common += 1
        if common == len(a) or common == len(b):
            continue  # a module and its own descendant
        parent = "::".join(a[:common])
        levels[parent].add((a[common], b[common]))
    failed = False
    for parent in sorted(levels):
        for component in cycles(levels[parent]):
            failed = True
            print(f"cycle among the modules of {parent}: {' <-> '.join(component)}")
            for x, y in sorted(levels[parent]):
                if x in component and y in component:
                    print(f"    {parent}::{x} uses {parent}::{y}")
    print(f"module graph: {len(edges)} uses edges ({len(edges) - drawn} from paths in code), "
          f"{sum(len(e) for e in levels.values())} between siblings; "
          + ("cycles found" if failed else "no cycle"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
