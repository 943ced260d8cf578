/**
 * The load test's agent for `skilltree serve`: one skill, a fast fake model that answers at once
 * (so a turn's time is the framework's), and `authorize` from a header (one user per chat).
 */
import {
  Agent,
  createAgentStore,
  Instructions,
  type Model,
  Skill,
  Text,
  Tool,
  textOf,
  useAgentStore,
} from '@skilltree/core';
import { z } from 'zod';

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

/** Answers at once: reads the skill on a chat's first turn, then echoes every message. */
function fastModel(): Model {
  let calls = 0;
  return {
    name: 'fast',
    async generate(req) {
      const last = req.messages.findLast((m) => m.role === 'user');
      const text = last ? textOf(last).split('\n')[0] : '';
      const tail = req.messages.at(-1);
      if (!req.context.includes('<skill name="bench"') && tail?.role === 'user') {
        return { text: '', toolCalls: [{ id: `f${++calls}`, name: 'read_skill', input: { name: 'bench' } }] };
      }
      return { text: `echo: ${text}`, toolCalls: [] };
    },
  };
}

export const demo = { messages: [], model: fastModel };

export function authorize(request: Request): string | null {
  return request.headers.get('x-bench-user');
}
