#!/usr/bin/env python3
"""Reads the module graph that `cargo modules dependencies` prints (Graphviz) and fails if the
"uses" edges between modules form a cycle, at two levels:

* between the crate's top-level modules (the layers: each may use only those below it);
* between the child modules of any one module (siblings).

An edge between a module and its own descendants is not counted: a parent is the facade of its
children (it declares and re-exports them, they extend its types), and cargo-modules attributes
an impl block to the module of its type. Usage: module_cycles.py GRAPH.dot
"""
import collections
import re
import sys


def read_edges(path):
    edges = set()
    pattern = re.compile(r'\s*"([^"]+)" -> "([^"]+)" \[label="uses"')
    with open(path, encoding="utf-8") as graph:
        for line in graph:
            m = pattern.match(line)
            if m:
                edges.add((tuple(m.group(1).split("::")), tuple(m.group(2).split("::"))))
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
    print(f"module graph: {len(edges)} uses edges, "
          f"{sum(len(e) for e in levels.values())} between siblings; "
          + ("cycles found" if failed else "no cycle"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
