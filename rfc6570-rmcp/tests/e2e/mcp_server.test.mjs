// The example server driven by the official MCP TypeScript SDK client,
// @modelcontextprotocol/client (pinned in package-lock.json), over stdio (examples/mcp_server.rs)
// or, with MCP_TRANSPORT=http, over streamable HTTP on loopback (examples/http_server.rs, which
// serves the same resources), on both protocol revisions rmcp
// speaks: the legacy `initialize` handshake (revision 2025-11-25, where "resource not found" is
// -32002) and `server/discover` (revision 2026-07-28, where it is -32602). Every check below runs
// once per revision, on its own server process; the symlink checks run on a directory built here.
// tests/e2e-python/ checks the same with the Python SDK.
// Run with `.ci/e2e`, or: cargo build -p rfc6570-rmcp --example mcp_server && npm ci && npm test
// MCP_SERVER_BIN and MCP_HTTP_SERVER_BIN name the server binaries (default: the workspace's
// target/debug/examples/mcp_server and http_server).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Client, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startHttpServer } from './processes.mjs';

const SERVER = process.env.MCP_SERVER_BIN
  ?? fileURLToPath(new URL('../../../target/debug/examples/mcp_server', import.meta.url));

const HTTP_SERVER = process.env.MCP_HTTP_SERVER_BIN
  ?? fileURLToPath(new URL('../../../target/debug/examples/http_server', import.meta.url));

// 'stdio' or 'http'.
const TRANSPORT = process.env.MCP_TRANSPORT ?? 'stdio';
assert.ok(['stdio', 'http'].includes(TRANSPORT), `MCP_TRANSPORT is stdio or http, not ${TRANSPORT}`);

const INVALID_PARAMS = -32602;

// Each revision: how the SDK is told to reach it, and the "resource not found" code on the wire.
const REVISIONS = [
  {
    name: 'initialize, 2025-11-25',
    versionNegotiation: { mode: 'legacy' },
    version: '2025-11-25',
    era: 'legacy',
    notFound: -32002,
    // The first request a client of this revision sends.
    opening: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '0' },
    } },
  },
  {
    name: 'server/discover, 2026-07-28',
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    version: '2026-07-28',
    era: 'modern',
    notFound: -32602,
    opening: { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    } } },
  },
];

// A word that only the file outside the served directory holds.
const SECRET = 'xyzzy-outside-secret';
const VISIBLE = 'plainly-visible';

const TEMPLATES = [
  'notes://{id}',
  'log://build/{job_id}{?lines}',
  'search://docs{?q,lang}',
  'file:///{+path}',
];

/// A client on `revision` of a fresh server. The SDK rebuilds a received error into its own
/// class, and a -32002 whose data names the URI comes out as a `ResourceNotFoundError` whose
/// `code` is -32602: `wire` keeps the error objects as the server sent them.
/// `close()` ends the client and, over HTTP, stops the server.
async function connect(revision, env = {}) {
  const serverEnv = { ...process.env, MCP_PAGE_SIZE: '3', ...env };
  let transport;
  let stop = async () => {};
  if (TRANSPORT === 'http') {
    const server = await startHttpServer(HTTP_SERVER, serverEnv);
    transport = new StreamableHTTPClientTransport(new URL(server.url));
    stop = server.stop;
  } else {
    assert.ok(existsSync(SERVER), `no server binary at ${SERVER}: cargo build -p rfc6570-rmcp --example mcp_server`);
    transport = new StdioClientTransport({ command: SERVER, args: [], env: serverEnv, stderr: 'inherit' });
  }
  const client = new Client(
    { name: 'rfc6570-e2e', version: '0.0.0' },
    { versionNegotiation: revision.versionNegotiation },
  );
  try {
    await client.connect(transport);
  } catch (e) {
    await stop();
    throw e;
  }
  const wire = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, ...rest) => {
    if (message.error) wire.push(message.error);
    deliver.call(transport, message, ...rest);
  };
  const close = async () => {
    try {
      await client.close();
    } finally {
      await stop();
    }
  };
  return { client, wire, revision, close };
}

async function readText(s, uri) {
  const { contents } = await s.client.readResource({ uri });
  assert.equal(contents.length, 1, uri);
  assert.equal(contents[0].uri, uri);
  assert.equal(typeof contents[0].text, 'string', `${uri} is not text`);
  return contents[0];
}

async function readJson(s, uri) {
  return JSON.parse((await readText(s, uri)).text);
}

