/**
 * `skilltree serve <module>`: the agent over HTTP for web apps. `@skilltree/server`'s handler under
 * `/api` (what the AI SDK's `useChat` talks to), a small chat page at `/`, sessions in `--store`, and
 * with `--workers N` that many processes (node:cluster) on one port and one shared store.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { basename } from 'node:path';
import type { Model, Sessions, SessionsOptions } from '@skilltree/core';
import { type Authorize, createHandler, isLoopbackHost, toNodeListener } from '@skilltree/server';
import { CliError, errorMessage } from '../../kit/errors.js';
import type { CliArgs } from '../../kit/flags.js';
import type { Io } from '../../kit/io.js';
import { listen, untilSignal } from '../../kit/listen.js';
import { type AgentModule, loadAgentModule } from '../../kit/load-module.js';
import { makeEngine } from '../../kit/module-options.js';
import { pickModel } from '../../kit/pick-model.js';
import { chooseStore, type StoreChoice } from '../../kit/store.js';
import { scriptPerChat } from './model.js';
import { otlpEndpoint, serveTelemetry, startTracing, type Tracing } from './otlp.js';
import { chatPage, pageCsp } from './page.js';
import { STOP_TIMEOUT, stopServing } from './stop.js';

/** What a worker tells the primary. */
type WorkerMessage =
  | { type: 'skilltree-serve-listening'; port: number; store: string }
  | { type: 'skilltree-serve-failed'; error: string };

/** `skilltree serve`'s flags, with their defaults filled in. */
type ServeArgs = CliArgs & {
  module: string;
  port: number;
  host: string;
  store: string;
  workers: number;
  turnsPerMinute: number;
};

/** The OTLP endpoint of `--otlp` or the environment, checked once (each worker sets up its own SDK). */
function endpointOf(args: ServeArgs, io: Io): string | null {
  return otlpEndpoint(args.otlp, io.env);
}

