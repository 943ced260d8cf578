/**
 * Property tests over random conversations: the window, the LRU order and `contextChanged` lines
 * keep their invariants whatever the model does.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentStore,
  createSession,
  type Message,
  Skill,
  Text,
  Tool,
  useAgentStore,
} from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { windowStart } from '../src/transcript/window.js';
import { call } from './fixtures.js';

/** A random transcript: turns of a user message, then tool rounds (an assistant call and its results), then maybe a reply. */
const transcriptArb = fc
  .array(fc.record({ rounds: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 4 }), reply: fc.boolean() }), {
    maxLength: 12,
  })
  .map((turns) => {
    const messages: Message[] = [];
    let id = 0;
    for (const turn of turns) {
      messages.push({ role: 'user', content: [{ type: 'text', text: 'u' }] });
      for (const calls of turn.rounds) {
        const toolCalls = Array.from({ length: calls }, () => ({ id: `c${++id}`, name: 't', input: {} }));
        messages.push({ role: 'assistant', content: [], toolCalls });
        for (const c of toolCalls)
          messages.push({ role: 'tool', toolCallId: c.id, name: 't', content: [{ type: 'text', text: 'r' }] });
      }
      if (turn.reply) messages.push({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    }
    return messages;
  });

describe('window invariants', () => {
  test('the window starts at a user message, never orphans a tool result, and holds at most max messages unless the newest turn alone is longer', () => {
    fc.assert(
      fc.property(transcriptArb, fc.integer({ min: 1, max: 30 }), (messages, max) => {
        const users = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
        const start = windowStart(messages, users, max);
        const window = messages.slice(start);
        if (users.length > 0) {
          expect(window[0]?.role).toBe('user');
          const newestUser = users[users.length - 1];
          expect(window.length <= max || start === newestUser).toBe(true);
          // The longest such window: starting at the previous user message would break the cap.
          const earlier = users.filter((u) => u < start);
          if (earlier.length > 0) expect(messages.length - earlier[earlier.length - 1]).toBeGreaterThan(max);
        }
        const ids = new Set(
          window.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])),
        );
        for (const m of window) if (m.role === 'tool') expect(ids.has(m.toolCallId)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

const NAMES = ['a', 'b', 'c', 'd', 'e'];
const Many = ({ max }: { max: number }) => (
  <Agent maxLoadedSkills={max}>
    {NAMES.map((name) => (
      <Skill key={name} name={name} description={name}>
        <Tool name={`${name}_ping`} description="p" input={z.object({})} run={() => 'pong'} />
      </Skill>
    ))}
  </Agent>
);

describe('LRU invariants', () => {
  test('at most max loaded; the last read is active; order is by last read; tool calls never reorder; mounts count entries', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(
          fc.oneof(
            fc.constantFrom(...NAMES).map((n) => ({ read: n })),
            fc.constantFrom(...NAMES).map((n) => ({ ping: n })),
          ),
          {
            maxLength: 15,
          },
        ),
        async (max, ops) => {
          const session = createSession(<Many max={max} />);
          let expected: string[] = [];
          const mounts = new Map<string, number>();
          for (const op of ops) {
            if ('read' in op) {
              if (!expected.includes(op.read)) mounts.set(op.read, (mounts.get(op.read) ?? 0) + 1);
              expected = [...expected.filter((n) => n !== op.read), op.read].slice(-max);
              await call(session, 'read_skill', { name: op.read });
            } else {
              const result = await call(session, `${op.ping}_ping`);
              expect(result.isError ?? false).toBe(!expected.includes(op.ping));
            }
            expect(session.loadedSkills).toEqual(expected);
          }
          for (const skill of session.skills) expect(skill.mounts).toBe(mounts.get(skill.name) ?? 0);
          session.dispose();
        },
      ),
      { numRuns: 40 },
    );
  });
});

const notes = createAgentStore('notes', () => ({ lines: [] as string[] }));
function Notes() {
  const lines = useAgentStore(notes, (s) => s.lines);
  return (
    <>
      <Text>{lines.join('\n')}</Text>
      <Tool
        name="add"
        description="add a line"
        input={z.object({ text: z.string() })}
        run={({ text }, ctx) => notes.of(ctx).setState((s) => ({ lines: [...s.lines, text] }))}
      />
      <Tool
        name="drop"
        description="drop the first line"
        run={(_, ctx) => notes.of(ctx).setState((s) => ({ lines: s.lines.slice(1) }))}
      />
    </>
  );
}

describe('contextChanged invariants', () => {
  const text = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !/[\r\n\u2028\u2029\u0085]/.test(s));

  test('each added line is recorded once, cut to the limit, at the end of the result that added it; removals record nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.array(
          fc.oneof(
            text.map((t) => ({ add: t })),
            fc.constant({ drop: true as const }),
          ),
          { maxLength: 10 },
        ),
        async (limit, ops) => {
          const session = createSession(
            <Agent contextLineLimit={limit}>
              <Skill name="notes" description="n">
                <Notes />
              </Skill>
            </Agent>,
          );
          await call(session, 'read_skill', { name: 'notes' });
          let lines: string[] = [];
          for (const op of ops) {
            const before = lines;
            lines = 'add' in op ? [...lines, op.add] : lines.slice(1);
            const result = 'add' in op ? await call(session, 'add', { text: op.add }) : await call(session, 'drop');
            const recorded = textOf(result)
              .split('\n')
              .filter((l) => l.startsWith('contextChanged'));
            const counts = new Map<string, number>();
            for (const l of before) counts.set(l, (counts.get(l) ?? 0) + 1);
            const added: string[] = [];
            for (const l of lines) {
              const left = counts.get(l) ?? 0;
              if (left > 0) counts.set(l, left - 1);
              else if (l.trim() !== '') added.push(l);
            }
            expect(recorded.length).toBe(added.length);
            for (const l of recorded) {
              expect(l.startsWith('contextChanged notes added: ')).toBe(true);
              expect(l.length).toBeLessThanOrEqual('contextChanged notes added: '.length + limit * 4);
            }
            const tail = textOf(result).split('\n').slice(-recorded.length);
            if (recorded.length > 0) expect(tail).toEqual(recorded);
          }
          session.dispose();
        },
      ),
      { numRuns: 30 },
    );
  });
});
