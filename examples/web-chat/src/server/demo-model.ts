/**
 * An offline model for the example (and its tests): it reads the user's last message and follows a
 * few rules, streaming its answers word by word. Set OPENAI_API_KEY or ANTHROPIC_API_KEY and pass a
 * real model from `@skilltree/models` to `createApp` instead.
 */
import { type Message, type Model, type ModelRequest, ownTextOf, type ToolCall, textOf } from '@skilltree/core';
import type { FilePart, ModelStreamPart } from '@skilltree/core/provider';

type Step = { text?: string; reasoning?: string; toolCalls?: Omit<ToolCall, 'id'>[]; slow?: boolean };
type ToolMessage = Extract<Message, { role: 'tool' }>;

/** What "tell me a story" answers: long enough to reload the page, or stop it, while it streams. */
export const STORY =
  'Once upon a time a parcel left the warehouse on a rainy Monday. It crossed three cities, two ' +
  'rivers and one very bumpy road, and it reached the right door on Friday, a little dented but ' +
  'proud of the trip. The end.';

/** The user's last message (its text and files), and what the turn did since: the tool results, oldest first. */
function situation(req: ModelRequest): { text: string; files: FilePart[]; results: ToolMessage[] } {
  let last = req.messages.length - 1;
  while (last >= 0 && req.messages[last].role !== 'user') last--;
  const user = last >= 0 ? req.messages[last] : undefined;
  const text = user ? (textOf(user).split('\n')[0] ?? '') : '';
  const files = user ? user.content.filter((part): part is FilePart => part.type === 'file') : [];
  const results = req.messages.slice(last + 1).filter((m): m is ToolMessage => m.role === 'tool');
  return { text, files, results };
}

function loaded(req: ModelRequest, skill: string): boolean {
  return req.context.includes(`<skill name="${skill}"`);
}

/** A file's size from its base64 bytes (a file given by URL has none here). */
function sizeOf(file: FilePart): string {
  if (!file.data) return 'by URL';
  const padding = file.data.endsWith('==') ? 2 : file.data.endsWith('=') ? 1 : 0;
  const bytes = (file.data.length * 3) / 4 - padding;
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/** What the demo model does next. */
export function nextStep(req: ModelRequest): Step {
  const { text, files, results } = situation(req);
  const after = results.at(-1);
  if (files.length > 0 && results.length === 0) {
    const list = files.map((f) => `${f.filename ?? 'a file'} (${f.mediaType}, ${sizeOf(f)})`).join(', ');
    return {
      text: `I got your ${files.length === 1 ? 'photo' : `${files.length} files`}: ${list}. If your order arrived damaged, say "refund order A-1001".`,
    };
  }
  const refund = /\brefund(?:\s+order)?\s+([A-Z0-9][A-Z0-9-]*)/i.exec(text);
  if (refund) {
    const order = refund[1].toUpperCase();
    if (!loaded(req, 'refunds')) return { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] };
    if (after?.name !== 'refund') {
      return {
        reasoning: `The customer asks for a refund of order ${order}. Refunds wait for a person's approval.`,
        toolCalls: [{ name: 'refund', input: { order } }],
      };
    }
    // A denial is the tool's result, as the model reads it: `Denied: <reason>. The tool did not run.`
    if (after.isError) return { text: `I did not refund order ${order}: ${ownTextOf(after)}` };
    return { text: `Done: ${ownTextOf(after)}.` };
  }
  if (/\bstory\b/i.test(text)) return { text: STORY, slow: true };
  const remember = /^(?:please\s+)?remember(?: that)?\s+(.+)$/i.exec(text.trim());
  if (remember) {
    if (!loaded(req, 'notes')) return { toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] };
    if (after?.name !== 'add_note') return { toolCalls: [{ name: 'add_note', input: { text: remember[1] } }] };
    return { text: `Noted: ${remember[1]}.` };
  }
  const conversion = /convert\s+([\d.]+)\s*([a-z]+)\s+(?:to|in)\s+([a-z]+)/i.exec(text);
  if (conversion) {
    if (!loaded(req, 'units')) return { toolCalls: [{ name: 'read_skill', input: { name: 'units' } }] };
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
  return {
    text: 'I can remember things ("remember the milk"), convert units ("convert 5 km to mi"), look at a photo, refund an order ("refund order A-1001") and tell a story.',
  };
}

/** Options of {@link demoModel}. */
export interface DemoModelOptions {
  /** Milliseconds between streamed words. Default 30. */
  delayMs?: number;
  /** Milliseconds between the words of a story: slow enough to reload the page while it streams. Default 150. */
  storyDelayMs?: number;
  /**
   * Called before the last word of a story; the story goes on when it resolves. Tests reload the page,
   * or stop the turn, at that point: the answer is then mid-stream by construction, not by timing.
   * It gets the model call's signal (aborted when the turn is stopped).
   */
  hold?: (signal: AbortSignal | undefined) => Promise<void>;
}

/** Resolves when `signal` aborts (never without one). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
}

/** The demo model. */
export function demoModel(options: DemoModelOptions = {}): Model {
  const delay = options.delayMs ?? 30;
  const storyDelay = options.storyDelayMs ?? 150;
  let calls = 0;
  const ids = () => `demo_${++calls}`;
  return {
    name: 'demo',
    async generate(req) {
      const step = nextStep(req);
      return {
        text: step.text ?? '',
        toolCalls: (step.toolCalls ?? []).map((c) => ({ id: ids(), ...c })),
        ...(step.reasoning ? { content: contentOf(step) } : {}),
      };
    },
    async *stream(req, { signal }): AsyncIterable<ModelStreamPart> {
      const step = nextStep(req);
      const wait = step.slow ? storyDelay : delay;
      if (step.reasoning) {
        yield { type: 'reasoning-delta', text: step.reasoning };
        yield {
          type: 'reasoning',
          reasoning: { type: 'reasoning', provider: 'demo', model: 'demo', text: step.reasoning },
        };
      }
      const words = (step.text ?? '').split(/(?<= )/).filter((word) => word !== '');
      for (const [i, word] of words.entries()) {
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (step.slow && options.hold && i === words.length - 1) {
          await Promise.race([options.hold(signal), aborted(signal)]);
        }
        signal?.throwIfAborted();
        yield { type: 'text-delta', text: word };
      }
      for (const call of step.toolCalls ?? []) yield { type: 'tool-call', id: ids(), ...call };
      yield { type: 'finish' };
    },
  };
}

/** A step's reasoning and text as the assistant message's parts. */
function contentOf(step: Step): NonNullable<Awaited<ReturnType<Model['generate']>>['content']> {
  return [
    { type: 'reasoning', provider: 'demo', model: 'demo', text: step.reasoning ?? '' },
    ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
  ];
}
