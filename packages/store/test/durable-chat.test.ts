/**
 * Turns that wait and turns that crash, end to end: the AI SDK's own chat engine (`AbstractChat`
 * with `DefaultChatTransport`, what `useChat` runs) against `createHandler` over `createSessions`,
 * served by real Node processes (test/fixtures/chat-server.ts) on one SQLite file, one PostgreSQL
 * and one Redis server. The "browser" reaches the processes through a balancer (the transport's
 * `fetch`), so the test says which process each request goes to:
 * - a refund that needs approval waits; its process stops (SIGTERM) and a new one starts; the
 *   browser approves against the new one; the refund runs once and the answer streams;
 * - a denial reaches the model, with its reason;
 * - a forged approval id, an approval of another input, another user's answer and a replayed
 *   approval are refused (4xx) and run nothing; two processes answering one approval at once run it once;
 * - a page reloaded mid-stream resumes the turn (`GET /chat/:id/stream`) on either process and
 *   shows the whole answer;
 * - a process killed (SIGKILL) while a tool runs costs the chat's next message, on another
 *   process, the lease's time to live (`leaseTtl`, here 3 s), and the crashed call reads as
 *   interrupted, never pending.
 * Every wait is on what the processes print or serve, never on a clock.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { postgresStore } from '@skilltree/store/postgres';
import { redisStore } from '@skilltree/store/redis';
import { sqliteStore } from '@skilltree/store/sqlite';
import { plainChatState } from '@skilltree/test-kit';
import { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runScript } from './script.js';
import { runPrefix, server } from './servers.js';

const SERVER = fileURLToPath(new URL('./fixtures/chat-server.ts', import.meta.url));
const USER = 'alice';
/**
 * The server processes' `leaseTtl`: what a crash costs the chat's next message (the documented
 * bound; half the 6 s default, so the suite waits less, and far from the old half minute).
 */
const LEASE_TTL = 3_000;

/** One server process: its port, what it printed, and a way to wait for a line. */
interface Proc {
  child: ChildProcess;
  url: string;
  exit: Promise<number | null>;
  /** Resolves with the first line (printed so far or later) that starts with `start`; rejects if the process exits first. */
  line(start: string): Promise<string>;
}

const children = new Set<ChildProcess>();

