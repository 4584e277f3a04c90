"""The cases of rfc6570-wasm/tests/cases.json, the file the Rust tests (rfc6570-wasm/tests/cases.rs)
and the npm package's tests (npm/test/cases.test.mjs) run too, through the installed wheel, so
that the three cannot drift apart.

Each section is checked as npm/test/check.js checks it, in Python's shapes: positions in the
file count UTF-16 code units, as JavaScript does, and are turned into ``str`` indexes here.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from lets import with_lets

import rfc6570
from rfc6570 import Router, UriTemplate

CASES = json.loads(
    (Path(__file__).resolve().parents[2] / "rfc6570-wasm" / "tests" / "cases.json").read_text("utf-8")
)
# The shared cases test the engine's own limits (64 KiB, 1,024 expressions), not the SDK's.
UNLIMITED = {"max_length": 1 << 30, "max_variables": 1 << 30}


def py_index(text: str, utf16: int) -> int:
    """The ``str`` index of a UTF-16 offset into ``text``."""
    return len(text.encode("utf-16-le")[: 2 * utf16].decode("utf-16-le"))


def template(case: dict[str, Any]) -> UriTemplate:
    return UriTemplate(case["template"], path_safety=case.get("pathSafety", True), **UNLIMITED)


def assert_refusal(error: BaseException, expected: str | dict[str, Any], text: str) -> None:
    """``error`` is an ``rfc6570`` error with every field ``expected`` names."""
    assert isinstance(error, rfc6570.UriTemplateError), repr(error)
    fields = {"kind": expected} if isinstance(expected, str) else dict(expected)
    if "position" in fields:
        fields["position"] = py_index(text, fields["position"])
    for key, value in fields.items():
        assert getattr(error, key) == value, f"{key}: {getattr(error, key)!r} != {value!r} ({error})"


def same(got: Any, expected: Any) -> None:
    # As check.js compares: the JSON text, so the order of a match's variables counts too.
    assert json.dumps(got, ensure_ascii=False) == json.dumps(expected, ensure_ascii=False)


def cases(section: str) -> list[Any]:
    return [pytest.param(with_lets(c), id=f"{i}: {c['name']}") for i, c in enumerate(CASES[section])]


@pytest.mark.parametrize("case", cases("template"))
def test_template(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(rfc6570.InvalidUriTemplate) as refused:
            template(case)
        assert_refusal(refused.value, case["error"], case["template"])
        assert refused.value.template == case["template"]
    else:
        assert str(template(case)) == case["template"]


@pytest.mark.parametrize("case", cases("isTemplate"))
def test_is_template(case: dict[str, Any]) -> None:
    assert UriTemplate.is_template(case["input"]) is case["expected"]


@pytest.mark.parametrize("case", cases("variableNames"))
def test_variable_names(case: dict[str, Any]) -> None:
    assert template(case).variable_names == case["expected"]


@pytest.mark.parametrize("case", cases("expand"))
def test_expand(case: dict[str, Any]) -> None:
    if "error" not in case:
        assert template(case).expand(case["variables"]) == case["expected"]
        return
    with pytest.raises(rfc6570.UriTemplateError) as refused:
        template(case).expand(case.get("variables", {}))
    assert_refusal(refused.value, case["error"], case["template"])


def uri_of(case: dict[str, Any], t: UriTemplate) -> str:
    return t.expand(case["roundTrip"]) if "roundTrip" in case else case["uri"]


@pytest.mark.parametrize("case", cases("match"))
def test_match(case: dict[str, Any]) -> None:
    t = template(case)
    uri = uri_of(case, t)
    started = time.perf_counter()
    got = t.match(uri, max_uri_length=1 << 30)
    took = (time.perf_counter() - started) * 1000
    same(got, case["expected"])
    if "withinMs" in case:
        assert took <= case["withinMs"], f"took {took:.1f} ms"


@pytest.mark.parametrize("case", cases("explain"))
def test_explain(case: dict[str, Any]) -> None:
    t = template(case)
    uri = uri_of(case, t)
    refusal = t.explain(uri)
    assert refusal is not None, f"{uri} matched"
    assert isinstance(refusal, rfc6570.NoMatch) and refusal.uri == uri
    assert_refusal(refusal, case["error"], uri)


def router(case: dict[str, Any]) -> Router[int]:
    routes: Router[int] = Router(path_safety=case.get("pathSafety", True))
    for i, t in enumerate(case["templates"]):
        routes.insert(t, i)
    return routes


@pytest.mark.parametrize("case", cases("route"))
def test_route(case: dict[str, Any]) -> None:
    found = router(case).at(case["uri"])
    if found is None:
        assert case["expected"] is None
        return
    assert found.value == case["templates"].index(found.template)
    same({"template": found.template, "variables": found.variables}, case["expected"])


@pytest.mark.parametrize("case", cases("explainRoute"))
def test_explain_route(case: dict[str, Any]) -> None:
    routes = router(case)
    refusal = routes.explain(case["uri"])
    if "error" in case:
        assert refusal is not None
        assert_refusal(refusal, case["error"], case["uri"])
        return
    assert refusal is None
    found = routes.at(case["uri"])
    assert found is not None and found.value == case["templates"].index(found.template)
    same({"template": found.template, "variables": found.variables}, case["expected"])


@pytest.mark.parametrize("case", cases("safeJoin"))
def test_safe_join(case: dict[str, Any]) -> None:
    if "error" in case:
        with pytest.raises(rfc6570.UnsafeJoin) as refused:
            rfc6570.safe_join(case["base"], case["path"])
        assert_refusal(refused.value, case["error"], case["path"])
    else:
        assert str(rfc6570.safe_join(case["base"], case["path"])) == case["expected"]
