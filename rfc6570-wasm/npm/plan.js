// Expansion without a crossing: a template's plan (rfc6570-wasm/src/plan.rs), expanded here
// for values this code reads exactly as the module does. `expandPlan` answers `undefined` for
// anything else (a list or map, text with a lone surrogate, a function, a value or an expansion
// that could come near the module's limit), and the caller sends those to the module, the one
// expander of lists, maps and refusals. It reads each of the template's names once, and no
// other key (the module is sent every key, and refuses more than 4 MiB of them: here nothing is
// sent). The test `plan.test.mjs` expands random draws both ways.

/** What `allow: U` leaves as it is (RFC 6570 section 1.5: the unreserved characters). */
const UNRESERVED = /^[A-Za-z0-9\-._~]*$/;
/** Text that `allow: U+R` leaves as it is, without a `%` or a bracket to look at closer. */
const RESERVED_AS_IT_IS = /^[A-Za-z0-9\-._~:/?#@!$&'()*+,;=]*$/;
/** The characters `encodeURIComponent` leaves raw that `allow: U` encodes. */
const SUB_DELIMS_LEFT_RAW = /[!'()*]/;
const SUB_DELIMS_LEFT_RAW_ALL = /[!'()*]/g;
/** What `encodeURI` encodes that `allow: U+R` may leave raw: see `encodeReserved`. */
const PUT_BACK_FROM = /[%[\]]/;
/** The module's limit is 1 MiB of expansion: past a third of it in characters (each one up to
 * three bytes of UTF-8), in a value or in the expansion, the module answers, with its error if
 * it is over. */
const LONGEST = (1 << 20) / 3;

const { propertyIsEnumerable } = Object.prototype;

/** `variables[name]` as text, as the package sends values to the module: `null` for none (no
 * own enumerable property, or one that is `undefined` or `null`), `undefined` for a value the
 * plan leaves to the module. Enumerable first, so that no inherited getter runs. */
function text(variables, name) {
  if (!propertyIsEnumerable.call(variables, name)) return null;
  const value = variables[name];
  if (value === undefined || value === null) return null;
  let string;
  switch (typeof value) {
    case 'string': string = value; break;
    case 'number': case 'boolean': case 'bigint': string = String(value); break;
    default: return undefined;
  }
  return string.length > LONGEST ? undefined : string;
}

/** The first `prefix` characters (code points) of `value`, which is well-formed. */
function cut(value, prefix) {
  if (value.length <= prefix) return value;
  let end = 0;
  for (let count = 0; count < prefix && end < value.length; count++) {
    const unit = value.charCodeAt(end);
    end += unit >= 0xd800 && unit <= 0xdbff ? 2 : 1;
  }
  return value.slice(0, end);
}

/** `encode(value)`, or `undefined` for text with a lone surrogate, which both encoders refuse
 * (the module reads it as U+FFFD, as `TextEncoder` writes it). */
function wellFormed(encode, value) {
  try {
    return encode(value);
  } catch {
    return undefined;
  }
}

/** `value` percent-encoded for `allow: U`; `undefined` if it is not well-formed text. */
function encodeUnreserved(value) {
  if (UNRESERVED.test(value)) return value;
  const encoded = wellFormed(encodeURIComponent, value);
  if (encoded === undefined) return undefined;
  return SUB_DELIMS_LEFT_RAW.test(encoded) ? encoded.replace(SUB_DELIMS_LEFT_RAW_ALL, encodeSubDelim) : encoded;
}

function encodeSubDelim(c) {
  return `%${c.charCodeAt(0).toString(16).toUpperCase()}`;
}

/** `value` percent-encoded for `allow: U+R`, its triplets passed through; `undefined` if it is
 * not well-formed text. `encodeURI` leaves raw what `allow: U+R` does, but for `[`, `]` and
 * the `%` of a triplet, which it encodes: those are put back. */
function encodeReserved(value) {
  if (RESERVED_AS_IT_IS.test(value)) return value;
  const encoded = wellFormed(encodeURI, value);
  if (encoded === undefined) return undefined;
  return PUT_BACK_FROM.test(value) ? encoded.replace(PUT_BACK, putBack) : encoded;
}

/** In `encodeURI`'s output: an encoded `%` before two hex digits (which the input held as a
 * triplet: any other character it encodes starts with `%`), and an encoded bracket. */
const PUT_BACK = /%25([0-9A-Fa-f]{2})|%5B|%5D/g;

function putBack(match, hex) {
  if (hex !== undefined) return `%${hex}`;
  return match === '%5B' ? '[' : ']';
}

/** The expansion of `plan` with `variables` (an object), or `undefined` where the module must
 * answer. */
export function expandPlan(plan, variables) {
  const names = plan[0];
  const values = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const value = text(variables, names[i]);
    if (value === undefined) return undefined;
    values[i] = value;
  }
  let out = '';
  for (let p = 1; p < plan.length; p++) {
    const part = plan[p];
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    const [first, sep, named, ifEmpty, reserved] = part;
    let lead = first;
    for (let v = 5; v < part.length; v += 2) {
      const value = values[part[v]];
      if (value === null) continue;
      out += lead;
      lead = sep;
      if (named) {
        out += names[part[v]];
        if (value === '') {
          out += ifEmpty;
          continue;
        }
        out += '=';
      }
      const prefix = part[v + 1];
      const cutValue = prefix === 0 ? value : cut(value, prefix);
      const encoded = reserved ? encodeReserved(cutValue) : encodeUnreserved(cutValue);
      if (encoded === undefined) return undefined;
      out += encoded;
    }
    if (out.length > LONGEST) return undefined;
  }
  return out;
}
