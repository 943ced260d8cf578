/**
 * The Messages API's thinking rules, as a test server enforces them, and scripted responses that
 * think. Sources: Anthropic's pages "Preserved thinking" and "Prefix checks on thinking blocks" (the
 * models, what a thinking block is bound to, the 400's text), "Adaptive thinking" and each model's
 * "What's new" page (thinking always on, forced tool use refused), "Extended thinking" (with tool
 * use, the last assistant message starts with its thinking block).
 *
 * Each thinking block the server returns is signed: an HMAC over the model and the block's text
 * (the block was not edited, and is read by the model that wrote it), and an HMAC over the model and
 * the exact prefix before the block: the top-level `system`, `tools`, every earlier message and every
 * earlier block of its own message, `cache_control` left out (as the API leaves it out). Every
 * request's thinking blocks are checked against both; on a model with preserved thinking a prefix
 * that changed is refused with the API's text.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { anthropicMessageObject } from '@skilltree/test-kit';
import { anthropicProblem, betaHeader } from './anthropic-rules.js';
import { type Handler, json, type SseEvent, sse } from './server.js';
import { halves, messageStart, type WireStep } from './wire.js';

/** Models whose thinking blocks are bound to the exact prefix before them. */
export const PRESERVED_THINKING = [
  'claude-fable-5-2',
  'claude-mythos-5-2',
  'claude-fable-5-1',
  'claude-mythos-5-1',
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
];
/** Models that think on every call: `budget_tokens` and `disabled` are refused. */
export const ADAPTIVE_ONLY = [...PRESERVED_THINKING, 'claude-fable-5', 'claude-mythos-5'];
/** Models that refuse a forced `tool_choice` whatever the thinking. */
const NO_FORCED_TOOL = PRESERVED_THINKING;

/** The API's text for a thinking block whose prefix changed (or that another model or conversation produced). */
export const BOUND_ELSEWHERE =
  "Invalid 'signature' in 'thinking' block. The block is bound to a different conversation";

const SECRET = randomBytes(16);
const mac = (text: string) => createHmac('sha256', SECRET).update(text).digest('base64url');
const bare = (model: string) => model.replace(/-\d{8}$/, '');
const listed = (list: string[], model: string) => list.includes(bare(model));

/** JSON with sorted keys and without `cache_control`: what a block is bound to, whatever the key order or cache marks. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => k !== 'cache_control' && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

type Block = { type: string; [k: string]: any };
type Message = { role: string; content: string | Block[] };
const blocksOf = (m: Message): Block[] =>
  typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;

/** The MAC of the prefix a block at `messages[i].content[j]` sits after (`i` may be the messages' length: a new message). */
function prefixMac(body: any, messages: Message[], i: number, before: Block[]): string {
  const prefix = { system: body.system ?? null, tools: body.tools ?? null, messages: messages.slice(0, i), before };
  return mac(`${bare(String(body.model))}\n${canonical(prefix)}`);
}

const blockMac = (model: string, text: string) => mac(`${bare(model)}\n${text}`);

/** Whether a request asks the model to think. */
export function thinks(body: any): boolean {
  const type = body?.thinking?.type;
  if (type === 'adaptive' || type === 'enabled') return true;
  if (type === 'disabled' || type === 'between_tools') return false;
  return listed(ADAPTIVE_ONLY, String(body?.model));
}

/** Checks one replayed thinking block: the problem, or null. */
function blockProblem(body: any, messages: Message[], i: number, j: number): string | null {
  const block = blocksOf(messages[i])[j];
  const at = `messages.${i}.content.${j}`;
  const model = String(body.model);
  let text: string;
  let prefix: string;
  if (block.type === 'thinking') {
    const [tag, p, b] = String(block.signature ?? '').split('.');
    if (tag !== 'sig' || !p || !b || b !== blockMac(model, String(block.thinking))) {
      return `${at}: Invalid 'signature' in 'thinking' block`;
    }
    text = block.thinking;
    prefix = p;
  } else {
    const [tag, payload, p, b] = String(block.data ?? '').split('.');
    text = Buffer.from(payload ?? '', 'base64url').toString('utf8');
    if (tag !== 'redacted' || !p || !b || b !== blockMac(model, text)) {
      return `${at}: Invalid 'data' in 'redacted_thinking' block`;
    }
    prefix = p;
  }
  if (listed(PRESERVED_THINKING, model) && prefix !== prefixMac(body, messages, i, blocksOf(messages[i]).slice(0, j))) {
    return `${at}: ${BOUND_ELSEWHERE}`;
  }
  return null;
}

/** What is wrong with a request by the thinking rules, or null. */
export function thinkingProblem(body: any): string | null {
  const model = String(body?.model);
  const type = body?.thinking?.type;
  if (listed(ADAPTIVE_ONLY, model) && (type === 'enabled' || type === 'disabled')) {
    return `thinking.type: "${type}" is not supported for this model. Use thinking.type: "adaptive" and output_config.effort to control thinking.`;
  }
  const forced = body?.tool_choice?.type === 'any' || body?.tool_choice?.type === 'tool';
  if (forced && listed(NO_FORCED_TOOL, model))
    return 'tool_choice: type "tool" and "any" are not supported for this model.';
  if (forced && thinks(body)) return 'Thinking may not be enabled when tool_choice forces tool use.';
  const messages: Message[] = body?.messages ?? [];
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'assistant') continue;
    for (const [j, block] of blocksOf(m).entries()) {
      if (block.type !== 'thinking' && block.type !== 'redacted_thinking') continue;
      const problem = blockProblem(body, messages, i, j);
      if (problem) return problem;
    }
  }
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'assistant') {
      last = i;
      break;
    }
  }
  if (thinks(body) && last >= 0 && blocksOf(messages[last]).some((b) => b.type === 'tool_use')) {
    const first = blocksOf(messages[last])[0];
    if (first.type !== 'thinking' && first.type !== 'redacted_thinking') {
      return `messages.${last}.content.0.type: Expected 'thinking' or 'redacted_thinking', but found '${first.type}'`;
    }
  }
  return null;
}

