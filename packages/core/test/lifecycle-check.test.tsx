/**
 * A log the session recorded always passes the check a restore puts it through: over random
 * conversations (reads that push skills out, tools that change live lines and conditional tools,
 * unknown tools, skills with lines longer than a `contextChanged` line keeps), a restored session
 * keeps the log and sends what the original would have sent. Only a log that breaks a rule is
 * dropped (see the forged cases in deltas.test.tsx).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentStore,
  createSession,
  Instructions,
  restoreSession,
  Skill,
  scriptedModel,
  Text,
  Tool,
  useAgentStore,
} from '../src/index.js';
import { lifecycleProblems } from '../src/provider.js';

const NAMES = ['a', 'b', 'c', 'd'];
const tally = createAgentStore('tally', () => ({ n: 0 }));
/** Longer than the 200 characters a `contextChanged … added:` line keeps of it. */
const LONG = `Follow these rules. ${'Check each detail before you answer, and say what you checked. '.repeat(5)}`;

function Part({ name }: { name: string }) {
  const n = useAgentStore(tally, (s) => s.n);
  return (
    <>
      <Instructions>{`${name}: ${LONG}`}</Instructions>
      <Text>
        {name} sees {n}
      </Text>
      <Tool
        name={`${name}_bump`}
        description={`Bump from ${name}`}
        input={z.object({})}
        run={(_, ctx) => {
          tally.of(ctx).setState((s) => ({ n: s.n + 1 }));
          return 'bumped';
        }}
      />
      {n % 2 === 1 && <Tool name={`${name}_odd`} description="Only while odd" input={z.object({})} run={() => 'odd'} />}
    </>
  );
}

const Parts = () => (
  <Agent maxLoadedSkills={2}>
    {NAMES.map((name) => (
      <Skill key={name} name={name} description={name}>
        <Part name={name} />
      </Skill>
    ))}
  </Agent>
);

const step = fc.oneof(
  fc.constantFrom(...NAMES).map((name) => ({ toolCalls: [{ name: 'read_skill', input: { name } }] })),
  fc.constantFrom(...NAMES).map((name) => ({ toolCalls: [{ name: `${name}_bump`, input: {} }] })),
  fc.constantFrom(...NAMES).map((name) => ({ toolCalls: [{ name: `${name}_odd`, input: {} }] })),
);
const turns = fc.array(fc.array(step, { maxLength: 4 }), { minLength: 1, maxLength: 6 });

describe('a recorded log passes its check', () => {
  test('while the window holds the whole conversation, a restore after any turn keeps the log and sends the same request', async () => {
    await fc.assert(
      fc.asyncProperty(turns, async (plan) => {
        const steps = plan.flatMap((turn, i) => [...turn, { text: `reply ${i}` }]);
        const options = { maxTranscriptMessages: 500 };
        const session = createSession(<Parts />, { ...options, model: scriptedModel(steps) });
        for (let i = 0; i < plan.length; i++) {
          await session.send(`turn ${i}`);
          const restored = restoreSession(<Parts />, JSON.stringify(session.snapshot()), options);
          expect(restored.warnings.map((w) => w.message)).toEqual([]);
          expect(JSON.stringify(restored.request().lifecycle)).toBe(JSON.stringify(session.request().lifecycle));
          restored.dispose();
        }
        session.dispose();
      }),
      { numRuns: 25 },
    );
  });

  test('with a small window, a restore after any turn sends a sound request, whether it keeps the log or states the skills again', async () => {
    await fc.assert(
      fc.asyncProperty(turns, fc.integer({ min: 2, max: 12 }), async (plan, max) => {
        const steps = plan.flatMap((turn, i) => [...turn, { text: `reply ${i}` }]);
        const session = createSession(<Parts />, { maxTranscriptMessages: max, model: scriptedModel(steps) });
        for (let i = 0; i < plan.length; i++) {
          await session.send(`turn ${i}`);
          const restored = restoreSession(<Parts />, JSON.stringify(session.snapshot()), {
            maxTranscriptMessages: max,
            model: scriptedModel([{ text: 'next' }]),
          });
          await restored.send('next');
          expect(lifecycleProblems(restored.request())).toEqual([]);
          restored.dispose();
        }
        session.dispose();
      }),
      { numRuns: 25 },
    );
  });
});
