#!/usr/bin/env python3
"""Writes the seed corpora, fuzz/corpus/<target>/, from the test suites in tests/data/.

Seeds follow the input layout of fuzz/src/lib.rs: a template alone (parse); a template, NUL and a
URI (match_uri); a template, NUL and its variables as a JSON object, or NUL and a few bytes for
the generated values (expand, roundtrip, differential). Existing corpus files are kept, so that
what the fuzzer found survives a reseed. Usage: fuzz/seed.py [testdata-dir].
"""

import hashlib
import json
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
TESTDATA = Path(sys.argv[1]) if len(sys.argv) > 1 else FUZZ.parent / "tests" / "data"
EXPANSION_SUITES = [
    "uritemplate-test/spec-examples.json",
    "uritemplate-test/spec-examples-by-section.json",
    "uritemplate-test/extended-tests.json",
    "uritemplate-test/negative-tests.json",
    "std-uritemplate/edge-cases.json",
]
# Bytes for generated values, so that templates without suite variables get some too.
VALUE_BYTES = [bytes(range(0, 64, 3)), bytes(range(255, 128, -5)), b"\x04\x01%41/?#&=,\x05\x00\x02"]


COMPLETENESS = [
    ("x{/var:1,var}", "x/v/value"),
    ("x{.who,who}", "x.fr.ed.fr.ed"),
    ("dict://{term:1}/{term}", "dict://c/cat"),
    ("dict://{term:1}/{term}", "dict://d/cat"),
    ("x://{a}/{a}", "x://1/1"),
    ("x://{a}/{b}", "x://1/2"),
    ("x://{q}{?q}", "x://1?q=1"),
    ("logs://{service}{?level}", "logs://api?level=error#section1"),
    ("file:///{+path}", "file:///docs/a.md#intro"),
    ("x://page{#section}", "x://page#intro"),
    ("test://EXAMPLE.COM/{var}", "TEST://example.com/v"),
    ("resource://MyCoolResource", "resource://mycoolresource"),
]


def load(rel):
    path = TESTDATA / rel
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        sys.exit(f"seed.py: cannot read test data {path}: {e}")


def seeds():
    """Yields (target, bytes) pairs."""
    templates = set()
    for rel in EXPANSION_SUITES:
        for group in json.loads(load(rel)).values():
            variables = json.dumps(group["variables"], ensure_ascii=False).encode()
            for template, expected in group["testcases"]:
                t = template.encode()
                templates.add(t)
                for target in ["expand", "roundtrip", "differential"]:
                    yield target, t + b"\0" + variables
                uris = expected if isinstance(expected, list) else [expected] if expected else []
                for uri in uris:
                    yield "match_uri", t + b"\0" + uri.encode()
    for group in json.loads(load("uri-template-router/base.json")):
        for template in group["templates"]:
            templates.add(template.encode())
            for uri in group["uris"]:
                yield "match_uri", template.encode() + b"\0" + uri.encode()
        # The router target takes the group's templates, one per line, and one of its URIs.
        set_of_templates = "\n".join(group["templates"]).encode()
        for uri in group["uris"]:
            yield "router", set_of_templates + b"\0" + uri.encode()
    # Repeated names, fragments, and scheme and host case (section 13 to 15 of the semantics).
    for template, uri in COMPLETENESS:
        templates.add(template.encode())
        yield "match_uri", template.encode() + b"\0" + uri.encode()
    set_of_templates = "\n".join(t for t, _ in COMPLETENESS).encode()
    for _, uri in COMPLETENESS:
        yield "router", set_of_templates + b"\0" + uri.encode()
    routes = [line.split("\t") for line in load("routes/github-api.tsv").splitlines()
              if line and not line.startswith("#")]
    for template, uri in routes:
        templates.add(template.encode())
        yield "match_uri", template.encode() + b"\0" + uri.encode()
    # Sixteen GitHub routes at a time (the target reads at most sixteen), with each one's URI.
    for start in range(0, len(routes), 16):
        chunk = routes[start:start + 16]
        set_of_templates = "\n".join(t for t, _ in chunk).encode()
        for _, uri in chunk:
            yield "router", set_of_templates + b"\0" + uri.encode()
    # The hostile target takes a template, NUL, bytes for rfc6570::testing::fuzz::hostile: a
    # listed spelling (first byte odd) of each variable, and a fuzzed text (first byte even).
    # The file server's inputs are those bytes alone.
    # After the first byte: the variable's index (no byte is read for a template with one
    # variable), then the spelling's, or the text's pieces.
    tails = [first + bytes([index, index, 3, 5, 7]) for first in [b"\x01", b"\x00"]
             for index in range(0, 256, 51)]
    for tail in tails:
        yield "file_server", tail
        for t in sorted(templates):
            yield "hostile", t + b"\0" + tail
    for t in sorted(templates):
        yield "parse", t
        for target in ["expand", "roundtrip", "differential"]:
            for value_bytes in VALUE_BYTES:
                yield target, t + b"\0" + value_bytes


def main():
    written = {}
    for target, data in seeds():
        folder = FUZZ / "corpus" / target
        folder.mkdir(parents=True, exist_ok=True)
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
        written[target] = written.get(target, 0) + 1
    for target, count in sorted(written.items()):
        print(f"seed.py: {count} seeds for {target}")


if __name__ == "__main__":
    main()
