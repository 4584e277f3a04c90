"""The example server driven by the official MCP Python SDK client (`mcp`, pinned with every
dependency in requirements.txt), over stdio (examples/mcp_server.rs) or, with MCP_TRANSPORT=http,
over streamable HTTP on loopback (examples/http_server.rs, which serves the same resources), on
both protocol revisions rmcp speaks: the legacy
`initialize` handshake (mode="legacy", revision 2025-11-25, where "resource not found" is -32002)
and `server/discover` (mode="auto", which settles on revision 2026-07-28 against rmcp, where it is
-32602). Every check runs once per revision, on its own server process; the symlink checks run on a
directory built here. tests/e2e/ checks the same with the TypeScript SDK.

A plain asyncio script: it prints a line per check and `N passed, M failed`, and exits non-zero
if a check failed. Run with `.ci/e2e`, or after `cargo build -p rfc6570-rmcp --example mcp_server`,
from this directory (the venv where .ci/e2e keeps it):

    python3 -m venv ../../../target/e2e-python-venv
    ../../../target/e2e-python-venv/bin/pip install --no-deps -r requirements.txt
    ../../../target/e2e-python-venv/bin/python test_mcp_server.py

MCP_SERVER_BIN and MCP_HTTP_SERVER_BIN name the server binaries (default: the workspace's
target/debug/examples/mcp_server and http_server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sys
import tempfile
import traceback
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import ResourceTemplateReference, TextResourceContents

HERE = Path(__file__).resolve().parent
SERVER = os.environ.get("MCP_SERVER_BIN") or str(HERE.parents[2] / "target/debug/examples/mcp_server")
HTTP_SERVER = os.environ.get("MCP_HTTP_SERVER_BIN") or str(HERE.parents[2] / "target/debug/examples/http_server")
# "stdio" or "http".
TRANSPORT = os.environ.get("MCP_TRANSPORT", "stdio")
assert TRANSPORT in ("stdio", "http"), f"MCP_TRANSPORT is stdio or http, not {TRANSPORT}"

INVALID_PARAMS = -32602

# A word that only the file outside the served directory holds.
SECRET = "xyzzy-outside-secret"
VISIBLE = "plainly-visible"

TEMPLATES = [
    "notes://{id}",
    "log://build/{job_id}{?lines}",
    "search://docs{?q,lang}",
    "file:///{+path}",
]


@dataclass(frozen=True)
class Revision:
    name: str
    mode: str  # the Client's `mode`
    version: str  # what it negotiates
    not_found: int  # "resource not found" on this revision
    opening: dict[str, Any]  # the first request a client of this revision sends


REVISIONS = [
    Revision(
        "initialize, 2025-11-25",
        "legacy",
        "2025-11-25",
        -32002,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "probe", "version": "0"},
            },
        },
    ),
    Revision(
        "server/discover, 2026-07-28",
        "auto",
        "2026-07-28",
        -32602,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "server/discover",
            "params": {
                "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "0"},
                    "io.modelcontextprotocol/clientCapabilities": {},
                }
            },
        },
    ),
]


@dataclass
class Session:
    client: Client
    revision: Revision


@contextlib.asynccontextmanager
async def client(mode: str, env: dict[str, str] | None = None) -> AsyncIterator[Client]:
    """A client of a fresh server. `cache=None`: every read reaches the server (the default cache
    serves a repeated read while the server's `ttlMs` says it is fresh; rmcp sends 0 today)."""
    server_env = {"MCP_PAGE_SIZE": "3", **(env or {})}
    if TRANSPORT == "http":
        async with http_server(server_env) as url:
            async with Client(url, mode=mode, cache=None, read_timeout_seconds=30) as c:
                yield c
    else:
        params = StdioServerParameters(command=SERVER, args=[], env=server_env)
        async with Client(params, mode=mode, cache=None, read_timeout_seconds=30) as c:
            yield c


@contextlib.asynccontextmanager
async def http_server(env: dict[str, str]) -> AsyncIterator[str]:
    """The HTTP example on a free loopback port, for as long as the block runs: its URL, from the
    first line it prints. Stopped with SIGTERM, and killed if it has not exited 10 s later."""
    process = await asyncio.create_subprocess_exec(
        HTTP_SERVER,
        env={**os.environ, **env, "MCP_HTTP_ADDR": "127.0.0.1:0"},
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 10)
        assert line.startswith(b"http://"), f"the HTTP server printed {line!r}, not its URL"
        yield line.decode().strip()
    finally:
        if process.returncode is None:
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), 10)
        except asyncio.TimeoutError:
            process.kill()
            await process.wait()


