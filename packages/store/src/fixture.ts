/**
 * The agent and model the conformance suite, the multi-process test and the bench drive sessions
 * with. Not part of the public API: the suite exports what users need.
 */
import {
  Agent,
  createAgentStore,
  type Message,
  type Model,
  type ModelRequest,
  Skill,
  Text,
  Tool,
  useAgentStore,
} from '@skilltree/core';
import { Fragment, createElement as h, type ReactNode } from 'react';

/** The counter every `bump` call increments: after any run, it equals the `bump` results that landed. */
const tally = createAgentStore('tally', () => ({ count: 0 }));

/** Called inside every `bump` tool call, before it counts (tests crash or stall a process here). */
export const hooks: { onBump?: () => void | Promise<void> } = {};

function Counter(): ReactNode {
  const count = useAgentStore(tally, (s) => s.count);
  return h(
    Fragment,
    null,
    h(Text, null, `count ${count}`),
    h(Tool, {
      name: 'bump',
      description: 'Adds one to the counter.',
      run: async (_input: unknown, ctx) => {
        await hooks.onBump?.();
        tally.of(ctx).setState((s) => ({ count: s.count + 1 }));
        return 'bumped';
      },
    }),
  );
}

/** An agent with one skill, `counter`, whose tool `bump` counts in the `tally` store. */
export function counterAgent(): ReactNode {
  return h(Agent, null, h(Skill, { name: 'counter', description: 'Counts.' }, h(Counter)));
}

/** The text of the newest user message in a request. */
export function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return m.content;
  }
  return '';
}

/**
 * A model for {@link counterAgent}: reads `counter` when it is not loaded, calls `bump` once,
 * then replies `done: <the user's text>` (so a reply names the send it belongs to). A user text
 * starting with `say ` gets `ok: <text>` at once (no tools); one starting with `fail` makes the
 * model fail. `pause` runs before every model call (tests block or slow a turn there).
 */
export function bumpModel(pause?: (req: ModelRequest) => void | Promise<void>): Model {
  return {
    name: 'bump-model',
    async generate(req) {
      await pause?.(req);
      const text = lastUserText(req.messages);
      if (text.startsWith('fail')) throw new Error('the model is down');
      if (text.startsWith('say ')) return { text: `ok: ${text}`, toolCalls: [] };
      const last = req.messages[req.messages.length - 1];
      if (last?.role === 'user') {
        return req.tools.some((t) => t.name === 'bump')
          ? { text: '', toolCalls: [{ id: '', name: 'bump', input: {} }] }
          : { text: '', toolCalls: [{ id: '', name: 'read_skill', input: { name: 'counter' } }] };
      }
      if (last?.role === 'tool' && last.name === 'read_skill') {
        return { text: '', toolCalls: [{ id: '', name: 'bump', input: {} }] };
      }
      return { text: `done: ${lastUserText(req.messages)}`, toolCalls: [] };
    },
  };
}
