/**
 * One tool call from start to recorded result: the built-in read tool or a rendered `<Tool>`, then
 * settling, checking the skills, and recording the result with its `contextChanged` lines.
 */

import { resolveFileLimits } from '../files/limits.js';
import { isBuiltinTool, SEARCH_TOOL_NAME, searching } from '../host/catalog.js';
import { type ToolEntry, type TreeSnapshot, toolProblems } from '../host/serialize.js';
import { textContent, withContextChanges } from '../parts/message-parts.js';
import { sanitizeText } from '../parts/text.js';
import { notOfferedInFork } from '../request/run-request.js';
import { config } from '../state/config.js';
import { emit } from '../state/events.js';
import { lastSkillOfTool, loadedSkills, transcriptOf } from '../state/reads.js';
import { pushMessage, takeChanges } from '../state/record.js';
import { flush } from '../state/render.js';
import { runSelf } from '../state/runs.js';
import { errorMessage, type SessionState, skillState, tree } from '../state/state.js';
import { settle } from '../state/sync.js';
import type {
  ContextChange,
  FilePart,
  ToolCall,
  ToolErrorKind,
  ToolMessage,
  ToolResultPart,
} from '../types/messages.js';
import { searchFromModel } from './catalog-search.js';
import { DurableReplayError, idempotencyKey, journaledTool, TurnSupersededError } from './journal.js';
import { noteRunWaits } from './run-waits.js';
import { checkSkills, loadSkill } from './skills.js';
import { cutResult, decodeInput, runTool, type ToolOutcome } from './tool-call.js';

/** What watches a tool call (see `TurnHook.toolCall`): called as it starts, its result ends it. */
export type ToolCallWatch = (call: ToolCall) => ((message: ToolMessage, error?: unknown) => void) | undefined;

/**
 * Runs `call`, records its result right away (the transcript is valid whatever happens), and
 * returns it. `watch` is told when it starts and how it ended (the turn's hooks: a span).
 */
export async function executeCall(
  state: SessionState,
  call: ToolCall,
  signal: AbortSignal | undefined,
  watch: ToolCallWatch,
): Promise<ToolMessage> {
  emit(state, { type: 'tool-call', toolCall: call });
  const ended = watch(call);
  let outcome: ToolOutcome;
  let fatal: unknown = null;
  try {
    flush(state);
    const snap = tree(state);
    // One read of the settings for the call's start: nothing renders until the tool runs.
    const cfg = config(state);
    const builtin = isBuiltinTool(snap, call.name, cfg.readToolName);
    outcome =
      builtin && call.name === cfg.readToolName
        ? await readFromModel(state, call.input)
        : builtin
          ? await searchFromModel(state, call.input)
          : await journaledTool(state, call, () =>
              runTool(findTool(state, snap, call.name), call, {
                session: state.runtime.session,
                chat: state.runtime.chat,
                idempotencyKey: idempotencyKey(state, call),
                signal,
                timeout: cfg.toolTimeout,
                maxResultChars: cfg.maxToolResultChars,
                fileLimits: resolveFileLimits(state.options.files),
                chatFileBytes: transcriptOf(state).fileBytes,
                skillInfo: (name) => ({ name, active: skillState(state, name) === 'active' }),
              }),
            );
  } catch (error) {
    // A recovered call that does not replay as recorded ends the turn, as a crashed tree does; so
    // does one the turn may not run live (its chat moved on while its process was gone).
    if (state.crashed || error instanceof DurableReplayError || error instanceof TurnSupersededError) fatal = error;
    outcome = { content: `Tool "${call.name}" failed: ${errorMessage(error)}`, isError: true, kind: 'threw' };
  }
  if (outcome.waits) {
    // The call's run waits (a call inside it waits for an answer): its result comes when it ends.
    noteRunWaits(state, outcome.waits);
    await settle(state);
    const waiting = resultMessage(call, 'Waiting: a call inside this run waits for an answer.', undefined, [], []);
    ended?.(waiting);
    return waiting;
  }
  let { content, isError, kind } = outcome;
  const files = outcome.files ?? [];
  content = cutResult(content, config(state).maxToolResultChars);
  if (!fatal) {
    try {
      await settle(state);
      const reasons = checkSkills(state);
      if (reasons.length > 0) {
        content = `${content}\n${reasons.join('\n')}`;
        isError = true;
        kind ??= 'skill';
      }
    } catch (error) {
      fatal = error;
    }
  }
  if (fatal) {
    // The agent's own tree threw while rendering: record the result so the transcript stays
    // valid, then fail the turn.
    content = `${content}\nThe agent threw while rendering after this call: ${errorMessage(fatal)}`;
    isError = true;
    kind ??= 'threw';
  }
  const message = recordResult(state, call, content, isError ? (kind ?? 'threw') : undefined, files);
  ended?.(message, fatal ?? outcome.error);
  if (fatal) throw fatal;
  return message;
}

/**
 * Appends the result of `call`, with the pending context changes after its text (a part of
 * their own). `errorKind` makes it an error result.
 */
export function recordResult(
  state: SessionState,
  call: ToolCall,
  content: string,
  errorKind?: ToolErrorKind,
  files: readonly FilePart[] = [],
): ToolMessage {
  const message = resultMessage(call, content, errorKind, files, state.crashed ? [] : takeChanges(state));
  pushMessage(state, message);
  emit(state, { type: 'tool-result', message });
  return message;
}

