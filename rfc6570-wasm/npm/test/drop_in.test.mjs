// The drop-in check: examples/mcp_server.mjs (the TypeScript SDK's McpServer, with our
// UriTemplate) read by the SDK's official client (@modelcontextprotocol/client) over stdio. The
// values arrive decoded, in any query order, and a traversal never reaches the file system.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const EXAMPLE = fileURLToPath(new URL('../examples/mcp_server.mjs', import.meta.url));
const SECRET = 'outside-the-served-directory';

describe('the TypeScript SDK server with rfc6570-wasm templates, over stdio', () => {
  let base;
  let client;

  before(async () => {
    // base/served is served; base/secret.txt is beside it, outside.
    base = mkdtempSync(join(tmpdir(), 'rfc6570-wasm-'));
    mkdirSync(join(base, 'served', 'docs'), { recursive: true });
    writeFileSync(join(base, 'served', 'My File.txt'), 'a file with a space');
    writeFileSync(join(base, 'served', 'docs', 'a.md'), '# A');
    writeFileSync(join(base, 'secret.txt'), SECRET);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [EXAMPLE, join(base, 'served')],
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stderr: 'inherit',
    });
    client = new Client({ name: 'rfc6570-wasm-drop-in', version: '0.0.0' });
    await client.connect(transport);
  });

  after(async () => {
    await client?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const read = async (uri) => (await client.readResource({ uri })).contents[0].text;
  const readJson = async (uri) => JSON.parse(await read(uri));

  test('the templates are listed as written', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(),
      ['file:///{+path}', 'search://docs{?q,lang}', 'users://{userId,format}']);
  });

  test('a path arrives decoded (#2728)', async () => {
    assert.equal(await read('file:///My%20File.txt'), 'a file with a space');
    assert.equal(await read('file:///docs/a.md'), '# A');
  });

  test('query parameters in any order, each optional, decoded (#149, #1079)', async () => {
    assert.deepEqual(await readJson('search://docs?lang=fr&q=caf%C3%A9'), { q: 'café', lang: 'fr' });
    assert.deepEqual(await readJson('search://docs?lang=de'), { lang: 'de' });
    assert.deepEqual(await readJson('search://docs'), {});
  });

  test('several variables in one expression (#2166)', async () => {
    assert.deepEqual(await readJson('users://42,json'), { userId: '42', format: 'json' });
  });

  test('a traversal is refused before the handler, encoded or not', async () => {
    for (const uri of ['file:///..%2Fsecret.txt', 'file:///docs/..%2F..%2Fsecret.txt', 'file:///%2E%2E%2Fsecret.txt']) {
      await assert.rejects(read(uri), (e) => {
        assert.ok(!String(e.message).includes(SECRET), e.message);
        assert.match(e.message, /not found/i);
        return true;
      }, uri);
    }
  });
});
