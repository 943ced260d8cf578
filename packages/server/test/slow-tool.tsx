/**
 * The agent and model of the tests whose turn waits in a tool: the model calls `slow`, which holds
 * until the test releases it.
 */
import { Agent, type Model, Tool, textOf } from '@skilltree/core';
import { z } from 'zod';
import { heldRun } from './served.js';

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
