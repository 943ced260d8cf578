/**
 * `restateEngine`: durable turns on Restate (`@restatedev/restate-sdk`). A Restate server keeps the
 * journal; each process serves its own turn service (`skilltree-turn-<executorId>`) on an HTTP/2
 * endpoint the server calls, so a turn it starts runs here and streams to its caller. A turn is one
 * invocation of that service; each model call, tool run and charge is a `ctx.run` of it. When a
 * process dies, the server retries its invocations against its endpoint; once the dead process's
 * chat leases have expired, another process serves the dead service on an endpoint of its own and
 * points the dead deployment there (admin API), and the retried invocation replays its journal.
 * A turn that ends waiting waits on an awakeable, which the turn that answers it resolves through
 * the ingress (`wait`/`signal`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type * as Restate from '@restatedev/restate-sdk';
import type { DurableRegistration, LeaseHold, TurnEngine } from '@skilltree/core/provider';
import {
  killInvocation,
  listDeployments,
  moveDeployment,
  pendingTurns,
  registerDeployment,
  resumeInvocation,
} from './restate-admin.js';
import { type ChildRequest, restateChildren } from './restate-children.js';
import { attempts, type Deferred, deferred, messageOf } from './restate-deferred.js';
import { refused, serviceName, TURN_SERVICE_PREFIX } from './restate-endpoint.js';
import { attach, ranElsewhere, resolveAwakeable, send, type TurnRequest } from './restate-ingress.js';
import { awaitInOrder } from './restate-order.js';
import { SUSPENDED, stepOn } from './restate-step.js';
import { type RecoveryWatch, registerOnce, watchEvery } from './watch.js';

export { serviceName, TURN_SERVICE_PREFIX } from './restate-endpoint.js';

/** Options of {@link restateEngine}. */
export interface RestateEngineOptions {
  /** The server's ingress, where turns are started. Default `http://127.0.0.1:8080`. */
  ingressUrl?: string;
  /** The server's admin API, where this process registers its endpoint. Default `http://127.0.0.1:9070`. */
  adminUrl?: string;
  /** The port this process's endpoint listens on. Default 0: a free port. */
  port?: number;
  /** The host the server reaches this process at. Default `127.0.0.1`. */
  host?: string;
  /**
   * This process's executor: it names the process's turn service. A process that restarts with
   * the same id takes its own turns back at launch; one that never comes back has its turns taken
   * by another process once their chats' leases expire. Default: a new id per process.
   */
  executorId?: string;
  /**
   * Milliseconds between two looks for turns of dead processes. Default 2 000; 0 turns the watch
   * off (a process then takes back only its own turns, at launch).
   */
  recoveryInterval?: number;
  /** The longest pause, in milliseconds, between the server's retries of a turn whose process is gone. Default 2 000. */
  maxRetryInterval?: number;
  /**
   * Milliseconds `close()` lets the server's open invocation streams finish (a turn that just ended
   * sending its end) before it cuts them. Default 5 000.
   */
  closeGrace?: number;
  /** Called when this process finished (or failed) a turn another process had started. */
  onRecovered?(info: RecoveredTurn): void;
}

/** A turn this process recovered (see {@link RestateEngineOptions.onRecovered}). */
export interface RecoveredTurn {
  /** The turn's id (the Restate invocation's idempotency key). */
  turnId: string;
  /** The chat id, as its caller named it. */
  chatId: string;
  /** What the turn failed with, when it did. */
  error?: string;
}

type Sdk = typeof Restate;

/**
 * A {@link TurnEngine} on a Restate server. Needs Node 22 or later (the SDK uses
 * `Promise.withResolvers`). Create one per `createSessions`, and close it after the sessions.
 *
 * @example
 * const sessions = createSessions(<ShopAgent />, {
 *   store: postgresStore({ connectionString }),
 *   model,
 *   engine: restateEngine({ ingressUrl: 'http://restate:8080', adminUrl: 'http://restate:9070', host: process.env.POD_IP }),
 * });
 */
