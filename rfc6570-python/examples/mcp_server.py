"""An MCP server on the official Python SDK whose resource templates are matched by rfc6570.

The SDK's high-level ``MCPServer`` parses every ``@resource`` template with its own
``UriTemplate`` and offers no public hook to match them otherwise, and patching its private
names is not an option. Its low-level ``Server`` is the supported way: its ``on_read_resource``
handler receives every ``resources/read``, and here an ``rfc6570.Router`` routes the URI to
the most specific template, decodes its values and refuses a traversal before any handler
runs. ``resources/templates/list`` lists the same templates.

    python mcp_server.py            # over stdio; FILES_DIR names the folder file:/// serves

tests/test_mcp_server.py reads it with the SDK's own client.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable
from pathlib import Path

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from rfc6570 import Router, resource_not_found_code, safe_join

FILES = Path(os.environ.get("FILES_DIR", ".")).resolve()

Handler = Callable[..., str]
router: Router[Handler] = Router()
templates: list[types.ResourceTemplate] = []


def resource(template: str, name: str) -> Callable[[Handler], Handler]:
    """Registers a handler for ``template``: its variables are its keyword arguments."""

    def register(handler: Handler) -> Handler:
        router.insert(template, handler)
        templates.append(types.ResourceTemplate(uri_template=template, name=name, mime_type="text/plain"))
        return handler

    return register


@resource("notes://{id}", "note")
def note(id: str) -> str:
    return f"note {id}"


@resource("search://docs{?q,lang}", "search")
def search(q: str = "", lang: str = "en") -> str:
    return json.dumps({"q": q, "lang": lang}, ensure_ascii=False)


@resource("file:///{+path}", "file")
def file(path: str) -> str:
    # The router has refused `..`, encoded separators and absolute paths already; safe_join
    # also refuses a symbolic link out of the folder.
    return safe_join(FILES, path).read_text("utf-8")


async def list_resource_templates(
    ctx: object, params: types.PaginatedRequestParams | None
) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(resource_templates=templates)


async def read_resource(ctx: object, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = str(params.uri)
    found = router.at(uri)
    if found is None:
        refusal = router.explain(uri)
        detail = {"uri": uri}
        if refusal is not None:
            detail |= {"reason": refusal.kind, "rule": refusal.rule, "variable": refusal.variable}
        code = resource_not_found_code(getattr(ctx, "protocol_version", "2025-11-25"))
        raise MCPError(code, "Resource not found", {k: v for k, v in detail.items() if v is not None})
    text = found.value(**found.variables)
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text=text)])


server = Server(
    "rfc6570-python-example",
    on_list_resource_templates=list_resource_templates,
    on_read_resource=read_resource,
)


async def main() -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    asyncio.run(main())
