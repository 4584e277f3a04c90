/**
 * RFC 6570 URI templates on the Rust engine of the `rfc6570` crate, as WebAssembly. `UriTemplate`
 * has the MCP TypeScript SDK's names and shapes.
 *
 * Refusals: `UriTemplate.match` and `Router.at` answer `null` when nothing matches, and also
 * when a value is refused (path safety) or the URI is malformed; no refused URI is ever answered
 * as a match. `explain` on both says which: the `UriTemplateError` with its `kind`, `rule` and
 * `position`.
 */

/** One text to expand: a string, or a number, boolean or bigint as `String` writes it. `null`
 * and `undefined` are undefined. */
export type Scalar = string | number | boolean | bigint | null | undefined;

/** A value to expand: a scalar; a list; an associative array, in its keys' order. */
export type VariableValue = Scalar | readonly Scalar[] | Readonly<Record<string, Scalar>>;

/** What a match gives each variable, in the template's order: a variable that is not exploded
 * is its decoded text, commas included (`{id}` on `notes://a,b` is `'a,b'`); an exploded one is
 * the list of its items (`{/path*}`), or the object of its entries for an exploded associative
 * array (`{?filter*}` on `?a=1&b=2`). Absent variables are left out. */
export type Variables = Record<string, string | string[] | Record<string, string>>;

export interface Options {
  /** Refuse matches whose values would walk out of a path: `..` segments, encoded separators
   * in a segment, absolute paths, control characters, look-alikes. `true` unless it is
   * `false`; anything else but `undefined` or `null` throws a `TypeError`. */
  pathSafety?: boolean;
}

/** Why the engine refused. */
export class UriTemplateError extends Error {
  constructor(detail: { kind: string; message: string; position?: number; rule?: string; variable?: string });
  readonly name: 'UriTemplateError';
  /** The Rust error's stable code (`unclosed_expression`, `invalid_var_name`, `unsafe`,
   * `malformed`, `not_found`, `unsupported`...), or the package's own where it has none:
   * `escapes`, `absolute` and `control_character` from `safeJoin`; `variables` and
   * `expansion_too_long` from `expand`; `too_many_routes` from `Router.insert`; and, for what
   * should never happen, `not_utf8`, `json`, `too_long` and `input_lost` (the module ran out
   * of memory in an earlier call). */
  readonly kind: string;
  /** Where, in UTF-16 code units into the template or the URI. */
  readonly position?: number;
  /** For `unsafe`: the path-safety rule (`dot_dot_segment`, `separator_in_segment`...). */
  readonly rule?: string;
  /** The variable concerned. */
  readonly variable?: string;
}

/** A shape of a template that cannot be matched back, or not unambiguously. */
export interface Lint {
  kind: string;
  message: string;
  /** UTF-16 offset into the template. */
  position: number;
  /** Whether matching refuses the template for it (otherwise a warning). */
  refuses: boolean;
}

export type Explained = { ok: true; variables: Variables } | { ok: false; error: UriTemplateError };

/**
 * An RFC 6570 URI template.
 *
 * @example
 * const t = new UriTemplate('search://docs{?q,lang}');
 * t.expand({ q: 'café' });                  // 'search://docs?q=caf%C3%A9'
 * t.match('search://docs?lang=fr&q=caf%C3%A9'); // { q: 'café', lang: 'fr' }
 */
export class UriTemplate {
  /** Whether `str` is a valid RFC 6570 template with at least one expression (the SDK's says
   * yes to some invalid ones, such as `{$x}`). */
  static isTemplate(str: string): boolean;
  /** Throws a `UriTemplateError` if `template` is not valid RFC 6570. */
  constructor(template: string, options?: Options);
  /** The variable names, in order. */
  get variableNames(): string[];
  toString(): string;
  /** At most 1 MiB: a longer expansion throws (`expansion_too_long`). */
  expand(variables: Record<string, VariableValue>): string;
  /** The variables given written in, the others kept: `expand` on the result with the rest
   * gives what this template's `expand` would with all of them. Values that cannot be written
   * into the text yet (`{x,y}` with `x` alone) stay with the result, which expands them. */
  partial(variables: Record<string, VariableValue>): UriTemplate;
  /** The decoded variables that expand to `uri`, or `null` when none do, a value is refused,
   * the URI is malformed, or the template cannot be matched (`explain` and `lints` say why). */
  match(uri: string): Variables | null;
  /** As `match`, with the reason when it refuses. */
  explain(uri: string): Explained;
  lints(): Lint[];
}

export interface Route<T> {
  value: T;
  /** The template that matched. */
  template: string;
  variables: Variables;
}

/** Many templates; the best match wins, whatever the insertion order. */
export class Router<T = unknown> {
  constructor(options?: Options);
  /** Throws a `UriTemplateError` for an invalid or unmatchable template, or a duplicate. */
  insert(template: string, value: T): void;
  /** The best match, or `null` when none matches, a value is refused or the URI is malformed
   * (`explain` says why). */
  at(uri: string): Route<T> | null;
  /** As `at`, with the reason when it refuses. */
  explain(uri: string): ExplainedRoute<T>;
}

export type ExplainedRoute<T> = ({ ok: true } & Route<T>) | { ok: false; error: UriTemplateError };

/** `path` joined onto `base`; throws a `UriTemplateError` if it would lead outside. */
export function safeJoin(base: string, path: string): string;
