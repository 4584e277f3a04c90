// rfc6570-wasm: RFC 6570 URI templates for JavaScript and TypeScript, on the Rust engine of the
// `rfc6570` crate compiled to WebAssembly. `UriTemplate` has the names and shapes of the MCP
// TypeScript SDK's, so that swapping the import is enough; `Router`, `safeJoin`, `explain` and
// `lints` are what the SDK lacks.
//
// This file is the API over the module; the entry points start the module and export it:
// `index.js` (browsers, and any ESM loader without the "node" condition) and `node.js`
// (Node.js, from `import` and `require` alike: it starts the module without top-level await).
//
// The per-request calls (match, expand, a router's at) pass their input and answer through
// buffers of the module's (rfc6570-wasm/src/io.rs; `put`, `take` and `matched` below), whose
// addresses the module keeps in registers at a fixed address; the others pass strings the
// usual way. The engine's refusals arrive as the JSON of an error, which becomes a
// `UriTemplateError` here.
import {
  Template, Routes, isTemplate as wasmIsTemplate, safeJoin as wasmSafeJoin, ioInput, ioRegisters,
} from './dist/rfc6570_wasm.js';
import { expandPlan } from './plan.js';

/** The module's memory, once an entry point has started it. */
let memory;

// A string crossing the usual way allocates, frees and decodes text, which costs more than the
// match itself: hence the buffers.
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
// Node.js decodes a short text from a Buffer faster than through a TextDecoder.
const NodeBuffer = globalThis.Buffer;
let bytes;
let words;
let buffer;

/** The registers (io.rs), as indices of `words`: the input's address and capacity, the
 * output's and the header's. */
let INPUT;
let CAPACITY;
let OUTPUT;
let HEADER;

/** Called once by the entry point, with what the module's initialization answered. */
export function started(exports) {
  memory = exports.memory;
  heap();
  INPUT = ioRegisters() >>> 2;
  CAPACITY = INPUT + 1;
  OUTPUT = INPUT + 2;
  HEADER = INPUT + 3;
}

/** The module's memory, seen again once it has grown (which detaches the old views). */
function heap() {
  if (bytes === undefined || bytes.byteLength === 0) {
    bytes = new Uint8Array(memory.buffer);
    words = new Uint32Array(memory.buffer);
    buffer = NodeBuffer?.from(memory.buffer);
  }
  return bytes;
}

/** Writes `text` as UTF-8 into the input buffer; answers its length in bytes. */
function put(text) {
  const capacity = text.length * 3;
  let mem = heap();
  if (capacity > words[CAPACITY]) {
    ioInput(capacity);
    mem = heap();
  }
  const at = words[INPUT];
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) break;
    mem[at + i] = c;
  }
  if (i === text.length) return i;
  return i + encoder.encodeInto(text.slice(i), mem.subarray(at + i, at + capacity)).written;
}

/** The `length` bytes of the answer, as text. */
function take(length) {
  heap();
  return output(length);
}

/** The `length` bytes of the answer, as text, once `heap()` has seen the memory. */
function output(length) {
  const at = words[OUTPUT];
  if (buffer !== undefined) return buffer.toString('utf8', at, at + length);
  return decoder.decode(bytes.subarray(at, at + length));
}

/** The flag of an answer given as spans (io.rs). */
const SPANS = 1 << 30;
/** The bit of a span's start that says it is in the answer's text, not the URI. */
const IN_TEXT = 0x80000000;
/** The bit of a span's start that says it is the URI's text, still to be percent-decoded: a
 * match only answers values that decode to UTF-8, so `decodeURIComponent` gives the engine's
 * value (`decodeTriplets`, faster, gives the same). */
const TO_DECODE = 0x40000000;
/** The engine reads URIs of at most 32 KiB: one with more UTF-16 code units has more bytes. */
const MAX_URI = 32 * 1024;
/** The longest variables' text sent for an expansion, which writes at most 1 MiB anyway. */
const MAX_VARIABLES = 4 * 1024 * 1024;

/** A string, or an undefined or nested member of a list or map, as the module reads it
 * (rfc6570-wasm/src/values.rs): numbers, booleans and bigints as `String` writes them. */
