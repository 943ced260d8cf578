/**
 * The append-only request: for a model that binds its reasoning (or its cache) to the exact prefix,
 * every request is the previous request plus appended items. The system prompt and the tools are
 * fixed by the first request of a conversation; what changes afterwards (the live context, the
 * agent's instructions or skill catalog, the tools on offer) reaches the model as a note appended
 * where it happened. The log of what was sent is session state (snapshots and store records keep
 * it), so another process sends exactly what this one would have.
 *
 * The window moves only when a turn starts, and by jumps (as the stable window does): a move starts
 * a new conversation prefix, and reasoning recorded before it is left out, because it was bound to
 * the prefix it was produced under.
 */
import { agentSection, skillContextSection, unloadedSection } from '../host/prompt.js';
import type { TreeSnapshot } from '../host/serialize.js';
import { replayableTo } from '../parts/reasoning.js';
import { config } from '../state/config.js';
import { loadedSkills } from '../state/reads.js';
import type { SessionState } from '../state/state.js';
import { windowOf } from '../transcript/transcript.js';
import type { AppendOnlyItem, AppendOnlyRequest, SentLogData, SystemNote, ToolSpec } from '../types/request.js';
import { inputSchemaJson } from './usage-estimate.js';

/** The key of the agent's section among the context sections (not a valid skill name). */
const AGENT_SECTION = '';

/** What one request would add to the log: its note (if any) and the log after it is sent. */
export interface AppendOnlyPlan {
  request: AppendOnlyRequest;
  /** The log as it is once this request has been sent. */
  next: SentLogData;
}

/** The context as sections: the agent's, then each loaded skill's, rendered. */
function sections(snap: TreeSnapshot, loaded: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (snap.agentLines.length > 0) out.set(AGENT_SECTION, agentSection(snap.agentLines));
  loaded.forEach((name, i) => {
    const skill = snap.skillsByName.get(name);
    if (skill) out.set(name, skillContextSection(name, skill.lines, i === loaded.length - 1));
  });
  return out;
}

/** Keys by spec: a spec object never changes (a changed tool is a new spec). */
const specKeys = new WeakMap<ToolSpec, string>();

/**
 * What the model was told of a tool: `JSON.stringify([description, inputSchema])`, as logs keep it.
 * Made once per spec, from its schema stringified once per schema object ({@link inputSchemaJson}):
 * a request stringifies no schema it has stringified before, and an unchanged tool compares by
 * reference, not by its characters.
 */
function specKey(spec: ToolSpec): string {
  let key = specKeys.get(spec);
  if (key === undefined) {
    key = `[${JSON.stringify(spec.description) ?? 'null'},${inputSchemaJson(spec) ?? 'null'}]`;
    specKeys.set(spec, key);
  }
  return key;
}

/**
 * The note for what changed between what the model was told (`told`) and the request as it is now
 * (`system`, `tools`, the context sections), or null when nothing did.
 */
function noteFor(
  told: SentLogData['told'],
  system: string,
  tools: readonly ToolSpec[],
  now: Map<string, string>,
): SystemNote | null {
  const lines: string[] = [];
  if (system !== told.system) {
    lines.push('<instructions_changed>', system, '</instructions_changed>');
  }
  const changed: string[] = [];
  for (const [key, section] of now) {
    const before = told.sections[key];
    if (before !== section) changed.push(before === undefined ? section : sectionChange(before, section));
  }
  for (const key of Object.keys(told.sections)) {
    if (!now.has(key) && key !== AGENT_SECTION) changed.push(unloadedSection(key));
    else if (!now.has(key)) changed.push('<agent/>');
  }
  if (changed.length > 0) lines.push('<current_context>', ...changed, '</current_context>');
  const addedTools: ToolSpec[] = [];
  const offered = new Set<string>();
  for (const spec of tools) {
    offered.add(spec.name);
    if (told.tools[spec.name] !== specKey(spec)) addedTools.push(spec);
  }
  const removedTools = Object.keys(told.tools).filter((name) => !offered.has(name));
  if (lines.length === 0 && addedTools.length === 0 && removedTools.length === 0) return null;
  return { role: 'system', text: lines.join('\n'), addedTools, removedTools };
}

/**
 * A section the model has, changed: when most of it stayed, only the lines it lost (`- `) and
 * gained (`+ `), under its opening tag marked `changed="true"`; else the section whole. The model
 * reads a small section change as a small note, and the prefix it was sent in stays.
 */
function sectionChange(before: string, after: string): string {
  const old = before.split('\n');
  const now = after.split('\n');
  const body = (lines: string[]) => lines.slice(1, -1);
  const counts = new Map<string, number>();
  for (const line of body(old)) counts.set(line, (counts.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of body(now)) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else added.push(line);
  }
  const removed: string[] = [];
  for (const [line, left] of counts) for (let i = 0; i < left; i++) removed.push(line);
  const diff = [...removed.map((l) => `- ${l}`), ...added.map((l) => `+ ${l}`)];
  // A diff as long as the section says nothing shorter: send the section.
  if (diff.join('\n').length >= after.length) return after;
  const open = now[0].replace(/>$/, ' changed="true">');
  return [open, ...diff, now.at(-1) ?? ''].join('\n');
}

