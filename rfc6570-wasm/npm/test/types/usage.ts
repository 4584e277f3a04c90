// Compiled, never run, by `tsc -p test/types` (.ci/wasm): the declarations in index.d.ts
// describe the package as the README uses it, the McpServer drop-in with its cast included.
import { readFile } from 'node:fs/promises';
import { McpServer, ResourceTemplate, type UriTemplate as SdkUriTemplate } from '@modelcontextprotocol/server';
import {
  Router, UriTemplate, UriTemplateError, safeJoin, type Explained, type Lint, type Route, type Variables,
} from 'rfc6570-wasm';

const t = new UriTemplate('search://docs{?q,lang}');
const rest: UriTemplate = t.partial({ q: 'café' });
const later: string = rest.expand({ page: 2 });
const uri: string = t.expand({ q: 'café', page: 2, tags: ['a', 2n, null], filter: { a: '1', b: true }, lang: undefined });
const found: Variables | null = t.match(uri);
const names: string[] = t.variableNames;
const text: string = t.toString();
const valid: boolean = UriTemplate.isTemplate('notes://{id}');
const explained: Explained = t.explain(uri);
if (!explained.ok) {
  const error: UriTemplateError = explained.error;
  const where: number | undefined = error.position;
  const kind: string = error.kind;
  void [where, kind];
}
const lints: Lint[] = new UriTemplate('file:///{+path}{ext}', { pathSafety: false }).lints();

const router = new Router<string>();
router.insert('file:///{+path}', 'file');
const route: Route<string> | null = router.at('file:///docs/a.md');
const value: string | undefined = route?.value;
const joined: string = safeJoin('/srv/files', 'docs/a.md');

// The README's drop-in: the SDK's class is nominal (it has private members), hence the cast.
const root = '/srv/files';
const server = new McpServer({ name: 'example', version: '0.1.0' });
const files = new UriTemplate('file:///{+path}') as unknown as SdkUriTemplate;
server.registerResource('file', new ResourceTemplate(files, { list: undefined }), { mimeType: 'text/plain' },
  async (uri, { path }) => ({ contents: [{ uri: uri.href, text: await readFile(safeJoin(root, String(path)), 'utf8') }] }));

void [found, names, text, valid, lints, value, joined];
