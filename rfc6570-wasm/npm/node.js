// rfc6570-wasm's entry point for Node.js, from `import` and from `require` alike (package.json's
// "exports" names it under "node"). The module is read from disk and compiled synchronously,
// without top-level await, so that `require` can load this file (Node.js 20.19, 22.12 and later
// load an ES module synchronously). The API is `api.js`.
import { readFileSync } from 'node:fs';
import { initSync } from './dist/rfc6570_wasm.js';
import { started } from './api.js';

started(initSync({ module: readFileSync(new URL('./dist/rfc6570_wasm_bg.wasm', import.meta.url)) }));

export { UriTemplate, UriTemplateError, Router, safeJoin } from './api.js';
