// "Today": the request layout on main before issue 14, reproduced so that the bench can compare
// against it. Two things changed since:
// - core offered tools in tree order (every rendered tool where it sits in the tree); it now offers
//   the agent's tools, then each loaded skill's tools in the order the skills were mounted;
// - the Anthropic adapter (models/src/anthropic.ts at f7d6e42^) appended the context to the text of
//   the last user-role message and set three breakpoints: the last tool, the system prompt, and the
//   last block of the turn before the last user turn. It now gives the context a block of its own
//   and sets four (see models/src/anthropic-request.ts).
// The OpenAI body is unchanged apart from the tool order.
import { textOf } from '../../dist/index.js';
import { placeContext } from '../../dist/provider.js';

/**
 * The request with its tools back in tree order: the read tool, the agent's tools, then each
 * skill's tools in catalog (tree) order. `skillOf(name)` names the skill a tool belongs to (null at
 * agent level); `catalog` lists the skills in tree order. The agents in these benches render their
 * own tools before any skill, so this is exactly the old order.
 */
export function treeOrder(req, skillOf, catalog, readToolName = 'read_skill') {
  const rank = (tool) => {
    if (tool.name === readToolName) return -2;
    const skill = skillOf(tool.name);
    return skill == null ? -1 : catalog.indexOf(skill);
  };
  const tools = req.tools
    .map((tool, i) => ({ tool, i, rank: rank(tool) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.tool);
  return { ...req, tools };
}

const CACHE = { type: 'ephemeral' };

function toolInputObject(input) {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      value = {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function toTurns(messages) {
  const turns = [];
  const push = (role, blocks) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    // Messages were strings then: their text is what the model read.
    const text = textOf(message);
    if (message.role === 'user') {
      push('user', text ? [{ type: 'text', text }] : []);
    } else if (message.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: text,
          ...(message.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      const blocks = [];
      if (text) blocks.push({ type: 'text', text });
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInputObject(call.input) });
      }
      push('assistant', blocks);
    }
  }
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    const results = turn.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0) turn.content = [...results, ...turn.content.filter((b) => b.type !== 'tool_result')];
  }
  return turns;
}

function lastUserTurn(turns) {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i].role === 'user') return i;
  return -1;
}

/** The Anthropic body as the adapter built it before issue 14 (caching on). */
export function legacyAnthropicBody(req, { model }) {
  const placed = placeContext(req);
  const body = { model, max_tokens: 4096, messages: [] };
  if (placed.system) {
    const split = req.contextPlacement === 'system' && req.system !== '' && placed.system.startsWith(req.system);
    body.system = split
      ? [
          { type: 'text', text: req.system, cache_control: CACHE },
          ...(placed.system.length > req.system.length
            ? [{ type: 'text', text: placed.system.slice(req.system.length) }]
            : []),
        ]
      : [{ type: 'text', text: placed.system, cache_control: CACHE }];
  }
  if (req.tools.length > 0) {
    body.tools = req.tools.map((tool, i) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
      ...(i === req.tools.length - 1 ? { cache_control: CACHE } : {}),
    }));
  }
  const turns = toTurns(placed.messages);
  const stableEnd = req.contextPlacement === 'system' ? turns.length - 1 : lastUserTurn(turns) - 1;
  const turn = turns[stableEnd];
  if (turn) {
    const last = turn.content.length - 1;
    turn.content[last] = { ...turn.content[last], cache_control: CACHE };
  }
  body.messages = turns;
  return body;
}
