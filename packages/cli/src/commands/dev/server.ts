/**
 * `skilltree dev`: runs an agent's session in Node and serves the playground, which shows the
 * conversation, the next request, the skills, the stores, a per-step timeline and the host tree.
 *
 * - `GET /api/state` — everything the page shows ({@link DevState})
 * - `GET /api/events` — server-sent events: `state` (a DevState after each change), `live`
 *   (streamed text, tool calls, turn start/end)
 * - `POST /api/send` `{ text, files? }` — runs a turn (files as base64 or data URLs, checked by core);
 *   answers when it ends: `{ ok, text, steps, waiting }` or `{ ok: false, error, code? }` ({@link TurnReply})
 * - `POST /api/answer` `{ answers }` — answers waiting calls (approve, deny, a client tool's result)
 *   and goes on with the turn; answers like send
 * - `POST /api/reset` — a fresh session; `POST /api/reload` — reload the module now
 *
 * Editing a file the agent module imports reloads it: the module is imported anew and the same
 * session re-renders with it (`session.rerender`), so transcript, loaded skills (LRU order, mount
 * counts) and stores are kept.
 */
import { spawn } from 'node:child_process';
import { existsSync, type FSWatcher, readFileSync, statSync, watch } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Model, ToolAnswer } from '@skilltree/core';
import type { PriceChoice } from '../../kit/cost.js';
import { listen } from '../../kit/listen.js';
import { DevSession } from './dev-session.js';
import { BusyError, type DevTurn, isRefusal } from './dev-turn.js';
import type { SendFile, TurnReply } from './protocol.js';

/** Options of {@link startDevServer} (what `skilltree dev` passes from its flags). */
export interface DevServerOptions {
  /** Path of the agent module (default export: an element or a component). */
  module: string;
  /** Default 4300; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The model; default: the module's `demo.model()`, else none (the page says so when a turn runs). */
  model?: Model;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  /** `--price` for the Cost view; default: the `PRICES` entry of the model's name. */
  price?: PriceChoice;
  /** Open the page in the default browser. */
  open?: boolean;
  /** Reload when a file the module imports changes. Default true. */
  watch?: boolean;
  /** Directory of the built playground (index.html). Default: found next to the CLI or in the workspace. */
  assetsDir?: string;
  /** Where terminal messages go. Default: stderr. */
  log?: (line: string) => void;
  /** Resolves a relative `module`. Default: process.cwd(). */
  cwd?: string;
}

/** A running playground server. */
export interface DevServer {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4300;

const here = dirname(fileURLToPath(import.meta.url));

/** Where the built playground is: an explicit dir, the env, the CLI's dist, the package, the workspace. */
export function findPlaygroundAssets(explicit?: string): string | null {
  const candidates: string[] = [];
  if (explicit) candidates.push(explicit);
  if (process.env.SKILLTREE_PLAYGROUND_DIR) candidates.push(process.env.SKILLTREE_PLAYGROUND_DIR);
  candidates.push(join(here, '..', '..', 'playground'));
  try {
    const pkg = createRequire(import.meta.url).resolve('@skilltree/playground/package.json');
    candidates.push(join(dirname(pkg), 'dist'));
  } catch {
    // Not installed next to the CLI.
  }
  for (let dir = here; ; dir = dirname(dir)) {
    candidates.push(join(dir, 'apps', 'playground', 'dist'));
    if (dirname(dir) === dir) break;
  }
  for (const dir of candidates) if (existsSync(join(dir, 'index.html'))) return resolve(dir);
  return null;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

function missingAssetsPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>skilltree dev</title></head>
<body style="font-family:system-ui;margin:3rem;max-width:48rem">
<h1>skilltree dev is running, but the playground is not built</h1>
<p>Build it with <code>pnpm --filter @skilltree/playground build</code> (or set <code>SKILLTREE_PLAYGROUND_DIR</code>) and reload this page.</p>
<p>The session is live: <a href="/api/state">/api/state</a> shows it as JSON.</p>
</body></html>`;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

/** Bodies of requests that carry no files. */
const MAX_BODY = 1_000_000;
/**
 * Bodies of `POST /api/send`: room for core's default per-message limit of files (32 MB) as base64,
 * so core, not the dev server, is what refuses a large file, with its own message.
 */
const MAX_SEND_BODY = 64 * 1024 * 1024;

/** A request body over the dev server's limit (it stops reading there). */
class BodyTooLargeError extends Error {}

async function readJson(req: IncomingMessage, limit = MAX_BODY): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw new BodyTooLargeError(
        `The request is over ${Math.round(limit / (1024 * 1024)) || 1} MB, the most the dev server reads: send fewer or smaller files.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  const value = JSON.parse(text);
  return value && typeof value === 'object' ? value : {};
}

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No browser to open: the URL is printed anyway.
  }
}

