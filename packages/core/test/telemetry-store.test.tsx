/**
 * The store's work is in the trace: a `createSessions` turn's `invoke_agent` span opens before the
 * turn waits for the chat's lease, and the wait (`wait_lease`), the load (`load_session`) and every
 * commit (`commit_session`) are spans under it. So a turn held up by another turn's lease shows the
 * wait. Checked with the real SDK and its in-memory exporter.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test } from 'vitest';
import {
  Agent,
  createSessions,
  memoryStore,
  type SessionStore,
  type SessionsOptions,
  scriptedModel,
  Tool,
} from '../src/index.js';
import { type SpanOrder, shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

/** The spans under `root` as an indented list, children in start order. */
function tree(spans: readonly ReadableSpan[], order: SpanOrder, root: ReadableSpan, depth = 0): string[] {
  const children = spans.filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId).sort(order.byStart);
  return [
    `${'  '.repeat(depth)}${root.name}${root.status.code === 2 ? ' [error]' : ''}`,
    ...children.flatMap((child) => tree(spans, order, child, depth + 1)),
  ];
}

/** A store whose `acquire` says when a turn was first refused the lease. */
function watchedStore(): { store: SessionStore; refused: Promise<void> } {
  const store = memoryStore();
  let refusedOnce!: () => void;
  const refused = new Promise<void>((resolve) => {
    refusedOnce = resolve;
  });
  const acquire = store.acquire.bind(store);
  return {
    store: {
      ...store,
      acquire: async (...args: Parameters<SessionStore['acquire']>) => {
        const got = await acquire(...args);
        if (!got) refusedOnce();
        return got;
      },
    },
    refused,
  };
}

/** A tool that says when it started (so the turn running it holds the lease) and waits for `held`. */
function Slow({ held, started }: { held: Promise<string>; started?: () => void }) {
  return (
    <Agent>
      <Tool
        name="slow"
        description="Takes a while"
        run={() => {
          started?.();
          return held;
        }}
      />
    </Agent>
  );
}

/** A promise resolved by the returned function: the moment a turn holds the lease. */
function signal(): { fired: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}

/**
 * Traced sessions on a watched store whose first turn holds the lease in its `slow` tool until
 * `release`: `running` fires once it holds it, `refused` once another turn was refused the lease.
 */
function heldTurn(options: Omit<SessionsOptions, 'store' | 'telemetry'>) {
  const t = tracing();
  let release!: (text: string) => void;
  const held = new Promise<string>((resolve) => {
    release = resolve;
  });
  const { store, refused } = watchedStore();
  const running = signal();
  const sessions = createSessions(<Slow held={held} started={running.fire} />, {
    ...options,
    store,
    telemetry: { tracer: t.tracer },
  });
  return { t, release, refused, running, sessions };
}

