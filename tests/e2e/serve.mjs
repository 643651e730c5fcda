// A tiny static file server for the end-to-end tests: serves a folder on 127.0.0.1, on a free port
// that it writes to a file, so tests never collide with a port in use.
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const [root = 'dist', portFile] = process.argv.slice(2);
const base = resolve(root);
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png',
};

const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = normalize(join(base, path));
  if (!file.startsWith(base)) { res.writeHead(403).end(); return; }
  if (path.endsWith('/')) file = join(file, 'index.html');
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address();
  if (portFile) await writeFile(portFile, String(port));
  console.log(`serving ${base} on http://127.0.0.1:${port}/`);
});