function item(value) {
  if (typeof value === 'string') return `s${value.length}\0${value}`;
  if (value === undefined || value === null || typeof value === 'function' || typeof value === 'symbol') return 'u';
  if (typeof value === 'object') return 'n';
  const text = String(value);
  return `s${text.length}\0${text}`;
}

/** `variables` as the module reads them (values.rs): each name and its value, with lengths
 * rather than JSON; arrays are lists, other objects maps of their own keys, in order. */
function encoded(variables) {
  let text = '';
  for (const name of Object.keys(variables)) {
    const value = variables[name];
    // No template's variable has a name with a NUL, which the format cannot hold.
    if (value === undefined || value === null || name.includes('\0')) continue;
    text += `${name}\0`;
    if (Array.isArray(value)) {
      text += `l${value.length}\0`;
      for (let i = 0; i < value.length; i++) text += item(value[i]);
    } else if (typeof value === 'object') {
      const keys = Object.keys(value);
      text += `m${keys.length}\0`;
      for (const key of keys) text += `${key.length}\0${key}${item(value[key])}`;
    } else {
      text += item(value);
    }
  }
  return text;
}

/** The error for a URI over the engine's limit, without copying it into the module. */
function tooLong() {
  return new UriTemplateError({
    kind: 'malformed', message: `malformed URI at index ${MAX_URI}: longer than ${MAX_URI} bytes`, position: MAX_URI,
  });
}

/** Runs `call(inputLength)` on `text`: the answer's text, `null` for none; an error is thrown
 * as a `UriTemplateError`. */
function io(text, call) {
  const status = call(put(text));
  return refused(status) ? null : take(status);
}

/** Whether `status` is no answer (`true`); throws the error it carries, if any. */
function refused(status) {
  if (status === -1) return true;
  if (status === -2) throw new UriTemplateError({ kind: 'too_long', message: 'the answer is too long' });
  if (status < -2) throw new UriTemplateError(JSON.parse(take(-2 - status)));
  return false;
}

/** Each ASCII hex digit's value; -1 for other characters. */
const HEX = new Int8Array(128).fill(-1);
for (let d = 0; d < 22; d++) HEX['0123456789abcdefABCDEF'.charCodeAt(d)] = d < 16 ? d : d - 6;

/** The byte of the triplet at `at`; negative if it is none. */
function byteAt(text, at) {
  return (HEX[text.charCodeAt(at + 1)] ?? -1) << 4 | (HEX[text.charCodeAt(at + 2)] ?? -1);
}

/** `decodeURIComponent(text)` for a value the engine checked decodes to UTF-8, at half the
 * builtin's cost where its triplets are of ASCII bytes and two-byte characters (most are). */
export function decodeTriplets(text) {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('%'); at !== -1; at = text.indexOf('%', from)) {
    let code = byteAt(text, at);
    const before = text.slice(from, at);
    from = at + 3;
    if (code < 0 || code > 0x7f) {
      const next = text[from] === '%' ? byteAt(text, from) : -1;
      if (code < 0xc2 || code > 0xdf || (next & 0xc0) !== 0x80) return decodeURIComponent(text);
      code = (code & 0x1f) << 6 | next & 0x3f;
      from += 3;
    }
    out += before + String.fromCharCode(code);
  }
  return out + text.slice(from);
}

/** The route of the last match that `matched` read. */
let matchedRoute = 0;

/** The variables of a match of `uri`, from the spans, whose names are `names[route]` (each
 * route's `names()`), or from JSON; `null` for none. The route is then `matchedRoute`. */
function matched(status, uri, names) {
  if (refused(status)) return null;
  heap();
  if (!(status & SPANS)) {
    const { index, variables } = JSON.parse(output(status));
    matchedRoute = index;
    return variables;
  }
  const textLength = status & ~SPANS;
  const text = textLength === 0 ? '' : output(textLength);
  const at = words[HEADER] >>> 2;
  const index = words[at + 1];
  const named = names[index];
  matchedRoute = index;
  const variables = {};
  for (let h = at + 2, end = h + 3 * words[at]; h < end; h += 3) {
    const name = named[words[h]];
    const start = words[h + 1];
    let value;
    if (start & IN_TEXT) value = text.slice(start & ~IN_TEXT, words[h + 2]);
    else if (start & TO_DECODE) value = decodeTriplets(uri.slice(start & ~TO_DECODE, words[h + 2]));
    else value = uri.slice(start, words[h + 2]);
    // `__proto__` is a valid variable name, which plain assignment would not keep.
    if (name === '__proto__') Object.defineProperty(variables, name, { value, enumerable: true, writable: true, configurable: true });
    else variables[name] = value;
  }
  return variables;
}

