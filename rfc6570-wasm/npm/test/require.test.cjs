// The package from `require`, in the repository (node.js is an ES module without top-level
// await, which Node.js 20.19 and later require synchronously); test/consumer/ does the same
// from a new project, with the packed package installed (.ci/wasm).
const { test } = require('node:test');
const { check } = require('./consumer/both.cjs');

test('require of the Node.js entry point gives the whole API', () => {
  check(require('../node.js'));
});
