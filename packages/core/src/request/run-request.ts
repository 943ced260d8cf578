/**
 * A subagent run's requests (SPEC §19). Every request of a run names the run (`subagent`). A fork's
 * requests start with the parent's latest request unchanged — system, tools and every item,
 * reasoning blocks included, byte for byte — then a note that carries the run's instructions,
 * catalog and tools (a mid-conversation system message / developer message with tool changes, as
 * append-only requests carry every change) that also carries its task, then the run's own conversation. So a
 * provider's prompt cache reads the parent's whole prefix, and preserved thinking stays valid.
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
 * instructions and skill catalog), the tools it offers (the parent's that it does not offer are
 * removed; its own that the parent did not offer alike are added).
 */
export function forkNote(
  parent: AppendOnlyRequest,
  own: AppendOnlyRequest,
  name: string,
  task: string | null,
): SystemNote {
  const parentKeys = new Map(parent.tools.map((spec) => [spec.name, specKey(spec)]));
  const ownNames = new Set(own.tools.map((spec) => spec.name));
  const addedTools = own.tools.filter((spec) => parentKeys.get(spec.name) !== specKey(spec));
  const removedTools = parent.tools.map((spec) => spec.name).filter((n) => !ownNames.has(n));
  const text = [
    `<subagent name="${name}">`,
    `From here on you are the subagent "${name}", forked from the conversation above: you know what it says, and you work only on the task below, with the instructions and tools below. End with your result.`,
    own.system,
    ...(task === null ? [] : ['<task>', task, '</task>']),
    '</subagent>',
  ].join('\n');
  return { role: 'system', text, addedTools, removedTools };
}
