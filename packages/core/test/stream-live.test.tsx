/**
 * The stream tells the truth as it happens: a call's `tool-call` event, and whatever the tool emits
 * while it runs, reach the consumer before the tool finishes, not with its result. Each tool here
 * waits on a promise the test holds, and the test lets it go only once it has seen the event.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  Agent,
  createAgentStore,
  createSession,
  createSessions,
  type Model,
  memoryStore,
  type SessionEvent,
  scriptedModel,
  Tool,
} from '../src/index.js';
import { gate } from './gate.js';

const progress = createAgentStore('progress', () => ({ step: 'idle' }));

/** The gates made so far; opened after each test whatever happened, so that no tool waits forever. */
const gates: ReturnType<typeof gate<string>>[] = [];
afterEach(() => {
  for (const held of gates.splice(0)) held.open('released by cleanup');
});
function heldGate() {
  const held = gate<string>();
  gates.push(held);
  return held;
}

/** An agent whose one tool waits on `held` (the test's gate). */
function SlowAgent({ held }: { held: ReturnType<typeof gate<string>> }) {
  return (
    <Agent>
      <Tool
        name="slow_lookup"
        description="Looks something up slowly"
        run={async (_input, ctx) => {
          progress.of(ctx).setState({ step: 'started' });
          return held.opened;
        }}
      />
    </Agent>
  );
}

const script = (): Model =>
  scriptedModel([{ toolCalls: [{ id: 'slow', name: 'slow_lookup', input: {} }] }, { text: 'Found it.' }]);

describe('the stream tells the truth as it happens', () => {
  test('session.stream sends a call’s tool-call event before the tool finishes, and what the tool emits while it runs', async () => {
    const held = heldGate();
    const session = createSession(<SlowAgent held={held} />, { model: script() });
    const seen: string[] = [];
    for await (const event of session.stream('look it up')) {
      seen.push(event.type);
      // Waiting for the store change as well: it happens inside the running tool.
      if (event.type === 'store-changed') {
        expect(seen).toContain('tool-call');
        expect(seen).not.toContain('tool-result');
        held.open('the answer');
      }
    }
    expect(seen.indexOf('tool-call')).toBeLessThan(seen.indexOf('store-changed'));
    expect(seen.indexOf('store-changed')).toBeLessThan(seen.indexOf('tool-result'));
    expect(session.transcript.at(-2)).toMatchObject({ role: 'tool', content: [{ type: 'text', text: 'the answer' }] });
  });

  test('sessions.stream (createSessions) sends the tool-call event before the tool finishes', async () => {
    const held = heldGate();
    const sessions = createSessions(<SlowAgent held={held} />, { store: memoryStore(), model: () => script() });
    const seen: string[] = [];
    for await (const event of sessions.stream('chat-1', 'look it up', { owner: 'ada' })) {
      seen.push(event.type);
      if (event.type === 'tool-call') {
        expect(seen).not.toContain('tool-result');
        held.open('the answer');
      }
    }
    expect(seen.indexOf('tool-call')).toBeLessThan(seen.indexOf('tool-result'));
    const messages = await sessions.messages('chat-1', { owner: 'ada' });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await sessions.close();
  });

  test('leaving the stream while a tool runs stops the turn and records the call’s result once', async () => {
    const held = heldGate();
    const session = createSession(<SlowAgent held={held} />, { model: script() });
    const events: SessionEvent[] = [];
    for await (const event of session.stream('look it up')) {
      events.push(event);
      if (event.type === 'tool-call') break;
    }
    expect(session.busy).toBe(false);
    const results = session.transcript.filter((m) => m.role === 'tool');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolCallId: 'slow', isError: true });
    // The tool's late answer changes nothing.
    held.open('too late');
    await session.settled();
    expect(session.transcript.filter((m) => m.role === 'tool')).toHaveLength(1);
  });
});