# --- helpers ---------------------------------------------------------------------------------------


async def read_text(s: Session, uri: str) -> TextResourceContents:
    result = await s.client.read_resource(uri)
    assert len(result.contents) == 1, f"{uri}: {result.contents}"
    content = result.contents[0]
    assert isinstance(content, TextResourceContents), f"{uri} is not text: {content}"
    assert content.uri == uri, f"{content.uri} != {uri}"
    return content


async def read_json(s: Session, uri: str) -> Any:
    return json.loads((await read_text(s, uri)).text)


async def read_error(s: Session, uri: str) -> MCPError:
    try:
        result = await s.client.read_resource(uri)
    except MCPError as e:
        return e
    raise AssertionError(f"{uri}: expected an error, read {result}")


async def assert_not_found(s: Session, uri: str) -> MCPError:
    """A read that is "resource not found": the revision's code and the URI as data."""
    e = await read_error(s, uri)
    assert e.code == s.revision.not_found, f"{uri}: {e.code} {e.message}"
    assert e.error.data == {"uri": uri}, f"{uri}: {e.error.data}"
    return e


async def complete(s: Session, uri: str, name: str, value: str, context: dict[str, str] | None = None) -> list[str]:
    result = await s.client.complete(ResourceTemplateReference(uri=uri), {"name": name, "value": value}, context)
    return result.completion.values


async def pages(fetch: Callable[[str | None], Awaitable[Any]], key: str) -> list[list[Any]]:
    """Every page of a list, from the first to the one without `next_cursor`; the cursors are
    passed back as they came."""
    page = await fetch(None)
    all_pages = [getattr(page, key)]
    while page.next_cursor is not None:
        assert isinstance(page.next_cursor, str) and page.next_cursor, page.next_cursor
        assert len(all_pages) < 10, "too many pages"
        page = await fetch(page.next_cursor)
        all_pages.append(getattr(page, key))
    return all_pages


async def expect_error(call: Awaitable[Any], code: int) -> MCPError:
    try:
        result = await call
    except MCPError as e:
        assert e.code == code, f"{e.code} {e.message}"
        return e
    raise AssertionError(f"expected error {code}, got {result}")


