// The installed package from `import`, in a CommonJS project (an .mjs file is a module there).
import { test } from 'node:test';
import { createRequire } from 'node:module';
import * as api from 'rfc6570-wasm';

const require = createRequire(import.meta.url);

test('import from "rfc6570-wasm" gives the whole API, the same module as require', () => {
  require('./both.cjs').check(api);
  assert(require('rfc6570-wasm').UriTemplate === api.UriTemplate);
});

function assert(ok) {
  if (!ok) throw new Error('require and import load different modules');
}
