/**
 * Snapshots: a session as JSON, and the checks that make restoring one safe — whatever the JSON
 * holds, a restored session has a valid transcript and never runs with a forged prototype.
 */

import { storeStates } from '../host/agent-store.js';
import { parseSentLog } from '../request/append-only.js';
import { warn } from '../state/events.js';
import {
  loadedSkills,
  sentPrefix,
  toldLog,
  transcriptOf,
  usageOf,
  waitingCalls,
  windowStartOf,
} from '../state/reads.js';
import { unrecordedChanges } from '../state/record.js';
import { resetBaseline, restoreSkills } from '../state/restore.js';
import { runsOf } from '../state/runs.js';
import type { SessionState } from '../state/state.js';
import { runWaitingIds } from '../subagents/run-state.js';
import { INTERRUPTED_RESULT, parseMessage, readContextChanges } from '../transcript/message-parse.js';
import { unansweredCalls } from '../transcript/transcript.js';
import { recordResult } from '../turn/calls.js';
import { cleanUsage } from '../turn/model-call.js';
import { checkSkills } from '../turn/skills.js';
import { keepWaiting } from '../turn/waiting.js';
import type { ContextChange, Message } from '../types/messages.js';
import type { LifecycleEntry, ToolSpec } from '../types/request.js';
import type { LifecycleLogData, SessionSnapshot, WaitingCall } from '../types/session.js';
import { internToolSpec } from './intern-spec.js';
import { parseRuns } from './runs-parse.js';

/**
 * The session as JSON data: transcript, loaded skills (LRU order), store state, and the
 * context changes not recorded yet. Taken mid-turn, it is still valid: calls without results
 * are answered as interrupted when it is restored.
 */
export function takeSnapshot(state: SessionState, since = transcriptOf(state).start): SessionSnapshot {
  const { transcript } = state.window;
  const from = Math.min(transcript.messages.length, Math.max(0, since - transcript.start));
  const snapshot: SessionSnapshot = {
    version: 2,
    transcript: JSON.parse(JSON.stringify(transcript.messages.slice(from))),
    loadedSkills: [...loadedSkills(state)],
    stores: storeStates(state.stores),
  };
  const pending = JSON.parse(JSON.stringify(unrecordedChanges(state))) as ContextChange[];
  if (pending.length > 0) snapshot.pendingContextChanges = pending;
  if (transcript.start + from > 0) snapshot.transcriptStart = transcript.start + from;
  if (transcript.lastCallNumber > 0) snapshot.lastCallNumber = transcript.lastCallNumber;
  if (transcript.fileBytes > 0) snapshot.fileBytes = transcript.fileBytes;
  if (usageOf(state)) snapshot.usage = { ...usageOf(state) };
  if (windowStartOf(state) !== undefined) snapshot.windowStart = windowStartOf(state);
  if (sentPrefix(state)) snapshot.sent = JSON.parse(JSON.stringify(sentPrefix(state)));
  if (waitingCalls(state).length > 0) snapshot.waiting = JSON.parse(JSON.stringify(waitingCalls(state)));
  if (runsOf(state).length > 0) snapshot.subagentRuns = JSON.parse(JSON.stringify(runsOf(state)));
  const log = toldLog(state);
  if (log.baseAt > 0 || log.base.length > 0 || log.records.length > 0) {
    snapshot.lifecycle = JSON.parse(JSON.stringify(log));
  }
  return snapshot;
}

const HINT = 'Pass what session.snapshot() returned (or its JSON text).';

function fail(message: string): never {
  throw new Error(`restoreSession: ${message} ${HINT}`);
}

function checkMessage(message: unknown, index: number): Message {
  try {
    return parseMessage(message, `transcript[${index}]`);
  } catch (error) {
    return fail((error as Error).message);
  }
}

/**
 * The snapshot as a checked, normalised copy, or a clear error: an unknown version, a message that
 * is not one, a tool result without its call, or a tool call id used twice.
 */
