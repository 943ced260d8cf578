/**
 * A subagent run's requests (SPEC §19). Every request of a run names the run (`subagent`). A fork's
 * requests start with the parent's latest request unchanged — system, tools and every item,
 * reasoning blocks included, byte for byte — then a note that carries the run's instructions,
 * catalog and tools (a mid-conversation system message / developer message with tool additions, as
 * append-only requests carry every change) that also carries its task, then the run's own conversation. So a
 * provider's prompt cache reads the parent's whole prefix, and preserved thinking stays valid. The
 * parent's tools stay declared (no removals); the run runs only its own.
 */
import { textOf } from '../parts/message-parts.js';
import type { RunSelf } from '../state/state.js';
import type { AppendOnlyRequest, ModelRequest, SystemNote, ToolSpec } from '../types/request.js';

/** `request` as the run of `self` sends it. `request` is fresh (built for this step): it is completed in place, or replaced for a fork. */
export function runRequest(request: ModelRequest, self: RunSelf): ModelRequest {
  const subagent = { name: self.run.name, runId: self.run.id, depth: self.run.depth };
  const parent = self.fork;
  if (!parent) {
    request.subagent = subagent;
    return request;
  }
  // Without an append-only request on both sides (a model outside the append-only table), the run
  // still reads the parent's conversation, under its own system prompt and tools: a provider's cache
  // cannot read the parent's prefix then (the session warned when it was created).
  const out: ModelRequest = {
    system: request.system,
    context: request.context,
    messages: [...parent.messages, ...request.messages],
    tools: request.tools,
    contextPlacement: request.contextPlacement,
    subagent,
  };
  if (parent.appendOnly && request.appendOnly)
    out.appendOnly = forked(parent.appendOnly, request.appendOnly, subagent.name);
  return out;
}

const specKey = (spec: ToolSpec) => JSON.stringify([spec.description, spec.inputSchema]);

/**
 * The parent's append-only request, the note that turns it into the run (its task included), then
 * the run's own items after its task. The task rides in the note, not in a user message of its own:
 * after the parent's last user turn a provider takes only a system (developer) message, so a user
 * message would join that turn and change the parent's bytes.
 */
function forked(parent: AppendOnlyRequest, own: AppendOnlyRequest, name: string): AppendOnlyRequest {
  const [first, ...rest] = own.items;
  const task = first?.role === 'user' ? textOf(first) : null;
  const items = [...parent.items, forkNote(parent, own, name, task), ...(task === null ? own.items : rest)];
  return { system: parent.system, tools: parent.tools, items };
}

/**
 * The note a fork starts with: who the model is from here on (the run's system prompt: its
 * instructions and skill catalog), the tools it may call, and its own tools that the parent did not
 * offer alike (added). The parent's tools are not removed: they stay declared in the prefix the
 * cache reads (a removal per tool would be appended, uncached, on every fork). The run still runs
 * only its own: the note names them, a model that can be told so is restricted to them (the
 * request's `tools` are the run's, see OpenAI's `allowed_tools`), and a call of a parent tool is
 * answered with an error that names the run's tools ({@link notOfferedInFork}).
 */
export function forkNote(
  parent: AppendOnlyRequest,
  own: AppendOnlyRequest,
  name: string,
  task: string | null,
): SystemNote {
  const parentKeys = new Map(parent.tools.map((spec) => [spec.name, specKey(spec)]));
  const addedTools = own.tools.filter((spec) => parentKeys.get(spec.name) !== specKey(spec));
  const ownNames = own.tools.map((spec) => spec.name);
  const text = [
    `<subagent name="${name}">`,
    `From here on you are the subagent "${name}", forked from the conversation above: you know what it says, and you work only on the task below, with the instructions and tools below. End with your result.`,
    `You may call only these tools: ${ownNames.join(', ') || 'none'} (and those of the skills you read); the conversation's other tools are not yours.`,
    own.system,
    ...(task === null ? [] : ['<task>', task, '</task>']),
    '</subagent>',
  ].join('\n');
  return { role: 'system', text, addedTools, removedTools: [] };
}

/** Every tool name a fork's prefix declares: the parent's tools, and each one its notes added. */
export function forkedToolNames(fork: ModelRequest): Set<string> {
  const names = new Set(fork.tools.map((spec) => spec.name));
  for (const spec of fork.appendOnly?.tools ?? []) names.add(spec.name);
  for (const item of fork.appendOnly?.items ?? []) {
    if (item.role === 'system') for (const spec of item.addedTools) names.add(spec.name);
  }
  return names;
}

/**
 * The error a fork's call of a parent tool it does not offer gets (the model sees the parent's
 * tools in its prefix), or null when `name` is no tool of the parent's. `offered`: the run's tools.
 */
export function notOfferedInFork(self: RunSelf, name: string, offered: readonly string[]): string | null {
  if (!self.fork || !forkedToolNames(self.fork).has(name)) return null;
  return `Tool "${name}" is not offered in subagent "${self.run.name}" (a fork sees the parent's tools but runs only its own: ${offered.join(', ') || 'none'}).`;
}
