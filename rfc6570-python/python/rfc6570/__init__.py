"""RFC 6570 URI templates, with the rfc6570 engine: parse, expand, partially expand, match a
concrete URI back to its variables, and route it to the right one of many templates.

``UriTemplate`` has the names and shapes of the MCP Python SDK's
(``mcp.shared.uri_template.UriTemplate``), ``Router`` routes a URI to the most specific of
many templates, and ``safe_join`` joins a captured path under a directory. The
``uritemplate`` package's API is ``rfc6570.uritemplate``.
"""

from __future__ import annotations

from rfc6570._errors import (
    ExpansionError,
    InvalidUriTemplate,
    NoMatch,
    UnsafeJoin,
    UnsupportedTemplate,
    UriTemplateError,
)
from rfc6570._rfc6570 import (
    DEFAULT_MAX_TEMPLATE_LENGTH,
    DEFAULT_MAX_URI_LENGTH,
    DEFAULT_MAX_VARIABLES,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    KNOWN_REVISIONS,
    LATEST_REVISION,
    RESOURCE_NOT_FOUND,
    Lint,
    Route,
    Router,
    UriTemplate,
    Variable,
    resource_not_found,
    resource_not_found_code,
    safe_join,
)

__all__ = [
    "DEFAULT_MAX_TEMPLATE_LENGTH",
    "DEFAULT_MAX_URI_LENGTH",
    "DEFAULT_MAX_VARIABLES",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "KNOWN_REVISIONS",
    "LATEST_REVISION",
    "RESOURCE_NOT_FOUND",
    "ExpansionError",
    "InvalidUriTemplate",
    "Lint",
    "NoMatch",
    "Route",
    "Router",
    "UnsafeJoin",
    "UnsupportedTemplate",
    "UriTemplate",
    "UriTemplateError",
    "Variable",
    "resource_not_found",
    "resource_not_found_code",
    "safe_join",
]
