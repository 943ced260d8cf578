/**
 * Subagent runs of a durable turn (SPEC §19, §21): a run is a child workflow of its turn on an
 * engine that has children (`TurnEngine.child`: DBOS child workflows, Restate invocations), else a
 * child scope of the turn's own journal. Either way its model calls and tool runs are named by the
 * run's call path (`sub/<toolCallId>/model-2`, nested runs `sub/<a>/sub/<b>/tool-charge-pay-1`), and
 * a recovered turn that replays up to a subagent call replays the run's recorded steps too and goes
 * live from the first one that was not recorded. A run is mounted from its parent's tree, so it is
 * never run alone: its child workflow serves the steps the re-mounted run asks for, in its order,
 * and stays open until its turn ends (so a turn that replays always finds its children open).
 *
 * Engines number a workflow's steps in the order they start (DBOS's function ids, Restate's journal
 * entries), so steps of runs running side by side would interleave by timing and replay in another
 * order. The runs of one step therefore start their steps in rounds (`rounds.ts`): each step of the
 * turn starts in an order that depends only on recorded values, and the runs still run together.
 */
import type { SessionState } from '../state/state.js';
import { bindJournal, journalOf, type TurnJournal } from '../turn/journal.js';
import type { TurnEngine } from '../types/engine.js';

/** The prefix of every step a run of call `toolCallId` records (inside its parent's own scope). */
export function runScope(toolCallId: string): string {
  return `sub/${toolCallId}/`;
}

/**
 * The parent's journal seen from a run of call `toolCallId`: the run's child workflow when the
 * engine has children (`TurnEngine.child`, opened here), else the parent's own workflow with each
 * step named under the run's scope. It records steps only; the turn itself is the parent's.
 */
export function childJournal(parent: TurnJournal, toolCallId: string): TurnJournal {
  const prefix = runScope(toolCallId);
  const inner = parent.engine;
  const notHere = (what: string) =>
    new Error(`A subagent run records steps on its turn's engine "${inner.name}"; it cannot ${what}.`);
  const child = inner.child?.(prefix.slice(0, -1));
  const engine: TurnEngine = {
    name: inner.name,
    register() {
      throw notHere('register a runner');
    },
    run() {
      return Promise.reject(notHere('start a turn'));
    },
    // Named under the run's scope in its child too: a step's name says which run it belongs to.
    step: child ? (name, fn) => child.step(`${prefix}${name}`, fn) : (name, fn) => inner.step(`${prefix}${name}`, fn),
    async close() {},
  };
  // A run of this run opens its child under this run's.
  const nested = child?.child?.bind(child);
  if (nested) engine.child = nested;
  return { engine, chatId: parent.chatId, scope: `${parent.scope ?? ''}${prefix}` };
}

/**
 * Binds the run `child` (of call `toolCallId`) to its journal when the parent's turn has one: the
 * lane's journal of its round (`lane`), else its call's scope of the parent's journal.
 */
export function bindRunJournal(
  parent: SessionState,
  child: SessionState,
  toolCallId: string,
  lane?: TurnJournal,
): TurnJournal | undefined {
  const journal = lane ?? (journalOf(parent) ? childJournal(journalOf(parent) as TurnJournal, toolCallId) : undefined);
  if (journal) bindJournal(child, journal);
  return journal;
}
