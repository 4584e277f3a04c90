// The cases of rfc6570-wasm/tests/cases.json, through the package as Node.js imports it
// (node.js; set RFC6570_WASM to another entry point, such as the packed tarball's node.js or
// index.js, to test that). The
// Rust tests (tests/cases.rs) run the same file natively, so the two cannot drift apart.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { check, withLets } from './check.js';

const api = await import(process.env.RFC6570_WASM ? pathToFileURL(process.env.RFC6570_WASM).href : '../node.js');
const cases = JSON.parse(readFileSync(new URL('../../tests/cases.json', import.meta.url), 'utf8'));

for (const [section, checker] of Object.entries(check)) {
  describe(section, () => {
    for (const c of cases[section]) {
      test(c.name, () => assert.equal(checker(withLets(c), api), null));
    }
  });
}