/** A scripted step of a model that thinks: its thinking text (or a redacted block), then text and tool calls. */
export interface ThinkingStep extends WireStep {
  /** The thinking text; default `Thinking, step <n>.` */
  thinking?: string;
  /** Return the thinking as a `redacted_thinking` block. */
  redacted?: boolean;
}

/** The response's content blocks for `step`, each thinking block signed over the request's prefix. */
function responseBlocks(body: any, step: ThinkingStep, n: number): Block[] {
  const messages: Message[] = body.messages ?? [];
  const blocks: Block[] = [];
  if (thinks(body)) {
    const text = step.thinking ?? `Thinking, step ${n}.`;
    const p = prefixMac(body, messages, messages.length, blocks);
    const b = blockMac(String(body.model), text);
    blocks.push(
      step.redacted
        ? { type: 'redacted_thinking', data: `redacted.${Buffer.from(text).toString('base64url')}.${p}.${b}` }
        : { type: 'thinking', thinking: text, signature: `sig.${p}.${b}` },
    );
  }
  if (step.text) blocks.push({ type: 'text', text: step.text });
  for (const c of step.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.input });
  return blocks;
}

/** An event of Anthropic's stream: its `type` is the SSE event name. */
export const ev = (data: { type: string; [k: string]: unknown }): SseEvent => ({ event: data.type, data });

/** The events that stream thinking block `index`: its start, `parts` as thinking deltas, its signature (no stop). */
export function thinkingEvents(index: number, parts: string[], signature: string): SseEvent[] {
  return [
    ev({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ...parts.map((thinking) => ev({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } })),
    ev({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature } }),
  ];
}

/** The SSE events of a response with `blocks`. */
function events(body: any, blocks: Block[], usage: Record<string, unknown>, stop: string): SseEvent[] {
  const out: SseEvent[] = [messageStart(body.model, usage)];
  for (const [index, block] of blocks.entries()) {
    if (block.type === 'thinking') {
      out.push(...thinkingEvents(index, halves(block.thinking), block.signature));
    } else if (block.type === 'redacted_thinking') {
      out.push(ev({ type: 'content_block_start', index, content_block: block }));
    } else if (block.type === 'text') {
      out.push(ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const part of halves(block.text)) {
        out.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } }));
      }
    } else {
      out.push(ev({ type: 'content_block_start', index, content_block: { ...block, input: {} } }));
      out.push(
        ev({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    out.push(ev({ type: 'content_block_stop', index }));
  }
  out.push(
    ev({
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens, output_tokens_details: usage.output_tokens_details },
    }),
  );
  out.push(ev({ type: 'message_stop' }));
  return out;
}

/** A scripted Anthropic server: every request is checked by the API's rules, then answered with the next step. */
export interface ClaudeScript {
  /** Answers one request: the next step, or the 400 the API would send. */
  handler: Handler;
  /** Every refusal, with the request's index. */
  refusals: { request: number; problem: string }[];
}

/**
 * A handler for `steps` in order (one per request that passes the rules): each request is checked
 * by the tool-change rules (`anthropicProblem`) and the thinking rules (`thinkingProblem`); a
 * request that breaks one gets the API's 400 and is recorded in `refusals` (its step is not used).
 * A request that thinks gets a signed thinking block first. Streams when the body says `stream`.
 */
export function claudeScript(steps: ThinkingStep[]): ClaudeScript {
  const refusals: ClaudeScript['refusals'] = [];
  let requests = 0;
  let n = 0;
  const handler: Handler = (req, res, body) => {
    const index = requests++;
    const problem = anthropicProblem(body, betaHeader(req)) ?? thinkingProblem(body);
    if (problem) {
      refusals.push({ request: index, problem });
      return json(400, { type: 'error', error: { type: 'invalid_request_error', message: problem } })(req, res, body);
    }
    const step = steps[n++];
    if (!step)
      return json(418, { type: 'error', error: { type: 'test_error', message: 'no step scripted for this request' } })(
        req,
        res,
        body,
      );
    const blocks = responseBlocks(body, step, n);
    const thinking = blocks.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking').length;
    const usage = {
      input_tokens: 10,
      output_tokens: 5 + 7 * thinking,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
      ...(thinking ? { output_tokens_details: { thinking_tokens: 7 * thinking } } : {}),
    };
    const stop = step.toolCalls?.length ? 'tool_use' : 'end_turn';
    if (body?.stream) return sse(events(body, blocks, usage, stop))(req, res, body);
    return json(200, anthropicMessageObject(blocks, stop, usage, body.model))(req, res, body);
  };
  return { handler, refusals };
}
