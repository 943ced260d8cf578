/** The model of the tests whose turn waits in a tool: it calls `slow`, then answers with its result. */
import { type Model, textOf } from '@skilltree/core';

/** Calls the `slow` tool, then answers `Answer: <the tool's result>`. */
export const slowToolModel: Model = {
  name: 'slow-model',
  async generate(req) {
    const last = req.messages.at(-1);
    if (last?.role === 'tool') return { text: `Answer: ${textOf(last)}`, toolCalls: [] };
    return { text: 'Let me look.', toolCalls: [{ id: '', name: 'slow', input: {} }] };
  },
};
