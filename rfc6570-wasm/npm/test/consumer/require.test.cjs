// The installed package from `require`, in a CommonJS project.
const { test } = require('node:test');
const { check } = require('./both.cjs');

test('require("rfc6570-wasm") gives the whole API', () => {
  check(require('rfc6570-wasm'));
});
