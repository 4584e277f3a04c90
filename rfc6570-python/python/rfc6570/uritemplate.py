"""The ``uritemplate`` package's API, expanded by the rfc6570 engine.

A program written for ``uritemplate`` runs unchanged after swapping its import::

    from rfc6570.uritemplate import URITemplate, expand, partial, variables

Values are read as ``uritemplate`` reads them: ``bytes`` are UTF-8 text, other scalars
(``int``, ``float``, ``bool``...) are their ``str()``, a list or tuple of pairs is an
associative array in its order, and a mapping is one in the order of its sorted keys. Where
``uritemplate`` departs from RFC 6570, this module follows the RFC:

* ``partial`` keeps every variable that was not given, so that expanding the rest later gives
  what expanding everything at once would (``{?x,y}`` with ``x`` is ``?x=1{&y}``, where
  ``uritemplate`` gives ``?x=1`` and loses ``y``);
* a template that is not RFC 6570 raises ``rfc6570.InvalidUriTemplate`` (a ``ValueError``)
  when it is built, rather than expanding to something;
* a prefix modifier on a list or mapping raises ``rfc6570.ExpansionError``;
* ``None`` is undefined wherever it stands (RFC 6570 section 2.3), where ``uritemplate``
  writes ``None`` for some items of lists and mappings.
"""

from __future__ import annotations

import typing as t
from collections.abc import Iterable, Iterator, Mapping, MutableSet

from rfc6570._rfc6570 import UriTemplate

__all__ = ("OrderedSet", "URITemplate", "URIVariable", "expand", "partial", "variables")

ScalarVariableValue = t.Union[int, float, complex, str, bytes, None]
VariableValue = t.Union[
    t.Sequence[ScalarVariableValue],
    t.List[ScalarVariableValue],
    t.Mapping[str, ScalarVariableValue],
    t.Tuple[str, ScalarVariableValue],
    ScalarVariableValue,
]
VariableValueMapping = t.Mapping[str, VariableValue]

# `uritemplate` sets no limits: neither does this module, short of the engine's own.
_UNLIMITED = 1 << 30


class OrderedSet(MutableSet[str]):
    """A set that keeps the order its items were added in, as ``uritemplate`` returns names."""

    def __init__(self, iterable: Iterable[str] | None = None) -> None:
        self._items: dict[str, None] = dict.fromkeys(iterable or ())

    def __contains__(self, item: object) -> bool:
        return item in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def add(self, value: str) -> None:
        self._items[value] = None

    def discard(self, value: str) -> None:
        self._items.pop(value, None)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self._items)!r})"


class URIVariable:
    """One expression of a template, as ``uritemplate`` describes it: ``str()`` is its text
    between the braces, ``variables`` its ``(name, {"explode": ..., "prefix": ...})`` pairs."""

    def __init__(self, var: str) -> None:
        self.original: str = var
        self.operator: str = var[0] if var[:1] in ("+", "#", ".", "/", ";", "?", "&") else ""
        self.variables: list[tuple[str, dict[str, t.Any]]] = []
        for spec in var[len(self.operator) :].split(","):
            explode = spec.endswith("*")
            name, _, prefix = spec.rstrip("*").partition(":")
            self.variables.append((name, {"explode": explode, "prefix": int(prefix) if prefix else None}))
        self.variable_names: list[str] = [name for name, _ in self.variables]

    def __repr__(self) -> str:
        return f"URIVariable({self})"

    def __str__(self) -> str:
        return self.original


class URITemplate:
    """A template, as ``uritemplate.URITemplate``: ``uri`` is its text, ``variables`` its
    expressions, ``variable_names`` the names in order."""

    def __init__(self, uri: str) -> None:
        self._init(UriTemplate(uri, max_length=_UNLIMITED, max_variables=_UNLIMITED))

    @classmethod
    def _of(cls, template: UriTemplate) -> URITemplate:
        made = cls.__new__(cls)
        made._init(template)
        return made

    def _init(self, template: UriTemplate) -> None:
        self._template = template
        self.uri: str = template.template
        self.variables: list[URIVariable] = [URIVariable(text[1:-1]) for text in _expressions(self.uri)]
        self.variable_names: OrderedSet = OrderedSet(template.variable_names)

    def __repr__(self) -> str:
        return f'URITemplate("{self}")'

    def __str__(self) -> str:
        return self.uri

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URITemplate):
            return NotImplemented
        return self._template == other._template

    def __hash__(self) -> int:
        return hash(self.uri)

    def expand(self, var_dict: VariableValueMapping | None = None, **kwargs: VariableValue) -> str:
        """Expands the template; ``kwargs`` win over ``var_dict``."""
        return self._template.expand(_values(var_dict, kwargs))

    def partial(self, var_dict: VariableValueMapping | None = None, **kwargs: VariableValue) -> URITemplate:
        """Expands the variables given and keeps the others, as a new ``URITemplate`` that
        expands the rest as the whole would have."""
        return URITemplate._of(self._template.partial(_values(var_dict, kwargs)))


def expand(uri: str, var_dict: VariableValueMapping | None = None, **kwargs: VariableValue) -> str:
    """Expands the template ``uri``: ``expand('https://api.github.com{/end}', end='gists')``."""
    return URITemplate(uri).expand(var_dict, **kwargs)


def partial(uri: str, var_dict: VariableValueMapping | None = None, **kwargs: VariableValue) -> URITemplate:
    """Expands what is given of ``uri`` and keeps the rest, as a ``URITemplate``."""
    return URITemplate(uri).partial(var_dict, **kwargs)


def variables(uri: str) -> OrderedSet:
    """The names of the variables of ``uri``, in order."""
    return URITemplate(uri).variable_names


def _expressions(text: str) -> Iterator[str]:
    """Each ``{...}`` of a template that parsed, in order."""
    start = text.find("{")
    while start != -1:
        end = text.index("}", start)
        yield text[start : end + 1]
        start = text.find("{", end)


def _values(var_dict: VariableValueMapping | None, kwargs: Mapping[str, VariableValue]) -> dict[str, t.Any]:
    merged = dict(var_dict or {})
    merged.update(kwargs)
    return {name: _value(value) for name, value in merged.items()}


def _value(value: t.Any) -> t.Any:
    """A value as ``uritemplate`` reads it, in the engine's terms."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, Mapping):
        return {_scalar(k): _scalar(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(item, tuple) and len(item) == 2 for item in value):
            return {_scalar(k): _scalar(v) for k, v in value}
        return [_scalar(item) for item in value]
    return str(value)


def _scalar(value: t.Any) -> t.Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8")
    return str(value)
