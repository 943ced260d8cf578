/**
 * `skilltree serve <module>`: the agent over HTTP for web apps. `@skilltree/server`'s handler under
 * `/api` (what the AI SDK's `useChat` talks to), a small chat page at `/`, sessions in `--store`, and
 * with `--workers N` that many processes (node:cluster) on one port and one shared store.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename } from 'node:path';
import type { Model, SessionsOptions } from '@skilltree/core';
import { type Authorize, createHandler, isLoopbackHost, toNodeListener } from '@skilltree/server';
import { CliError, errorMessage } from '../../kit/errors.js';
import type { CliArgs } from '../../kit/flags.js';
import type { Io } from '../../kit/io.js';
import { listen, untilSignal } from '../../kit/listen.js';
import { type AgentModule, loadAgentModule } from '../../kit/load-module.js';
import { pickModel } from '../../kit/pick-model.js';
import { chooseStore, type StoreChoice } from '../../kit/store.js';
import { chatPage, PAGE_CSP } from './page.js';

/** What a worker tells the primary. */
type WorkerMessage =
  | { type: 'skilltree-serve-listening'; port: number; store: string }
  | { type: 'skilltree-serve-failed'; error: string };

/** A model that starts its script again when it runs out (a demo served to many chats). */
function replaying(create: () => Model): Model {
  let model = create();
  const again = (error: unknown) => /ran out of steps/.test(errorMessage(error));
  const wrapped: Model = {
    name: model.name,
    async generate(req, opts) {
      try {
        return await model.generate(req, opts);
      } catch (error) {
        if (!again(error)) throw error;
        model = create();
        return model.generate(req, opts);
      }
    },
  };
  // A demo that streams keeps streaming (a scripted model does not: it only generates).
  if (model.stream) wrapped.stream = (req, opts) => model.stream!(req, opts);
  return wrapped;
}

/** `skilltree serve`'s flags, with their defaults filled in. */
type ServeArgs = CliArgs & {
  module: string;
  port: number;
  host: string;
  store: string;
  workers: number;
  turnsPerMinute: number;
};

/** Everything one serving process needs, resolved from the flags. */
interface Prepared {
  agent: AgentModule;
  authorize?: Authorize;
  model: Model;
  modelLabel: string;
  store: StoreChoice;
}

async function prepare(args: ServeArgs, io: Io): Promise<Prepared> {
  const agent = await loadAgentModule(args.module, io.cwd);
  // Parsed by the store package the module sees: backends its project registered count too.
  const store = await chooseStore(args.store, agent.path, io.cwd);
  if (args.workers > 1 && !store.shared) {
    throw new CliError(
      `--workers ${args.workers} needs a store the processes share (not ${args.store}), e.g. --store sqlite:./sessions.db.`,
    );
  }
  const { authorize } = agent.exports;
  if (authorize !== undefined && typeof authorize !== 'function') {
    throw new CliError(`${args.module}: "authorize" must be a function (request) => userId | null.`);
  }
  const picked = await pickModel(args.model, { env: io.env, cwd: io.cwd, agent });
  return {
    agent,
    authorize: authorize as Authorize | undefined,
    model: picked.kind === 'demo' || picked.kind === 'scripted' ? replaying(picked.create) : picked.create(),
    modelLabel: picked.label,
    store,
  };
}

/** A running serving process. */
export interface ServeInstance {
  port: number;
  /** The store's name as it may be shown (no password). */
  store: string;
  close(): Promise<void>;
}

/** Starts one serving process: sessions on the store, the handler, the page. */
export async function startServe(args: ServeArgs, io: Io, prepared?: Prepared): Promise<ServeInstance> {
  const p = prepared ?? (await prepare(args, io));
  const store = await p.store.open();
  const options: SessionsOptions = { store, model: p.model };
  if (args.maxLoadedSkills !== undefined) options.maxLoadedSkills = args.maxLoadedSkills;
  if (args.maxTranscriptMessages !== undefined) options.maxTranscriptMessages = args.maxTranscriptMessages;
  if (args.maxSteps !== undefined) options.maxSteps = args.maxSteps;
  const sessions = p.agent.core.createSessions(() => p.agent.element(), options);
  const quiet = cluster.isWorker && cluster.worker?.id !== 1;
  const handler = createHandler({
    sessions,
    authorize: p.authorize,
    basePath: '/api',
    limits: { turnsPerMinute: args.turnsPerMinute === 0 ? false : args.turnsPerMinute },
    // Loopback only: the developer at the page sees why a turn failed. With authorize, the default
    // (a generic sentence for the client, the error on stderr).
    onError: p.authorize ? undefined : (error) => errorMessage(error),
    log: (line) => {
      if (!quiet || !line.includes('no authorize option')) io.stderr.write(`${line}\n`);
    },
  });
  const api = toNodeListener(handler);
  const page = chatPage(basename(p.agent.path), '/api');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (!args.noPage && (path === '/' || path === '/index.html') && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': PAGE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    api(req, res);
  });
  server.keepAliveTimeout = 10_000;
  let port: number;
  try {
    port = await listen(server, args.port, args.host);
  } catch (error) {
    await sessions.close().catch(() => {});
    throw error;
  }
  return {
    port,
    store: store.name,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sessions.close();
    },
  };
}

