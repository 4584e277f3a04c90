"""rfc6570.uritemplate against the uritemplate package: its own tests as data
(tests/data/uritemplate.json), checked against uritemplate itself, pinned, and against this
module; the uritemplate-test sections its tests run; what partial expansion keeps that
uritemplate's drops; and a program written for uritemplate, run unchanged after swapping the
import (tests/uritemplate_program.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import uritemplate as theirs

import rfc6570
from rfc6570 import uritemplate as ours

HERE = Path(__file__).parent
DATA = json.loads((HERE / "data" / "uritemplate.json").read_text("utf-8"))
SUITE = HERE.parents[1] / "tests" / "data" / "uritemplate-test"


def decoded(value: Any) -> Any:
    """A value of the data as Python holds it: ``{"$tuple": [...]}`` is a tuple."""
    if isinstance(value, dict) and "$tuple" in value:
        return tuple(decoded(v) for v in value["$tuple"])
    if isinstance(value, list):
        return [decoded(v) for v in value]
    if isinstance(value, dict):
        return {k: decoded(v) for k, v in value.items()}
    return value


def expand(module: Any, case: dict[str, Any]) -> Any:
    """The case's call, as its 'via' says, through ``module``; an exception is an outcome."""
    args = [] if case["variables"] is None else [decoded(case["variables"])]
    kwargs = decoded(case.get("kwargs", {}))
    try:
        if case["via"].startswith("uritemplate.expand"):
            return module.expand(case["template"], *args, **kwargs)
        return module.URITemplate(case["template"]).expand(*args, **kwargs)
    except rfc6570.UriTemplateError as e:
        return {"raises": type(e).__name__, "position": e.position}


def params(section: str) -> list[Any]:
    return [pytest.param(c, id=f"{i}: {c['name']}") for i, c in enumerate(DATA[section])]


@pytest.mark.parametrize("case", params("expand"))
def test_expand(case: dict[str, Any]) -> None:
    assert expand(theirs, case) == case["expected"]
    assert expand(ours, case) == case.get("ours", case["expected"])
    if "ours" in case:
        assert case["reason"] in DATA["reasons"]


@pytest.mark.parametrize("case", params("partial"))
def test_partial(case: dict[str, Any]) -> None:
    for module in (theirs, ours):
        made = module.partial(case["template"], **case.get("kwargs", {}))
        assert made == module.URITemplate(case["expected_template"])
        assert str(made) == case["expected_template"]


@pytest.mark.parametrize("case", params("variable_names"))
def test_variable_names(case: dict[str, Any]) -> None:
    for module in (theirs, ours):
        t = module.URITemplate(case["template"])
        if "expected" in case:
            assert module.variables(case["template"]) == t.variable_names
            assert list(t.variable_names) == case["expected"]
        else:
            assert len(t.variables) == case["expected_len_variables"]


@pytest.mark.parametrize("module", [theirs, ours], ids=["uritemplate", "rfc6570.uritemplate"])
def test_str_repr_equality_and_hash(module: Any) -> None:
    for case in DATA["equality"]:
        t = module.URITemplate(case["template"])
        if case["assert"] == "str":
            assert str(t) == case["expected"]
        elif case["assert"] == "repr":
            assert repr(t) == case["expected"]
        elif case["assert"].startswith("hash("):
            assert hash(t) == hash(case["template"])
        elif case["assert"].startswith("two URITemplate"):
            counts = {t: 1}
            counts[module.URITemplate(case["template"])] += 1
            assert counts == {t: 2}
        else:
            assert module.partial(case["template"]) == t


def suite_cases() -> list[Any]:
    found = []
    for file, sections in DATA["from_fixtures"]["sections"].items():
        suite = json.loads((SUITE / file).read_text("utf-8"))
        for name in sections:
            section = suite[name]
            for template, expected in section["testcases"]:
                found.append(pytest.param(template, section.get("variables", {}), expected, id=f"{file} {name} {template}"))
    return found


@pytest.mark.parametrize(("template", "variables", "expected"), suite_cases())
def test_the_suite_sections_uritemplate_runs(template: str, variables: dict[str, Any], expected: Any) -> None:
    accepted = expected if isinstance(expected, list) else [expected]
    assert ours.expand(template, variables) in accepted


def test_partial_keeps_what_uritemplate_drops() -> None:
    # uritemplate writes ?x=1 and loses y; the rest must expand as the whole would.
    assert str(theirs.partial("{?x,y}", x=1)) == "?x=1"
    kept = ours.partial("{?x,y}", x=1)
    assert str(kept) == "?x=1{&y}"
    assert kept.expand(y=2) == ours.expand("{?x,y}", x=1, y=2) == "?x=1&y=2"
    # A value that cannot be written yet stays bound, and expands later.
    bound = ours.partial("{x,y}", x=1)
    assert (str(bound), bound.expand(y=2), bound.expand()) == ("{x,y}", "1,2", "1")


def test_values_are_read_as_uritemplate_reads_them() -> None:
    values = {"b": True, "n": 1.5, "raw": b"caf\xc3\xa9", "pairs": [("k", 1), ("j", 2)], "map": {"z": 1, "a": 2}}
    template = "{b,n,raw}{?pairs*,map*,none}"
    assert ours.expand(template, values) == theirs.expand(template, values) == "True,1.5,caf%C3%A9?k=1&j=2&a=2&z=1"
    # None is undefined wherever it stands; uritemplate writes it in some places.
    assert (ours.expand("{x}", x=[None, "a"]), theirs.expand("{x}", x=[None, "a"])) == ("a", "None,a")


def test_a_program_written_for_uritemplate_runs_unchanged_after_swapping_the_import(tmp_path: Path) -> None:
    program = (HERE / "uritemplate_program.py").read_text("utf-8")
    swapped = program.replace("from uritemplate import", "from rfc6570.uritemplate import")
    assert swapped != program
    (tmp_path / "swapped.py").write_text(swapped, "utf-8")

    def run(path: Path) -> str:
        done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60, check=True)
        return done.stdout

    original = run(HERE / "uritemplate_program.py")
    assert original.count("\n") > 10
    assert run(tmp_path / "swapped.py") == original
