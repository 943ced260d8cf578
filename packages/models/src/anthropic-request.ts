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
import type { Message, ModelRequest } from '@skilltree/core/provider';
import { placeContext, type ReasoningSource, type ToolSpec } from '@skilltree/core/provider';
import { type Block, markable, messageBlocks, PROVIDER } from './anthropic-blocks.js';
import { defaultMaxTokens, supportsToolChanges } from './anthropic-models.js';
import { type AnthropicEffort, type AnthropicThinking, resolveThinking } from './anthropic-thinking.js';

// Where they were declared before the model table: other modules import them from here.
export { supportsToolChanges, TOOL_CHANGE_MODELS } from './anthropic-models.js';

/** The options {@link anthropicRequestBody} reads. */
export interface AnthropicBodyOptions {
  /** The model id. */
  model: string;
  /** `max_tokens`. Default: 16 000 on models that think on every call, else 4 096 (see `defaultMaxTokens`). */
  maxTokens?: number;
  /** Whether to place `cache_control` breakpoints. Default true. */
  cache?: boolean;
  /** `thinking` (checked against the model's row of `CLAUDE_MODELS`; see `resolveThinking`). */
  thinking?: AnthropicThinking;
  /** `output_config.effort`. */
  effort?: AnthropicEffort;
  /** Fields merged into the body last. */
  extraBody?: Record<string, unknown>;
  /**
   * Who the adapter is (provider, endpoint, model): reasoning is replayed only where it came from.
   * Default: `anthropic` at Anthropic's own endpoint, with `model`.
   */
  source?: ReasoningSource;
}

/** Who the body goes to, as reasoning parts name it. */
export const sourceOfBody = (options: AnthropicBodyOptions): ReasoningSource =>
  options.source ?? { provider: PROVIDER, model: options.model };

/** The `cache_control` of every breakpoint. */
export const CACHE = { type: 'ephemeral' } as const;

/** The body's first fields: the model, `max_tokens`, and `thinking` / `output_config` as the options and the model say. */
export function bodyHead(
  options: AnthropicBodyOptions,
): { model: string; max_tokens: number } & ReturnType<typeof resolveThinking> {
  const maxTokens = options.maxTokens ?? defaultMaxTokens(options.model);
  const fields = resolveThinking({ ...options, maxTokens });
  return { model: options.model, max_tokens: maxTokens, ...fields };
}
/** A block of a mid-conversation system message. */
export type SystemBlock =
  | Anthropic.Beta.BetaTextBlockParam
  | Anthropic.Beta.BetaRequestToolAdditionBlock
  | Anthropic.Beta.BetaRequestToolRemovalBlock;
/** A user or assistant message as the body carries it. */
export type Turn = { role: 'user' | 'assistant'; content: Block[] };
/** A mid-conversation system message (the delta and append-only layouts). */
export type SystemTurn = { role: 'system'; content: SystemBlock[] };

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
  const body: Anthropic.MessageCreateParamsNonStreaming = { ...bodyHead(options), messages: [] };

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

  const { turns, context } = toTurns(req, sourceOfBody(options));
  if (cache) markStablePrefix(turns, context);
  body.messages = turns as Turn[];
  return { ...body, ...(options.extraBody ?? {}) } as Anthropic.MessageCreateParamsNonStreaming;
}

/** System blocks: with `'system'` placement, the stable prompt and the context are separate blocks. */
function systemBlocks(req: ModelRequest, cache: boolean): Anthropic.TextBlockParam[] {
  const { system: placed, contextPart } = placeContext(req);
  if (!placed) return [];
  const mark = cache ? { cache_control: CACHE } : {};
  if (req.contextPlacement !== 'system') return [{ type: 'text', text: placed, ...mark }];
  // A system prompt that is only the context changes with it: nothing to cache.
  if (req.system === '') return [{ type: 'text', text: placed }];
  // The stable prompt, then the context as core placed it (its separator included) in a block of its own.
  const blocks: Anthropic.TextBlockParam[] = [{ type: 'text', text: req.system, ...mark }];
  if (contextPart.text) blocks.push({ type: 'text', text: contextPart.text });
  return blocks;
}

/** Where `placeContext` put the context in the messages: the message's index and the part it added. */
function contextSuffix(req: ModelRequest): { index: number; text: string } | undefined {
  const { placed, contextPart } = placeContext(req);
  if (placed === 'system') return undefined;
  return { index: placed, text: contextPart.text };
}