/// The error a read fails with, as the SDK throws it and as it came on the wire.
async function readError(s, uri) {
  s.wire.length = 0;
  let err;
  try {
    await s.client.readResource({ uri });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof ProtocolError, `${uri}: expected a protocol error, got ${err}`);
  assert.equal(s.wire.length, 1, `${uri}: one error on the wire`);
  return { err, wire: s.wire[0] };
}

/// A read that is "resource not found": the revision's code on the wire, the URI as data, and
/// the SDK's own not-found error.
async function assertNotFound(s, uri) {
  const { err, wire } = await readError(s, uri);
  assert.equal(wire.code, s.revision.notFound, `${uri}: ${wire.message}`);
  assert.deepEqual(wire.data, { uri });
  assert.ok(err instanceof ResourceNotFoundError, `${uri}: ${err}`);
  // Whatever the wire said, the SDK reports -32602 (its ResourceNotFoundError is always that).
  assert.equal(err.code, ProtocolErrorCode.InvalidParams);
  assert.deepEqual(err.data, { uri });
  assert.equal(err.message, wire.message);
  return wire;
}

async function complete(s, uri, name, value, args) {
  const params = { ref: { type: 'ref/resource', uri }, argument: { name, value } };
  if (args) params.context = { arguments: args };
  const { completion } = await s.client.complete(params);
  return completion.values;
}

/// Every page of a list, from the first (asked for without a cursor) to the one without
/// `nextCursor`; the cursors are passed back as they came. The SDK's `list*()` without a cursor
/// walks the pages itself, so the first page is asked for with `request`.
async function pages(s, method, key) {
  const all = [];
  let page = await s.client.request({ method, params: {} });
  all.push(page[key]);
  while (page.nextCursor !== undefined) {
    assert.equal(typeof page.nextCursor, 'string');
    assert.ok(all.length < 10, `${method}: too many pages`);
    const params = { cursor: page.nextCursor };
    page = method === 'resources/list'
      ? await s.client.listResources(params)
      : await s.client.listResourceTemplates(params);
    all.push(page[key]);
  }
  return all;
}

/// Runs the server with `input` on its stdin, then closes it: its exit status and output.
function runWithInput(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the server did not exit within 10 s of its stdin closing'));
    }, 10_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

/// A served directory with a file, links to it from inside the root, and links to a file and a
/// directory outside it:
///
///     served/readme.md                      outside/secret.txt (holds SECRET)
///     served/inside-link.md -> readme.md
///     served/outside-link.txt -> outside/secret.txt
///     served/outside-dir -> outside/
///     served/more/back.md -> ../readme.md
///     served/more/away.txt -> ../../outside/secret.txt
function servedTree() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'rfc6570-e2e-')));
  const root = join(base, 'served');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'more'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'readme.md'), `# Readme\n\nThis file is ${VISIBLE}.\n`);
  writeFileSync(join(outside, 'secret.txt'), `The ${SECRET} is outside the served directory.\n`);
  symlinkSync('readme.md', join(root, 'inside-link.md'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'outside-link.txt'));
  symlinkSync(outside, join(root, 'outside-dir'));
  symlinkSync('../readme.md', join(root, 'more', 'back.md'));
  symlinkSync('../../outside/secret.txt', join(root, 'more', 'away.txt'));
  return { base, root };
}

