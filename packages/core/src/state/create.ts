/**
 * A new session state: the container, the runtime its components read, and (when restoring) the
 * transcript, stores, usage and lifecycle log of a snapshot.
 */
import type { ReactNode } from 'react';
import { createStoreRegistry } from '../host/agent-store.js';
import { createContainer } from '../host/reconciler.js';
import type { ChatInfo, Runtime, SessionHandle } from '../host/runtime.js';
import { createLog } from '../lifecycle/log.js';
import { createTranscript } from '../transcript/transcript.js';
import type { SessionOptions } from '../types/options.js';
import type { SessionSnapshot } from '../types/session.js';
import { emit } from './events.js';
import { AGENT, errorMessage, type SessionState, skillState } from './state.js';

let sessionCount = 0;

export function createState(
  element: ReactNode,
  options: SessionOptions,
  handle: SessionHandle,
  restore?: SessionSnapshot,
  chat?: ChatInfo,
): SessionState {
  const state = {} as SessionState;
  const runtime: Runtime = {
    session: handle,
    chat: chat ? Object.freeze({ id: chat.id, owner: chat.owner }) : null,
    subscribeSkills(listener) {
      state.skillListeners.add(listener);
      return () => state.skillListeners.delete(listener);
    },
    skillState: (name) => skillState(state, name),
    reportSkillError(name, error) {
      state.skillErrors.set(name, `Skill "${name}" threw while rendering and was unloaded: ${errorMessage(error)}`);
    },
    reportSuspended(name, suspended) {
      if (suspended) state.suspended.add(name ?? AGENT);
      else state.suspended.delete(name ?? AGENT);
    },
  };
  Object.assign(state, {
    options,
    element,
    container: createContainer((error) => state.uncaught.push(error), `st${++sessionCount}-`),
    runtime,
    loaded: [],
    mounts: new Map(),
    transcript: createTranscript(restore?.transcript, restore?.transcriptStart ?? 0, restore?.lastCallNumber ?? 0),
    baseline: new Map(),
    pendingChanges: [...(restore?.pendingContextChanges ?? [])],
    stores: createStoreRegistry(restore?.stores ?? {}, (name, value) =>
      emit(state, { type: 'store-changed', name, state: value }),
    ),
    listeners: new Map(),
    turnEvents: null,
    uncaught: [],
    skillErrors: new Map(),
    suspended: new Set(),
    awaited: new Set(),
    skillListeners: new Set(),
    toolHistory: new Map(),
    toolOwners: new Map(),
    synced: null,
    mounting: null,
    busy: false,
    disposed: false,
    crashed: null,
    warnings: [],
    usage: restore?.usage,
    windowStart: restore?.windowStart,
    lifecycle: createLog(restore?.lifecycle),
    sent: restore?.sent ?? null,
    waiting: restore?.waiting ? restore.waiting.map((call) => ({ ...call })) : [],
    tracing: undefined,
    identity: undefined,
  } satisfies SessionState);
  return state;
}