async function startServer(args: string[]): Promise<Proc> {
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let exited = false;
  const script = runScript(SERVER, args, (line) => {
    lines.push(line);
    for (const waiter of waiters) waiter();
  });
  const { child } = script;
  children.add(child);
  const exit = script.exit.then((code) => {
    exited = true;
    children.delete(child);
    for (const waiter of waiters) waiter();
    return code;
  });
  const line = (start: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find((l) => l.startsWith(start));
        if (found !== undefined) resolve(found);
        else if (exited) reject(new Error(`The server exited before printing "${start}". stderr: ${script.stderr()}`));
        else return;
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  const port = (await line('port ')).slice('port '.length);
  return { child, url: `http://127.0.0.1:${port}`, exit, line };
}

/** The chat engine under useChat, with plain state, talking to whichever process `route` names. */
class Page extends AbstractChat<SkilltreeUIMessage> {
  constructor(id: string, route: () => string, initial: SkilltreeUIMessage[] = [], gone?: AbortSignal) {
    const state = plainChatState<SkilltreeUIMessage>(initial);
    super({
      id,
      state,
      transport: new DefaultChatTransport({
        api: 'http://balancer/api/chat',
        headers: { 'x-user': USER },
        // The balancer: the page knows one origin, the test picks the process behind it.
        fetch: (input, init) => {
          const signals = [init?.signal, gone].filter((s): s is AbortSignal => !!s);
          return fetch(String(input).replace('http://balancer', route()), {
            ...init,
            signal: AbortSignal.any(signals),
          });
        },
      }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
  get all() {
    return this.state.messages;
  }
  get last() {
    return this.state.messages.at(-1);
  }
}

/**
 * Resolves once `ready` holds, checking as the event loop turns (what changes it is the chat
 * engine's stream). No clock of its own: the test timeout catches a hang.
 */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The chat engine is idle (its own status). */
const settled = (page: Page) => until(() => page.status !== 'submitted' && page.status !== 'streaming');

type ToolPart = {
  type: 'dynamic-tool';
  state: string;
  toolName: string;
  toolCallId: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string };
};
const toolParts = (m: SkilltreeUIMessage | undefined) =>
  (m?.parts ?? []).filter((p) => p.type === 'dynamic-tool') as unknown as ToolPart[];
const texts = (m: SkilltreeUIMessage | undefined) =>
  (m?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : []));
/**
 * A page on chat `id`, talking to whichever process `route` names, that sent `text` and settled:
 * the page, and the first call its last message shows.
 */
async function askedOnPage(id: string, route: () => string, text: string) {
  const page = new Page(id, route);
  await page.sendMessage({ text });
  await settled(page);
  const [waiting] = toolParts(page.last);
  return { page, waiting };
}
/** What a person sees of a message: its texts and its tool calls' states and results. */
const seen = (m: SkilltreeUIMessage | undefined) =>
  (m?.parts ?? []).flatMap((p) =>
    p.type === 'text'
      ? [p.text]
      : p.type === 'dynamic-tool'
        ? [`${p.toolName} ${p.state} ${JSON.stringify(p.state === 'output-error' ? p.errorText : p.output)}`]
        : [],
  );

async function history(proc: Proc, id: string, user = USER): Promise<SkilltreeUIMessage[]> {
  const response = await fetch(`${proc.url}/api/chat/${id}`, { headers: { 'x-user': user } });
  expect(response.status).toBe(200);
  return (await response.json()) as SkilltreeUIMessage[];
}

/** Posts what the chat engine posts for an approval (the whole conversation), as `user`. */
function postAnswer(proc: Proc, id: string, messages: SkilltreeUIMessage[], user = USER): Promise<Response> {
  return fetch(`${proc.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ id, messages, trigger: 'submit-message' }),
  });
}

/** `messages` with every waiting call of the last one approved, its input replaced by `input`. */
function approvedAll(messages: SkilltreeUIMessage[], input?: unknown): SkilltreeUIMessage[] {
  const last = messages.at(-1)!;
  const parts = last.parts.map((p) =>
    p.type === 'dynamic-tool' && p.state === 'approval-requested'
      ? ({
          ...p,
          ...(input === undefined ? {} : { input }),
          state: 'approval-responded',
          approval: { id: p.approval.id, approved: true },
        } as never)
      : p,
  );
  return [...messages.slice(0, -1), { ...last, parts }];
}

const backends: [string, () => { args: string[]; warmUp: () => Promise<void>; done: () => void }][] = [
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'skilltree-durable-db-'));
      const path = join(dir, 'sessions.db');
      return {
        args: ['sqlite', path, 'dc_'],
        warmUp: async () => {
          const store = sqliteStore({ path, prefix: 'dc_' });
          await store.record('warm-up');
          await store.close();
        },
        done: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'postgres',
    () => {
      const url = server('SKILLTREE_TEST_POSTGRES_URL');
      const prefix = runPrefix('dc');
      return {
        args: ['postgres', url, prefix],
        warmUp: async () => {
          const store = postgresStore({ connectionString: url, prefix });
          await store.record('warm-up');
          await store.close();
        },
        done: () => {},
      };
    },
  ],
  [
    'redis',
    () => {
      const url = server('SKILLTREE_TEST_REDIS_URL');
      const prefix = `${runPrefix('dc')}:`;
      return {
        args: ['redis', url, prefix],
        warmUp: async () => {
          const store = redisStore({ url, prefix });
          await store.record('warm-up');
          await store.close();
        },
        done: () => {},
      };
    },
  ],
];

describe.each(backends)('the AI SDK chat engine against server processes on one %s store', (name, setup) => {
  let dir = '';
  let args: string[] = [];
  let done = () => {};
  /** Two server processes on the store; tests replace one they stop or kill. */
  let a: Proc;
  let b: Proc;
  const runs = (order: string) =>
    existsSync(join(dir, 'runs.log'))
      ? readFileSync(join(dir, 'runs.log'), 'utf8')
          .split('\n')
          .filter((line) => line.startsWith(`${order} `))
      : [];
  const requests = () =>
    readFileSync(join(dir, 'requests.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    const backend = setup();
    ({ done } = backend);
    dir = mkdtempSync(join(tmpdir(), 'skilltree-durable-'));
    args = [...backend.args, dir, String(LEASE_TTL)];
    // The schema first, so two processes do not both create it.
    await backend.warmUp();
    [a, b] = await Promise.all([startServer(args), startServer(args)]);
  });

  afterAll(async () => {
    // Whatever a failed test left running goes too.
    const left = [...children];
    for (const child of left) child.kill('SIGKILL');
    await Promise.all(left.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    if (dir) rmSync(dir, { recursive: true, force: true });
    done();
  });

  test('a refund that needs approval waits; the server restarts (SIGTERM); the browser approves against the new process; the refund runs once and the answer streams', async () => {
    let target = a.url;
    const { page, waiting } = await askedOnPage('refund-1', () => target, 'refund A-7');
    expect(waiting).toMatchObject({ toolName: 'refund', state: 'approval-requested', input: { order: 'A-7' } });
    expect(runs('A-7')).toEqual([]);

    a.child.kill('SIGTERM');
    expect(await a.exit).toBe(0);
    a = await startServer(args);
    target = a.url;
    await page.addToolApprovalResponse({ id: waiting.approval!.id, approved: true });
    await settled(page);

    expect(page.error).toBeUndefined();
    expect(runs('A-7')).toEqual([`A-7 ${a.child.pid}`]);
    expect(texts(page.last)).toEqual(['Done: refunded A-7']);
    expect(toolParts(page.last)).toMatchObject([{ state: 'output-available', output: 'refunded A-7' }]);
    // The answer went on the message it answers, and the other process serves the same conversation.
    expect(page.all.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect((await history(b, 'refund-1')).map(seen)).toEqual(page.all.map(seen));
  });

  test('a denial reaches the model: its next request reads the denied result and the reason; the refund never runs', async () => {
    let target = b.url;
    const { page, waiting } = await askedOnPage('refund-2', () => target, 'refund B-2');
    expect(waiting.state).toBe('approval-requested');
    // Denied from the other process.
    target = a.url;
    await page.addToolApprovalResponse({ id: waiting.approval!.id, approved: false, reason: 'over the limit' });
    await settled(page);

    expect(runs('B-2')).toEqual([]);
    expect(requests().at(-1)).toMatchObject({
      role: 'tool',
      name: 'refund',
      isError: true,
      errorKind: 'denied',
      text: expect.stringContaining('over the limit'),
    });
    expect(texts(page.last)).toEqual(['Done: Denied: over the limit. The tool did not run.']);
    expect(toolParts(page.last)).toMatchObject([{ state: 'output-error' }]);
  });

  test('a forged approval id, another input, another user and a replayed approval get 4xx and run nothing; two processes answering one approval at once run it once, with the input the model gave', async () => {
    const { page, waiting } = await askedOnPage('refund-3', () => a.url, 'refund C-3');
    expect(waiting.state).toBe('approval-requested');
    // The approval as shown (useChat sends the tool part with its input and the approval id it got).
    const answer = approvedAll(page.all);

    const forgedId = approvedAll(page.all, { order: 'C-3' }).map((m) => ({
      ...m,
      parts: m.parts.map((p) =>
        p.type === 'dynamic-tool'
          ? ({ ...p, toolCallId: 'call_999', approval: { id: 'call_999', approved: true } } as never)
          : p,
      ),
    }));
    const forged = await postAnswer(b, 'refund-3', forgedId);
    expect(forged.status).toBe(409);
    const stranger = await postAnswer(b, 'refund-3', answer, 'mallory');
    expect(stranger.status).toBe(404);
    // An approval of another input than the one shown is refused, naming the mismatch.
    const otherInput = await postAnswer(b, 'refund-3', approvedAll(page.all, { order: 'FORGED' }));
    expect(otherInput.status).toBe(409);
    expect(await otherInput.json()).toMatchObject({ error: { code: 'input_differs' } });
    expect(runs('C-3')).toEqual([]);
    expect(runs('FORGED')).toEqual([]);

    // Two tabs, or a retry that reached another worker: both processes get the approval at once.
    const both = await Promise.all([postAnswer(a, 'refund-3', answer), postAnswer(b, 'refund-3', answer)]);
    const bodies = await Promise.all(both.map((r) => r.text()));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(bodies.join('\n')).toContain('Done: refunded C-3');
    expect(runs('C-3')).toHaveLength(1);

    const replay = await postAnswer(b, 'refund-3', answer);
    expect(replay.status).toBe(409);
    await replay.text();
    expect(runs('C-3')).toHaveLength(1);
    expect(runs('FORGED')).toEqual([]);
  });

  test('a page reloaded mid-stream resumes the turn (GET /chat/:id/stream) on the process running it and on the other one, and shows the whole answer', async () => {
    const gone = new AbortController();
    const first = new Page('slow-4', () => a.url, [], gone.signal);
    const sending = first.sendMessage({ text: 'slow D-4' });
    // The turn said "Let me look.", looked up, and its next model call is waiting.
    await a.line('paused D-4');
    // The page reloads: its request goes away, the turn goes on.
    gone.abort(new Error('the page reloaded'));
    await sending.catch(() => {});

    const reloaded = await Promise.all(
      [a, b].map(async (proc) => {
        const restored = await history(proc, 'slow-4');
        // The running turn's answer is left out of the history: the resumed stream brings it, once.
        expect(restored.map((m) => m.role)).toEqual(['user']);
        const page = new Page('slow-4', () => proc.url, restored);
        const resumed = page.resumeStream();
        // The resumed stream shows what the turn said so far.
        await until(() => texts(page.last).includes('Let me look.'));
        return { page, resumed };
      }),
    );
    a.child.stdin!.write('go\n');
    for (const { page, resumed } of reloaded) {
      await resumed;
      await settled(page);
      expect(page.error).toBeUndefined();
      expect(page.all.map((m) => m.role)).toEqual(['user', 'assistant']);
      expect(seen(page.last)).toEqual(['Let me look.', 'lookup output-available "found D-4"', 'Answer: found D-4']);
    }
    // Once the turn is over, the history is the same answer.
    expect((await history(b, 'slow-4')).map(seen)).toEqual(reloaded[0].page.all.map(seen));
  });

  test('a process killed (SIGKILL) while a tool runs costs the next message, on another process, at most the lease time; the crashed call reads as interrupted, never pending', async () => {
    const page = new Page('crash-5', () => a.url);
    const sending = page.sendMessage({ text: 'hang E-5' });
    await a.line('in-tool E-5');
    a.child.kill('SIGKILL');
    await a.exit;
    const killed = performance.now();
    await sending.catch(() => {});
    // Right after the crash, the dead turn is left out (it reads as running): nothing shows as pending.
    const during = await history(b, 'crash-5');
    expect(during.flatMap(toolParts).filter((p) => p.state === 'input-available')).toEqual([]);

    // The page reloads on the live process and sends the next message.
    const next = new Page('crash-5', () => b.url, during);
    await next.sendMessage({ text: 'still there?' });
    await settled(next);
    const waited = performance.now() - killed;
    expect(next.error).toBeUndefined();
    expect(texts(next.last)).toEqual(['echo: still there?']);
    // The lease of the dead process lapses after LEASE_TTL; the rest is a busy machine's slack.
    expect(waited).toBeLessThan(LEASE_TTL + 10_000);

    const after = await history(b, 'crash-5');
    expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(toolParts(after[1])).toMatchObject([
      { toolName: 'hang', state: 'output-error', errorText: expect.stringMatching(/^Interrupted/) },
    ]);
    console.log(`${name}: the next message after a SIGKILL was answered in ${Math.round(waited)} ms`);
  });
});
