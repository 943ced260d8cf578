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

/** What makes a run the `checker` fork `run_f1` (call `f1`) inside the researcher's run `run_c1`: the override for {@link subagentRun}. */
export const NESTED_CHECKER: Partial<SubagentRun> = {
  id: 'run_f1',
  name: 'checker',
  toolCallId: 'f1',
  parentRunId: 'run_c1',
  depth: 2,
  context: 'fork',
};