/** Starts the dev server. Resolves once it listens; rejects with a clear message when it cannot. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`Invalid port ${port}: use a number from 0 to 65535.`);
  }
  const dev = new DevSession({
    module: options.module,
    model: options.model,
    maxLoadedSkills: options.maxLoadedSkills,
    maxTranscriptMessages: options.maxTranscriptMessages,
    price: options.price,
    cwd: options.cwd,
    log,
  });
  if (!existsSync(dev.loader.file)) {
    throw new Error(`Agent module not found: ${dev.loader.file}`);
  }
  const assets = findPlaygroundAssets(options.assetsDir);
  if (!assets) log('skilltree dev: the playground is not built: run `pnpm --filter @skilltree/playground build`.');

  // ── server-sent events ──
  const clients = new Set<ServerResponse>();
  const broadcast = (event: string, data: unknown) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of clients) client.write(frame);
  };
  let stateTimer: NodeJS.Timeout | null = null;
  const pushState = () => {
    if (stateTimer || clients.size === 0) return;
    stateTimer = setTimeout(() => {
      stateTimer = null;
      try {
        broadcast('state', dev.state());
      } catch (error) {
        log(`skilltree dev: could not build the page state: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, 30);
  };
  dev.onChange = pushState;
  dev.onLive = (event) => broadcast('live', event);
  await dev.start();

  const serveStatic = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'Method not allowed' });
    if (!assets) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(missingAssetsPage());
    }
    let file = normalize(join(assets, decodeURIComponent(pathname)));
    if (!file.startsWith(assets + sep) && file !== assets) return sendJson(res, 403, { error: 'Forbidden' });
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(assets, 'index.html');
    const body = readFileSync(file);
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const reply = (res: ServerResponse, status: number, body: TurnReply) => sendJson(res, status, body);
  /**
   * Runs a turn and answers when it ends. A refused file (400) or answer (409) recorded nothing and
   * says why with core's code; a model error is the turn's outcome (200, shown in the chat).
   */
  const runTurn = async (res: ServerResponse, turn: () => Promise<DevTurn>) => {
    try {
      return reply(res, 200, { ok: true, ...(await turn()) });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (error instanceof BusyError) return reply(res, 409, { ok: false, error: text, code: 'busy' });
      if (isRefusal(error)) {
        return reply(res, error.name === 'FileRejectedError' ? 400 : 409, { ok: false, error: text, code: error.code });
      }
      return reply(res, 200, { ok: false, error: text });
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === '/api/state' && req.method === 'GET') return sendJson(res, 200, dev.state());
    if (path === '/api/events' && req.method === 'GET') {
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(`retry: 1000\nevent: state\ndata: ${JSON.stringify(dev.state())}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (path === '/api/send' && req.method === 'POST') {
      let body: Record<string, unknown>;
      try {
        body = await readJson(req, MAX_SEND_BODY);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          return reply(res, 413, { ok: false, error: error.message, code: 'body-too-large' });
        }
        return reply(res, 400, { ok: false, error: `Invalid JSON: ${(error as Error).message}` });
      }
      const files = body.files ?? [];
      if (!Array.isArray(files)) {
        return reply(res, 400, {
          ok: false,
          error:
            'Send files as an array: { "text": "…", "files": [{ "data": "<base64 or data: URL>", "filename": "photo.png" }] }.',
        });
      }
      if (typeof body.text !== 'string' || (body.text.trim() === '' && files.length === 0)) {
        return reply(res, 400, {
          ok: false,
          error: 'Send { "text": "your message" } (the text may be empty with files).',
        });
      }
      return runTurn(res, () => dev.send(body.text as string, files as SendFile[]));
    }
    if (path === '/api/answer' && req.method === 'POST') {
      let body: Record<string, unknown>;
      try {
        body = await readJson(req);
      } catch (error) {
        return reply(res, 400, { ok: false, error: `Invalid JSON: ${(error as Error).message}` });
      }
      if (!Array.isArray(body.answers) || body.answers.length === 0) {
        return reply(res, 400, {
          ok: false,
          error:
            'Send { "answers": [{ "toolCallId": "…", "type": "approve" | "deny" | "result", "reason"?: "…", "output"?: … }] }.',
        });
      }
      return runTurn(res, () => dev.answer(body.answers as ToolAnswer[]));
    }
    if (path === '/api/reset' && req.method === 'POST') {
      try {
        await dev.reset();
        return sendJson(res, 200, dev.state());
      } catch (error) {
        return sendJson(res, 409, { ok: false, error: (error as Error).message });
      }
    }
    if (path === '/api/reload' && req.method === 'POST') {
      await dev.reload([]);
      return sendJson(res, 200, dev.state());
    }
    if (path.startsWith('/api/')) return sendJson(res, 404, { error: `No such endpoint: ${req.method} ${path}` });
    return serveStatic(req, res, path);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      log(`skilltree dev: ${req.method} ${req.url} failed: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent)
        sendJson(res, 500, { ok: false, error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  let listening: number;
  try {
    listening = await listen(server, port, host);
  } catch (error) {
    await dev.close();
    throw error;
  }
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${listening}/`;

  // ── watching ──
  const watchers = new Map<string, FSWatcher>();
  let changed = new Set<string>();
  let debounce: NodeJS.Timeout | null = null;
  const onFileEvent = (dir: string, filename: string | null) => {
    const file = filename ? join(dir, filename) : null;
    const relevant = file
      ? dev.loader.files.has(file) || (dev.loadError !== null && /\.[cm]?[jt]sx?$/.test(file))
      : true;
    if (!relevant || !file) return;
    changed.add(file);
    if (debounce) clearTimeout(debounce);
    debounce = setTimeout(() => {
      debounce = null;
      const files = [...changed];
      changed = new Set();
      dev.reload(files).then(syncWatchers, (error) => log(`skilltree dev: reload failed: ${String(error)}`));
    }, 80);
  };
  const syncWatchers = () => {
    if (options.watch === false) return;
    const dirs = new Set([dev.loader.dir, ...[...dev.loader.files].map((file) => dirname(file))]);
    for (const dir of dirs) {
      if (watchers.has(dir) || !existsSync(dir)) continue;
      try {
        const watcher = watch(dir, (_event, filename) => onFileEvent(dir, filename ? String(filename) : null));
        watcher.on('error', () => {});
        watchers.set(dir, watcher);
      } catch (error) {
        log(`skilltree dev: cannot watch ${dir}: ${(error as Error).message}`);
      }
    }
  };
  syncWatchers();

  if (options.open) openBrowser(url);

  let closed = false;
  return {
    url,
    async close() {
      if (closed) return;
      closed = true;
      if (debounce) clearTimeout(debounce);
      if (stateTimer) clearTimeout(stateTimer);
      for (const watcher of watchers.values()) watcher.close();
      for (const client of clients) client.end();
      clients.clear();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await dev.close();
    },
  };
}
