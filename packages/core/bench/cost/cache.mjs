// Prompt-cache simulators: what a provider would bill for a sequence of request bodies.
//
// Tokens are estimated at 4 characters per token of each block's JSON (the same estimate for every
// row, so the shares and ratios compare like with like; absolute counts are approximate).
import { createHash } from 'node:crypto';

export const CHARS_PER_TOKEN = 4;
const tokensOf = (chars) => Math.ceil(chars / CHARS_PER_TOKEN);

const hash = (previous, text) => createHash('sha1').update(previous).update('\u0000').update(text).digest('hex');

/** A block without its `cache_control` marker: the markers are not part of what the cache compares. */
function unmarked(block) {
  if (!block || typeof block !== 'object' || !('cache_control' in block)) return block;
  const { cache_control: _, ...rest } = block;
  return rest;
}

/**
 * The blocks of an Anthropic Messages API body in cache order (tools → system → messages), each with
 * its token estimate, the hash of the whole prefix up to and including it, and whether it carries a
 * breakpoint. A block that opens a turn hashes with the turn's role, so the same block in another
 * turn structure is another prefix.
 */
function anthropicBlocks(body) {
  const blocks = [];
  let prefix = '';
  const add = (kind, block, content = block) => {
    const text = `${kind}:${JSON.stringify(unmarked(content))}`;
    prefix = hash(prefix, text);
    blocks.push({ tokens: tokensOf(text.length), prefix, breakpoint: Boolean(block?.cache_control) });
  };
  // A tool with `defer_loading` is not part of the prefix (nor billed) until a `tool_addition` names
  // it; the definition then counts where the addition stands, as the tool-use caching page says.
  const deferred = new Map();
  for (const tool of body.tools ?? []) {
    if (tool.defer_loading) deferred.set(tool.name, tool);
    else add('tool', tool);
  }
  const expand = (block) =>
    block?.type === 'tool_addition' && block.tool?.type === 'tool_reference'
      ? { type: 'tool_addition', tool: deferred.get(block.tool.name) ?? block.tool }
      : block;
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) add('system', block);
  for (const turn of body.messages) {
    const content = typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;
    content.forEach((block, i) => {
      add(i === 0 ? `turn ${turn.role}` : 'block', block, expand(block));
    });
  }
  return blocks;
}

/**
 * Anthropic's prompt cache, as documented: a `cache_control` breakpoint caches the prefix up to and
 * including its block (tools → system → messages, so any change earlier in that order misses
 * everything after it). A request reads the longest prefix written earlier that ends at one of its
 * breakpoints or at most `lookback` blocks before one; it writes (1.25×) what lies between that and
 * its last breakpoint, and pays the input price for the rest. A prefix shorter than `minTokens`
 * (1,024 for Sonnet and Opus) is never cached. Entries are assumed not to expire (each read
 * refreshes the 5-minute TTL; a conversation with pauses longer than that would write more).
 */
export function anthropicCache({ minTokens = 1024, lookback = 20 } = {}) {
  const written = new Set();
  return (body) => {
    const blocks = anthropicBlocks(body);
    const cumulative = [];
    let total = 0;
    for (const block of blocks) {
      total += block.tokens;
      cumulative.push(total);
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let readEnd = -1;
    for (const at of breakpoints) {
      for (let i = at; i >= Math.max(0, at - lookback + 1); i--) {
        if (i <= readEnd) break;
        if (written.has(blocks[i].prefix)) {
          readEnd = i;
          break;
        }
      }
    }
    const read = readEnd >= 0 ? cumulative[readEnd] : 0;
    let write = 0;
    const last = breakpoints[breakpoints.length - 1];
    if (last !== undefined && last > readEnd && cumulative[last] >= minTokens) write = cumulative[last] - read;
    for (const at of breakpoints) if (cumulative[at] >= minTokens) written.add(blocks[at].prefix);
    return { inputTokens: total, cacheReadTokens: read, cacheWriteTokens: write };
  };
}

/**
 * The prompt text an OpenAI model sees, in its order: the tool definitions, then the messages (the
 * system prompt is the first message). Any change in the tools misses every message after them.
 */
function openaiPrompt(body) {
  let text = JSON.stringify(body.tools ?? []);
  for (const message of body.messages) text += JSON.stringify(message);
  return text;
}

/**
 * OpenAI's automatic prompt caching, as documented: a request reads the longest prefix it shares
 * with any earlier request, once that is at least `minTokens` (1,024), in `stepTokens` (128) steps;
 * the rest is input. Nothing is billed for writing. Modelled on hashes of 128-token chunks.
 */
export function openaiCache({ minTokens = 1024, stepTokens = 128 } = {}) {
  const seen = new Set();
  const chunk = stepTokens * CHARS_PER_TOKEN;
  return (body) => {
    const text = openaiPrompt(body);
    const total = tokensOf(text.length);
    const prefixes = [];
    let prefix = '';
    for (let at = 0; at + chunk <= text.length; at += chunk) {
      prefix = hash(prefix, text.slice(at, at + chunk));
      prefixes.push(prefix);
    }
    let shared = 0;
    while (shared < prefixes.length && seen.has(prefixes[shared])) shared++;
    const sharedTokens = shared * stepTokens;
    const read = sharedTokens >= minTokens ? sharedTokens : 0;
    if (total >= minTokens) for (const p of prefixes) seen.add(p);
    return { inputTokens: total, cacheReadTokens: read, cacheWriteTokens: 0 };
  };
}

/** Adds usage up. */
export function addUsage(sum, usage) {
  for (const key of ['inputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'outputTokens']) {
    sum[key] = (sum[key] ?? 0) + (usage[key] ?? 0);
  }
  return sum;
}
