/**
 * Generates docs/what-the-model-receives.md: plays the scripted demo of the support-desk example
 * and prints every request the model receives, as `session.request()` builds it.
 *
 * `pnpm docs:update` writes the page; the docs test regenerates it in memory
 * and fails when the committed page is stale.
 */
import {
  createSession,
  type Message,
  type Model,
  type ModelRequest,
  type SessionOptions,
  textOf,
} from '@skilltree/core';
import { type LifecycleEntry, placeContext, type ToolSpec } from '@skilltree/core/provider';
import SupportDesk, { demo } from '@skilltree/example-support-desk/agent';
import { anthropicDeltaBody } from '@skilltree/models/anthropic';
import { createElement, type ReactElement } from 'react';

/** A module the CLI can run: the agent as its default export, and a scripted demo conversation. */
export interface AgentModule {
  default: (() => ReactElement | null) | ((props: any) => ReactElement | null);
  demo: { messages: string[]; model: () => Model };
}

const supportDesk: AgentModule = { default: SupportDesk, demo };

const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text}\n\`\`\``;
const json = (value: unknown) => fence('json', JSON.stringify(value, null, 2));

interface Step {
  turn: number;
  request: ModelRequest;
  /** Transcript length when the request was built: the window ends there. */
  end: number;
}

async function run(module: AgentModule, options: SessionOptions = {}, appendOnly = false) {
  const demoModel = module.demo.model();
  // The same scripted model, declared as one that binds its reasoning to the prefix.
  const model: Model = appendOnly
    ? { name: demoModel.name, appendOnly: true, generate: (req, opts) => demoModel.generate(req, opts) }
    : demoModel;
  const session = createSession(createElement(module.default), { ...options, model });
  const steps: Step[] = [];
  let turn = 0;
  session.on('request', ({ request }) => steps.push({ turn, request, end: session.transcript.length }));
  for (const text of module.demo.messages) {
    turn++;
    await session.send(text);
  }
  const transcript = [...session.transcript];
  const { maxTranscriptMessages } = session.config;
  const skills = session.skills.map((skill) => ({ name: skill.name, description: skill.description }));
  session.dispose();
  return { steps, transcript, maxTranscriptMessages, skills };
}

function describeTools(tools: ToolSpec[], seen: Set<string>): string {
  const names = tools.map((t) => `\`${t.name}\``).join(', ');
  const fresh = tools.filter((t) => !seen.has(JSON.stringify(t)));
  for (const t of fresh) seen.add(JSON.stringify(t));
  if (fresh.length === 0) return `**tools**: ${names} (specs as before)`;
  const label = seen.size === fresh.length ? 'full specs' : 'specs new in this request';
  return `**tools**: ${names}; ${label}:\n\n${json(fresh)}`;
}

function windowNote(step: Step, transcript: Message[], cap: number): string {
  const { messages } = step.request;
  const start = step.end - messages.length;
  const range = `messages ${start + 1}–${step.end} of ${step.end} in the transcript`;
  if (start === 0) return `**messages**: ${messages.length} (${range}).`;
  const first = transcript[start];
  const opening = first.role === 'user' ? textOf(first).split('\n')[0] : '?';
  return (
    `**messages**: ${messages.length} (${range}). The cap is ${cap}, so the window drops the oldest ${start} ` +
    `and starts at the user message “${opening}”.`
  );
}

/** The message `placeContext` put the context in (with `'end'` placement), and its index. */
function placedTail(req: ModelRequest): { index: number; message: Message } {
  const { placed, messages } = placeContext(req);
  const index = placed === 'system' ? -1 : placed;
  return { index, message: messages[index] };
}

/** A delta's entries with tool names instead of whole specs (the specs are the request's, above). */
function briefEntries(entries: LifecycleEntry[]) {
  return entries.map((e) =>
    e.type === 'loaded'
      ? { ...e, tools: e.tools.map((t) => t.name) }
      : e.type === 'tools'
        ? { ...e, added: e.added.map((t) => t.name) }
        : e,
  );
}

