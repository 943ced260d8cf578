/**
 * Keeping the session in step with the tree: settling (waiting until React has nothing left to do,
 * stopping update loops), then the loaded set and the `Unknown tool` history after each commit,
 * and recording loads, mounts and unloads.
 */
import { searching } from '../host/catalog.js';
import { catalogIndexOf } from '../host/catalog-index.js';
import { SkillBoundary } from '../host/components.js';
import { busyComponents, hasReadyWork, reconciler } from '../host/reconciler.js';
import { skillChange } from '../lifecycle/context-changes.js';
import type { UnloadReason } from '../types/session.js';
import { config } from './config.js';
import { emit } from './events.js';
import { flush, unmount } from './render.js';
import { AGENT, type SessionState, tree } from './state.js';

/** Effects that keep scheduling updates for this many rounds in a row are a loop, not work. */
const RUNAWAY_ROUNDS = 200;

/** Options of {@link settle}. */
export interface SettleOptions {
  /** Also wait while this skill shows its Suspense fallback. */
  skill?: string;
  /** Also wait while any loaded skill shows its fallback (a turn's start: a restored skill still fetching). */
  loaded?: boolean;
  /** When to stop waiting for suspended data (epoch ms). Default: now + the tool timeout. */
  deadline?: number;
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until React has nothing left to do: sync work, passive effects, the updates effects
 * schedule, and lanes whose suspended data arrived. Loops on React's own pending state, never on a
 * tick count. Also waits (until the deadline) while the agent, or `options.skill`, is suspended.
 * An update loop that never ends is stopped: its skill is unloaded, or (at agent level) the tree.
 */
export async function settle(state: SessionState, options: SettleOptions = {}): Promise<void> {
  const deadline = options.deadline ?? Date.now() + config(state).toolTimeout;
  let busyRounds = 0;
  for (;;) {
    flush(state);
    const ranEffects = reconciler.flushPassiveEffects();
    flush(state);
    if (ranEffects || hasReadyWork(state.container)) {
      if (++busyRounds > RUNAWAY_ROUNDS) {
        stopRunaway(state);
        busyRounds = 0;
      }
      await macrotask();
      continue;
    }
    const waiting =
      state.skills.suspended.has(AGENT) ||
      (options.skill !== undefined && state.skills.suspended.has(options.skill)) ||
      (options.loaded === true &&
        state.skills.loaded.some((name) => state.skills.suspended.has(name) && !state.skills.awaited.has(name)));
    if (!waiting || Date.now() >= deadline) break;
    await pause(2);
  }
  if (options.skill !== undefined) state.skills.awaited.add(options.skill);
  if (options.loaded) for (const name of state.skills.loaded) state.skills.awaited.add(name);
  sync(state);
}

/** Ends an update loop: unloads the skills whose components keep updating, or crashes the agent. */
function stopRunaway(state: SessionState): void {
  const culprits = busyComponents(state.container, (type) => type === SkillBoundary);
  const agentLevel = culprits.filter((c) => c.skill === null || !state.skills.loaded.includes(c.skill));
  if (agentLevel.length > 0 || culprits.length === 0) {
    const names = [...new Set(agentLevel.map((c) => `<${c.component}>`))].join(', ') || 'a component';
    unmount(state);
    state.crashed = new Error(
      `${names} kept updating state without end (an effect that sets state on every render?). The agent was unmounted: fix the component, then call session.rerender(element).`,
    );
    throw state.crashed;
  }
  for (const skill of new Set(culprits.map((c) => c.skill as string))) {
    const names = [...new Set(culprits.filter((c) => c.skill === skill).map((c) => `<${c.component}>`))].join(', ');
    const detail = `Skill "${skill}" was unloaded: ${names} kept updating state without end (an effect that sets state on every render?).`;
    state.skills.errors.set(skill, detail);
    unloadSkill(state, skill, { reason: 'error', detail });
  }
  notifySkills(state);
}

/** The tool list each session's `Unknown tool` history was last brought up to date with. */
const historyFrom = new WeakMap<SessionState, readonly unknown[]>();

/**
 * Lets go of the tree `sync` last took in and the tool list the history was brought up to date
 * with (a chat waiting between turns, see `state/idle.ts`): the next sync takes the tree in again,
 * which finds the same loaded set and history, so it changes nothing.
 */
export function forgetSynced(state: SessionState): void {
  state.skills.synced = null;
  historyFrom.delete(state);
}

/**
 * Brings the session in step with the tree after a commit: the `Unknown tool` history, and the
 * loaded set (skills that left the tree leave it; a smaller `maxLoadedSkills` pushes out the least
 * recently read).
 */
export function sync(state: SessionState): void {
  for (;;) {
    const snap = tree(state);
    if (snap === state.skills.synced) return;
    state.skills.synced = snap;
    // A snapshot that kept the last one's tool list (no tool changed) has nothing new for the history.
    if (historyFrom.get(state) !== snap.tools) {
      for (const tool of snap.tools) if (tool.skill) state.skills.toolHistory.set(tool.name, tool.skill);
      historyFrom.set(state, snap.tools);
    }
    const max = config(state).maxLoadedSkills + (state.skills.mounting ? 1 : 0);
    const kept = state.skills.loaded.filter((name) => snap.skillsByName.has(name)).slice(-max);
    if (kept.length === state.skills.loaded.length) return;
    for (const name of state.skills.loaded) {
      if (!kept.includes(name)) unloadSkill(state, name, { reason: snap.skillsByName.has(name) ? 'limit' : 'removed' });
    }
    notifySkills(state);
  }
}

/** Removes `name` from the loaded set and records the unload; callers notify (one render for many). */
export function unloadSkill(state: SessionState, name: string, why?: UnloadReason): void {
  if (!state.skills.loaded.includes(name)) return;
  state.skills.loaded = state.skills.loaded.filter((n) => n !== name);
  recordUnloaded(state, name, why);
}

/**
 * Records that `name` left the loaded set: an `unloaded` change and an event (traces
 * record their span from the event: `traceUnloads` in observe/telemetry).
 */
export function recordUnloaded(state: SessionState, name: string, why?: UnloadReason): void {
  // A searched catalog indexes what the skill rendered; it is about to be gone from the tree.
  const snap = tree(state);
  if (searching(snap)) catalogIndexOf(state).remember(snap.skillsByName.get(name));
  state.skills.suspended.delete(name);
  state.told.pending.push(skillChange(name, 'unloaded'));
  emit(state, why ? { type: 'skill-unloaded', name, reason: why } : { type: 'skill-unloaded', name });
}

/**
 * Tells the `<Skill>`s whose state may have changed (those loaded now, and those rendered loaded
 * or active before) of the new loaded order, and commits: each renders again only if its state did
 * change. A load or an unload renders the skills it moved, never the whole catalog.
 */
export function notifySkills(state: SessionState): void {
  for (const listener of [...state.skills.listeners]) listener();
  const { watchers, shown, loaded } = state.skills;
  for (const name of new Set([...shown, ...loaded])) {
    const list = watchers.get(name);
    if (list) for (const listener of list) listener();
  }
  state.skills.shown = new Set(loaded);
  flush(state);
}

/** Records that `name` joined the loaded set: a mount, a `loaded` change and an event. */
export function recordLoaded(state: SessionState, name: string): void {
  recordMount(state, name);
  state.told.pending.push(skillChange(name, 'loaded'));
  emit(state, { type: 'skill-loaded', name });
}

/** Counts a mount of `name`. */
export function recordMount(state: SessionState, name: string): void {
  state.skills.mounts.set(name, (state.skills.mounts.get(name) ?? 0) + 1);
  state.skills.awaited.delete(name);
}
