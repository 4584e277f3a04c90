"""What the data files' cases share: ``let`` names long texts, each ``[text, times]``, that
``${name}`` stands for in the case's strings and keys, so that tests of long inputs are data
too (as rfc6570-wasm/tests/cases.json and tests/data/python_sdk.json write them)."""

from __future__ import annotations

from typing import Any


def with_lets(case: dict[str, Any]) -> dict[str, Any]:
    """The case with each ``${name}`` of its ``let`` replaced by that text repeated."""
    lets = {"${" + name + "}": text * times for name, (text, times) in case.get("let", {}).items()}

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            for name, long in lets.items():
                value = value.replace(name, long)
            return value
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    return walk(case) if lets else case