/** Why the engine refused: `kind` is the Rust error's stable code (`unclosed_expression`,
 * `unsafe`, `malformed`, `not_found`, `escapes`...); `position` counts UTF-16 code units into
 * the template or URI, as JavaScript indexes strings; `rule` names the path-safety rule, and
 * `variable` the variable, where they apply. */
export class UriTemplateError extends Error {
  constructor({ kind, message, position, rule, variable }) {
    super(message);
    this.name = 'UriTemplateError';
    this.kind = kind;
    if (position !== undefined) this.position = position;
    if (rule !== undefined) this.rule = rule;
    if (variable !== undefined) this.variable = variable;
  }
}

/** The engine's refusals (thrown as JSON strings) as `UriTemplateError`s; anything else as it
 * is. */
function translated(e) {
  return typeof e === 'string' ? new UriTemplateError(JSON.parse(e)) : e;
}

function call(f) {
  try {
    return f();
  } catch (e) {
    throw translated(e);
  }
}

/** `options.pathSafety`: `true` unless it is `false`; anything but a boolean is a mistake. */
function pathSafety(options) {
  const value = options?.pathSafety ?? true;
  if (typeof value !== 'boolean') throw new TypeError(`pathSafety must be a boolean, not ${typeof value}`);
  return value;
}

/** `template.expand(variables)` as the module answers it, never the plan (plan.js): for the
 * test that holds the plan to the module. Not exported by the entry points. */
export let expandInModule;

/** An option key no caller can write: the module's own template, which `partial` made, taken
 * as it is rather than parsed again (its text may be over the limits a parse enforces). */
const MADE = Symbol('made');

/** An RFC 6570 URI template: expand it with variables, or match a URI back to them. */
export class UriTemplate {
  #source;
  #safe;
  #template;
  #names;
  /** The names a match's spans give by index, for route 0. */
  #named;
  /** What `expand` expands strings with itself (plan.js): `undefined` until it has asked,
   * `null` for a template that carries bound values. */
  #plan;

  /** Whether `str` is a valid RFC 6570 template with at least one expression. */
  static isTemplate(str) {
    return typeof str === 'string' && wasmIsTemplate(str);
  }

  /** Parses `template`; throws a `UriTemplateError` (with its `position`) if it is not valid
   * RFC 6570. `options.pathSafety` (default `true`): matches refuse values that would walk out
   * of a path (`..`, encoded separators, look-alikes). */
  constructor(template, options = {}) {
    this.#safe = pathSafety(options);
    this.#source = String(template);
    this.#template = options[MADE] ?? call(() => new Template(this.#source, this.#safe));
    this.#named = [JSON.parse(this.#template.names())];
  }