for (const revision of REVISIONS) {
  describe(revision.name, () => {
    let s;
    before(async () => { s = await connect(revision); });
    after(async () => { await s?.close(); });

    test('the negotiated revision, the server capabilities and info', () => {
      assert.equal(s.client.getNegotiatedProtocolVersion(), revision.version);
      assert.equal(s.client.getProtocolEra(), revision.era);
      const caps = s.client.getServerCapabilities();
      assert.ok(caps.resources, 'resources');
      assert.ok(caps.completions, 'completions');
      assert.equal(caps.tools, undefined);
      assert.equal(s.client.getServerVersion().name, 'rfc6570-example');
      assert.match(s.client.getInstructions(), /RFC 6570/);
    });

    test('resources/templates/list pages to the end, 3 a page', async () => {
      const all = await pages(s, 'resources/templates/list', 'resourceTemplates');
      assert.deepEqual(all.map((p) => p.length), [3, 1]);
      const templates = all.flat();
      assert.deepEqual(templates.map((t) => t.uriTemplate), TEMPLATES);
      const log = templates[1];
      assert.deepEqual(
        { name: log.name, title: log.title, mimeType: log.mimeType },
        { name: 'build-log', title: 'Build log', mimeType: 'text/plain' },
      );
      // The SDK's own walk gathers the same.
      const walked = await s.client.listResourceTemplates();
      assert.deepEqual(walked.resourceTemplates.map((t) => t.uriTemplate), TEMPLATES);
      assert.equal(walked.nextCursor, undefined);
    });

    test('an invalid cursor is invalid params', async () => {
      await assert.rejects(s.client.listResourceTemplates({ cursor: 'not-a-cursor' }), (err) => {
        assert.ok(err instanceof ProtocolError, `${err}`);
        assert.equal(err.code, INVALID_PARAMS);
        return true;
      });
    });

    test('resources/list pages to the end: the static resources', async () => {
      const all = await pages(s, 'resources/list', 'resources');
      assert.deepEqual(all.map((p) => p.length), [3]);
      assert.deepEqual(all.flat().map((r) => r.uri), ['notes://index', 'config://server', 'file:///']);
      const walked = await s.client.listResources();
      assert.deepEqual(walked.resources.map((r) => r.uri), ['notes://index', 'config://server', 'file:///']);
    });

    test('resources/read: files, a directory, names raw and percent-encoded', async () => {
      const guide = await readText(s, 'file:///docs/guide.md');
      assert.match(guide.text, /^# Guide/);
      assert.equal(guide.mimeType, 'text/markdown');
      const spaced = await readText(s, 'file:///docs/intro%20to%20templates.md');
      assert.match(spaced.text, /^# Intro to templates/);
      const dir = await readText(s, 'file:///docs');
      assert.equal(dir.text, 'a+b.md\nguide.md\nintro to templates.md');
      // A name with a sub-delimiter, raw or encoded (as Python's `Path.as_uri()` writes it).
      for (const uri of ['file:///docs/a+b.md', 'file:///docs/a%2Bb.md']) {
        assert.match((await readText(s, uri)).text, /^# A and B/, uri);
      }
    });

    test('resources/read: notes and the note index', async () => {
      const note = await readText(s, 'notes://welcome');
      assert.match(note.text, /^# Welcome/);
      assert.equal(note.mimeType, 'text/markdown');
      assert.match((await readText(s, 'notes://vorlage')).text, /^# Vorlage/);
      const index = await readText(s, 'notes://index');
      assert.equal(index.mimeType, 'application/json');
      assert.deepEqual(JSON.parse(index.text), [
        { uri: 'notes://welcome', lang: 'en' },
        { uri: 'notes://todo', lang: 'en' },
        { uri: 'notes://vorlage', lang: 'de' },
      ]);
    });

    test('resources/read: build logs, whole and by lines', async () => {
      const log = await readText(s, 'log://build/42');
      assert.equal(log.mimeType, 'text/plain');
      assert.equal(log.text.split('\n').length, 5);
      assert.equal((await readText(s, 'log://build/42?lines=2-3')).text,
        'Compiling rfc6570 v0.1.0\nerror[E0308]: mismatched types');
      assert.equal((await readText(s, 'log://build/41?lines=4')).text, 'exit status 0');
      assert.equal((await readText(s, 'log://build/43')).text, '$ cargo clippy\nChecking rfc6570 v0.1.0');
    });

    test('resources/read: a bad `lines` value is invalid params, not "resource not found"', async () => {
      for (const uri of ['log://build/42?lines=4-2', 'log://build/42?lines=0', 'log://build/42?lines=two']) {
        const { err, wire } = await readError(s, uri);
        assert.equal(wire.code, INVALID_PARAMS, `${uri}: ${wire.message}`);
        assert.equal(err.code, INVALID_PARAMS);
        assert.deepEqual(wire.data, { uri, argument: 'lines' });
        // Data that is the URI alone would read as "not found" to a 2026-07-28 client.
        assert.ok(!(err instanceof ResourceNotFoundError), `${uri}: read as not found`);
        assert.match(err.message, /`lines`/);
      }
    });

    test('resources/read: the search', async () => {
      const search = await readText(s, 'search://docs?q=vorlage&lang=de');
      assert.equal(search.mimeType, 'application/json');
      assert.deepEqual(JSON.parse(search.text), [{ uri: 'notes://vorlage', lang: 'de' }]);
      assert.deepEqual(await readJson(s, 'search://docs?q=template'), [
        { uri: 'notes://welcome', lang: 'en' },
        { uri: 'notes://todo', lang: 'en' },
        { uri: 'notes://vorlage', lang: 'de' },
        { uri: 'file:///docs/guide.md', lang: 'en' },
        { uri: 'file:///docs/intro%20to%20templates.md', lang: 'en' },
      ]);
      assert.deepEqual(await readJson(s, 'search://docs?lang=de&q=template'),
        [{ uri: 'notes://vorlage', lang: 'de' }]);
      // `q` is free text: the server lets it hold `..` and `/`.
      assert.deepEqual(await readJson(s, 'search://docs?q=../a/b'), []);
      // Every hit reads back.
      for (const { uri } of await readJson(s, 'search://docs?q=a')) await readText(s, uri);
    });

    test('resources/read: the static resources', async () => {
      assert.equal((await readJson(s, 'notes://index')).length, 3);
      const config = await readText(s, 'config://server');
      assert.equal(config.mimeType, 'application/json');
      assert.deepEqual(JSON.parse(config.text), { templates: 4, resources: 3 });
    });

    test('completion/complete for every argument the server completes', async () => {
      const job = 'log://build/{job_id}{?lines}';
      const search = 'search://docs{?q,lang}';
      assert.deepEqual(await complete(s, job, 'job_id', '4'), ['41', '42', '43']);
      assert.deepEqual(await complete(s, job, 'job_id', '42'), ['42']);
      assert.deepEqual(await complete(s, 'notes://{id}', 'id', 'w'), ['welcome']);
      assert.deepEqual(await complete(s, 'notes://{id}', 'id', ''), ['welcome', 'todo', 'vorlage']);
      assert.deepEqual(await complete(s, search, 'lang', ''), ['de', 'en']);
      assert.deepEqual(await complete(s, search, 'lang', 'd'), ['de']);
      assert.deepEqual(await complete(s, search, 'q', 'vor', { lang: 'de' }), ['vorlage']);
      assert.deepEqual(await complete(s, search, 'q', 'vor', { lang: 'en' }), []);
      assert.deepEqual(await complete(s, 'file:///{+path}', 'path', 'docs/g'), ['docs/guide.md']);
      assert.deepEqual(await complete(s, 'file:///{+path}', 'path', 'd'), ['docs/']);
      assert.deepEqual(await complete(s, 'file:///{+path}', 'path', 'docs/'),
        ['docs/a+b.md', 'docs/guide.md', 'docs/intro to templates.md']);
    });

    test('completion/complete: an unknown argument or template is invalid params', async () => {
      for (const [uri, name] of [['log://build/{job_id}{?lines}', 'lines_x'], ['log://{job_id}', 'job_id']]) {
        await assert.rejects(complete(s, uri, name, ''), (err) => {
          assert.ok(err instanceof ProtocolError, `${err}`);
          assert.equal(err.code, INVALID_PARAMS);
          return true;
        });
      }
    });

    test('resources/read: unknown URIs are resource not found, with the URI', async () => {
      for (const uri of ['nothing://here', 'notes://nobody', 'log://build/7', 'log://build/abc',
        'file:///docs/missing.md', 'notes://index/extra']) {
        await assertNotFound(s, uri);
      }
    });

    test('resources/read: traversal and double encoding are refused without echoing the value', async () => {
      for (const [uri, rule, value] of [
        ['file:///../etc/passwd', 'a `..` path segment', 'passwd'],
        ['file:///..%2F..%2Fetc%2Fpasswd', 'a `..` path segment', 'passwd'],
        ['file:///docs/../../etc/passwd', 'a `..` path segment', 'passwd'],
        ['file:///..%252Fetc', 'double encoding', '%252F'],
        ['file:///%252e%252e/etc/passwd', 'double encoding', 'passwd'],
        ['notes://%2E%2E', 'a `..` path segment', '%2E'],
        ['file:///docs/%00x', 'a control character', '%00'],
      ]) {
        const wire = await assertNotFound(s, uri);
        assert.ok(wire.message.includes(rule), `${uri}: ${wire.message}`);
        assert.ok(!wire.message.includes(value), `${uri}: the message echoes ${value}: ${wire.message}`);
        assert.ok(!wire.message.includes('etc'), `${uri}: ${wire.message}`);
      }
    });

    describe('symlinks in the served directory', () => {
      let tree;
      let t;
      before(async () => {
        tree = servedTree();
        t = await connect(revision, { MCP_FILES_DIR: tree.root });
      });
      after(async () => {
        await t?.close();
        if (tree) rmSync(tree.base, { recursive: true, force: true });
      });

      test('a file, and a link to it inside the root, are read', async () => {
        assert.match((await readText(t, 'file:///readme.md')).text, new RegExp(VISIBLE));
        assert.match((await readText(t, 'file:///inside-link.md')).text, new RegExp(VISIBLE));
        assert.match((await readText(t, 'file:///more/back.md')).text, new RegExp(VISIBLE));
      });

      test('links out of the root are resource not found', async () => {
        for (const uri of ['file:///outside-link.txt', 'file:///outside-dir', 'file:///outside-dir/secret.txt',
          'file:///more/away.txt']) {
          const wire = await assertNotFound(t, uri);
          assert.ok(!wire.message.includes(SECRET), wire.message);
        }
      });

      test('the search does not reveal what a link out of the root holds', async () => {
        assert.deepEqual(await readJson(t, `search://docs?q=${SECRET}`), []);
        assert.deepEqual((await readJson(t, `search://docs?q=${VISIBLE}`)).map((h) => h.uri),
          ['file:///inside-link.md', 'file:///more/back.md', 'file:///readme.md']);
        const everything = (await readText(t, 'search://docs')).text;
        assert.ok(!everything.includes('outside'), everything);
      });

      test('path completion and listings do not offer links out of the root', async () => {
        const path = (value) => complete(t, 'file:///{+path}', 'path', value);
        assert.deepEqual(await path(''), ['inside-link.md', 'more/', 'readme.md']);
        assert.deepEqual(await path('out'), []);
        assert.deepEqual(await path('outside-dir/'), []);
        assert.deepEqual(await path('more/'), ['more/back.md']);
        assert.equal((await readText(t, 'file:///more')).text, 'back.md');
      });

      test('config://server does not show the served directory', async () => {
        const config = (await readText(t, 'config://server')).text;
        assert.ok(!config.includes(tree.root), config);
        assert.ok(!config.includes(tree.base), config);
        assert.deepEqual(JSON.parse(config), { templates: 4, resources: 3 });
      });
    });

    if (TRANSPORT === 'stdio') {
      test('a client that leaves after its first request: exit 0, nothing on stderr', async () => {
        const run = await runWithInput(`${JSON.stringify(revision.opening)}\n`);
        assert.equal(run.stderr, '');
        assert.deepEqual([run.code, run.signal], [0, null]);
        const answers = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
        assert.equal(answers.length, 1, run.stdout);
        assert.equal(answers[0].id, 1);
        assert.ok(answers[0].result, run.stdout);
      });
    } else {
      test('a client that leaves after its first request: answered, and the server serves on', async () => {
        const server = await startHttpServer(HTTP_SERVER, process.env);
        try {
          const headers = {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': revision.version,
            // 2026-07-28 asks for the method in a header too.
            'mcp-method': revision.opening.method,
          };
          const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(revision.opening) });
          assert.equal(response.status, 200);
          const body = await response.text();
          // An SSE stream (rmcp's default) or, from a server that prefers it, one JSON answer.
          const data = response.headers.get('content-type')?.startsWith('text/event-stream')
            ? body.split('\n').find((l) => l.startsWith('data: {'))?.slice(6)
            : body;
          assert.ok(data, `no answer in ${body}`);
          const answer = JSON.parse(data);
          assert.equal(answer.id, 1);
          assert.ok(answer.result, body);
          // The first client is gone without a word; the next one is served.
          const client = new Client({ name: 'next', version: '0' }, { versionNegotiation: revision.versionNegotiation });
          await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
          const { contents } = await client.readResource({ uri: 'notes://todo' });
          assert.match(contents[0].text, /To do/);
          await client.close();
        } finally {
          await server.stop();
        }
      });
    }
  });
}

if (TRANSPORT === 'stdio') {
  test('a client that closes stdin without a word: exit 0, nothing on stderr, nothing on stdout', async () => {
    const run = await runWithInput('');
    assert.deepEqual(run, { code: 0, signal: null, stdout: '', stderr: '' });
  });
}

test("'auto' negotiation against rmcp settles on 2026-07-28", async () => {
  const s = await connect({ versionNegotiation: { mode: 'auto' }, notFound: -32602 });
  try {
    assert.equal(s.client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(s.client.getProtocolEra(), 'modern');
    await assertNotFound(s, 'notes://nobody');
  } finally {
    await s.close();
  }
});
