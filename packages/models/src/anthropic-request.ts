/**
 * The Messages API request body for a neutral request: turns, the context's own block, and the
 * prompt-cache breakpoints.
 *
 * Anthropic caches a prompt prefix (tools → system → messages) up to a block marked with
 * `cache_control`, at most four marks per request. A later request reads the cache when its bytes
 * up to a mark are identical, looking back up to about 20 blocks from each mark for an earlier
 * entry. So the marks go where the prefix is still byte-identical at the next step of a tool loop,
 * and nothing that changes between steps (the context, ids or timestamps of our own, key order)
 * may sit before them.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { type Message, type ModelRequest, placeContext } from '@skilltree/core';
import { toolInputObject } from './tool-input.js';

/** The options {@link anthropicRequestBody} reads. */
export interface AnthropicBodyOptions {
  /** The model id. */
  model: string;
  /** `max_tokens`. Default 4096. */
  maxTokens?: number;
  /** Whether to place `cache_control` breakpoints. Default true. */
  cache?: boolean;
  /** Fields merged into the body last. */
  extraBody?: Record<string, unknown>;
}

const CACHE = { type: 'ephemeral' } as const;

type Block = Anthropic.ContentBlockParam;
type Turn = { role: 'user' | 'assistant'; content: Block[] };

/**
 * The Messages API body (without `stream`) for a request, exactly as the adapter sends it.
 *
 * The context goes where core's `placeContext` puts it, but in a text block of its own (the same
 * characters, `\n\n` included), so that the blocks before it are the ones the next step sends again.
 * With caching on (the default), up to four `cache_control: { type: 'ephemeral' }` breakpoints:
 *
 * 1. the last tool, which caches the tool list while the system prompt changes;
 * 2. the system prompt (with `'system'` placement, its stable block before the context);
 * 3. the last block of the turn before the newest stable turn, which the next step's lookup reaches
 *    even when the newest turn holds many tool results;
 * 4. the last block before the context: the newest tool results or user message. The next step of
 *    a tool loop sends these bytes again, so it reads them from the cache instead of paying full
 *    price one step later. The context itself is never inside a cached prefix.
 */
export function anthropicRequestBody(
  req: ModelRequest,
  options: AnthropicBodyOptions,
): Anthropic.MessageCreateParamsNonStreaming {
  const cache = options.cache !== false;
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: options.model,
    max_tokens: options.maxTokens ?? 4096,
    messages: [],
  };

  const system = systemBlocks(req, cache);
  if (system.length > 0) body.system = system;

  if (req.tools.length > 0) {
    body.tools = req.tools.map((tool, i) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool['input_schema'],
      ...(cache && i === req.tools.length - 1 ? { cache_control: CACHE } : {}),
    }));
  }

  const { turns, context } = toTurns(req);
  if (cache) markStablePrefix(turns, context);
  body.messages = turns;
  return { ...body, ...(options.extraBody ?? {}) } as Anthropic.MessageCreateParamsNonStreaming;
}

/** System blocks: with `'system'` placement, the stable prompt and the context are separate blocks. */
function systemBlocks(req: ModelRequest, cache: boolean): Anthropic.TextBlockParam[] {
  const placed = placeContext(req).system;
  if (!placed) return [];
  const mark = cache ? { cache_control: CACHE } : {};
  if (req.contextPlacement !== 'system') return [{ type: 'text', text: placed, ...mark }];
  // A system prompt that is only the context changes with it: nothing to cache.
  if (req.system === '' || !placed.startsWith(req.system)) return [{ type: 'text', text: placed }];
  const blocks: Anthropic.TextBlockParam[] = [{ type: 'text', text: req.system, ...mark }];
  const rest = placed.slice(req.system.length);
  if (rest) blocks.push({ type: 'text', text: rest });
  return blocks;
}

/** Where `placeContext` appended the context in the messages: the message's index and the added text. */
function contextSuffix(req: ModelRequest): { index: number; text: string } | undefined {
  if (req.contextPlacement === 'system') return undefined;
  const placed = placeContext(req).messages;
  if (placed.length > req.messages.length) {
    return { index: req.messages.length, text: placed[placed.length - 1].content };
  }
  for (let i = placed.length - 1; i >= 0; i--) {
    const before = req.messages[i].content;
    const after = placed[i].content;
    if (after === before) continue;
    // Core appends; should that ever change, append the context the way it used to.
    return { index: i, text: after.startsWith(before) ? after.slice(before.length) : `\n\n${req.context}` };
  }
  return undefined;
}

/**
 * Transcript messages as Messages API turns: tool results become `tool_result` blocks in a user turn,
 * consecutive user-role messages are merged into one turn (tool results first), and consecutive
 * assistant messages likewise. The context (`'end'` placement) is its own text block at the end of
 * the user turn that holds the last user-role message.
 */
function toTurns(req: ModelRequest): { turns: Turn[]; context?: Block } {
  const suffix = contextSuffix(req);
  const turns: Turn[] = [];
  let context: Block | undefined;
  const push = (role: Turn['role'], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  const messages: (Message | undefined)[] = [...req.messages];
  if (suffix && suffix.index === messages.length) messages.push(undefined);
  for (const [i, message] of messages.entries()) {
    if (message) push(message.role === 'assistant' ? 'assistant' : 'user', blocksOf(message));
    if (suffix?.index === i) {
      const last = turns[turns.length - 1];
      const opensTurn = last?.role !== 'user';
      context = { type: 'text', text: opensTurn ? suffix.text.replace(/^\s+/, '') : suffix.text };
      push('user', [context]);
    }
  }
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    // Anthropic wants a user turn's tool_result blocks before any text.
    const results = turn.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0) turn.content = [...results, ...turn.content.filter((b) => b.type !== 'tool_result')];
  }
  return { turns, context };
}

function blocksOf(message: Message): Block[] {
  if (message.role === 'user') return message.content ? [{ type: 'text', text: message.content }] : [];
  if (message.role === 'tool') {
    return [
      {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
        ...(message.isError ? { is_error: true } : {}),
      },
    ];
  }
  const blocks: Block[] = [];
  if (message.content) blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInputObject(call.input) });
  }
  return blocks;
}

/** Breakpoints 3 and 4 (see {@link anthropicRequestBody}): both end before the context block. */
function markStablePrefix(turns: Turn[], context: Block | undefined): void {
  const stable: { turn: number; block: number }[] = [];
  for (const [t, turn] of turns.entries()) {
    for (const [b, block] of turn.content.entries()) {
      if (block === context) break;
      stable.push({ turn: t, block: b });
    }
    if (context && turn.content.includes(context)) break;
  }
  const newest = stable[stable.length - 1];
  if (!newest) return;
  const earlier = stable.findLast((at) => at.turn < newest.turn);
  for (const at of earlier ? [earlier, newest] : [newest]) {
    const turn = turns[at.turn];
    turn.content[at.block] = { ...turn.content[at.block], cache_control: CACHE } as Block;
  }
}
