/**
 * The load test's agent for `skilltree serve`: one skill, a fast fake model that answers at once
 * (so a turn's time is the framework's), and `authorize` from a header (one user per chat).
 */
import { Agent, createAgentStore, Instructions, type Model, Skill, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { echoModel } from './echo-model.js';

const counter = createAgentStore('counter', () => ({ turns: 0 }));

function Bench() {
  const turns = useAgentStore(counter, (s) => s.turns);
  return (
    <>
      <Instructions>Count the turns.</Instructions>
      <Text>Turns counted: {turns}</Text>
      <Tool
        name="count"
        description="Count one turn"
        input={z.object({})}
        run={(_input, ctx) => {
          counter.of(ctx).setState((s) => ({ turns: s.turns + 1 }));
          return 'counted';
        }}
      />
    </>
  );
}

export default function BenchAgent() {
  return (
    <Agent>
      <Instructions>You are a load test.</Instructions>
      <Skill name="bench" description="Counts turns">
        <Bench />
      </Skill>
    </Agent>
  );
}

/** Reads the skill on a chat's first turn, then echoes every message. */
function fastModel(): Model {
  return echoModel('fast', (req) =>
    req.context.includes('<skill name="bench"') ? null : { name: 'read_skill', input: { name: 'bench' } },
  );
}

export const demo = { messages: [], model: fastModel };

export function authorize(request: Request): string | null {
  return request.headers.get('x-bench-user');
}
