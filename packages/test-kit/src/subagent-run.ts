/**
 * A subagent run as the session reports it, for tests of what shows runs (the CLI's printer, the
 * server's UI parts, the playground's panel): the `researcher` run of call `c1`, one level deep.
 */
import type { SubagentRun } from '@skilltree/core';

/** The `researcher` run `run_c1` of call `c1` (isolated, depth 1, running, nothing in it yet), with `over` on top. */
export function subagentRun(over: Partial<SubagentRun> = {}): SubagentRun {
  return {
    id: 'run_c1',
    name: 'researcher',
    toolCallId: 'c1',
    depth: 1,
    context: 'isolated',
    status: 'running',
    transcript: [],
    usage: {},
    ...over,
  };
}