/** The result message of `call`: its text (and files), then the context changes it records. */
export function resultMessage(
  call: ToolCall,
  content: string,
  errorKind: ToolErrorKind | undefined,
  files: readonly FilePart[],
  changes: ContextChange[],
): ToolMessage {
  const parts: ToolResultPart[] = [...textContent(sanitizeText(content)), ...files];
  const message: ToolMessage = {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    // Of its exact size: the transcript (and a cached chat) keeps it, and spreads leave room to grow.
    content: withContextChanges(parts, changes).slice(),
  };
  if (errorKind) {
    message.isError = true;
    message.errorKind = errorKind;
  }
  return message;
}

async function readFromModel(state: SessionState, raw: unknown): Promise<ToolOutcome> {
  const read = config(state).readToolName;
  const decoded = decodeInput(read, raw);
  if (typeof decoded === 'string') return { content: decoded, isError: true, kind: 'invalid-input' };
  const name = (decoded.input as { name?: unknown } | null)?.name;
  if (typeof name !== 'string') {
    return {
      content: `Invalid input for tool "${read}": name: expected a skill name (string).`,
      isError: true,
      kind: 'invalid-input',
    };
  }
  const outcome = await loadSkill(state, name);
  if (!outcome.ok) return { content: outcome.error, isError: true, kind: outcome.unknown ? 'unknown-skill' : 'skill' };
  let content = outcome.mounted
    ? `Loaded skill "${name}"; it is now active.`
    : `Skill "${name}" was already loaded; it is now active.`;
  if (outcome.unloaded.length > 0) {
    content += ` Unloaded ${outcome.unloaded.map((n) => `"${n}"`).join(', ')} (least recently read).`;
  }
  if (outcome.stillLoading) {
    content += ` It is still loading (waited ${config(state).toolTimeout} ms); its tools and text appear once it is ready.`;
  }
  return { content, isError: false };
}

/** The rendered tool the model means, or the refusal that says why there is none. */
function findTool(state: SessionState, snap: TreeSnapshot, name: string): ToolEntry | ToolOutcome {
  const tool = snap.toolsByName.get(name);
  if (tool) {
    const problems = toolProblems(tool);
    if (problems.length === 0) return tool;
    return { content: `Tool "${name}" cannot run: ${problems.join(' ')}`, isError: true, kind: 'threw' };
  }
  // A fork sees the parent's tools in its prefix, but runs only its own (none of its skills declares this one).
  const self = runSelf(state);
  const notOffered =
    self && ownersOf(state, snap, name).length === 0 && notOfferedInFork(self, name, offeredNames(state, snap));
  if (notOffered) return { content: notOffered, isError: true, kind: 'unknown-tool' };
  return { content: unknownTool(state, snap, name), isError: true, kind: 'unknown-tool' };
}

/** The names of the tools the session offers now: the built-in skill tools, then the tree's. */
function offeredNames(state: SessionState, snap: TreeSnapshot): string[] {
  const read = config(state).readToolName;
  const builtins = snap.skillCount === 0 ? [] : searching(snap) ? [read, SEARCH_TOOL_NAME] : [read];
  return [...builtins, ...snap.toolsByName.keys()];
}

/**
 * `Unknown tool: x (…hint…). Tools available now: …`. The hint names the skill the tool belongs to
 * when the session can know it: a skill that rendered it before (in any earlier mount), or one that
 * declares it in its `tools` prop. A tool of an unloaded skill says to read that skill; one of a
 * loaded skill that does not render it now says it is not available right now there. Else a close
 * name ("did you mean"), else, while some skill is not loaded, that reading one may offer it.
 */
export function unknownTool(state: SessionState, snap: TreeSnapshot, name: string): string {
  const read = config(state).readToolName;
  const available = offeredNames(state, snap);
  let hint = '';
  const owners = ownersOf(state, snap, name);
  const loadedOwner = owners.find((owner) => loadedSkills(state).includes(owner));
  const close = closest(name, available);
  if (loadedOwner) {
    hint = ` (not available right now in skill "${loadedOwner}")`;
  } else if (owners.length > 0) {
    hint = ` (skill "${owners[0]}" is not loaded; read it first with ${read})`;
  } else if (close) {
    hint = ` (did you mean "${close}"?)`;
  } else if (snap.skills.some((skill) => !loadedSkills(state).includes(skill.name))) {
    hint = ` (not offered right now; if a skill that is not loaded offers it, read that skill first with ${read})`;
  }
  return `Unknown tool: ${name}${hint}. Tools available now: ${available.join(', ') || 'none'}.`;
}

/**
 * The skills in the catalog that `name` belongs to: the one that rendered it last (in any earlier
 * mount), then those that declare it in `<Skill tools>`, in tree order.
 */
function ownersOf(state: SessionState, snap: TreeSnapshot, name: string): string[] {
  const owners: string[] = [];
  const seen = lastSkillOfTool(state, name);
  if (seen && snap.skillsByName.has(seen)) owners.push(seen);
  for (const skill of snap.skills) {
    const declared: unknown = skill.node.props.tools;
    if (skill.name !== seen && Array.isArray(declared) && declared.includes(name)) owners.push(skill.name);
  }
  return owners;
}

/** The closest name within edit distance 2, for "did you mean" hints. */
function closest(name: string, candidates: string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase(), bestDistance);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
