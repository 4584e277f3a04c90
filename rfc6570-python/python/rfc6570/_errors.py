"""The exceptions of ``rfc6570``: every refusal of the engine, with its kind, position and rule.

They are defined in Python, so that they subclass ``ValueError`` as users expect, and the
extension module raises them with what the Rust error says.
"""

from __future__ import annotations

__all__ = [
    "ExpansionError",
    "InvalidUriTemplate",
    "NoMatch",
    "UnsafeJoin",
    "UnsupportedTemplate",
    "UriTemplateError",
]


class UriTemplateError(ValueError):
    """The base of every error of ``rfc6570``.

    Attributes:
        kind: The Rust error's stable code, such as ``unclosed_expression``, ``unsafe`` or
            ``dot_dot_segment``.
        position: Where in the template or URI the problem is, as a ``str`` index, or None.
        rule: For a path-safety refusal, the rule that refused (``dot_dot_segment``...).
        variable: The variable concerned, where there is one.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        position: int | None = None,
        rule: str | None = None,
        variable: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.position = position
        self.rule = rule
        self.variable = variable

    @property
    def message(self) -> str:
        """What went wrong, in a sentence."""
        return str(self)


class InvalidUriTemplate(UriTemplateError):
    """A template that does not parse, as the MCP Python SDK names it.

    Attributes:
        template: The template that failed to parse.
        position: The index of the first problem in it, or None when the whole template is at
            fault (too long, too many variables).
    """

    def __init__(
        self,
        message: str,
        *,
        template: str,
        position: int | None = None,
        kind: str = "invalid_template",
    ) -> None:
        super().__init__(message, kind=kind, position=position)
        self.template = template


class UnsupportedTemplate(UriTemplateError):
    """A template that parses and expands, but cannot be matched back correctly.

    ``kind`` is the rule that refuses it (``adjacent_variables``...), ``position`` where.
    """

    def __init__(self, message: str, *, template: str, **detail: object) -> None:
        super().__init__(message, **detail)  # type: ignore[arg-type]
        self.template = template


class ExpansionError(UriTemplateError):
    """Values that RFC 6570 cannot expand: a list or dict under a prefix, or nested."""

    def __init__(self, message: str, *, template: str, **detail: object) -> None:
        super().__init__(message, **detail)  # type: ignore[arg-type]
        self.template = template


class NoMatch(UriTemplateError):
    """Why a URI was not matched: what ``explain`` returns. ``kind`` is ``not_found`` when
    nothing matched, ``unsafe`` (with ``rule`` and ``variable``) for a path-safety refusal,
    ``malformed`` (with ``position``) for a URI that is not well formed."""

    def __init__(self, message: str, *, uri: str, **detail: object) -> None:
        super().__init__(message, **detail)  # type: ignore[arg-type]
        self.uri = uri


class UnsafeJoin(UriTemplateError):
    """``safe_join`` refused a path: ``kind`` is ``escapes``, ``absolute`` or
    ``control_character``."""
