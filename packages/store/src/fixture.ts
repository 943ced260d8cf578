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
  textOf,
  toolResult,
  useAgentStore,
} from '@skilltree/core';
import type { AssistantPart, ReasoningPart } from '@skilltree/core/provider';
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

/** The text of the newest user message in a request, as the model reads it. */
export function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return textOf(m);
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

/** A 1×1 PNG, base64: a file a user sends and a tool returns. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** `length` bytes that differ with `seed`, base64: every base64 character, `+`, `/` and `=` among them. */
export function opaque(seed: number, length: number): string {
  return Buffer.from(Array.from({ length }, (_, i) => (i * 37 + seed * 101) % 256)).toString('base64');
}

/**
 * Reasoning as the providers return it (keys in the order a session records them), different for each `n`: an Anthropic `thinking` block
 * with its signature and readable text (quotes, backslashes, emoji, new lines), an Anthropic
 * `redacted_thinking` block, and an OpenAI Responses reasoning item (encrypted, no text).
 */
export function reasoningParts(n: number): ReasoningPart[] {
  // In the key order core checks parts into (type, provider, model, text, providerData), so that
  // JSON of what a store returns compares byte for byte.
  return [
    {
      type: 'reasoning',
      provider: 'anthropic',
      model: 'claude-opus-5-5',
      text: `Step ${n}: the user wants "the picture" \\ 🦊\n  indented, trailing space `,
      providerData: { signature: opaque(n, 700) },
    },
    {
      type: 'reasoning',
      provider: 'anthropic',
      model: 'claude-opus-5-5',
      text: '',
      providerData: { redactedData: opaque(n + 1, 300) },
    },
    {
      type: 'reasoning',
      provider: 'openai',
      model: 'gpt-5.6',
      text: '',
      providerData: { encryptedContent: opaque(n + 2, 3_000), itemId: `rs_${n}_0123456789abcdef` },
    },
  ];
}

/** A skill `camera` whose tool `snap` returns a picture (a file part) with its text. */
export function cameraAgent(): ReactNode {
  return h(
    Agent,
    null,
    h(Text, null, 'You look at pictures.'),
    h(
      Skill,
      { name: 'camera', description: 'Takes pictures.' },
      h(Tool, {
        name: 'snap',
        description: 'Takes a picture.',
        run: () => toolResult('the picture:', { data: PNG, mediaType: 'image/png', filename: 'snap.png' }),
      }),
    ),
  );
}

/**
 * A model for {@link cameraAgent} that thinks on every call (its parts from {@link reasoningParts},
 * numbered by call): reads `camera` when it is not loaded, calls `snap`, then says what it saw.
 * With `appendOnly`, it binds its reasoning to the prefix (the session sends append-only requests).
 * `seen` gets every request.
 */
export function thinkingModel(seen: ModelRequest[], appendOnly = false): Model {
  return {
    name: 'thinking-model',
    ...(appendOnly ? { appendOnly: true } : {}),
    async generate(req) {
      seen.push(req);
      const n = seen.length;
      const last = req.messages[req.messages.length - 1];
      const think = (text: string): AssistantPart[] => [
        ...reasoningParts(n),
        ...(text ? [{ type: 'text' as const, text }] : []),
      ];
      if (last?.role === 'user' || (last?.role === 'tool' && last.name === 'read_skill')) {
        const offered = req.tools.some((t) => t.name === 'snap');
        return offered
          ? { text: 'Snapping.', content: think('Snapping.'), toolCalls: [{ id: '', name: 'snap', input: {} }] }
          : { text: '', content: think(''), toolCalls: [{ id: '', name: 'read_skill', input: { name: 'camera' } }] };
      }
      return { text: `A dot, call ${n}.`, content: think(`A dot, call ${n}.`), toolCalls: [] };
    },
  };
}
