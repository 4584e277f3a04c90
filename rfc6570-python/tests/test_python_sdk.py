"""The MCP Python SDK's own UriTemplate tests, as data (tests/data/python_sdk.json), run twice:
against the SDK itself, pinned, so that the data says what its tests say; and against this
package, which must give the SDK's answer, or where the data says otherwise RFC 6570's, for the
reason it names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from lets import with_lets
from mcp.shared import uri_template as sdk

import rfc6570

DATA = json.loads((Path(__file__).parent / "data" / "python_sdk.json").read_text("utf-8"))
SECTIONS = ("parse", "is_template", "variables", "variable_names", "query_variable_names", "expand", "match")


def outcome(engine: Any, section: str, case: dict[str, Any], **options: Any) -> Any:
    """What ``engine`` (a module with ``UriTemplate`` and ``InvalidUriTemplate``) answers for the
    case, in the section's shape."""
    parse: Callable[..., Any] = engine.UriTemplate.parse
    try:
        if section == "parse":
            limits = {k: case[k] for k in ("max_length", "max_variables") if k in case}
            try:
                t = parse(case["template"], **limits, **options)
            except engine.InvalidUriTemplate as e:
                return {"parses": False, "position": e.position, "kind": getattr(e, "kind", None), "message": str(e)}
            return {"parses": True, "str": str(t), "variable_count": len(t.variables)}
        if section == "is_template":
            return engine.UriTemplate.is_template(case["input"])
        t = parse(case["template"], **options)
        if section == "variables":
            return [{"name": v.name, "operator": v.operator, "explode": v.explode} for v in t.variables]
        if section == "variable_names":
            return list(t.variable_names)
        if section == "query_variable_names":
            return sorted(t.query_variable_names)
        if section == "expand":
            values = dict(case["variables"])
            for name in case.get("python_types", {}):
                values[name] = values[name].encode()
            return t.expand(values)
        limit = {"max_uri_length": case["max_uri_length"]} if "max_uri_length" in case else {}
        if "roundtrip_variables" in case:
            assert t.expand(case["roundtrip_variables"]) == case["uri"]
        return t.match(case["uri"], **limit)
    except Exception as e:  # noqa: BLE001 - an exception is an outcome like any other
        return {"raises": type(e).__name__, "message": str(e)}


def projected(got: Any, expected: Any) -> Any:
    """``got`` with only what ``expected`` asserts, where both are outcomes of one shape."""
    if isinstance(expected, dict) and ("parses" in expected or "raises" in expected):
        if isinstance(got, dict) and set(expected) <= set(got):
            return {key: got[key] for key in expected}
    return got


def cases(*, which: str) -> list[Any]:
    params = []
    for section in SECTIONS:
        for i, case in enumerate(DATA[section]):
            if which == "all" or "ours" in case:
                params.append(pytest.param(section, with_lets(case), id=f"{section}[{i}] {case['name']}"))
    return params


@pytest.mark.parametrize(("section", "case"), cases(which="all"))
def test_the_data_says_what_the_sdk_tests_say(section: str, case: dict[str, Any]) -> None:
    got = outcome(sdk, section, case)
    assert projected(got, case["sdk"]) == case["sdk"]
    if case.get("message_pattern"):
        assert re.search(case["message_pattern"], got["message"])


@pytest.mark.parametrize(("section", "case"), cases(which="all"))
def test_ours_answers_as_the_sdk_or_as_the_data_says(section: str, case: dict[str, Any]) -> None:
    expected = case.get("ours", case["sdk"])
    assert projected(outcome(rfc6570, section, case), expected) == expected


@pytest.mark.parametrize(("section", "case"), cases(which="differs"))
def test_every_difference_has_its_reason(section: str, case: dict[str, Any]) -> None:
    assert case["ours"] != case["sdk"]
    assert case["reason"] in DATA["reasons"]
    if case["reason"] == "path-safety":
        # Without path safety, the SDK's answer comes back.
        assert outcome(rfc6570, section, case, path_safety=False) == case["sdk"]


def test_every_reason_is_used() -> None:
    used = {c["reason"] for s in SECTIONS for c in DATA[s] if "reason" in c}
    assert used == set(DATA["reasons"])
