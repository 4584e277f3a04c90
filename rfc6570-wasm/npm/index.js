// rfc6570-wasm's entry point for browsers and ESM loaders without the "node" condition: the
// module is compiled once, when this file is imported (top-level await), fetched beside this
// file (or read from disk, where this file was loaded from one). Node.js takes `node.js`
// instead (package.json's "exports"), which `require` can load too. The API is `api.js`.
import init, { initSync } from './dist/rfc6570_wasm.js';
import { started } from './api.js';

const moduleUrl = new URL('./dist/rfc6570_wasm_bg.wasm', import.meta.url);
started(moduleUrl.protocol === 'file:'
  ? initSync({ module: await (await import('node:fs/promises')).readFile(moduleUrl) })
  : await init({ module_or_path: moduleUrl }));

export { UriTemplate, UriTemplateError, Router, safeJoin } from './api.js';