/**
 * Transcript messages as Messages API turns: tool results become `tool_result` blocks in a user turn,
 * consecutive user-role messages are merged into one turn (tool results first), and consecutive
 * assistant messages likewise. The context (`'end'` placement) is its own text block at the end of
 * the user turn that holds the last user-role message.
 */
function toTurns(
  req: ModelRequest,
  source: ReasoningSource,
  after?: (index: number) => SystemTurn | undefined,
): { turns: (Turn | SystemTurn)[]; context?: Block } {
  const suffix = contextSuffix(req);
  const turns: (Turn | SystemTurn)[] = [];
  let context: Block | undefined;
  const push = (role: Turn['role'], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) (last.content as Block[]).push(...blocks);
    else turns.push({ role, content: blocks });
  };
  const messages: (Message | undefined)[] = [...req.messages];
  if (suffix && suffix.index === messages.length) messages.push(undefined);
  for (const [i, message] of messages.entries()) {
    if (message) push(message.role === 'assistant' ? 'assistant' : 'user', messageBlocks(message, source));
    if (suffix?.index === i) {
      const last = turns[turns.length - 1];
      const opensTurn = last?.role !== 'user';
      // A context that opens a turn follows nothing: it is the context alone.
      context = { type: 'text', text: opensTurn ? req.context : suffix.text };
      push('user', [context]);
    }
    const system = after?.(i);
    if (system) turns.push(system);
  }
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    // Anthropic wants a user turn's tool_result blocks before any text.
    const results = turn.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0) turn.content = [...results, ...turn.content.filter((b) => b.type !== 'tool_result')];
  }
  return { turns, context };
}

/** Breakpoints 3 and 4 (see {@link anthropicRequestBody}): both end before the context block. */
function markStablePrefix(turns: (Turn | SystemTurn)[], context: Block | undefined): void {
  const stable: { turn: number; block: number }[] = [];
  for (const [t, turn] of turns.entries()) {
    // A delta's system message after the context changes with the next step's messages: never marked.
    if (turn.role === 'system') continue;
    for (const [b, block] of turn.content.entries()) {
      if (block === context) break;
      if (markable(block)) stable.push({ turn: t, block: b });
    }
    if (context && (turn.content as Block[]).includes(context)) break;
  }
  const newest = stable[stable.length - 1];
  if (!newest) return;
  const earlier = stable.findLast((at) => at.turn < newest.turn);
  for (const at of earlier ? [earlier, newest] : [newest]) {
    const turn = turns[at.turn] as Turn;
    turn.content[at.block] = { ...turn.content[at.block], cache_control: CACHE } as Block;
  }
}

// ───────────── the lifecycle as deltas: mid-conversation system messages and tool changes ─────────────

/** Beta header of tool changes that name tools declared in `tools` (with `defer_loading: true`). */
export const TOOL_CHANGES_BETA = 'mid-conversation-tool-changes-2026-07-01';
/** Beta header of a `tool_addition` that defines the tool by value. */
export const INLINE_TOOLS_BETA = 'inline-tools-2026-09-15';

/** `toolChanges` of {@link anthropic}: `'auto'` decides by model and window, `true` / `false` force it. */
export type ToolChanges = 'auto' | boolean;

/**
 * Whether a request goes out as deltas: the one place that decides. `true` always (when the request
 * has a lifecycle), `false` never; `'auto'` when the model supports tool changes and the window is
 * stable. With the sliding window the re-statement of the loaded skills moves with the window's start
 * every turn and is billed again each time, so `'auto'` keeps the classic layout there (measured in
 * docs/cost.md).
 */
export function usesToolChanges(req: ModelRequest, model: string, setting: ToolChanges = 'auto'): boolean {
  const life = req.lifecycle;
  if (!life || setting === false) return false;
  if (setting === true) return true;
  return life.windowMode === 'stable' && supportsToolChanges(model);
}

/**
 * Marks the first block of the newest delta that an assistant turn follows. A load adds a system
 * message of one text block and a block per tool; the cache looks back only about 20 blocks from a
 * breakpoint for an earlier entry, so without a mark right after the previous request's last one, a
 * skill with many tools would make the next step miss the whole conversation.
 */
function markDelta(turns: (Turn | SystemTurn)[]): boolean {
  for (let t = turns.length - 2; t >= 0; t--) {
    const turn = turns[t];
    if (turn.role !== 'system' || turns[t + 1].role !== 'assistant') continue;
    turn.content[0] = { ...turn.content[0], cache_control: CACHE };
    return true;
  }
  return false;
}