function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/** A cluster worker: serve, tell the primary the port, stop when told or when the primary goes. */
async function runWorker(args: ServeArgs, io: Io): Promise<number> {
  let instance: ServeInstance;
  try {
    instance = await startServe(args, io);
  } catch (error) {
    process.send?.({ type: 'skilltree-serve-failed', error: errorMessage(error) } satisfies WorkerMessage);
    return 1;
  }
  process.send?.({
    type: 'skilltree-serve-listening',
    port: instance.port,
    store: instance.store,
  } satisfies WorkerMessage);
  await new Promise<void>((done) => {
    process.once('disconnect', done);
    process.once('SIGTERM', done);
    process.once('SIGINT', () => {}); // The primary stops the workers.
  });
  await instance.close().catch(() => {});
  return 0;
}

/** The primary of `--workers N`: forks the workers, prints the URL once all listen, restarts one that dies. */
async function runPrimary(args: ServeArgs, io: Io, prepared: Prepared): Promise<number> {
  cluster.setupPrimary({ silent: false });
  const workers = new Set<Worker>();
  let stopping = false;
  let restarts = 0;
  const fork = () => {
    const worker = cluster.fork({ SKILLTREE_SERVE_WORKER: '1' });
    workers.add(worker);
    worker.on('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      io.stderr.write(`skilltree serve: worker ${worker.process.pid} exited (${signal ?? code}).\n`);
      if (++restarts <= 10) fork();
    });
    return worker;
  };
  const ready = new Promise<{ port: number; store: string }>((resolve, reject) => {
    let listening = 0;
    cluster.on('message', (_worker, message: WorkerMessage) => {
      if (message?.type === 'skilltree-serve-failed') reject(new CliError(message.error));
      if (message?.type === 'skilltree-serve-listening' && ++listening === args.workers) resolve(message);
    });
  });
  for (let i = 0; i < args.workers; i++) fork();
  const stop = async () => {
    stopping = true;
    const exits = [...workers].map((w) => new Promise((resolve) => w.once('exit', resolve)));
    for (const worker of workers) worker.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, 10_000);
    await Promise.all(exits);
    clearTimeout(timer);
  };
  let listening: { port: number; store: string } | null;
  try {
    listening = await Promise.race([ready, untilSignal().then(() => null)]);
  } catch (error) {
    await stop();
    throw error;
  }
  if (listening === null) {
    await stop();
    return 0;
  }
  announce(args, io, prepared, listening);
  await untilSignal();
  await stop();
  return 0;
}

function announce(args: ServeArgs, io: Io, p: Prepared, { port, store }: { port: number; store: string }): void {
  const url = urlOf(args.host, port);
  const who = p.authorize ? 'users from the module\'s "authorize"' : 'loopback clients only';
  io.stdout.write(
    `skilltree serve: ${url}  (Ctrl+C to stop)\n` +
      `  api: ${url}/api/chat   page: ${args.noPage ? 'off' : `${url}/`}\n` +
      `  model ${p.modelLabel} · store ${store}${p.store.shared ? '' : ' (this process only)'} · ${args.workers} worker${args.workers === 1 ? '' : 's'} · ${who}\n`,
  );
  if (!p.authorize && !isLoopbackHost(args.host)) {
    io.stderr.write(
      `skilltree serve: listening on ${args.host}, but without an "authorize" export only this machine may chat (others get 403).\n`,
    );
  }
}

/**
 * Runs `skilltree serve`. Resolves to the exit code once stopped
 * (Ctrl+C or SIGTERM).
 */
export async function serveCommand(cli: CliArgs, io: Io): Promise<number> {
  const args = cli as ServeArgs;
  if (cluster.isWorker && process.env.SKILLTREE_SERVE_WORKER === '1') return runWorker(args, io);
  const prepared = await prepare(args, io);
  if (args.workers > 1) return runPrimary(args, io, prepared);
  const instance = await startServe(args, io, prepared);
  announce(args, io, prepared, instance);
  await untilSignal();
  await instance.close();
  return 0;
}
