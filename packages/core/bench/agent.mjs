// The support agent the step bench and the store's cold-turn bench both run: one skill per name
// `skill_<n>`, each with TOOLS_PER_SKILL tools of three input shapes, a live count line, and tools
// that re-render their skill (so a step pays for React's render and commit, as a real agent's does).
import { Fragment, createElement as h, useState } from 'react';
import { z } from 'zod';
import { Agent, Instructions, Skill, Text, Tool } from '../dist/index.js';

/** Tools in each skill. */
export const TOOLS_PER_SKILL = 20;

function SkillBody({ name, rerender = true, toolCount = TOOLS_PER_SKILL }) {
  const [count, setCount] = useState(0);
  const tools = [];
  for (let t = 0; t < toolCount; t++) {
    tools.push(
      h(Tool, {
        key: t,
        name: `${name}_tool_${t}`,
        description: `Tool ${t} of ${name}: does one useful thing with an order.`,
        input: schemas[t % schemas.length],
        run: () => {
          if (rerender) setCount((c) => c + 1);
          return `ok ${t}`;
        },
      }),
    );
  }
  return h(
    Fragment,
    null,
    h(Instructions, null, `Use the ${name} tools carefully. Confirm before destructive actions.`),
    h(Text, null, `${name} calls so far: ${count}`),
    ...tools,
  );
}
const schemas = [
  z.object({ id: z.string() }),
  z.object({ id: z.string(), reason: z.string().optional() }),
  z.object({ query: z.string(), limit: z.number().int().optional() }),
];

/**
 * The agent with `skillCount` skills of `toolCount` tools each; with `rerender` false its tools
 * leave their skill as it is.
 */
export function makeAgent(skillCount, rerender = true, toolCount = TOOLS_PER_SKILL) {
  const skills = [];
  for (let s = 0; s < skillCount; s++) {
    const name = `skill_${s}`;
    skills.push(
      h(
        Skill,
        { key: name, name, description: `Handles ${name} requests for customers` },
        h(SkillBody, { name, rerender, toolCount }),
      ),
    );
  }
  return h(
    Agent,
    null,
    h(Instructions, null, 'You are a support agent. Be precise and kind.'),
    h(Text, null, 'Customer: Ada'),
    ...skills,
  );
}
