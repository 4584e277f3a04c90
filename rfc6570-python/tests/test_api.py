"""The package's API beyond the shared cases and the peers' data: partial expansion in the
SDK's shape, inputs that must not crash the interpreter (values that hold themselves, deep
nesting, long literals), any mapping as variables, and the router's values and cycles."""

from __future__ import annotations

import gc
from types import MappingProxyType
from typing import Any

import pytest

import rfc6570
from rfc6570 import Router, UriTemplate


def test_partial_writes_what_it_is_given_and_keeps_the_rest() -> None:
    t = UriTemplate("search://docs{?q,lang,page}")
    p = t.partial({"q": "uri templates", "page": 2})
    assert (p.template, p.bound_names) == ("search://docs?q=uri%20templates{&lang}&page=2", [])
    assert p.expand({"lang": "en"}) == t.expand({"q": "uri templates", "lang": "en", "page": 2})
    assert p.variable_names == ["lang"]
    # {x,y} with x alone cannot be written yet: x stays bound, and expands later.
    kept = UriTemplate("{x,y}").partial({"x": "1"})
    assert (kept.template, kept.bound_names) == ("{x,y}", ["x"])
    assert (kept.expand({"y": "2"}), kept.expand({})) == ("1,2", "1")
    assert kept == UriTemplate("{x,y}").partial({"x": "1"}) and kept != UriTemplate("{x,y}")


def test_partial_refuses_what_expansion_refuses_at_the_same_index() -> None:
    with pytest.raises(rfc6570.ExpansionError) as refused:
        UriTemplate("éé{/c:2}").partial({"c": ["x"]})
    assert (refused.value.kind, refused.value.position, refused.value.variable) == ("prefix_on_composite", 2, "c")
    assert refused.value.template == "éé{/c:2}"


def test_partial_keeps_the_templates_path_safety() -> None:
    unsafe = "file:///srv/../../etc/passwd"
    safe = UriTemplate("file:///{+root}{/name}").partial({"name": "passwd"})
    assert safe.match(unsafe) is None and safe.explain(unsafe).rule == "dot_dot_segment"
    off = UriTemplate("file:///{+root}{/name}", path_safety=False).partial({"name": "passwd"})
    assert off.match(unsafe) == {"root": "srv/../../etc"}


def test_a_long_literal_compiles_and_matches() -> None:
    long = UriTemplate("{x}").partial({"x": "a" * 20000})
    assert long.match("a" * 20000) == {}
    t = UriTemplate("x" * 20000 + "{id}", max_length=30000)
    assert t.match("x" * 20000 + "7") == {"id": "7"}


def test_values_that_hold_themselves_or_nest_deep_are_refused_as_nested() -> None:
    loop: list[Any] = []
    loop.append(loop)
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    deep: list[Any] = []
    for _ in range(200_000):
        deep = [deep]
    for value in (loop, cycle, deep):
        with pytest.raises(rfc6570.ExpansionError) as refused:
            UriTemplate("{x}").expand({"x": value})
        assert (refused.value.kind, refused.value.variable) == ("nested_composite", "x")


def test_any_mapping_gives_the_templates_names_only() -> None:
    values = MappingProxyType({"x": 1, "other": object(), 3: "not a name"})
    assert UriTemplate("{x}").expand(values) == "1"
    assert UriTemplate("{x}").expand({"x": 1, "other": object(), 3: "not a name"}) == "1"
    with pytest.raises(TypeError, match="mapping"):
        UriTemplate("{x}").expand(["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match='"x"'):
        UriTemplate("{x}").expand({"x": object()})


def test_a_router_refuses_a_template_with_bound_values() -> None:
    router: Router[str] = Router()
    router.insert(UriTemplate("notes://{id}").partial({}), "plain")
    with pytest.raises(ValueError, match="bound"):
        router.insert(UriTemplate("{x,y}").partial({"x": "1"}), "bound")
    assert len(router) == 1


def test_routes_and_routers_are_generic_and_their_cycles_are_collected() -> None:
    assert Router[int] is not None and rfc6570.Route[int] is not None
    freed: list[bool] = []

    class Marker:
        def __del__(self) -> None:
            freed.append(True)

    router: Router[list[Any]] = Router()
    value: list[Any] = [Marker()]
    router.insert("notes://{id}", value)
    route = router.at("notes://1")
    assert route is not None
    value.append(route)  # route -> value -> route
    value.append(router)  # router -> value -> router
    del route, value, router
    gc.collect()
    assert freed == [True]