async def run_with_input(data: bytes) -> tuple[int, bytes, bytes]:
    """Runs the server with `data` on its stdin, then closes it: exit status, stdout, stderr."""
    proc = await asyncio.create_subprocess_exec(
        SERVER,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        stdout, stderr = await asyncio.wait_for(proc.communicate(data), 10)
    except asyncio.TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("the server did not exit within 10 s of its stdin closing") from None
    assert proc.returncode is not None
    return proc.returncode, stdout, stderr


def served_tree() -> tuple[Path, Path]:
    """A served directory with a file, links to it from inside the root, and links to a file
    and a directory outside it:

        served/readme.md                      outside/secret.txt (holds SECRET)
        served/inside-link.md -> readme.md
        served/outside-link.txt -> outside/secret.txt
        served/outside-dir -> outside/
        served/more/back.md -> ../readme.md
        served/more/away.txt -> ../../outside/secret.txt
    """
    base = Path(tempfile.mkdtemp(prefix="rfc6570-e2e-py-")).resolve()
    root, outside = base / "served", base / "outside"
    (root / "more").mkdir(parents=True)
    outside.mkdir()
    (root / "readme.md").write_text(f"# Readme\n\nThis file is {VISIBLE}.\n")
    (outside / "secret.txt").write_text(f"The {SECRET} is outside the served directory.\n")
    (root / "inside-link.md").symlink_to("readme.md")
    (root / "outside-link.txt").symlink_to(outside / "secret.txt")
    (root / "outside-dir").symlink_to(outside, target_is_directory=True)
    (root / "more" / "back.md").symlink_to("../readme.md")
    (root / "more" / "away.txt").symlink_to("../../outside/secret.txt")
    return base, root


# --- the checks on the example's own data ----------------------------------------------------------

Check = Callable[[Session], Awaitable[None]]
CHECKS: list[tuple[str, Check]] = []
SYMLINK_CHECKS: list[tuple[str, Callable[[Session, Path], Awaitable[None]]]] = []


def check(name: str) -> Callable[[Check], Check]:
    def register(f: Check) -> Check:
        CHECKS.append((name, f))
        return f

    return register


def symlink_check(name: str):  # type: ignore[no-untyped-def]
    def register(f):  # type: ignore[no-untyped-def]
        SYMLINK_CHECKS.append((name, f))
        return f

    return register


@check("the negotiated revision, the server capabilities and info")
async def _(s: Session) -> None:
    c = s.client
    assert c.protocol_version == s.revision.version, c.protocol_version
    caps = c.server_capabilities
    assert caps.resources is not None, caps
    assert caps.completions is not None, caps
    assert caps.tools is None, caps
    assert c.server_info is not None and c.server_info.name == "rfc6570-example", c.server_info
    assert "RFC 6570" in (c.instructions or ""), c.instructions


@check("resources/templates/list pages to the end, 3 a page")
async def _(s: Session) -> None:
    all_pages = await pages(lambda cursor: s.client.list_resource_templates(cursor=cursor), "resource_templates")
    assert [len(p) for p in all_pages] == [3, 1], all_pages
    templates = [t for p in all_pages for t in p]
    assert [t.uri_template for t in templates] == TEMPLATES, templates
    log = templates[1]
    assert (log.name, log.title, log.mime_type) == ("build-log", "Build log", "text/plain"), log


@check("an invalid cursor is invalid params")
async def _(s: Session) -> None:
    await expect_error(s.client.list_resource_templates(cursor="not-a-cursor"), INVALID_PARAMS)


@check("resources/list pages to the end: the static resources")
async def _(s: Session) -> None:
    all_pages = await pages(lambda cursor: s.client.list_resources(cursor=cursor), "resources")
    assert [len(p) for p in all_pages] == [3], all_pages
    assert [r.uri for p in all_pages for r in p] == ["notes://index", "config://server", "file:///"], all_pages


@check("resources/read: files, a directory, names raw and percent-encoded")
async def _(s: Session) -> None:
    guide = await read_text(s, "file:///docs/guide.md")
    assert guide.text.startswith("# Guide"), guide.text
    assert guide.mime_type == "text/markdown", guide.mime_type
    spaced = await read_text(s, "file:///docs/intro%20to%20templates.md")
    assert spaced.text.startswith("# Intro to templates"), spaced.text
    listing = await read_text(s, "file:///docs")
    assert listing.text == "a+b.md\nguide.md\nintro to templates.md", listing.text
    # A name with a sub-delimiter, raw or encoded (as `Path.as_uri()` writes it).
    assert Path("/docs/a+b.md").as_uri() == "file:///docs/a%2Bb.md"
    for uri in ["file:///docs/a+b.md", "file:///docs/a%2Bb.md"]:
        assert (await read_text(s, uri)).text.startswith("# A and B"), uri


@check("resources/read: notes and the note index")
async def _(s: Session) -> None:
    note = await read_text(s, "notes://welcome")
    assert note.text.startswith("# Welcome"), note.text
    assert note.mime_type == "text/markdown", note.mime_type
    assert (await read_text(s, "notes://vorlage")).text.startswith("# Vorlage")
    index = await read_text(s, "notes://index")
    assert index.mime_type == "application/json", index.mime_type
    assert json.loads(index.text) == [
        {"uri": "notes://welcome", "lang": "en"},
        {"uri": "notes://todo", "lang": "en"},
        {"uri": "notes://vorlage", "lang": "de"},
    ], index.text


@check("resources/read: build logs, whole and by lines")
async def _(s: Session) -> None:
    log = await read_text(s, "log://build/42")
    assert log.mime_type == "text/plain", log.mime_type
    assert len(log.text.split("\n")) == 5, log.text
    lines = (await read_text(s, "log://build/42?lines=2-3")).text
    assert lines == "Compiling rfc6570 v0.1.0\nerror[E0308]: mismatched types", lines
    assert (await read_text(s, "log://build/41?lines=4")).text == "exit status 0"
    assert (await read_text(s, "log://build/43")).text == "$ cargo clippy\nChecking rfc6570 v0.1.0"


@check('resources/read: a bad `lines` value is invalid params, not "resource not found"')
async def _(s: Session) -> None:
    for uri in ["log://build/42?lines=4-2", "log://build/42?lines=0", "log://build/42?lines=two"]:
        e = await read_error(s, uri)
        assert e.code == INVALID_PARAMS, f"{uri}: {e.code} {e.message}"
        # More than the URI: -32602 with the URI alone reads as "not found" on 2026-07-28.
        assert e.error.data == {"uri": uri, "argument": "lines"}, f"{uri}: {e.error.data}"
        assert "`lines`" in e.message, e.message


@check("resources/read: the search")
async def _(s: Session) -> None:
    search = await read_text(s, "search://docs?q=vorlage&lang=de")
    assert search.mime_type == "application/json", search.mime_type
    assert json.loads(search.text) == [{"uri": "notes://vorlage", "lang": "de"}], search.text
    assert await read_json(s, "search://docs?q=template") == [
        {"uri": "notes://welcome", "lang": "en"},
        {"uri": "notes://todo", "lang": "en"},
        {"uri": "notes://vorlage", "lang": "de"},
        {"uri": "file:///docs/guide.md", "lang": "en"},
        {"uri": "file:///docs/intro%20to%20templates.md", "lang": "en"},
    ]
    assert await read_json(s, "search://docs?lang=de&q=template") == [{"uri": "notes://vorlage", "lang": "de"}]
    # `q` is free text: the server lets it hold `..` and `/`.
    assert await read_json(s, "search://docs?q=../a/b") == []
    # Every hit reads back.
    for hit in await read_json(s, "search://docs?q=a"):
        await read_text(s, hit["uri"])


@check("resources/read: the static resources")
async def _(s: Session) -> None:
    assert len(await read_json(s, "notes://index")) == 3
    config = await read_text(s, "config://server")
    assert config.mime_type == "application/json", config.mime_type
    assert json.loads(config.text) == {"templates": 4, "resources": 3}, config.text


@check("completion/complete for every argument the server completes")
async def _(s: Session) -> None:
    job, search, file = "log://build/{job_id}{?lines}", "search://docs{?q,lang}", "file:///{+path}"
    for (uri, name, value, context), expected in [
        ((job, "job_id", "4", None), ["41", "42", "43"]),
        ((job, "job_id", "42", None), ["42"]),
        (("notes://{id}", "id", "w", None), ["welcome"]),
        (("notes://{id}", "id", "", None), ["welcome", "todo", "vorlage"]),
        ((search, "lang", "", None), ["de", "en"]),
        ((search, "lang", "d", None), ["de"]),
        ((search, "q", "vor", {"lang": "de"}), ["vorlage"]),
        ((search, "q", "vor", {"lang": "en"}), []),
        ((file, "path", "docs/g", None), ["docs/guide.md"]),
        ((file, "path", "d", None), ["docs/"]),
        ((file, "path", "docs/", None), ["docs/a+b.md", "docs/guide.md", "docs/intro to templates.md"]),
    ]:
        got = await complete(s, uri, name, value, context)
        assert got == expected, f"{uri} {name}={value!r} {context}: {got}"


@check("completion/complete: an unknown argument or template is invalid params")
async def _(s: Session) -> None:
    for uri, name in [("log://build/{job_id}{?lines}", "lines_x"), ("log://{job_id}", "job_id")]:
        await expect_error(complete(s, uri, name, ""), INVALID_PARAMS)


@check("resources/read: unknown URIs are resource not found, with the URI")
async def _(s: Session) -> None:
    for uri in [
        "nothing://here",
        "notes://nobody",
        "log://build/7",
        "log://build/abc",
        "file:///docs/missing.md",
        "notes://index/extra",
    ]:
        await assert_not_found(s, uri)


@check("resources/read: traversal and double encoding are refused without echoing the value")
async def _(s: Session) -> None:
    for uri, rule, value in [
        ("file:///../etc/passwd", "a `..` path segment", "passwd"),
        ("file:///..%2F..%2Fetc%2Fpasswd", "a `..` path segment", "passwd"),
        ("file:///docs/../../etc/passwd", "a `..` path segment", "passwd"),
        ("file:///..%252Fetc", "double encoding", "%252F"),
        ("file:///%252e%252e/etc/passwd", "double encoding", "passwd"),
        ("notes://%2E%2E", "a `..` path segment", "%2E"),
        ("file:///docs/%00x", "a control character", "%00"),
    ]:
        e = await assert_not_found(s, uri)
        assert rule in e.message, f"{uri}: {e.message}"
        assert value not in e.message, f"{uri}: the message echoes {value}: {e.message}"
        assert "etc" not in e.message, f"{uri}: {e.message}"


# --- the checks on a directory with symlinks -------------------------------------------------------


@symlink_check("a file, and links to it inside the root, are read")
async def _(s: Session, root: Path) -> None:
    for uri in ["file:///readme.md", "file:///inside-link.md", "file:///more/back.md"]:
        assert VISIBLE in (await read_text(s, uri)).text, uri


@symlink_check("links out of the root are resource not found")
async def _(s: Session, root: Path) -> None:
    for uri in [
        "file:///outside-link.txt",
        "file:///outside-dir",
        "file:///outside-dir/secret.txt",
        "file:///more/away.txt",
    ]:
        e = await assert_not_found(s, uri)
        assert SECRET not in e.message, e.message


@symlink_check("the search does not reveal what a link out of the root holds")
async def _(s: Session, root: Path) -> None:
    assert await read_json(s, f"search://docs?q={SECRET}") == []
    hits = [hit["uri"] for hit in await read_json(s, f"search://docs?q={VISIBLE}")]
    assert hits == ["file:///inside-link.md", "file:///more/back.md", "file:///readme.md"], hits
    everything = (await read_text(s, "search://docs")).text
    assert "outside" not in everything and "away" not in everything, everything


@symlink_check("path completion and listings do not offer links out of the root")
async def _(s: Session, root: Path) -> None:
    for value, expected in [
        ("", ["inside-link.md", "more/", "readme.md"]),
        ("out", []),
        ("outside-dir/", []),
        ("more/", ["more/back.md"]),
    ]:
        got = await complete(s, "file:///{+path}", "path", value)
        assert got == expected, f"path={value!r}: {got}"
    assert (await read_text(s, "file:///more")).text == "back.md"


@symlink_check("config://server does not show the served directory")
async def _(s: Session, root: Path) -> None:
    config = (await read_text(s, "config://server")).text
    assert str(root) not in config and str(root.parent) not in config, config
    assert json.loads(config) == {"templates": 4, "resources": 3}, config


# --- the runner ------------------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    async def run(self, name: str, call: Callable[[], Awaitable[None]]) -> None:
        try:
            await call()
        except Exception:  # a failed check, whatever it raised
            self.failed += 1
            print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)
        else:
            self.passed += 1
            print(f"ok   {name}", flush=True)