/** The append-only layout of the same demo: how request k+1 extends request k, and the notes of the last one. */
async function appendOnlySection(module: AgentModule): Promise<string> {
  const { steps } = await run(module, {}, true);
  const requests = steps.map((s) => s.request.appendOnly).filter((r) => r !== undefined);
  const last = requests[requests.length - 1];
  if (!last) return '';
  let extended = 0;
  let moved = 0;
  for (let k = 1; k < requests.length; k++) {
    const prev = requests[k - 1];
    const next = requests[k];
    const same =
      prev.system === next.system &&
      JSON.stringify(prev.tools) === JSON.stringify(next.tools) &&
      prev.items.every((item, i) => JSON.stringify(item) === JSON.stringify(next.items[i]));
    if (same) extended++;
    else moved++;
  }
  const notes = last.items.flatMap((item, index) =>
    item.role === 'system'
      ? [{ index, text: item.text, addedTools: item.addedTools.map((t) => t.name), removedTools: item.removedTools }]
      : [],
  );
  return `## The same conversation, append-only

Models that bind their reasoning to the exact prefix of the request (Claude Opus 5.5, the Fable and
Mythos 5.x models, GPT-5.4 and later: see [Models](./models.md)) get \`request.appendOnly\` instead: the
request as the previous one plus appended items. \`system\` and \`tools\` are what the first request
carried; every change after it (a load, an unload, a conditional tool, a re-rendered line, the live
context) is a note (\`role: 'system'\`) appended where it happened, with the tools it added or removed.
The window moves only when a turn starts, by jumps; reasoning recorded before a move is not sent under
the new prefix. Played append-only, the demo's ${requests.length} requests: ${extended} extend the one before
them item for item, ${moved} start a new prefix because the window moved at a turn's start.

The first request's tools: ${last.tools.map((t) => `\`${t.name}\``).join(', ')}. The notes of the last request
(its items are the transcript's messages with these in between; tool specs shortened to their names):

${json(notes)}

`;
}

/** The delta layout of the same demo with the stable window: the last request's lifecycle and its Anthropic body. */
async function deltasSection(module: AgentModule): Promise<string> {
  const { steps } = await run(module, { windowMode: 'stable' });
  const last = steps[steps.length - 1].request;
  const life = last.lifecycle;
  if (!life) return '';
  const body = anthropicDeltaBody(last, { model: 'claude-opus-4-8' });
  const systemMessages = (body?.messages ?? []).filter((m) => m.role === 'system');
  const deltas = life.deltas.map((d) => ({ after: d.after, entries: briefEntries(d.entries) }));
  return `## The same conversation as deltas

Models that take tool changes inside the conversation get the skill lifecycle as deltas instead:
\`request.lifecycle\` describes it provider-neutrally, and \`anthropic({ model, toolChanges })\` sends it
as mid-conversation system messages (see [Lifecycle](./lifecycle.md#how-a-load-and-an-unload-reach-the-model)
and [Models](./models.md#tool-changes)). \`lifecycle\` is a getter built on first read, not one of the
request's own properties, so it is not part of the JSON above. This is the same demo played with \`windowMode: 'stable'\` (with which
\`toolChanges: 'auto'\` sends deltas to a model that supports them); request ${steps.length}:

| field | what it holds |
|---|---|
| \`lifecycle.tools\` | The tools that never change with the lifecycle: ${life.tools.map((t) => `\`${t.name}\``).join(', ')}. |
| \`lifecycle.deltas\` | What changed where: each goes right after \`messages[after]\`, the last of a run of user and tool messages. The first re-states the skills loaded where the window starts. |
| \`lifecycle.messages\` | The window; a load's result leaves out the \`contextChanged … added:\` lines that its delta states in full. |
| \`lifecycle.context\` | \`<current_context>\` with only the lines the skills' loads did not state. |

The deltas (tool specs shortened to their names; the lines are the skill's instructions and text at its load):

${json(deltas)}

The context, against the classic request's:

${fence('xml', life.context)}

What \`anthropic({ model: 'claude-opus-4-8' })\` sends for it: \`tools\` are the prefix tools and, deferred,
every skill tool an addition names; header \`anthropic-beta: ${(body?.betas ?? []).join(',')}\`. The
system messages inside \`messages\`:

${json(systemMessages)}

The tools:

${json(body?.tools?.map((t) => ({ name: (t as { name: string }).name, ...((t as { defer_loading?: boolean }).defer_loading ? { defer_loading: true } : {}) })))}
`;
}

