"""examples/mcp_server.py, an MCP server on the official Python SDK whose templates rfc6570
matches, read over stdio by the SDK's own client, on both handshakes: ``initialize`` (revision
2025-11-25, where "resource not found" is -32002) and ``server/discover`` (2026-07-28, -32602).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

SERVER = Path(__file__).resolve().parents[1] / "examples" / "mcp_server.py"
SECRET = "outside-the-served-folder"


@pytest.fixture
def files(tmp_path: Path) -> Path:
    served = tmp_path / "served"
    (served / "docs").mkdir(parents=True)
    (served / "docs" / "guide.md").write_text("# Guide", "utf-8")
    (served / "docs" / "a b.md").write_text("spaced", "utf-8")
    (tmp_path / "secret.txt").write_text(SECRET, "utf-8")
    return served


def session(files: Path, mode: str, check: Callable[[Client], Awaitable[None]]) -> None:
    async def run() -> None:
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env={"FILES_DIR": str(files)})
        async with Client(params, mode=mode, cache=None, read_timeout_seconds=30) as client:
            await check(client)

    asyncio.run(asyncio.wait_for(run(), 60))


async def text(client: Client, uri: str) -> str:
    result = await client.read_resource(uri)
    (content,) = result.contents
    assert content.uri == uri
    return str(getattr(content, "text"))


async def refusal(client: Client, uri: str) -> MCPError:
    with pytest.raises(MCPError) as refused:
        await client.read_resource(uri)
    return refused.value


MODES = [pytest.param("legacy", -32002, id="initialize"), pytest.param("auto", -32602, id="server/discover")]


@pytest.mark.parametrize(("mode", "not_found"), MODES)
def test_the_sdk_client_reads_resources_that_rfc6570_routes(files: Path, mode: str, not_found: int) -> None:
    async def check(client: Client) -> None:
        listed = await client.list_resource_templates()
        assert [t.uri_template for t in listed.resource_templates] == [
            "notes://{id}",
            "search://docs{?q,lang}",
            "file:///{+path}",
        ]
        # Values arrive decoded.
        assert await text(client, "notes://caf%C3%A9%20au%20lait") == "note café au lait"
        # Query parameters in any order, each optional.
        for uri in ("search://docs?q=uri%20templates&lang=fr", "search://docs?lang=fr&q=uri%20templates"):
            assert json.loads(await text(client, uri)) == {"q": "uri templates", "lang": "fr"}
        assert json.loads(await text(client, "search://docs")) == {"q": "", "lang": "en"}
        # {+path} crosses folders.
        assert await text(client, "file:///docs/guide.md") == "# Guide"
        assert await text(client, "file:///docs/a%20b.md") == "spaced"
        # A traversal is refused by the router, before any handler runs: the error names the
        # rule, which only the router knows, and the revision's not-found code.
        for uri, rule in [
            ("file:///docs/../../secret.txt", "dot_dot_segment"),
            ("file:///%2e%2e/secret.txt", "dot_dot_segment"),
            ("file:///docs/..%2F..%2Fsecret.txt", "dot_dot_segment"),
        ]:
            error = await refusal(client, uri)
            assert error.code == not_found
            assert error.data["reason"] == "unsafe" and error.data["rule"] == rule, error.data
            assert SECRET not in str(error.data)
        error = await refusal(client, "unknown://x")
        assert (error.code, error.data) == (not_found, {"uri": "unknown://x", "reason": "not_found"})

    session(files, mode, check)


def test_the_example_runs_on_the_sdks_public_api_only() -> None:
    source = SERVER.read_text("utf-8")
    imports = [line for line in source.splitlines() if line.startswith(("from mcp", "import mcp"))]
    assert imports and all("._" not in line for line in imports), imports
    assert "MCPServer" not in "".join(imports)
