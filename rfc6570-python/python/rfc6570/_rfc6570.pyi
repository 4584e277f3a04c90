"""Types of the extension module that ``rfc6570`` re-exports."""

from collections.abc import Mapping
from os import PathLike
from pathlib import Path
from typing import Any, Final, Generic, Literal, TypeVar, final

from rfc6570._errors import NoMatch

Operator = Literal["", "+", "#", ".", "/", ";", "?", "&"]
Scalar = str | int | float | bool | None
Value = Scalar | list[Scalar] | tuple[Scalar, ...] | Mapping[str, Scalar]
Captured = str | list[str] | dict[str, str]

DEFAULT_MAX_TEMPLATE_LENGTH: Final[int]
DEFAULT_MAX_VARIABLES: Final[int]
DEFAULT_MAX_URI_LENGTH: Final[int]
RESOURCE_NOT_FOUND: Final[int]
INVALID_PARAMS: Final[int]
INTERNAL_ERROR: Final[int]
KNOWN_REVISIONS: Final[tuple[str, ...]]
LATEST_REVISION: Final[str]

@final
class Variable:
    """One variable spec: its name, its expression's operator and its modifiers."""

    @property
    def name(self) -> str: ...
    @property
    def operator(self) -> Operator: ...
    @property
    def explode(self) -> bool: ...
    @property
    def prefix(self) -> int | None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Lint:
    """Why a template matches ambiguously, or cannot be matched (``refuses``)."""

    @property
    def kind(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def position(self) -> int: ...
    @property
    def refuses(self) -> bool: ...

@final
class UriTemplate:
    """A parsed RFC 6570 URI template, with the MCP Python SDK's names."""

    def __init__(
        self,
        template: str,
        *,
        max_length: int = ...,
        max_variables: int = ...,
        path_safety: bool = True,
    ) -> None: ...
    @classmethod
    def parse(
        cls,
        template: str,
        *,
        max_length: int = ...,
        max_variables: int = ...,
        path_safety: bool = True,
    ) -> UriTemplate: ...
    @staticmethod
    def is_template(value: str) -> bool: ...
    @property
    def template(self) -> str: ...
    @property
    def variables(self) -> list[Variable]: ...
    @property
    def variable_names(self) -> list[str]: ...
    @property
    def query_variable_names(self) -> frozenset[str]: ...
    @property
    def bound_names(self) -> list[str]:
        """Values from ``partial`` that the text could not hold yet: ``expand`` uses them;
        ``match``, ``str()`` and a ``Router`` see the text alone."""
    @property
    def lints(self) -> list[Lint]: ...
    def expand(self, variables: Mapping[str, Value]) -> str: ...
    def partial(self, variables: Mapping[str, Value]) -> UriTemplate: ...
    def match(self, uri: str, *, max_uri_length: int = ...) -> dict[str, Captured] | None: ...
    def explain(self, uri: str) -> NoMatch | None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

T = TypeVar("T")

@final
class Route(Generic[T]):
    """What ``Router.at`` found."""

    @property
    def value(self) -> T: ...
    @property
    def template(self) -> str: ...
    @property
    def variables(self) -> dict[str, Captured]: ...

@final
class Router(Generic[T]):
    """Many templates, each with a value: ``at`` finds the most specific that matches."""

    def __init__(self, *, path_safety: bool = True) -> None: ...
    def insert(self, template: str | UriTemplate, value: T) -> None: ...
    def at(self, uri: str) -> Route[T] | None: ...
    def explain(self, uri: str) -> NoMatch | None: ...
    def __len__(self) -> int: ...

def safe_join(base: str | PathLike[str], path: str) -> Path: ...
def resource_not_found_code(revision: str) -> int: ...
def resource_not_found(uri: str, revision: str) -> dict[str, Any]: ...