export function parseSnapshot(snapshot: unknown): SessionSnapshot {
  let data = snapshot;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch (error) {
      fail(`the snapshot is not valid JSON (${(error as Error).message}).`);
    }
  }
  const d = data as Record<string, unknown> | null;
  if (!d || typeof d !== 'object') fail('the snapshot is not an object.');
  // Version 1 held messages whose content was a string; they are upgraded as they are read.
  if (d.version !== 1 && d.version !== 2)
    fail(`unknown snapshot version ${JSON.stringify(d.version)}; this version of skilltree reads versions 1 and 2.`);
  if (!Array.isArray(d.transcript)) fail('transcript must be an array of messages.');
  if (!Array.isArray(d.loadedSkills)) fail('loadedSkills must be an array of skill names.');
  if (d.stores !== undefined && (d.stores === null || typeof d.stores !== 'object' || Array.isArray(d.stores))) {
    fail('stores must be an object of store states by name.');
  }
  const transcript = d.transcript.map(checkMessage);
  const ids = new Set<string>();
  let open = new Set<string>();
  transcript.forEach((message, index) => {
    if (message.role === 'assistant') {
      open = new Set();
      for (const call of message.toolCalls ?? []) {
        if (ids.has(call.id)) fail(`transcript[${index}] reuses tool call id "${call.id}"; ids must be unique.`);
        ids.add(call.id);
        open.add(call.id);
      }
    } else if (message.role === 'tool') {
      if (!open.has(message.toolCallId)) {
        fail(
          `transcript[${index}] is a result for tool call "${message.toolCallId}", which no earlier assistant message made (an orphan tool result).`,
        );
      }
      open.delete(message.toolCallId);
    } else {
      open = new Set();
    }
  });
  const start = typeof d.transcriptStart === 'number' && d.transcriptStart > 0 ? Math.floor(d.transcriptStart) : 0;
  const last = typeof d.lastCallNumber === 'number' && d.lastCallNumber > 0 ? Math.floor(d.lastCallNumber) : 0;
  // Typed changes, or the `contextChanged` lines an older version kept (upgraded); anything else is dropped.
  const pending = Array.isArray(d.pendingContextChanges)
    ? d.pendingContextChanges.flatMap((item: unknown) => {
        try {
          return readContextChanges([item], 'pendingContextChanges');
        } catch {
          return [];
        }
      })
    : [];
  const out: SessionSnapshot = {
    version: 2,
    transcript,
    loadedSkills: d.loadedSkills.filter((name): name is string => typeof name === 'string'),
    stores: (d.stores as Record<string, unknown> | undefined) ?? {},
  };
  if (pending.length > 0) out.pendingContextChanges = pending;
  if (start > 0) out.transcriptStart = start;
  if (last > 0) out.lastCallNumber = last;
  // A total that is not a count from 0 up is left out: the files of the transcript are counted instead.
  if (typeof d.fileBytes === 'number' && Number.isFinite(d.fileBytes) && d.fileBytes > 0) {
    out.fileBytes = Math.min(Math.floor(d.fileBytes), Number.MAX_SAFE_INTEGER);
  }
  if (typeof d.windowStart === 'number' && d.windowStart >= 0) out.windowStart = Math.floor(d.windowStart);
  const lifecycle = parseLifecycle(d.lifecycle);
  if (lifecycle) out.lifecycle = lifecycle;
  const waiting = parseWaiting(d.waiting);
  if (waiting.length > 0) out.waiting = waiting;
  const runs = parseRuns(d.subagentRuns, parseSnapshot);
  if (runs.length > 0) out.subagentRuns = runs;
  if (d.sent !== undefined) {
    // A log that is not one is dropped: the next request then starts a new prefix, which is valid.
    try {
      out.sent = parseSentLog(d.sent);
    } catch {}
  }
  // The same check as a model's usage: a snapshot's JSON is as much outside input as a response.
  const usage = cleanUsage(d.usage);
  if (usage) out.usage = usage;
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function toolSpecOf(v: unknown): ToolSpec | null {
  if (!isObject(v) || typeof v.name !== 'string' || typeof v.description !== 'string' || !isObject(v.inputSchema)) {
    return null;
  }
  // Alike from chat to chat: a thousand restored chats hold one copy (see intern-spec).
  return internToolSpec({ name: v.name, description: v.description, inputSchema: v.inputSchema });
}

function specs(v: unknown): ToolSpec[] | null {
  if (!Array.isArray(v)) return null;
  const out = v.map(toolSpecOf);
  return out.every((x) => x !== null) ? (out as ToolSpec[]) : null;
}