async def leaves_early(revision: Revision) -> None:
    code, stdout, stderr = await run_with_input((json.dumps(revision.opening) + "\n").encode())
    assert stderr == b"", stderr
    assert code == 0, code
    answers = [json.loads(line) for line in stdout.decode().splitlines() if line]
    assert len(answers) == 1 and answers[0]["id"] == 1 and "result" in answers[0], stdout


async def leaves_early_over_http(revision: Revision) -> None:
    """A client that posts its first request and goes: answered, and the next client is served."""
    async with http_server({}) as url:
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "mcp-protocol-version": revision.version,
            # 2026-07-28 asks for the method in a header too.
            "mcp-method": revision.opening["method"],
        }
        request = urllib.request.Request(url, json.dumps(revision.opening).encode(), headers, method="POST")

        def post() -> tuple[str, str]:
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 200, response.status
                return response.headers.get("content-type", ""), response.read().decode()

        kind, body = await asyncio.to_thread(post)
        # An SSE stream (rmcp's default) or, from a server that prefers it, one JSON answer.
        if kind.startswith("text/event-stream"):
            lines = [line for line in body.splitlines() if line.startswith("data: {")]
            assert lines, f"no answer in {body!r}"
            body = lines[0].removeprefix("data: ")
        answer = json.loads(body)
        assert answer["id"] == 1 and "result" in answer, body
        async with Client(url, mode=revision.mode, cache=None, read_timeout_seconds=30) as c:
            await read_text(Session(c, revision), "notes://todo")


