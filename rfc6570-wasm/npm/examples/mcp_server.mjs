// An MCP server on the official TypeScript SDK (@modelcontextprotocol/server) whose resource
// templates match with rfc6570-wasm's UriTemplate instead of the SDK's. The one change is the
// import of UriTemplate; McpServer and ResourceTemplate are the SDK's, unchanged.
//
//   node examples/mcp_server.mjs [DIRECTORY]     # over stdio; serves DIRECTORY's files
//
// | template | what the SDK's own UriTemplate does with it |
// |---|---|
// | file:///{+path} | gives `My%20File.txt`, not `My File.txt` (#2728); no path safety |
// | search://docs{?q,lang} | matches only `?q=..&lang=..`, both, in that order (#149, #1079) |
// | users://{userId,format} | never matches (#2166) |
import { readFile } from 'node:fs/promises';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { UriTemplate, safeJoin } from 'rfc6570-wasm'; // was: from '@modelcontextprotocol/server'

const root = process.argv[2] ?? process.cwd();
const server = new McpServer({ name: 'rfc6570-wasm-example', version: '0.1.0' });

/** A template without a list of its resources. */
const template = (text) => new ResourceTemplate(new UriTemplate(text), { list: undefined });

const json = (uri, value) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value) }] });

server.registerResource('file', template('file:///{+path}'),
  { description: 'A file under the served directory', mimeType: 'text/plain' },
  // `path` arrives decoded, and a value that would leave the directory never arrives: the
  // match refuses it. safeJoin checks again where the path meets the file system.
  async (uri, { path }) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: await readFile(safeJoin(root, path), 'utf8') }],
  }));

server.registerResource('search', template('search://docs{?q,lang}'),
  { description: 'A search: its parameters, as matched', mimeType: 'application/json' },
  async (uri, variables) => json(uri, variables));

server.registerResource('user', template('users://{userId,format}'),
  { description: 'A user, in a format', mimeType: 'application/json' },
  async (uri, variables) => json(uri, variables));

await server.connect(new StdioServerTransport());
