# pyright: strict
"""Code as users write it, for the type checkers (mypy --strict and pyright strict, run by
.ci/python): the stubs must accept it, and every type it states must be the one inferred."""

from __future__ import annotations

from pathlib import Path

from typing_extensions import assert_type

import rfc6570
from rfc6570 import NoMatch, Route, Router, UriTemplate, safe_join
from rfc6570.uritemplate import URITemplate, expand, partial, variables

t = UriTemplate.parse("file:///{+path}", max_length=1024)
assert_type(t.template, str)
assert_type(t.variable_names, list[str])
assert_type(t.query_variable_names, frozenset[str])
assert_type(t.expand({"path": "a/b", "n": 1, "tags": ["x"], "m": {"k": "v"}}), str)
assert_type(t.match("file:///a", max_uri_length=100), dict[str, str | list[str] | dict[str, str]] | None)
assert_type(t.explain("file:///a/../../b"), NoMatch | None)
assert_type(t.partial({"path": "x"}), UriTemplate)
assert_type([v.explode for v in t.variables], list[bool])
assert_type([lint.refuses for lint in t.lints], list[bool])

router: Router[str] = Router(path_safety=True)
router.insert("notes://{id}", "note")
router.insert(t, "file")
found = router.at("notes://1")
assert_type(found, Route[str] | None)
if found is not None:
    assert_type(found.value, str)
    assert_type(found.variables, dict[str, str | list[str] | dict[str, str]])

assert_type(safe_join(Path("/srv"), "a"), Path)
assert_type(rfc6570.resource_not_found_code(rfc6570.LATEST_REVISION), int)

try:
    UriTemplate.parse("{x")
except rfc6570.InvalidUriTemplate as e:
    assert_type(e.position, int | None)
    assert_type(e.template, str)

u = URITemplate("https://api.github.com{/end}")
assert_type(u.expand(end="users"), str)
assert_type(u.partial({"end": "users"}), URITemplate)
assert_type(expand("{x}", {"x": 1}), str)
assert_type(partial("{x}{y}", x=1), URITemplate)
assert_type(sorted(variables("{x}{y}")), list[str])
