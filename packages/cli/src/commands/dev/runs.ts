/**
 * The subagent runs the playground shows: each run of the session (as core keeps it) with the
 * requests its model was sent, collected from the run's own `request` events (nested runs' too).
 */
import type { ModelRequest, SessionEvent, SubagentRun } from '@skilltree/core';
import type { SubagentRunView } from './protocol.js';

/** Collects each run's requests from the session's events. */
export class RunLog {
  /** Runs as their events last said, by id (a run the session does not list yet still shows). */
  #runs = new Map<string, SubagentRun>();
  #requests = new Map<string, ModelRequest[]>();

  /** Takes one session event (anything that is not a run's is ignored). */
  event(event: SessionEvent): void {
    if (event.type === 'subagent-start' || event.type === 'subagent-finish') {
      this.#runs.set(event.run.id, event.run);
    } else if (event.type === 'subagent-event') {
      const inner = event.event;
      if (inner.type === 'request') {
        const list = this.#requests.get(event.runId) ?? [];
        list.push(inner.request);
        this.#requests.set(event.runId, list);
      } else this.event(inner);
    }
  }

  /** Forgets every run (the page's reset). */
  reset(): void {
    this.#runs.clear();
    this.#requests.clear();
  }

  /** The runs to show: the session's (`session.subagentRuns`), then any only seen in events, with their requests. */
  view(kept: readonly SubagentRun[]): SubagentRunView[] {
    const runs = new Map(kept.map((run) => [run.id, run]));
    for (const [id, run] of this.#runs) if (!runs.has(id)) runs.set(id, run);
    return [...runs.values()].map((run) => ({ ...run, requests: this.#requests.get(run.id) ?? [] }));
  }
}
