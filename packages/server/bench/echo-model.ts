/**
 * The fake model of the load tests' agents: it answers at once (so a turn's time is the
 * framework's) with the reply the load tests check, `echo: <text>`.
 */
import { type Model, type ModelRequest, textOf } from '@skilltree/core';

/** A tool call the model makes before it echoes (echoModel gives it its id). */
export interface EchoFirstCall {
  name: string;
  input: unknown;
}

/**
 * A model named `name` that answers `echo: <text>`, `text` being the first line of the newest user
 * message. Right after a user message it first makes the call `firstCall` names, if any; once the
 * call's result is in, it echoes.
 */
export function echoModel(name: string, firstCall: (req: ModelRequest, text: string) => EchoFirstCall | null): Model {
  let calls = 0;
  return {
    name,
    async generate(req) {
      const last = req.messages.findLast((m) => m.role === 'user');
      const text = last ? textOf(last).split('\n')[0] : '';
      const call = req.messages.at(-1)?.role === 'user' ? firstCall(req, text) : null;
      if (call) return { text: '', toolCalls: [{ id: `${name}-${++calls}`, ...call }] };
      return { text: `echo: ${text}`, toolCalls: [] };
    },
  };
}