  /** The names of the template's variables, in order. */
  get variableNames() {
    this.#names ??= JSON.parse(this.#template.variableNames());
    return [...this.#names];
  }

  /** The template's text. */
  toString() {
    return this.#source;
  }

  /** The URI that `variables` expand the template to. Values are strings, numbers, booleans
   * (as `String` writes them), arrays (lists) or objects of strings (associative arrays, in
   * their keys' order); `undefined` and `null` are undefined. */
  expand(variables) {
    const given = typeof variables === 'object' && variables !== null;
    if (this.#plan === undefined) this.#plan = JSON.parse(this.#template.plan());
    if (this.#plan !== null) {
      const expanded = expandPlan(this.#plan, given ? variables : {});
      if (expanded !== undefined) return expanded;
    }
    return this.#expandInModule(given ? variables : null);
  }

  /** `expand` by the module, for what the plan leaves to it. */
  #expandInModule(variables) {
    const text = variables === null ? '' : encoded(variables);
    if (text.length > MAX_VARIABLES) {
      throw new UriTemplateError({ kind: 'variables', message: `the variables are longer than ${MAX_VARIABLES} characters` });
    }
    return io(text, (n) => this.#template.expandInput(n));
  }

  static {
    expandInModule = (template, variables) => template.#expandInModule(variables);
  }

  /** The variables given written in, the others kept: a new `UriTemplate` whose `expand`
   * with the rest gives what this one's would with all of them (`{?q,lang}` with `q` is
   * `?q=x{&lang}`). Values it cannot write into the text yet (`{x,y}` with `x` alone) stay
   * with it, and its `expand` uses them. */
  partial(variables) {
    const text = typeof variables === 'object' && variables !== null ? encoded(variables) : '';
    if (text.length > MAX_VARIABLES) {
      throw new UriTemplateError({ kind: 'variables', message: `the variables are longer than ${MAX_VARIABLES} characters` });
    }
    const made = call(() => this.#template.partial(text));
    return new UriTemplate(made.source(), { pathSafety: this.#safe, [MADE]: made });
  }

  /** The variables that expand to `uri`, percent-decoded, or `null` when none do, a value is
   * refused (path safety), the URI is malformed, or the template cannot be matched: the SDK's
   * shape, whose server answers `null` with "resource not found". `explain` and `lints` say
   * why. */
  match(uri) {
    const text = String(uri);
    if (text.length > MAX_URI) return null;
    return matched(this.#template.matchInput(put(text)), text, this.#named);
  }

  /** As `match`, saying why not: `{ ok: true, variables }`, or `{ ok: false, error }` with
   * the `UriTemplateError` (`not_found`, `unsafe` with its `rule`, `malformed` with its
   * `position`...). */
  explain(uri) {
    const text = String(uri);
    if (text.length > MAX_URI) return { ok: false, error: tooLong() };
    try {
      return { ok: true, variables: JSON.parse(this.#template.explain(text)) };
    } catch (e) {
      const error = translated(e);
      if (error instanceof UriTemplateError) return { ok: false, error };
      throw error;
    }
  }

  /** Shapes of this template that cannot be matched back, or not unambiguously:
   * `{ kind, message, position, refuses }` each. */
  lints() {
    return JSON.parse(this.#template.lints());
  }
}

/** Many templates, each with a value: `at(uri)` finds the best match, whatever the order they
 * were inserted in. */
export class Router {
  #routes;
  #values = [];
  #templates = [];
  #names = [];

  /** `options.pathSafety` as for `UriTemplate` (default `true`). */
  constructor(options = {}) {
    this.#routes = new Routes(pathSafety(options));
  }

  /** Adds `template` with `value`; throws a `UriTemplateError` for an invalid template, one
   * that cannot be matched, or one already there. */
  insert(template, value) {
    const text = String(template);
    const index = call(() => this.#routes.insert(text));
    this.#values[index] = value;
    this.#templates[index] = text;
    this.#names[index] = JSON.parse(this.#routes.names(index));
  }

  /** `{ value, template, variables }` for the best match of `uri`, or `null` when none
   * matches, a value is refused (path safety) or the URI is malformed, as `UriTemplate.match`
   * answers: `explain` says why. */
  at(uri) {
    const text = String(uri);
    if (text.length > MAX_URI) return null;
    const variables = matched(this.#routes.atInput(put(text)), text, this.#names);
    if (variables === null) return null;
    const index = matchedRoute;
    return { value: this.#values[index], template: this.#templates[index], variables };
  }

  /** As `at`, saying why not: `{ ok: true, value, template, variables }`, or
   * `{ ok: false, error }` with the `UriTemplateError` (`not_found`, `unsafe` with its `rule`
   * and `variable`, `malformed` with its `position`...). */
  explain(uri) {
    const text = String(uri);
    if (text.length > MAX_URI) return { ok: false, error: tooLong() };
    try {
      const { index, variables } = JSON.parse(this.#routes.explain(text));
      return { ok: true, value: this.#values[index], template: this.#templates[index], variables };
    } catch (e) {
      const error = translated(e);
      if (error instanceof UriTemplateError) return { ok: false, error };
      throw error;
    }
  }
}

/** `path` joined onto the directory `base`; throws a `UriTemplateError` (`escapes`,
 * `absolute`, `control_character`) if the result would be outside `base`. Nothing is read
 * from a file system: `..` is resolved in the text. */
export function safeJoin(base, path) {
  return call(() => wasmSafeJoin(String(base), String(path)));
}
