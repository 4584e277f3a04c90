// The package in a browser: Debian's headless Chromium, driven by playwright-core, loads
// index.js from a loopback HTTP server (as a page would from its site) and runs every case of
// tests/cases.json there, through the same checks as cases.test.mjs.
// CHROMIUM_BIN names the browser (default /usr/bin/chromium). Without it the test says so and
// is skipped, unless WASM_BROWSER_REQUIRED=1 (as .ci/wasm sets it), where that is a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const REQUIRED = process.env.WASM_BROWSER_REQUIRED === '1';
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const CASES = fileURLToPath(new URL('../../tests/cases.json', import.meta.url));
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };

/** Serves the package's files, the cases at /cases.json and an empty page at /. */
function serve() {
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const file = path === '/' ? null : path === '/cases.json' ? CASES : join(PACKAGE, normalize(path));
    if (file !== null && (!file.startsWith(PACKAGE) && file !== CASES || !existsSync(file))) {
      response.writeHead(404).end();
      return;
    }
    const body = file === null ? '<!doctype html><title>rfc6570-wasm</title>' : readFileSync(file);
    const type = file === null ? TYPES['.html'] : TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('every case holds in headless Chromium', { skip: !existsSync(CHROMIUM) && !REQUIRED && `no browser at ${CHROMIUM}` }, async (t) => {
  assert.ok(existsSync(CHROMIUM), `no browser at ${CHROMIUM} (on Debian: apt-get install chromium)`);
  const { chromium } = await import('playwright-core');
  const server = await serve();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // As root in a container there is no sandbox; and nothing is to be fetched from outside.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    timeout: 60_000,
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const result = await page.evaluate(async () => {
      const api = await import('/index.js');
      const { check, failures } = await import('/test/check.js');
      const cases = await (await fetch('/cases.json')).json();
      const count = Object.keys(check).reduce((n, section) => n + cases[section].length, 0);
      return { failed: failures(cases, api), count, agent: navigator.userAgent };
    });
    t.diagnostic(`${result.count} cases in ${result.agent}`);
    assert.deepEqual(result.failed, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
