/**
 * The Messages API body of an append-only request (`ModelRequest.appendOnly`), for Claude models
 * that bind each thinking block's signature to the exact prefix before it: the top-level `system`,
 * `tools`, and every earlier message and block. Every body of a conversation is the previous body
 * plus appended messages, so each thinking block the model returned is sent back under the prefix
 * it was signed over.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { AppendOnlyItem, ModelRequest, ReasoningSource, SystemNote, ToolSpec } from '@skilltree/core/provider';
import { type Block, markable, messageBlocks } from './anthropic-blocks.js';
import {
  type AnthropicBodyOptions,
  type BetaBody,
  betaTool,
  bodyHead,
  CACHE,
  INLINE_TOOLS_BETA,
  type SystemBlock,
  type SystemTurn,
  sourceOfBody,
  TOOL_CHANGES_BETA,
  type Turn,
} from './anthropic-request.js';

/**
 * A session's note as a `role: "system"` message: its text, then a removal per tool it removes, then
 * an addition per tool it adds. A tool added again with another definition while it is on offer (a
 * skill re-rendered it) is removed first, so that no name is offered twice. `offered` is the tools on
 * offer before the note, and after it once this returns.
 */
function noteTurn(note: SystemNote, offered: Set<string>, betas: Set<string>): SystemTurn | undefined {
  const content: SystemBlock[] = [];
  if (note.text) content.push({ type: 'text', text: note.text });
  const removed = [...note.removedTools];
  for (const tool of note.addedTools) {
    if (offered.has(tool.name) && !removed.includes(tool.name)) removed.push(tool.name);
  }
  for (const name of removed) {
    content.push({ type: 'tool_removal', tool: { type: 'tool_reference', name } });
    offered.delete(name);
    betas.add(TOOL_CHANGES_BETA);
  }
  for (const tool of note.addedTools) {
    offered.add(tool.name);
    // By value: a tool declared in `tools` (deferred) would change `tools`, which thinking is bound to.
    content.push({ type: 'tool_addition', tool: { type: 'tool_definition', definition: betaTool(tool) } });
    betas.add(INLINE_TOOLS_BETA);
  }
  return content.length > 0 ? { role: 'system', content } : undefined;
}

/**
 * The items as messages. A user message and the tool results around it are one user turn (tool
 * results first, as the API requires), consecutive assistant messages one assistant turn. A note
 * becomes a `role: "system"` message right after the run of user-role messages it follows or sits
 * in, before the next assistant message or last: the API refuses a system message right after an
 * assistant message, before a user message, or between a `tool_use` and its `tool_result`. The rule
 * depends only on what comes before each message, so a longer conversation gives the same messages
 * first: nothing sent is ever edited (a trailing user turn only gains blocks before any assistant
 * message follows it).
 */
function itemTurns(
  items: readonly AppendOnlyItem[],
  tools: readonly ToolSpec[],
  source: ReasoningSource,
  betas: Set<string>,
): (Turn | SystemTurn)[] {
  const turns: (Turn | SystemTurn)[] = [];
  const offered = new Set(tools.map((tool) => tool.name));
  let pending: SystemTurn[] = [];
  const push = (role: Turn['role'], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) (last.content as Block[]).push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const item of items) {
    if (item.role === 'system') {
      const note = noteTurn(item, offered, betas);
      if (note) pending.push(note);
    } else if (item.role === 'assistant') {
      // A note waits for a user turn: with none since the last assistant message, it waits on.
      const last = turns[turns.length - 1];
      if (last?.role === 'user' || last?.role === 'system') {
        turns.push(...pending);
        pending = [];
      }
      push('assistant', messageBlocks(item, source));
    } else push('user', messageBlocks(item, source));
  }
  // Last (a request ends with a user turn); after an assistant message the API refuses it, as it should.
  turns.push(...pending);
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    const results = turn.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0) turn.content = [...results, ...turn.content.filter((b) => b.type !== 'tool_result')];
  }
  return turns;
}

/** Puts a breakpoint on the last block of `turns[index]` that may carry one; false when it has none. */
function markLast(turns: (Turn | SystemTurn)[], index: number): boolean {
  const turn = turns[index];
  if (!turn) return false;
  for (let b = turn.content.length - 1; b >= 0; b--) {
    if (!markable(turn.content[b])) continue;
    turn.content[b] = { ...turn.content[b], cache_control: CACHE } as never;
    return true;
  }
  return false;
}

/**
 * Breakpoints that only move forward: the end of what the previous request sent (the last turn
 * before the newest assistant message), which that request cached at its end, and the end of this
 * request, which the next one reads. Thinking blocks carry none, so a turn's last other block does.
 */
function markAppended(turns: (Turn | SystemTurn)[]): void {
  let newest = -1;
  for (let t = turns.length - 1; t >= 0; t--) {
    if (turns[t].role === 'assistant') {
      newest = t;
      break;
    }
  }
  for (let t = newest - 1; t >= 0 && !markLast(turns, t); t--);
  for (let t = turns.length - 1; t > newest && !markLast(turns, t); t--);
}

/**
 * The body (beta types; `betas` lists the headers it needs, which the SDK sends as `anthropic-beta`)
 * of a request that carries `appendOnly`, or null when it carries none:
 *
 * - `system`: `appendOnly.system`, and `tools`: `appendOnly.tools`, both fixed for the conversation;
 * - `messages`: the items. A transcript message is blocks as in the classic layout (reasoning
 *   replayed byte-exact where this model produced it); a note (`SystemNote`) is a `role: "system"`
 *   message with its text, a `tool_removal` (`{ type: 'tool_reference', name }`, beta
 *   `mid-conversation-tool-changes-2026-07-01`) per removed tool and a `tool_addition` per added
 *   tool. An addition defines the tool by value (`{ type: 'tool_definition', definition }`, beta
 *   `inline-tools-2026-09-15`): naming a deferred tool instead would add it to `tools`, which the
 *   thinking blocks are bound to. A removed tool is no longer offered; a call of it is refused by
 *   core with the seed's `Unknown tool` text;
 * - breakpoints (with `cache`, the default): the system prompt (which covers the tools before it),
 *   the end of the previous request's messages and the end of this one; `cache_control` is not part
 *   of what thinking is bound to, so moving them is not an edit.
 */
export function anthropicAppendOnlyBody(req: ModelRequest, options: AnthropicBodyOptions): BetaBody | null {
  const request = req.appendOnly;
  if (!request) return null;
  const cache = options.cache !== false;
  const betas = new Set<string>();
  const body: BetaBody = { ...bodyHead(options), messages: [] } as BetaBody;
  if (request.system)
    body.system = [{ type: 'text', text: request.system, ...(cache ? { cache_control: CACHE } : {}) }];
  if (request.tools.length > 0) {
    const markTools = cache && !request.system;
    body.tools = request.tools.map((tool, i) => ({
      ...betaTool(tool),
      ...(markTools && i === request.tools.length - 1 ? { cache_control: CACHE } : {}),
    }));
  }
  const turns = itemTurns(request.items, request.tools, sourceOfBody(options), betas);
  if (cache) markAppended(turns);
  body.messages = turns as Anthropic.Beta.BetaMessageParam[];
  if (betas.size > 0) body.betas = [...betas].sort();
  return { ...body, ...(options.extraBody ?? {}) } as BetaBody;
}
