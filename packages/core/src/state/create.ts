/**
 * A new session state: the container, the runtime its components read, and (when restoring) the
 * transcript, stores, usage and lifecycle log of a snapshot.
 */
import type { ReactNode } from 'react';
import { createStoreRegistry } from '../host/agent-store.js';
import { createContainer } from '../host/reconciler.js';
import type { ChatInfo, Runtime, SessionHandle } from '../host/runtime.js';
import { createLog, toolSkillsOf } from '../lifecycle/log.js';
import { createTranscript, restoreFileBytes } from '../transcript/transcript.js';
import type { SessionOptions } from '../types/options.js';
import type { SessionSnapshot } from '../types/session.js';
import { emit } from './events.js';
import { createRuns } from './runs.js';
import { AGENT, errorMessage, type SessionState, skillState } from './state.js';

let sessionCount = 0;

/**
 * The chat a session serves (see `ChatInfo`), and its incarnation: what binds the session's call ids
 * and the answers to its waiting calls to this incarnation of the chat (not shown to components).
 */
export interface SessionChat extends ChatInfo {
  readonly incarnation?: string;
}

export function createState(
  element: ReactNode,
  options: SessionOptions,
  handle: SessionHandle,
  restore?: SessionSnapshot,
  chat?: SessionChat,
): SessionState {
  const incarnation = chat?.incarnation ?? null;
  const state = {} as SessionState;
  const runtime: Runtime = {
    session: handle,
    chat: chat ? Object.freeze({ id: chat.id, owner: chat.owner }) : null,
    subscribeSkills(listener) {
      state.skills.listeners.add(listener);
      return () => state.skills.listeners.delete(listener);
    },
    watchSkill(name, listener) {
      const { watchers } = state.skills;
      const list = watchers.get(name);
      if (list) list.push(listener);
      else watchers.set(name, [listener]);
      return () => {
        const now = watchers.get(name);
        if (!now) return;
        const left = now.filter((l) => l !== listener);
        if (left.length > 0) watchers.set(name, left);
        else watchers.delete(name);
      };
    },
    skillState(name) {
      const now = skillState(state, name);
      if (now !== 'unloaded') state.skills.shown.add(name);
      return now;
    },
    reportSkillError(name, error) {
      state.skills.errors.set(name, `Skill "${name}" threw while rendering and was unloaded: ${errorMessage(error)}`);
    },
    reportSuspended(name, suspended) {
      if (suspended) state.skills.suspended.add(name ?? AGENT);
      else state.skills.suspended.delete(name ?? AGENT);
    },
  };
  Object.assign(state, {
    options,
    element,
    container: createContainer((error) => state.uncaught.push(error), `st${++sessionCount}-`),
    runtime,
    stores: createStoreRegistry(restore?.stores ?? {}, (name, value) =>
      emit(state, { type: 'store-changed', name, state: value }),
    ),
    listeners: new Map(),
    uncaught: [],
    disposed: false,
    crashed: null,
    warnings: [],
    skills: {
      loaded: [],
      mounts: new Map(),
      mounting: null,
      suspended: new Set(),
      awaited: new Set(),
      errors: new Map(),
      listeners: new Set(),
      watchers: new Map(),
      shown: new Set(),
      // Restored: the skills its tools were told with, so `Unknown tool` still names them.
      toolHistory: toolSkillsOf(restore?.lifecycle),
      toolOwners: new Map(),
      synced: null,
    },
    told: {
      baseline: new Map(),
      pending: [...(restore?.pendingContextChanges ?? [])],
      log: createLog(restore?.lifecycle),
    },
    window: {
      transcript: createTranscript(
        restore?.transcript,
        restore?.transcriptStart ?? 0,
        restore?.lastCallNumber ?? 0,
        incarnation,
      ),
      start: restore?.windowStart,
      sent: restore?.sent ?? null,
    },
    turn: { busy: false, events: null },
    waiting: { calls: restore?.waiting ? restore.waiting.map((call) => ({ ...call })) : [], incarnation },
    usage: { total: restore?.usage },
    tracing: { tracing: undefined, identity: undefined },
    runs: createRuns(restore?.subagentRuns),
  } satisfies SessionState);
  // The chat's file total as its record kept it (files that left memory, or the window, still count).
  restoreFileBytes(state.window.transcript, restore?.fileBytes);
  return state;
}