/** A fresh log: the conversation's prefix starts at `start`, with this system prompt and these tools. */
function startLog(start: number, system: string, tools: readonly ToolSpec[], reasoningFrom: number): SentLogData {
  const told: SentLogData['told'] = { system, tools: {}, sections: {} };
  for (const spec of tools) told.tools[spec.name] = specKey(spec);
  return { start, system, tools: [...tools], notes: [], told, reasoningFrom };
}

/**
 * The append-only request for the session as it is now, and the log once it is sent. `turnStart`
 * says whether this is the first request of a turn: only then may the window move.
 */
export function planAppendOnly(
  state: SessionState,
  fields: { system: string; tools: ToolSpec[]; snap: TreeSnapshot },
  turnStart: boolean,
): AppendOnlyPlan {
  const t = state.window.transcript;
  const end = t.start + t.messages.length;
  const cfg = config(state);
  let log = state.window.sent;
  // A log the messages in memory cannot rebuild (they start later) starts a new prefix.
  if (log && (log.start < t.start || log.start > end)) log = null;
  if (!log || turnStart) {
    // Where the window would start now: it stays where it is while it fits, then jumps.
    const window = windowOf(t, {
      maxMessages: cfg.maxTranscriptMessages,
      maxTokens: cfg.maxTranscriptTokens,
      tokenizer: state.options.tokenizer,
      mode: 'stable',
      previousStart: log?.start,
    });
    if (!log || window.start !== log.start) {
      // Reasoning recorded before this request was bound to another prefix (or none is known).
      log = startLog(window.start, fields.system, fields.tools, end);
    }
  }
  const items: AppendOnlyItem[] = [];
  const notes = log.notes;
  let n = 0;
  // A note recorded before the first message of the window (the first request of a prefix with an
  // empty transcript) has `after` = start - 1.
  while (n < notes.length && notes[n].after < log.start) items.push(notes[n++].note);
  // Reasoning goes only where replaysTo says (none from before the prefix); each message is
  // stripped once and cached, not copied again on every request.
  const source = state.options.model?.reasoningSource;
  for (let i = log.start; i < end; i++) {
    const message = t.messages[i - t.start];
    if (i < log.reasoningFrom) items.push(replayableTo(message, null));
    else items.push(source ? replayableTo(message, source) : message);
    while (n < notes.length && notes[n].after === i) items.push(notes[n++].note);
  }
  const now = sections(fields.snap, loadedSkills(state));
  const note = noteFor(log.told, fields.system, fields.tools, now);
  let next = log;
  if (note) {
    items.push(note);
    const told: SentLogData['told'] = { system: fields.system, tools: {}, sections: {} };
    for (const spec of fields.tools) told.tools[spec.name] = specKey(spec);
    for (const [key, section] of now) told.sections[key] = section;
    next = { ...log, notes: [...notes, { after: end - 1, note }], told };
  }
  return { request: { system: log.system, tools: log.tools, items }, next };
}

/** Whether the session sends append-only requests: its model binds reasoning to the prefix. */
export function isAppendOnly(state: SessionState): boolean {
  return state.options.model?.appendOnly === true || FORCED;
}

/** Every session sends append-only requests (the test suite's `append-only` project). */
const FORCED = globalThis.process?.env?.SKILLTREE_APPEND_ONLY === '1';

/**
 * Checks a log from outside (a snapshot or a store record): the shapes it must have, or an error
 * naming what is wrong. Returns a fresh copy.
 */
export function parseSentLog(raw: unknown): SentLogData {
  const d = raw as Record<string, unknown> | null;
  const fail = (what: string): never => {
    throw new Error(`sent: ${what}`);
  };
  if (!d || typeof d !== 'object') fail('must be an object.');
  const log = d as unknown as SentLogData;
  if (!Number.isSafeInteger(log.start) || log.start < 0) fail('start must be a whole number of at least 0.');
  if (!Number.isSafeInteger(log.reasoningFrom) || log.reasoningFrom < 0) fail('reasoningFrom must be a whole number.');
  if (typeof log.system !== 'string') fail('system must be a string.');
  const isSpec = (s: unknown) =>
    !!s && typeof (s as ToolSpec).name === 'string' && typeof (s as ToolSpec).description === 'string';
  if (!Array.isArray(log.tools) || !log.tools.every(isSpec)) fail('tools must be tool specs.');
  if (!Array.isArray(log.notes)) fail('notes must be an array.');
  let last = -Infinity;
  for (const entry of log.notes) {
    const note = entry?.note;
    if (!Number.isSafeInteger(entry?.after) || entry.after < last) fail('notes must be in message order.');
    last = entry.after;
    if (note?.role !== 'system' || typeof note.text !== 'string') fail('a note needs role "system" and text.');
    if (!Array.isArray(note.addedTools) || !note.addedTools.every(isSpec)) fail("a note's addedTools must be specs.");
    if (!Array.isArray(note.removedTools) || !note.removedTools.every((n) => typeof n === 'string')) {
      fail("a note's removedTools must be names.");
    }
  }
  const told = log.told;
  const isStrings = (o: unknown) =>
    !!o && typeof o === 'object' && Object.values(o as object).every((v) => typeof v === 'string');
  if (!told || typeof told.system !== 'string' || !isStrings(told.tools) || !isStrings(told.sections)) {
    fail('told must hold the system prompt, tools and sections the model was told.');
  }
  return JSON.parse(JSON.stringify(log)) as SentLogData;
}
