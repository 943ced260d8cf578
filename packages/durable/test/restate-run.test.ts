/**
 * A caller of `restateEngine`'s `run` whose turn the server runs in another process: this
 * process's deployment was moved there while it lived (an overloaded machine whose chat leases
 * lapsed), so no handler here ever settles the caller. The caller hears the end the server records
 * instead of waiting for ever. The admin API and the ingress are stood in for (no server), so the
 * turn's handler never runs in this process, exactly as when the server sends it elsewhere.
 */
import { afterEach, beforeAll, expect, test, vi } from 'vitest';

/** Resolves with the way to end the invocation on the server, once the caller attached to it. */
let attachedTo: (end: () => void) => void = () => {};
const attached = new Promise<() => void>((resolve) => {
  attachedTo = resolve;
});
vi.mock('../src/restate-admin.js', () => ({
  listDeployments: async () => [],
  registerDeployment: async () => {},
  moveDeployment: async () => {},
  pendingTurns: async () => [],
  resumeInvocation: async () => {},
  killInvocation: async () => {},
}));
vi.mock('../src/restate-ingress.js', async (original) => ({
  ...(await original<typeof import('../src/restate-ingress.js')>()),
  send: async () => new Response(JSON.stringify({ invocationId: 'inv-1' }), { status: 200 }),
  attach: () => new Promise<void>((resolve) => attachedTo(resolve)),
}));

beforeAll(() => {
  // The SDK wants Node 22's Promise.withResolvers; the engine's own code runs on any Node.
  const promise = Promise as { withResolvers?: unknown };
  promise.withResolvers ??= <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (error: unknown) => void;
    const made = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise: made, resolve, reject };
  };
});

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
});

test('a turn the server ran in another process ends its caller here once the server has its end, saying where the reply is', async () => {
  const { restateEngine } = await import('../src/restate.js');
  const engine = restateEngine({ recoveryInterval: 0, port: 0 });
  close = () => engine.close();
  let ranHere = false;
  engine.register({
    run: async () => {
      ranHere = true;
      return null;
    },
    abandoned: async () => false,
    look: async () => 'alive',
    hold: async () => null,
  });
  const running = engine.run('skilltree-turn-x-1', { id: 'c1', owner: null, input: 'hi' });
  const outcome = running.then(
    () => 'resolved',
    (error: Error) => error.message,
  );
  // The server records the invocation's end (it ran on the deployment's new process).
  (await attached)();
  expect(await outcome).toMatch(/turn skilltree-turn-x-1 ran in another process.*chat "c1".*GET \/chat\/:id\/stream/);
  expect(ranHere).toBe(false);
});