/** Everything one serving process needs, resolved from the flags and the module's exports. */
interface Prepared {
  agent: AgentModule;
  authorize?: Authorize;
  /** One model, or (a demo or script, or the module's function of the chat) a model per chat. */
  model: Model | ((id: string, owner?: string) => Model);
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
  const picked = await pickModel(args.model, { env: io.env, cwd: io.cwd, agent });
  return {
    agent,
    authorize: agent.options.authorize,
    model:
      picked.forChat ??
      (picked.kind === 'demo' || picked.kind === 'scripted' ? scriptPerChat(picked.create) : picked.create()),
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
  // Read before anything opens: a build without the page's script fails here, naming the fix.
  const page = args.noPage ? null : { html: chatPage(basename(p.agent.path), '/api'), csp: pageCsp() };
  const endpoint = endpointOf(args, io);
  const tracing: Tracing | null = endpoint ? await startTracing(endpoint, io.env) : null;
  const store = await p.store.open();
  const own = p.agent.options;
  // The module's session options, then the flags, which win where both set one.
  const options: SessionsOptions = { ...own.sessionOptions, store, model: p.model };
  if (args.maxLoadedSkills !== undefined) options.maxLoadedSkills = args.maxLoadedSkills;
  if (args.maxTranscriptMessages !== undefined) options.maxTranscriptMessages = args.maxTranscriptMessages;
  if (args.maxSteps !== undefined) options.maxSteps = args.maxSteps;
  // The module's engine, made in this serving process (each worker of --workers N makes its own);
  // one given in sessionOptions instead is serve's to close all the same.
  const engine = own.engine
    ? await makeEngine(own.engine, args.module).catch(async (error) => {
        await store.close().catch(() => {});
        await tracing?.shutdown();
        throw error;
      })
    : own.sessionOptions?.engine;
  if (engine) options.engine = engine;
  const telemetry = serveTelemetry(own.telemetry, tracing !== null);
  if (telemetry.sessions !== undefined) options.telemetry = telemetry.sessions;
  let sessions: Sessions;
  try {
    sessions = p.agent.core.createSessions(() => p.agent.element(), options);
  } catch (error) {
    await engine?.close().catch(() => {});
    await store.close().catch(() => {});
    await tracing?.shutdown();
    throw new CliError(`Could not create the sessions of ${args.module}: ${errorMessage(error)}`);
  }
  const quiet = cluster.isWorker && cluster.worker?.id !== 1;
  if (telemetry.notice && !quiet) io.stderr.write(`${telemetry.notice}\n`);
  const handler = createHandler({
    sessions,
    authorize: p.authorize,
    basePath: '/api',
    limits: { turnsPerMinute: args.turnsPerMinute === 0 ? false : args.turnsPerMinute },
    // Loopback only: the developer at the page sees why a turn or a tool failed. With authorize, the
    // defaults (a generic sentence for the client, the error on stderr).
    onError: p.authorize ? undefined : (error) => errorMessage(error),
    onToolError: p.authorize ? undefined : (error) => error.message,
    ...(own.budget !== undefined ? { budget: own.budget } : {}),
    ...(telemetry.handler !== undefined ? { telemetry: telemetry.handler } : {}),
    log: (line) => {
      if (!quiet || !line.includes('no authorize option')) io.stderr.write(`${line}\n`);
    },
  });
  const api = toNodeListener(handler);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (page && (path === '/' || path === '/index.html') && (req.method === 'GET' || req.method === 'HEAD')) {
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': page.csp,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      res.end(req.method === 'HEAD' ? undefined : page.html);
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
    await engine?.close().catch(() => {});
    await tracing?.shutdown();
    throw error;
  }
  return {
    port,
    store: store.name,
    async close() {
      await stopServing(server, sessions);
      // After the sessions: their turns have ended or given their chats up; the engine stops last.
      await engine?.close().catch(() => {});
      // The last spans (the turns that just committed) are flushed before the process exits.
      await tracing?.shutdown();
    },
  };
}

function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/**
 * Resolves when the primary goes away (it crashed or was killed: its channel closed) while this
 * worker is still serving. Node's cluster exits a worker at once on such a disconnect, before its
 * turns could commit; marked as a disconnect the worker expects, it stays up to drain them instead.
 * A disconnect the worker starts itself, once stopped, is left to cluster (it exits then).
 */
function primaryGone(): { gone: Promise<void>; stopping(): void } {
  let draining = false;
  const gone = new Promise<void>((done) => {
    cluster.worker?.once('disconnect', () => {
      if (draining || !cluster.worker) return;
      // Read by cluster's own disconnect handler, right after this event: it skips process.exit.
      cluster.worker.exitedAfterDisconnect = true;
      done();
    });
  });
  return {
    gone,
    stopping() {
      draining = true;
    },
  };
}

/** Sends `message` to the primary, unless it is gone (a send on a closed channel would throw). */
function tellPrimary(message: WorkerMessage): void {
  if (process.connected) process.send?.(message);
}

/** A cluster worker: serve, tell the primary the port, stop when told or when the primary goes. */
async function runWorker(args: ServeArgs, io: Io): Promise<number> {
  const primary = primaryGone();
  let instance: ServeInstance;
  try {
    instance = await startServe(args, io);
  } catch (error) {
    tellPrimary({ type: 'skilltree-serve-failed', error: errorMessage(error) });
    return 1;
  }
  const told = new Promise<void>((done) => {
    void primary.gone.then(done);
    process.once('SIGTERM', done);
    process.on('SIGINT', () => {}); // Ctrl+C reaches the whole group: the primary stops the workers.
  });
  tellPrimary({ type: 'skilltree-serve-listening', port: instance.port, store: instance.store });
  await told;
  primary.stopping();
  exitAfter(STOP_TIMEOUT + 1_000, io);
  await instance.close().catch(() => {});
  // The channel to the primary would keep this process alive: let it go so the worker exits now.
  if (process.connected) process.disconnect();
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
    // A signal, not worker.kill(): each worker drains (see stop.ts) and exits by itself.
    for (const worker of workers) worker.process.kill('SIGTERM');
    const timer = setTimeout(() => {
      for (const worker of workers) {
        io.stderr.write(
          `skilltree serve: worker ${worker.process.pid} did not stop in ${STOP_TIMEOUT} ms; killing it.\n`,
        );
        worker.process.kill('SIGKILL');
      }
    }, STOP_TIMEOUT + 2_000);
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
  const signalled = untilSignal();
  announce(args, io, prepared, listening);
  await signalled;
  await stop();
  return 0;
}

function announce(args: ServeArgs, io: Io, p: Prepared, { port, store }: { port: number; store: string }): void {
  const url = urlOf(args.host, port);
  const who = p.authorize ? 'users from the module\'s "authorize"' : 'loopback clients only, none through a proxy';
  io.stdout.write(
    `skilltree serve: ${url}  (Ctrl+C to stop)\n` +
      `  api: ${url}/api/chat   page: ${args.noPage ? 'off' : `${url}/`}\n` +
      `  model ${p.modelLabel} · store ${store}${p.store.shared ? '' : ' (this process only)'} · ${args.workers} worker${args.workers === 1 ? '' : 's'} · ${who}\n`,
  );
  const endpoint = endpointOf(args, io);
  if (endpoint) io.stdout.write(`  traces: OTLP/HTTP to ${endpoint}\n`);
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
  // A missing SDK is a clear error before anything listens (the workers would each fail with it).
  const endpoint = endpointOf(args, io);
  if (endpoint && args.workers > 1) await (await startTracing(endpoint, io.env)).shutdown();
  if (args.workers > 1) return runPrimary(args, io, prepared);
  const instance = await startServe(args, io, prepared);
  // Listen for the signal before the URL is out: a stop right after it must not find no listener.
  const signalled = untilSignal();
  announce(args, io, prepared, instance);
  await signalled;
  exitAfter(STOP_TIMEOUT + 1_000, io);
  await instance.close();
  return 0;
}

/** Ends the process after `ms` if the stop has not (a store that hangs must not keep it running). */
function exitAfter(ms: number, io: Io): void {
  setTimeout(() => {
    io.stderr.write(`skilltree serve: did not stop in ${ms} ms; exiting.\n`);
    process.exit(1);
  }, ms).unref();
}