async def closes_without_a_word() -> None:
    assert await run_with_input(b"") == (0, b"", b"")


async def run_revision(tally: Tally, revision: Revision) -> None:
    async def each(s: Session, checks: list[tuple[str, Any]], *args: Any, prefix: str = "") -> None:
        for name, f in checks:
            await tally.run(f"{revision.name}: {prefix}{name}", lambda f=f: f(s, *args))

    try:
        async with client(revision.mode) as c:
            await each(Session(c, revision), CHECKS)
    except Exception:
        tally.failed += 1
        print(f"FAIL {revision.name}: connect or close\n{traceback.format_exc()}", flush=True)

    base, root = served_tree()
    try:
        async with client(revision.mode, {"MCP_FILES_DIR": str(root)}) as c:
            await each(Session(c, revision), SYMLINK_CHECKS, root, prefix="symlinks: ")
    except Exception:
        tally.failed += 1
        print(f"FAIL {revision.name}: symlinks: connect or close\n{traceback.format_exc()}", flush=True)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    if TRANSPORT == "http":
        await tally.run(
            f"{revision.name}: a client that leaves after its first request: answered, and the server serves on",
            lambda: leaves_early_over_http(revision),
        )
    else:
        await tally.run(
            f"{revision.name}: a client that leaves after its first request: exit 0, nothing on stderr",
            lambda: leaves_early(revision),
        )


async def main() -> int:
    binary, example = (HTTP_SERVER, "http_server") if TRANSPORT == "http" else (SERVER, "mcp_server")
    if not os.access(binary, os.X_OK):
        print(f"no server binary at {binary}: cargo build -p rfc6570-rmcp --example {example}")
        return 1
    print(f"transport: {TRANSPORT}")
    tally = Tally()
    for revision in REVISIONS:
        await run_revision(tally, revision)
    if TRANSPORT == "stdio":
        await tally.run(
            "a client that closes stdin without a word: exit 0, nothing on stdout or stderr", closes_without_a_word
        )
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