export function restateEngine(options: RestateEngineOptions = {}): TurnEngine {
  if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== 'function') {
    throw new Error(
      `restateEngine needs Node 22 or later: the Restate SDK (@restatedev/restate-sdk 1.17) uses Promise.withResolvers, which Node ${process.versions.node} lacks. Run this process on Node 22+, or use dbosEngine from @skilltree/durable/dbos.`,
    );
  }
  const ingress = options.ingressUrl ?? 'http://127.0.0.1:8080';
  const admin = options.adminUrl ?? 'http://127.0.0.1:9070';
  const host = options.host ?? '127.0.0.1';
  const executorId = options.executorId ?? `${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const service = serviceName(executorId);
  const interval = options.recoveryInterval ?? 2_000;
  /** The running turn's invocation, its id and the service it runs on. */
  const contexts = new AsyncLocalStorage<{ ctx: Restate.Context; turnId: string; service: string }>();
  const servers: Http2Server[] = [];
  const sessions = new Set<ServerHttp2Session>();
  /** Turns started here: their caller waits for what the handler returns. */
  const started = new Map<string, Deferred>();
  const runs = attempts();
  /** Deployments of dead processes this process serves now. */
  const adopted = new Set<string>();
  /** Chat leases held for the turns of deployments moved here, by turn id, until their runs here end. */
  const holds = new Map<string, LeaseHold>();
  let suspects = new Set<string>();
  let loaded: Sdk | null = null;
  /** The child invocations of the turns' subagent runs. */
  const children = restateChildren(admin, {
    step: (ctx, name, fn) => stepOn(ctx, name, fn, true),
    send(ctx, to, request) {
      const sent = ctx.genericSend({
        service: to,
        method: 'subagent',
        parameter: request,
        inputSerde: (loaded as Sdk).serde.json,
        idempotencyKey: request.childId,
      });
      // Awaited (in order) so that the SDK sends it to the server now: the run waits on the child
      // in this process, not on a Restate promise, and nothing else would flush it.
      awaitInOrder(ctx, sent.invocationId).catch(() => {});
    },
    terminal: (message) => new (loaded as Sdk).TerminalError(message),
  });
  let registration: DurableRegistration | null = null;
  let launched: Promise<void> | null = null;
  let watch: RecoveryWatch | undefined;
  let closed = false;
  const stopping = new AbortController();

  function turnService(sdk: Sdk, name: string) {
    return sdk.service({
      name,
      handlers: {
        run: async (ctx: Restate.Context, request: TurnRequest) => {
          const { turnId, input } = request;
          const own = started.get(turnId);
          const hold = holds.get(turnId);
          const current = runs.begin(turnId);
          let suspended = false;
          try {
            const value = await contexts.run({ ctx, turnId, service: name }, () =>
              (registration as DurableRegistration).run(turnId, input),
            );
            if (own && current()) own.resolve(value);
            else if (current()) options.onRecovered?.({ turnId, chatId: input.id });
            return null;
          } catch (error) {
            // The attempt ends, the turn goes on (a suspension, a dropped connection): Restate resumes it.
            suspended = (error as { code?: unknown })?.code === SUSPENDED;
            // A stale attempt (a newer one runs the turn here) neither reports nor kills the turn.
            if (!current()) throw error;
            if (own) own.reject(error);
            else options.onRecovered?.({ turnId, chatId: input.id, error: messageOf(error) });
            // A failed turn is over (as on DBOS). One that failed before its recorded steps ran out
            // (a deploy that does not replay, a chat deleted since) cannot end with an output:
            // Restate would see a journal that diverged and retry it forever. So it is killed.
            await killInvocation(admin, ctx.request().id);
            // The turn's own failure is its end: the server must not run it again.
            throw new sdk.TerminalError(messageOf(error));
          } finally {
            if (!suspended && current()) children.turnEnded(turnId);
            runs.end(turnId, current);
            // Adopted by the run (then a no-op), or given back: the turn ended without taking it.
            if (hold) await releaseHold(turnId, hold);
          }
        },
        subagent: (ctx: Restate.Context, request: ChildRequest) => children.serve(ctx, name, request),
      },
      options: {
        retryPolicy: { initialInterval: 50, maxInterval: options.maxRetryInterval ?? 2_000, onMaxAttempts: 'pause' },
        // A turn waits for leases and runs long tools between journal entries: the server must not abort it.
        inactivityTimeout: { hours: 1 },
        abortTimeout: { hours: 1 },
      },
    });
  }

  /** Serves `name` on a new HTTP/2 endpoint; resolves with its URI. */
  async function serveService(sdk: Sdk, name: string, port: number): Promise<string> {
    const server = createServer(sdk.createEndpointHandler({ services: [turnService(sdk, name)] }));
    servers.push(server);
    server.on('session', (session) => {
      sessions.add(session);
      session.once('close', () => sessions.delete(session));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  }

  /** Pending turns of other processes' services whose chats nobody holds: their deployments move here. */
  async function recoverDead(sdk: Sdk): Promise<void> {
    if (!registration || closed) return;
    const deployments = (await listDeployments(admin)).filter(
      (d) => !adopted.has(d.id) && d.services.some((s) => s.startsWith(TURN_SERVICE_PREFIX) && s !== service),
    );
    const byService = new Map(deployments.flatMap((d) => d.services.map((s) => [s, d] as const)));
    const pending = await pendingTurns(admin, [...byService.keys()]);
    const seen = new Set<string>();
    const dead = new Map<string, { name: string; invocations: string[]; turns: TurnRequest[] }>();
    /** Whether each deployment's endpoint refuses connections (looked up once per look). */
    const gone = new Map<string, Promise<boolean>>();
    /** The subagent children pending on each deployment: resumed with its turns when it moves here. */
    const childrenOn = new Map<string, string[]>();
    for (const turn of pending) {
      const deployment = byService.get(turn.service);
      const request = turn.request as (TurnRequest & Partial<ChildRequest>) | undefined;
      if (deployment && typeof request?.childId === 'string') {
        const on = childrenOn.get(deployment.id) ?? [];
        on.push(turn.invocationId);
        childrenOn.set(deployment.id, on);
      }
      if (!deployment || !request?.input) continue;
      if (!gone.has(deployment.id)) gone.set(deployment.id, refused(deployment.uri));
      // A turn whose endpoint is gone is abandoned even if it never began (the chat does not show
      // it): its caller lost it with the process, and nobody else would ever run it.
      const unreachable = await (gone.get(deployment.id) as Promise<boolean>);
      // One turn's failed look (a hostile or outdated input, the store failing for that chat)
      // passes over that turn only, not the rest.
      const abandoned = await registration.abandoned(request.input, request.turnId, { unreachable }).catch(() => false);
      if (!abandoned) continue;
      seen.add(turn.invocationId);
      // Abandoned on two looks in a row: a live process between taking a turn and its lease is not.
      if (!suspects.has(turn.invocationId)) continue;
      const entry = dead.get(deployment.id) ?? { name: turn.service, invocations: [], turns: [] };
      entry.invocations.push(turn.invocationId);
      entry.turns.push(request);
      dead.set(deployment.id, entry);
    }
    suspects = seen;
    for (const [id, { name, invocations, turns }] of dead) {
      if (closed) return;
      // Each chat's lease first: until the runs here take them over, other processes find the chats held.
      if (!(await holdAll(turns))) continue;
      adopted.add(id);
      try {
        const uri = await serveService(sdk, name, 0);
        await moveDeployment(admin, id, uri);
      } catch (error) {
        // Not moved: the chats go back, so that the next look (here or elsewhere) can take them.
        adopted.delete(id);
        await Promise.all(turns.map(({ turnId }) => releaseHold(turnId)));
        throw error;
      }
      for (const invocation of [...invocations, ...(childrenOn.get(id) ?? [])])
        await resumeInvocation(admin, invocation);
    }
  }

  /**
   * Gives back `hold` on turn `turnId`'s chat (the one held now, by default), unless its run here
   * adopted it (then nothing); a newer hold of the same turn stays.
   */
  async function releaseHold(turnId: string, hold = holds.get(turnId)): Promise<void> {
    if (hold && holds.get(turnId) === hold) holds.delete(turnId);
    await hold?.release();
  }

  /** Holds the leases of `turns`' chats for this process; when one is taken already, none (another process moves them). */
  async function holdAll(turns: TurnRequest[]): Promise<boolean> {
    const taken: [string, LeaseHold][] = [];
    for (const { turnId, input } of turns) {
      // A store that fails gives back what was held so far: the next look tries again.
      const hold = await (registration as DurableRegistration).hold(input, turnId).catch(() => null);
      if (!hold) {
        await Promise.all(taken.map(([, h]) => h.release()));
        return false;
      }
      taken.push([turnId, hold]);
    }
    for (const [turnId, hold] of taken) holds.set(turnId, hold);
    return true;
  }

  function launch(): Promise<void> {
    launched ??= (async () => {
      const sdk = (await import('@restatedev/restate-sdk')) as Sdk;
      loaded = sdk;
      const uri = await serveService(sdk, service, options.port ?? 0);
      // A restarted process (same executor) points its old deployment here: its turns come back.
      const mine = (await listDeployments(admin)).filter((d) => d.services.includes(service));
      if (mine.length === 0) await registerDeployment(admin, uri);
      for (const d of mine) {
        await moveDeployment(admin, d.id, uri);
        adopted.add(d.id);
      }
      if (mine.length > 0) {
        for (const turn of await pendingTurns(admin, [service])) await resumeInvocation(admin, turn.invocationId);
      }
      if (!closed) watch = watchEvery(interval, () => recoverDead(sdk));
    })();
    return launched;
  }

  return {
    name: 'restate',
    register(given) {
      registration = registerOnce('restateEngine', registration, given);
      // Launching takes back this executor's own pending turns: the runner is there to take them.
      launch().catch(() => {});
    },
    async run(turnId, input) {
      if (!registration) {
        throw new Error('restateEngine: no createSessions registered with this engine (pass it as { engine }).');
      }
      await launch();
      // Two calls with one id (two answers of one waiting turn at once) send it twice: the
      // server's idempotency key starts one invocation, and both hear how it ended.
      const waiter = started.get(turnId) ?? deferred();
      waiter.callers++;
      started.set(turnId, waiter);
      try {
        const response = await send(ingress, service, { turnId, input });
        if (!response.ok) {
          throw new Error(
            `restateEngine: the Restate ingress (${ingress}) refused turn ${turnId}: ${response.status} ${await response.text()}`,
          );
        }
        const { invocationId } = (await response.json()) as { invocationId: string };
        // The turn's end counts once the server has it: a process killed before that would leave
        // the turn to be run again elsewhere, after its caller had heard it end.
        const attached = attach(ingress, invocationId, stopping.signal);
        // The server may run the turn in another process (this one's deployment was moved there
        // while it lived: an overloaded machine whose leases lapsed). No handler here then settles
        // the waiter; the end the server records is all this caller will hear.
        // (An attach the engine's close cut short says nothing: close rejects the waiter itself.)
        const elsewhere = attached.then(
          () => (stopping.signal.aborted ? new Promise<never>(() => {}) : { elsewhere: true as const }),
          () => new Promise<never>(() => {}),
        );
        const settled = await Promise.race([
          waiter.promise.then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          ),
          elsewhere,
        ]);
        if ('elsewhere' in settled) throw ranElsewhere(turnId, input.id);
        await attached;
        if ('error' in settled) throw settled.error;
        return settled.value;
      } finally {
        if (--waiter.callers === 0 && started.get(turnId) === waiter) started.delete(turnId);
      }
    },
    async step<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const ctx = contexts.getStore()?.ctx;
      if (!ctx) throw new Error(`restateEngine: step ${name} ran outside a turn of this engine.`);
      return stepOn(ctx, name, fn);
    },
    child(name) {
      const turn = contexts.getStore();
      if (!turn) throw new Error(`restateEngine: subagent run ${name} was opened outside a turn of this engine.`);
      return children.open(turn.ctx, turn.service, turn.turnId, name);
    },
    async wait(name) {
      const ctx = contexts.getStore()?.ctx;
      if (!ctx) throw new Error(`restateEngine: wait ${name} was opened outside a turn of this engine.`);
      // An awakeable: its id is journaled, so a replayed turn opens the same one, and anyone may
      // resolve it through the ingress. The invocation waits on it (suspended, not ended).
      const { id, promise } = ctx.awakeable<unknown>();
      return { id, received: () => awaitInOrder(ctx, promise) };
    },
    async signal(waitId, value) {
      await resolveAwakeable(ingress, waitId, value);
    },
    async close() {
      closed = true;
      children.close();
      stopping.abort();
      await watch?.stop();
      await launched?.catch(() => {});
      for (const waiter of started.values()) waiter.reject(new Error('restateEngine: closed while the turn ran.'));
      const down = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
      // A turn that just ended is still sending its end to the server: let those streams finish.
      for (const session of sessions) session.close();
      // A turn still running here (a hung tool) would hold the server forever: Restate retries it elsewhere.
      const grace = setTimeout(() => {
        for (const session of sessions) session.destroy();
      }, options.closeGrace ?? 5_000);
      await Promise.all(down);
      clearTimeout(grace);
    },
  };
}