/** Options of {@link anthropicDeltaBody}. */
export interface AnthropicDeltaOptions extends AnthropicBodyOptions {
  /**
   * Define added tools by value in the `tool_addition` block (beta `inline-tools-2026-09-15`)
   * instead of naming a tool declared in `tools` with `defer_loading: true`. Default false.
   */
  inlineTools?: boolean;
}

/** A body of the beta Messages API (the delta and append-only layouts). */
export type BetaBody = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;

/** A tool as a `tools` entry or an inline definition. */
export function betaTool(tool: ToolSpec): Anthropic.Beta.BetaTool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Anthropic.Beta.BetaTool['input_schema'],
  };
}

/**
 * The Messages API body for a request laid out as deltas (beta types; `betas` lists the beta
 * headers it needs, which the SDK sends as `anthropic-beta`):
 *
 * - `tools`: the lifecycle's prefix tools (the read tool and the agent's own), cached by the first
 *   breakpoint; by reference (the default), every skill tool the request adds is appended with
 *   `defer_loading: true`, which keeps it out of the cached prefix until an addition names it;
 * - `system`: the system prompt, cached by the second breakpoint;
 * - `messages`: the lifecycle's messages, each delta a `role: "system"` message right after the run
 *   of user and tool messages it follows (never between a `tool_use` and its `tool_result`, always
 *   before an assistant message or last): its text, then its `tool_removal` and `tool_addition`
 *   blocks in order. The context is placed as `placeContext` says, in a block of its own, and the
 *   last two breakpoints go before it as in {@link anthropicRequestBody}.
 *
 * Returns null when the request has no lifecycle (an agent without skills): send the classic body.
 */
export function anthropicDeltaBody(req: ModelRequest, options: AnthropicDeltaOptions): BetaBody | null {
  const life = req.lifecycle;
  if (!life) return null;
  const cache = options.cache !== false;
  const inline = options.inlineTools === true;
  const layout: ModelRequest = { ...req, messages: life.messages, context: life.context, tools: life.tools };
  const system = systemBlocks(layout, cache);

  // By reference, every added tool is declared once, deferred, with the definition of its last addition.
  const deferred = new Map<string, ToolSpec>();
  const betas = new Set<string>();
  const byAfter = new Map<number, SystemTurn>();
  for (const delta of life.deltas) {
    const content: SystemBlock[] = [];
    if (delta.text) content.push({ type: 'text', text: delta.text });
    for (const entry of delta.entries) {
      const removed = entry.type === 'unloaded' ? entry.tools : entry.type === 'tools' ? entry.removed : [];
      const added = entry.type === 'loaded' ? entry.tools : entry.type === 'tools' ? entry.added : [];
      for (const name of removed) {
        content.push({ type: 'tool_removal', tool: { type: 'tool_reference', name } });
        betas.add(TOOL_CHANGES_BETA);
      }
      for (const tool of added) {
        if (inline) {
          content.push({ type: 'tool_addition', tool: { type: 'tool_definition', definition: betaTool(tool) } });
          betas.add(INLINE_TOOLS_BETA);
        } else {
          deferred.set(tool.name, tool);
          content.push({ type: 'tool_addition', tool: { type: 'tool_reference', name: tool.name } });
          betas.add(TOOL_CHANGES_BETA);
        }
      }
    }
    if (content.length > 0) byAfter.set(delta.after, { role: 'system', content });
  }

  const body: BetaBody = { ...bodyHead(options), messages: [] } as BetaBody;
  if (system.length > 0) body.system = system;
  const { turns, context } = toTurns(layout, sourceOfBody(options), (i) => byAfter.get(i));
  // The tools never change here, so the system prompt's breakpoint covers them; the breakpoint the
  // classic layout puts on the last tool marks the newest delta instead (see markDelta).
  const marked = cache && markDelta(turns);
  const tools: Anthropic.Beta.BetaToolUnion[] = life.tools.map((tool, i) => ({
    ...betaTool(tool),
    ...(cache && !marked && i === life.tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
  for (const tool of deferred.values()) tools.push({ ...betaTool(tool), defer_loading: true });
  if (tools.length > 0) body.tools = tools;
  if (cache) markStablePrefix(turns, context);
  body.messages = turns as Anthropic.Beta.BetaMessageParam[];
  if (betas.size > 0) body.betas = [...betas].sort();
  return { ...body, ...(options.extraBody ?? {}) } as BetaBody;
}