/** The page for a scripted session of `module` (default: the support-desk example). */
export async function renderWhatTheModelReceives(module: AgentModule = supportDesk): Promise<string> {
  const { steps, transcript, maxTranscriptMessages, skills } = await run(module);
  const userTurns = module.demo.messages;
  const out: string[] = [];
  out.push(`# What the model receives

<!-- Generated by docs/scripts/what-the-model-receives.tsx: do not edit. Run \`pnpm docs:update\`. -->

Every model call gets one request. \`session.request()\` returns the next one before it is sent, and
the \`request\` event hands you each one as it goes out. It is provider-neutral: the adapters in
\`@skilltree/models\` translate it into each provider's format.

| field | what it holds |
|---|---|
| \`system\` | Agent-level \`<Instructions>\`, then the skill catalog: every \`<Skill>\`, loaded or not, as \`name — description\`. It changes only when the agent-level part of the tree changes. |
| \`context\` | \`<current_context>…</current_context>\`: agent-level \`<Text>\` in an \`<agent>\` section, then one \`<skill>\` section per loaded skill, least recently read first; the active skill comes last, marked \`active="true"\`. Always sent: the message cap does not apply to it. |
| \`messages\` | The transcript window: the newest messages, at most \`maxTranscriptMessages\`, starting at a user message. |
| \`tools\` | \`read_skill\`, agent-level tools, and the tools of every loaded skill, in tree order, each with a JSON Schema made from its zod input. |
| \`contextPlacement\` | Where adapters put \`context\`: \`'end'\` (default) or \`'system'\`. |
| \`lifecycle\` | The same request with the skill lifecycle as deltas positioned in the messages, for models that take tool changes inside the conversation ([below](#the-same-conversation-as-deltas)). Built on first read; not part of the request's JSON. |

Everything below was printed by a real session. [\`docs/scripts/what-the-model-receives.tsx\`](./scripts/what-the-model-receives.tsx)
mounts the [support-desk example](../examples/support-desk) and plays its scripted demo, the same one
\`skilltree chat examples/support-desk/agent.tsx\` plays without an API key: ${userTurns.length} user turns,
${steps.length} model calls, \`maxTranscriptMessages\` ${maxTranscriptMessages}. CI regenerates this page and fails
when it differs, so it shows what the code does today.

The catalog: ${skills.map((skill) => `\`${skill.name}\``).join(', ')}.

To keep the page readable, each request shows the system prompt only when it changed, full tool specs
only the first time a tool appears, and only the messages that are new since the previous request; the
last request is shown whole at the end.
`);

  const seenTools = new Set<string>();
  let lastSystem: string | null = null;
  let lastTurn = 0;
  let lastEnd = 0;
  steps.forEach((step, index) => {
    const { request } = step;
    if (step.turn !== lastTurn) {
      out.push(`## Turn ${step.turn}: “${userTurns[step.turn - 1]}”\n`);
      lastTurn = step.turn;
    }
    out.push(`### Request ${index + 1}\n`);
    if (request.system === lastSystem) out.push('**system**: byte-identical to the previous request.\n');
    else out.push(`**system**:\n\n${fence('text', request.system)}\n`);
    lastSystem = request.system;
    out.push(`**context**:\n\n${fence('xml', request.context)}\n`);
    out.push(`${describeTools(request.tools, seenTools)}\n`);
    out.push(`${windowNote(step, transcript, maxTranscriptMessages)}\n`);
    const start = step.end - request.messages.length;
    const fresh = transcript.slice(Math.max(index === 0 ? 0 : lastEnd + 1, start), step.end);
    if (fresh.length > 0) {
      const note = fresh.some((m) => m.content.some((p) => p.type === 'context-changed'))
        ? ' (note the `contextChanged` lines)'
        : '';
      out.push(`New since the previous request${note}:\n`);
      out.push(`${json(fresh)}\n`);
    }
    lastEnd = step.end;
    out.push(`The model answers:\n\n${json(transcript[step.end])}\n`);
  });

  const last = steps[steps.length - 1].request;
  out.push(`## The last request, whole

This is \`session.request()\` for request ${steps.length}, exactly as the adapter receives it:

${json(last)}

## Where the context goes

\`context\` is kept apart in the neutral request; an adapter places it with \`placeContext(request)\`
from \`@skilltree/core/provider\`. With \`contextPlacement: 'end'\` (the default) it is appended to the last
user-role message of the window (a user message or a tool result). The system prompt, the tools and
every message before that one are then the same bytes from one step to the next, so a provider's prompt
cache keeps serving that prefix; only the tail changes. With \`'system'\` it is appended to the system
prompt instead. \`placeContext\` also says where it put the context (\`placed\`: the index of the
message, or \`'system'\`), so an adapter never works it out again. For the request above it returns
the same system prompt and the same messages except message ${placedTail(last).index} (\`placed\`), which becomes:

${json(placedTail(last).message)}

${await deltasSection(module)}
${await appendOnlySection(module)}
## Next steps

- [Lifecycle](./lifecycle.md): why the context and the tools change between these requests.
- [State and conditional tools](./state.md): how a tool appears only once its condition holds.
- [Sessions](./sessions.md): \`session.request()\` and the \`request\` event that printed this page.
- [Models](./models.md): how the adapters send this request to Anthropic, OpenAI-compatible servers and the AI SDK.
`);
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
