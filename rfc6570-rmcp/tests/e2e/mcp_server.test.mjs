// examples/mcp_server.rs driven over stdio by the official MCP TypeScript SDK client.
// Run with `.ci/e2e`, or: cargo build -p rfc6570-rmcp --example mcp_server && npm ci && npm test
// MCP_SERVER_BIN names the server binary (default: the workspace's target/debug/examples/mcp_server).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

const SERVER = process.env.MCP_SERVER_BIN
  ?? fileURLToPath(new URL('../../../target/debug/examples/mcp_server', import.meta.url));

// This SDK negotiates revision 2025-11-25, whose "resource not found" code is -32002
// (2026-07-28 and later use -32602, which the Rust test checks).
const RESOURCE_NOT_FOUND = -32002;

let client;
before(async () => {
  assert.ok(existsSync(SERVER), `no server binary at ${SERVER}: cargo build -p rfc6570-rmcp --example mcp_server`);
  client = new Client({ name: 'rfc6570-e2e', version: '0.0.0' });
  await client.connect(new StdioClientTransport({
    command: SERVER,
    args: [],
    env: { ...process.env, MCP_PAGE_SIZE: '3' },
    stderr: 'inherit',
  }));
});
after(async () => { await client?.close(); });

async function readText(uri) {
  const { contents } = await client.readResource({ uri });
  assert.equal(contents.length, 1);
  assert.equal(contents[0].uri, uri);
  assert.equal(typeof contents[0].text, 'string', `${uri} is not text`);
  return contents[0];
}

async function readError(uri) {
  try {
    await client.readResource({ uri });
  } catch (err) {
    assert.ok(err instanceof McpError, `${uri}: ${err}`);
    return err;
  }
  assert.fail(`${uri}: expected an error`);
}

async function complete(uri, name, value, args) {
  const params = { ref: { type: 'ref/resource', uri }, argument: { name, value } };
  if (args) params.context = { arguments: args };
  const { completion } = await client.complete(params);
  return completion.values;
}

test('capabilities and server info', () => {
  const caps = client.getServerCapabilities();
  assert.ok(caps.resources);
  assert.ok(caps.completions);
  assert.equal(client.getServerVersion().name, 'rfc6570-example');
});

test('resources/templates/list pages through every template', async () => {
  const first = await client.listResourceTemplates();
  assert.equal(first.resourceTemplates.length, 3);
  assert.equal(typeof first.nextCursor, 'string');
  const second = await client.listResourceTemplates({ cursor: first.nextCursor });
  assert.equal(second.nextCursor, undefined);
  const all = [...first.resourceTemplates, ...second.resourceTemplates];
  assert.deepEqual(all.map((t) => t.uriTemplate), [
    'file:///{+path}',
    'notes://{id}',
    'log://build/{job_id}{?lines}',
    'search://docs{?q,lang}',
  ]);
  const log = all[2];
  assert.deepEqual(
    { name: log.name, title: log.title, mimeType: log.mimeType },
    { name: 'build-log', title: 'Build log', mimeType: 'text/plain' },
  );
});

test('an invalid cursor is invalid params', async () => {
  await assert.rejects(client.listResourceTemplates({ cursor: 'not-a-cursor' }), (err) => {
    assert.ok(err instanceof McpError);
    assert.equal(err.code, ErrorCode.InvalidParams);
    return true;
  });
});

test('resources/list gives the static resources', async () => {
  const { resources, nextCursor } = await client.listResources();
  assert.deepEqual(resources.map((r) => r.uri), ['notes://index', 'config://server']);
  assert.equal(nextCursor, undefined);
});

test('resources/read: files', async () => {
  const guide = await readText('file:///docs/guide.md');
  assert.match(guide.text, /^# Guide/);
  assert.equal(guide.mimeType, 'text/markdown');
  const spaced = await readText('file:///docs/intro%20to%20templates.md');
  assert.match(spaced.text, /^# Intro to templates/);
  const dir = await readText('file:///docs');
  assert.equal(dir.text, 'a+b.md\nguide.md\nintro to templates.md');
  // A name with a sub-delimiter, raw or encoded (as Python's `Path.as_uri()` writes it).
  for (const uri of ['file:///docs/a+b.md', 'file:///docs/a%2Bb.md']) {
    assert.ok((await readText(uri)).text.startsWith('# A and B'), uri);
  }
});

test('resources/read: notes, logs, search and static resources', async () => {
  const note = await readText('notes://welcome');
  assert.match(note.text, /^# Welcome/);
  assert.equal(note.mimeType, 'text/markdown');
  assert.equal((await readText('log://build/42')).text.split('\n').length, 5);
  assert.equal(
    (await readText('log://build/42?lines=3-4')).text,
    'error[E0308]: mismatched types\nerror: could not compile `rfc6570`',
  );
  const search = await readText('search://docs?q=vorlage&lang=de');
  assert.equal(search.mimeType, 'application/json');
  assert.deepEqual(JSON.parse(search.text), [{ uri: 'notes://vorlage', lang: 'de' }]);
  assert.equal(JSON.parse((await readText('notes://index')).text)[0].uri, 'notes://welcome');
  assert.equal(JSON.parse((await readText('config://server')).text).templates, 4);
});

test('resources/read: unknown URIs are resource not found, with the URI', async () => {
  for (const uri of ['nothing://here', 'notes://nobody', 'log://build/7', 'log://build/abc', 'file:///docs/missing.md']) {
    const err = await readError(uri);
    assert.equal(err.code, RESOURCE_NOT_FOUND, `${uri}: ${err.message}`);
    assert.deepEqual(err.data, { uri });
  }
});

test('resources/read: path traversal is refused without echoing the value', async () => {
  for (const [uri, rule] of [
    ['file:///..%2F..%2Fetc%2Fpasswd', 'a `..` path segment'],
    ['file:///%252e%252e/etc/passwd', 'double encoding'],
    ['file:///docs/../../etc/passwd', 'a `..` path segment'],
    ['notes://%2E%2E', 'a `..` path segment'],
  ]) {
    const err = await readError(uri);
    assert.equal(err.code, RESOURCE_NOT_FOUND, `${uri}: ${err.message}`);
    assert.deepEqual(err.data, { uri });
    assert.ok(err.message.includes(rule), err.message);
    assert.ok(!err.message.includes('passwd'), err.message);
  }
});

test('completion/complete for template arguments', async () => {
  const job = 'log://build/{job_id}{?lines}';
  assert.deepEqual(await complete(job, 'job_id', '4'), ['41', '42', '43']);
  assert.deepEqual(await complete('notes://{id}', 'id', 'w'), ['welcome']);
  assert.deepEqual(await complete('search://docs{?q,lang}', 'q', 'vor', { lang: 'de' }), ['vorlage']);
  assert.deepEqual(await complete('search://docs{?q,lang}', 'q', 'vor', { lang: 'en' }), []);
  assert.deepEqual(await complete('file:///{+path}', 'path', 'docs/g'), ['docs/guide.md']);
  for (const [uri, name] of [[job, 'lines_x'], ['log://{job_id}', 'job_id']]) {
    await assert.rejects(complete(uri, name, ''), (err) => {
      assert.ok(err instanceof McpError);
      assert.equal(err.code, ErrorCode.InvalidParams);
      return true;
    });
  }
});
