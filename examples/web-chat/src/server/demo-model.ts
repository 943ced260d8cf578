/**
 * An offline model for the example (and its tests): it reads the user's last message and follows a
 * few rules, streaming its answers word by word, and thinks out loud before a conversion (reasoning,
 * as a thinking model's, which the page shows). Set OPENAI_API_KEY or ANTHROPIC_API_KEY and pass a
 * real model from `@skilltree/models` to `createApp` instead.
 */
import {
  type AssistantPart,
  type Message,
  type Model,
  type ModelRequest,
  type ModelStreamPart,
  ownTextOf,
  type ReasoningPart,
  type ToolCall,
  textOf,
} from '@skilltree/core';

type Step = { reasoning?: string; text?: string; toolCalls?: Omit<ToolCall, 'id'>[] };

/** The user's last message, and what the turn did since: the tool results, oldest first. */
function situation(req: ModelRequest): { text: string; results: Extract<Message, { role: 'tool' }>[] } {
  let last = req.messages.length - 1;
  while (last >= 0 && req.messages[last].role !== 'user') last--;
  const text = last >= 0 ? (textOf(req.messages[last]).split('\n')[0] ?? '') : '';
  const results = req.messages.slice(last + 1).filter((m) => m.role === 'tool');
  return { text, results: results as Extract<Message, { role: 'tool' }>[] };
}

function loaded(req: ModelRequest, skill: string): boolean {
  return req.context.includes(`<skill name="${skill}"`);
}

/** What the demo model does next. */
export function nextStep(req: ModelRequest): Step {
  const { text, results } = situation(req);
  const after = results.at(-1);
  const remember = /^(?:please\s+)?remember(?: that)?\s+(.+)$/i.exec(text.trim());
  if (remember) {
    if (!loaded(req, 'notes')) return { toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] };
    if (after?.name !== 'add_note') return { toolCalls: [{ name: 'add_note', input: { text: remember[1] } }] };
    return { text: `Noted: ${remember[1]}.` };
  }
  const conversion = /convert\s+([\d.]+)\s*([a-z]+)\s+(?:to|in)\s+([a-z]+)/i.exec(text);
  if (conversion) {
    if (!loaded(req, 'units')) {
      return {
        reasoning: 'Converting needs the convert tool of the units skill, so read that skill first.',
        toolCalls: [{ name: 'read_skill', input: { name: 'units' } }],
      };
    }
    if (after?.name !== 'convert') {
      const [, value, from, to] = conversion;
      return { toolCalls: [{ name: 'convert', input: { value: Number(value), from, to } }] };
    }
    const answer = ownTextOf(after).split('\n')[0];
    return { text: after.isError ? `Sorry: ${answer}` : `${answer}.` };
  }
  if (/notes?/i.test(text)) {
    const line = req.context.split('\n').find((l) => l.startsWith('Notes: '));
    if (!line) return { toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] };
    return { text: `Your ${line.charAt(0).toLowerCase()}${line.slice(1)}.` };
  }
  return { text: 'I can remember things ("remember the milk") and convert units ("convert 5 km to mi").' };
}

/** The step's reasoning as a reasoning part of this model (a real provider adds its signature). */
const reasoningPart = (text: string): ReasoningPart => ({ type: 'reasoning', provider: 'demo', model: 'demo', text });

/** The demo model. `delayMs` between streamed words (0 in tests). */
export function demoModel(options: { delayMs?: number } = {}): Model {
  const delay = options.delayMs ?? 30;
  let calls = 0;
  const ids = () => `demo_${++calls}`;
  return {
    name: 'demo',
    async generate(req) {
      const step = nextStep(req);
      const content: AssistantPart[] = [];
      if (step.reasoning) content.push(reasoningPart(step.reasoning));
      if (step.text) content.push({ type: 'text', text: step.text });
      const toolCalls = (step.toolCalls ?? []).map((c) => ({ id: ids(), ...c }));
      return { text: step.text ?? '', content, toolCalls };
    },
    async *stream(req, { signal }): AsyncIterable<ModelStreamPart> {
      const step = nextStep(req);
      const words = async function* (text: string) {
        for (const word of text.split(/(?<= )/)) {
          if (!word) continue;
          if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
          signal?.throwIfAborted();
          yield word;
        }
      };
      if (step.reasoning) {
        // Readable reasoning as it streams, then the finished block (what a provider sends back).
        for await (const word of words(step.reasoning)) yield { type: 'reasoning-delta', text: word };
        yield { type: 'reasoning', reasoning: reasoningPart(step.reasoning) };
      }
      for await (const word of words(step.text ?? '')) yield { type: 'text-delta', text: word };
      for (const call of step.toolCalls ?? []) yield { type: 'tool-call', id: ids(), ...call };
      yield { type: 'finish' };
    },
  };
}
