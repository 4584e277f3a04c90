"""match and expand per call: rfc6570's UriTemplate against the MCP Python SDK's
(``mcp.shared.uri_template``, mcp 2.3.0) and, for expand, the uritemplate package (4.2.0) and
rfc6570.uritemplate, on the shapes MCP servers list, with the same inputs, in one run. Each
figure is the median of 7 rounds of N calls, the Python-to-Rust crossing included. The floors
measure the crossing alone: a match that the first byte refuses, and a static template's
expand with no variables.

Run in the venv that .ci/python builds (it holds the wheel, the SDK and uritemplate):

    bash .ci/python && target/python-wheel-venv/bin/python rfc6570-python/bench/bench.py
    BENCH_CALLS=2000 ... bench.py     # N = 20,000 by default
"""

from __future__ import annotations

import os
import platform
import sys
import time
from itertools import repeat
from collections.abc import Callable
from typing import Any

import uritemplate
from mcp.shared.uri_template import UriTemplate as Sdk

from rfc6570 import UriTemplate as Ours
from rfc6570 import uritemplate as ours_uritemplate

N = int(os.environ.get("BENCH_CALLS", "20000"))
ROUNDS = 7

# Each shape: the template, a URI both match to the same values, and variables to expand.
SHAPES: list[tuple[str, str, dict[str, Any]]] = [
    ("notes://{id}", "notes://welcome", {"id": "welcome"}),
    ("notes://{id}", "notes://caf%C3%A9", {"id": "café"}),
    ("file:///{+path}", "file:///docs/guide/intro.md", {"path": "docs/guide/intro.md"}),
    ("file:///{+path}", "file:///docs/guide/intro%20to%20templates.md", {"path": "docs/guide/intro to templates.md"}),
    ("log://build/{job_id}{?lines}", "log://build/42?lines=10-20", {"job_id": "42", "lines": "10-20"}),
    ("search://docs{?q,lang}", "search://docs?q=templates&lang=en", {"q": "templates", "lang": "en"}),
    ("users://{userId}/posts/{postId}", "users://fred/posts/123", {"userId": "fred", "postId": "123"}),
]


def per_call(f: Callable[[Any], object], arg: Any) -> float:
    """Nanoseconds per call of ``f(arg)``, the median of the rounds: a bound method called in a
    bare loop, so that both sides pay the same small harness."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter_ns()
        for _ in repeat(None, N):
            f(arg)
        times.append((time.perf_counter_ns() - start) / N)
    return sorted(times)[ROUNDS // 2]


def shown(ns: float) -> str:
    return f"{ns / 1000:.2f} µs" if ns >= 1000 else f"{ns:.0f} ns"


def main() -> None:
    print(f"Python {platform.python_version()} ({sys.implementation.name}), {N:,} calls a round, median of {ROUNDS} rounds\n")
    print("| template, URI | match: SDK | match: ours | SDK / ours | expand: SDK | expand: uritemplate | expand: ours | SDK / ours | uritemplate / ours |")
    print("|---|---|---|---|---|---|---|---|---|")
    for template, uri, variables in SHAPES:
        sdk, ours = Sdk.parse(template), Ours.parse(template)
        theirs = uritemplate.URITemplate(template)
        # All must answer alike before they are timed.
        assert sdk.match(uri) == ours.match(uri) == variables, template
        assert sdk.expand(variables) == ours.expand(variables) == theirs.expand(variables), template
        for f in (sdk.match, ours.match):
            per_call(f, uri)  # warm up
        match = (per_call(sdk.match, uri), per_call(ours.match, uri))
        expand = (
            per_call(sdk.expand, variables),
            per_call(theirs.expand, variables),
            per_call(ours.expand, variables),
        )
        print(
            f"| `{template}`, `{uri}` | {shown(match[0])} | {shown(match[1])} | {match[0] / match[1]:.1f}x"
            f" | {shown(expand[0])} | {shown(expand[1])} | {shown(expand[2])}"
            f" | {expand[0] / expand[2]:.1f}x | {expand[1] / expand[2]:.1f}x |"
        )

    template, variables = "https://api.github.com/repos/{owner}/{repo}/issues{/number}{?state}", {"owner": "o", "repo": "r", "state": "open"}
    theirs, ours_u = uritemplate.URITemplate(template), ours_uritemplate.URITemplate(template)
    assert theirs.expand(variables) == ours_u.expand(variables)
    drop_in = (per_call(theirs.expand, variables), per_call(ours_u.expand, variables))
    print(
        f"\nrfc6570.uritemplate (the drop-in module) on `{template}`: uritemplate {shown(drop_in[0])},"
        f" ours {shown(drop_in[1])}, {drop_in[0] / drop_in[1]:.1f}x"
    )

    refused, static = Ours.parse("notes://{id}"), Ours.parse("notes://static")
    floors = (per_call(refused.match, "x"), per_call(static.expand, {}), per_call(len, "x"))
    print(
        f"floors: a match refused at the first byte {shown(floors[0])}, a static expand {shown(floors[1])}"
        f" (the crossing alone); the harness, calling `len`, {shown(floors[2])}"
    )

    slow, text = "{a}{b}{c}{d}!", "x" * 200
    t = Ours.parse(slow)
    start = time.perf_counter_ns()
    t.match(text)
    print(f"`{slow}` on {len(text)} characters, one call: ours {shown(time.perf_counter_ns() - start)} (the SDK refuses the template)")


if __name__ == "__main__":
    main()