function entryOf(v: unknown): LifecycleEntry | null {
  if (!isObject(v) || typeof v.skill !== 'string') return null;
  if (v.type === 'loaded') {
    const tools = specs(v.tools);
    if (!isStrings(v.lines) || !tools) return null;
    return { type: 'loaded', skill: v.skill, lines: v.lines, tools };
  }
  if (v.type === 'unloaded') return isStrings(v.tools) ? { type: 'unloaded', skill: v.skill, tools: v.tools } : null;
  if (v.type === 'tools') {
    const added = specs(v.added);
    return added && isStrings(v.removed) ? { type: 'tools', skill: v.skill, added, removed: v.removed } : null;
  }
  return null;
}

/**
 * The recorded lifecycle, or undefined when there is none or it is not one (a snapshot from before
 * it was recorded, or edited by hand): the session then announces its loaded skills again with its
 * next message, which costs one cache miss and never a wrong request.
 */
function parseLifecycle(v: unknown): LifecycleLogData | undefined {
  if (!isObject(v) || typeof v.baseAt !== 'number' || !(v.baseAt >= 0) || !Array.isArray(v.base)) return undefined;
  if (!Array.isArray(v.records)) return undefined;
  const base: LifecycleLogData['base'] = [];
  for (const s of v.base) {
    const tools = isObject(s) ? specs(s.tools) : null;
    if (!isObject(s) || typeof s.skill !== 'string' || !isStrings(s.lines) || !tools) return undefined;
    base.push({ skill: s.skill, lines: s.lines, tools });
  }
  const records: LifecycleLogData['records'] = [];
  let last = Math.floor(v.baseAt) - 1;
  for (const r of v.records) {
    if (!isObject(r) || typeof r.at !== 'number' || !Number.isInteger(r.at) || r.at <= last) return undefined;
    if (!Array.isArray(r.entries)) return undefined;
    const entries = r.entries.map(entryOf);
    if (entries.some((e) => e === null)) return undefined;
    records.push({ at: r.at, entries: entries as LifecycleEntry[] });
    last = r.at;
  }
  return { baseAt: Math.floor(v.baseAt), base, records };
}

/**
 * Mounts the snapshot's loaded skills (each once, known ones only: an unknown one is recorded as
 * unloaded), answers tool calls left without results as interrupted, and sets the baseline for
 * `line` changes. Called once the tree has rendered.
 */
export function applySnapshot(state: SessionState, snapshot: SessionSnapshot): void {
  restoreSkills(state, snapshot.loadedSkills);
  for (const reason of checkSkills(state)) warn(state, reason, 'restoreSession');
  resetBaseline(state);
  // A call that waits for an answer stays open; one whose tool was running when the process stopped
  // is answered as interrupted (it may have taken effect, and never runs again).
  const open = unansweredCalls(transcriptOf(state));
  const waits = new Set(open.map((call) => call.id));
  // A call of a subagent whose run waits stays open, and the calls waiting inside the run stay waiting.
  for (const run of runsOf(state)) {
    if (run.status !== 'waiting' || !waits.has(run.toolCallId)) continue;
    for (const id of runWaitingIds(run)) waits.add(id);
  }
  keepWaiting(state, waits);
  const waitingIds = new Set(waitingCalls(state).map((w) => w.toolCallId));
  for (const run of runsOf(state)) if (run.status === 'waiting') waitingIds.add(run.toolCallId);
  for (const call of open) {
    if (waitingIds.has(call.id)) continue;
    recordResult(
      state,
      call,
      // The call may have run to the end and only its result gone unsaved: say no more than that.
      INTERRUPTED_RESULT,
      'interrupted',
    );
  }
}

/** Waiting calls from a snapshot: each well-formed entry (anything else is left out). */
function parseWaiting(raw: unknown): WaitingCall[] {
  if (!Array.isArray(raw)) return [];
  const out: WaitingCall[] = [];
  for (const w of raw) {
    if (!isObject(w) || typeof w.toolCallId !== 'string' || typeof w.name !== 'string') continue;
    if (w.for !== 'approval' && w.for !== 'client') continue;
    out.push({
      toolCallId: w.toolCallId,
      name: w.name,
      input: w.input ?? {},
      for: w.for,
      skill: typeof w.skill === 'string' ? w.skill : null,
      status: w.status === 'running' ? 'running' : 'waiting',
      // When it began waiting, if it is a time at all (a tampered snapshot's is left out).
      ...(typeof w.since === 'number' && Number.isFinite(w.since) && w.since >= 0 ? { since: w.since } : {}),
      ...(isStrings(w.path) && w.path.length > 0 ? { path: w.path } : {}),
    });
  }
  return out;
}