describe('store spans: the lease wait, the load and the commits are in the turn’s trace', () => {
  test('a createSessions turn is one trace: wait_lease, load_session and a commit_session per message nest under invoke_agent', async () => {
    const t = tracing();
    const sessions = createSessions(<Slow held={Promise.resolve('done')} />, {
      model: () => scriptedModel([{ toolCalls: [{ id: 's', name: 'slow' }] }, { text: 'ok' }, { text: 'again' }]),
      telemetry: { tracer: t.tracer },
    });
    await sessions.send('chat-1', 'go', { owner: 'ada' });
    const spans = t.exporter.getFinishedSpans();
    const [turn] = spans.filter((s) => s.name === 'invoke_agent');
    expect(spans.filter((s) => s.name === 'invoke_agent')).toHaveLength(1);
    expect(turn.parentSpanContext).toBeUndefined();
    expect(tree(spans, t.order, turn)).toEqual([
      'invoke_agent',
      '  wait_lease',
      '  load_session',
      '  commit_session',
      '  chat scripted',
      '  commit_session',
      '  execute_tool slow',
      '  commit_session',
      '  chat scripted',
      '  commit_session',
      '  commit_session',
    ]);
    const byName = (name: string) => spans.filter((s) => s.name === name);
    expect(byName('wait_lease')[0].attributes).toMatchObject({
      'skilltree.operation.name': 'wait_lease',
      'skilltree.lease.attempts': 1,
      'skilltree.session.id': 'chat-1',
      'skilltree.owner': 'ada',
    });
    expect(byName('load_session')[0].attributes).toMatchObject({
      'skilltree.session.source': 'new',
      'skilltree.session.version': 0,
    });
    expect(byName('commit_session').map((s) => s.attributes['skilltree.store.messages_appended'])).toEqual([
      1, 1, 1, 1, 0,
    ]);
    // The turn's own attributes are on the same span.
    expect(turn.attributes).toMatchObject({ 'gen_ai.provider.name': 'scripted', 'skilltree.turn.steps': 2 });

    // The next turn finds the session mounted in this process.
    t.exporter.reset();
    await sessions.send('chat-1', 'again', { owner: 'ada' });
    const next = t.exporter.getFinishedSpans().find((s) => s.name === 'load_session') as ReadableSpan;
    expect(next.attributes).toMatchObject({ 'skilltree.session.source': 'cache', 'skilltree.transcript.length': 4 });
    await sessions.close();
  });

  test('a turn that waits for another turn’s lease shows the wait: its wait_lease span lasts until the first turn gave the lease up', async () => {
    const { t, release, refused, running, sessions } = heldTurn({
      model: () =>
        scriptedModel([{ toolCalls: [{ id: 's', name: 'slow' }] }, { text: 'first done' }, { text: 'second done' }]),
    });
    const first = sessions.send('chat-1', 'slow one', { owner: 'ada' });
    // The second turn asks only once the first holds the lease (its tool runs and waits for the test):
    // sent together, either could win the lease first.
    await running.fired;
    const second = sessions.send('chat-1', 'quick one', { owner: 'ada' });
    await refused;
    release('slow done');
    expect((await first).text).toBe('first done');
    expect((await second).text).toBe('second done');

    const spans = t.exporter.getFinishedSpans();
    const turns = spans.filter((s) => s.name === 'invoke_agent');
    expect(turns).toHaveLength(2);
    const [firstTurn, secondTurn] = turns.sort(t.order.byEnd);
    const within = (turn: ReadableSpan, name: string) =>
      spans.filter((s) => s.name === name && s.parentSpanContext?.spanId === turn.spanContext().spanId);
    const [wait] = within(secondTurn, 'wait_lease');
    expect(Number(wait.attributes['skilltree.lease.attempts'])).toBeGreaterThan(1);
    // The wait ended only after the first turn's last commit: it covers the whole time it was held up.
    const lastCommit = within(firstTurn, 'commit_session').at(-1) as ReadableSpan;
    // (Compared by the order the spans started and ended in, not by their clock ticks.)
    expect(t.order.ended(wait)).toBeGreaterThan(t.order.ended(lastCommit));
    expect(t.order.started(wait)).toBeLessThan(t.order.started(lastCommit));
    // And the turn's span covers the wait: its duration is what the user waited.
    expect(t.order.started(secondTurn)).toBeLessThan(t.order.started(wait));
    await sessions.close();
  });

  test('a turn refused the lease (onBusy: reject) is a failed invoke_agent span with a failed wait_lease: SessionBusyError', async () => {
    const { t, release, refused, running, sessions } = heldTurn({
      onBusy: 'reject',
      model: () => scriptedModel([{ toolCalls: [{ id: 's', name: 'slow' }] }, { text: 'done' }]),
    });
    const first = sessions.send('chat-1', 'slow one');
    await running.fired;
    let refusal: unknown;
    await sessions.send('chat-1', 'too soon').catch((error) => {
      refusal = error;
    });
    await refused;
    release('slow done');
    await first;
    expect((refusal as Error).name).toBe('SessionBusyError');
    const spans = t.exporter.getFinishedSpans();
    const failed = spans.filter((s) => s.name === 'invoke_agent' && s.status.code === 2);
    expect(failed.length).toBeGreaterThan(0);
    const lines = tree(spans, t.order, failed[0]);
    expect(lines).toEqual(['invoke_agent [error]', '  wait_lease [error]']);
    const wait = spans.find(
      (s) => s.name === 'wait_lease' && s.parentSpanContext?.spanId === failed[0].spanContext().spanId,
    ) as ReadableSpan;
    expect(wait.attributes['error.type']).toBe('SessionBusyError');
    expect(failed[0].attributes['error.type']).toBe('SessionBusyError');
    await sessions.close();
  });
});
