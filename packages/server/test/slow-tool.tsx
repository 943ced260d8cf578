/**
 * The agent and model of the tests whose turn waits in a tool (the model calls `slow`, which holds
 * until the test releases it), and what a page reloaded meanwhile reads.
 */
import { Agent, type Model, Tool, textOf } from '@skilltree/core';
import { expect } from 'vitest';
import { z } from 'zod';
import type { Handler, SkilltreeUIMessage } from '../src/index.js';
import { apiPath } from './helpers.js';
import { getAs, heldRun } from './served.js';

/** Calls the `slow` tool, then answers `Answer: <the tool's result>`. */
export const slowToolModel: Model = {
  name: 'slow-model',
  async generate(req) {
    const last = req.messages.at(-1);
    if (last?.role === 'tool') return { text: `Answer: ${textOf(last)}`, toolCalls: [] };
    return { text: 'Let me look.', toolCalls: [{ id: '', name: 'slow', input: {} }] };
  },
};

/**
 * An agent with one tool, `slow`: `inTool` settles once it runs, `release(text)` ends it with `text`
 * as its result.
 */
export function slowToolAgent() {
  const held = heldRun();
  const agent = (
    <Agent>
      <Tool name="slow" description="Slow" input={z.object({})} run={held.run} />
    </Agent>
  );
  return { agent, inTool: held.started, release: held.release };
}

/**
 * What a page reloaded while alice's `slow` call runs in chat `c1` reads from `handler`: the history
 * holds her message only, and the resumed stream (200) carries the rest of the turn once `release`
 * ends the tool with `slow done`. Resolves with the resumed stream's text.
 */
export async function reloadWhileSlow(handler: Handler, release: (text: string) => void): Promise<string> {
  const history = (await (await getAs(handler, apiPath('chat-id', 'c1'))).json()) as SkilltreeUIMessage[];
  expect(history.map((m) => m.role)).toEqual(['user']);
  const resumed = await getAs(handler, apiPath('chat-stream', 'c1'));
  expect(resumed.status).toBe(200);
  const body = resumed.text();
  release('slow done');
  const text = await body;
  expect(text).toContain('Let me look.');
  expect(text).toContain('Answer: slow done');
  return text;
}
