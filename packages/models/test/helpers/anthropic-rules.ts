/**
 * The Messages API's documented rules for mid-conversation system messages and tool changes, as a
 * test server enforces them: a request that breaks one gets the 400 the API would send. Sources:
 * Anthropic's "Mid-conversation system messages and tool changes" page (supported models, beta
 * headers, placement), the tool-use caching page (deferred tools) and the SDK's beta types.
 */
import type { IncomingMessage } from 'node:http';
import { type Handler, json } from './server.js';

/** Models that accept `role: "system"` messages inside `messages` (the page's list). */
const SYSTEM_MESSAGE_MODELS = [
  'claude-opus-4-8',
  'claude-opus-5',
  'claude-opus-5-5',
  'claude-sonnet-5-5',
  'claude-haiku-5-5',
  'claude-fable-5',
  'claude-fable-5-1',
  'claude-mythos-5',
  'claude-mythos-5-1',
  // Not on the page, which predates them; the preserved-thinking page prescribes system messages for them.
  'claude-fable-5-2',
  'claude-mythos-5-2',
];

type Block = { type: string; [k: string]: any };
type Turn = { role: string; content: string | Block[] };

const blocks = (turn: Turn): Block[] =>
  typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : turn.content;

/** What is wrong with a request, by the documented rules, or null. */
export function anthropicProblem(body: any, betaHeader: string | undefined): string | null {
  const betas = new Set(
    (betaHeader ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  );
  const messages: Turn[] = body?.messages ?? [];
  const tools: any[] = body?.tools ?? [];
  const deferred = new Set(tools.filter((t) => t.defer_loading === true).map((t) => t.name));
  if (tools.some((t) => t.defer_loading === true && t.cache_control)) {
    return 'tools: a tool with defer_loading cannot carry cache_control';
  }
  if (tools.length > 0 && tools.every((t) => t.defer_loading === true)) return 'All tools have defer_loading set';
  const offered = new Set(tools.filter((t) => t.defer_loading !== true).map((t) => t.name));
  const defined = new Set<string>();
  const changes = messages.some((m) => m.role === 'system' && blocks(m).some((b) => b.type !== 'text'));
  if (messages[0]?.role === 'system')
    return "messages.0: use the top-level 'system' parameter for the initial system prompt";
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system') {
      const model = String(body.model);
      if (!SYSTEM_MESSAGE_MODELS.some((id) => model === id || model.startsWith(`${id}-2`))) {
        return `messages.${i}: role 'system' is not supported on this model`;
      }
      const previous = messages[i - 1];
      if (previous?.role === 'assistant' && blocks(previous).some((b) => b.type === 'tool_use')) {
        return `messages.${i}: a system message cannot sit between a tool_use and its tool_result`;
      }
      const toolBlocks = blocks(m).filter((b) => b.type === 'tool_addition' || b.type === 'tool_removal');
      const next = messages[i + 1];
      if (next && next.role !== 'assistant' && next.role !== 'system') {
        return `messages.${i}: role 'system' must precede an 'assistant' message or end the array`;
      }
      for (const [j, b] of toolBlocks.entries()) {
        const at = `messages.${i}.content.${j}`;
        const tool = b.tool ?? {};
        if (b.type === 'tool_addition' && tool.type === 'tool_definition') {
          if (!betas.has('inline-tools-2026-09-15'))
            return `${at}: tool definitions need the inline-tools-2026-09-15 beta`;
          const name = tool.definition?.name;
          if (typeof name !== 'string') return `${at}: a tool definition needs a name`;
          defined.add(name);
          offered.add(name);
          continue;
        }
        if (tool.type !== 'tool_reference' || typeof tool.name !== 'string') return `${at}: unknown tool reference`;
        if (!betas.has('mid-conversation-tool-changes-2026-07-01')) {
          return `${at}: tool changes need the mid-conversation-tool-changes-2026-07-01 beta`;
        }
        if (b.type === 'tool_addition') {
          if (!deferred.has(tool.name) && !defined.has(tool.name)) {
            return `${at}: tool_addition names "${tool.name}", which is not a tool declared with defer_loading: true`;
          }
          offered.add(tool.name);
        } else {
          if (!offered.has(tool.name)) return `${at}: tool_removal names "${tool.name}", which is not available here`;
          offered.delete(tool.name);
        }
      }
      continue;
    }
    const content = blocks(m);
    if (m.role === 'assistant') {
      const next = messages[i + 1];
      const uses = content.filter((b) => b.type === 'tool_use');
      if (uses.length > 0 && next?.role === 'system') {
        return `messages.${i + 1}: a system message cannot sit between a tool_use and its tool_result`;
      }
      if (uses.length > 0 && next) {
        const results = new Set(
          next.role === 'user'
            ? blocks(next)
                .filter((b) => b.type === 'tool_result')
                .map((b) => b.tool_use_id)
            : [],
        );
        for (const use of uses) {
          if (!results.has(use.id)) return `messages.${i}: tool_use ${use.id} has no tool_result right after it`;
        }
      }
      if (changes) {
        for (const use of uses) {
          if (!offered.has(use.name))
            return `messages.${i}: tool_use of "${use.name}", a tool not available at this point`;
        }
      }
    }
    if (m.role === 'user') {
      const previous = messages[i - 1];
      const calls = new Set(
        previous?.role === 'assistant'
          ? blocks(previous)
              .filter((b) => b.type === 'tool_use')
              .map((b) => b.id)
          : [],
      );
      for (const b of content) {
        if (b.type === 'tool_result' && !calls.has(b.tool_use_id)) {
          return `messages.${i}: tool_result ${b.tool_use_id} without its tool_use`;
        }
      }
    }
  }
  return null;
}

/** The request's `anthropic-beta` header. */
export function betaHeader(req: IncomingMessage): string | undefined {
  const value = req.headers['anthropic-beta'];
  return Array.isArray(value) ? value.join(',') : value;
}

/** A handler that answers 400 (as the API does) when the request breaks a rule, else runs `handler`. */
export function checked(handler: Handler): Handler {
  return (req, res, body) => {
    const problem = anthropicProblem(body, betaHeader(req));
    if (problem)
      return json(400, { type: 'error', error: { type: 'invalid_request_error', message: problem } })(req, res, body);
    return handler(req, res, body);
  };
}
