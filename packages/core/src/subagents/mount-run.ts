/**
 * Mounting a run: `children` rendered afresh as an agent of its own (its own reconciler root, skills,
 * catalog, loaded set, window and transcript), sharing the chat's stores, usage and list of runs.
 * With a `result` schema the run offers `finish`, whose validated input ends it.
 */
import { cloneElement, createElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import { storeOf } from '../host/agent-store.js';
import { Agent, Tool } from '../host/components.js';
import type { SessionHandle } from '../host/runtime.js';
import type { SubagentProps } from '../host/subagent.js';
import { inheritTracing } from '../observe/trace-subagents.js';
import { developerProblems } from '../state/config.js';
import { createState } from '../state/create.js';
import { warn } from '../state/events.js';
import { activeSkill, loadedSkills, transcriptOf } from '../state/reads.js';
import { render, unmount } from '../state/render.js';
import { resetBaseline, restoreSkills } from '../state/restore.js';
import { adoptRun, finishRun, runsOf } from '../state/runs.js';
import type { RunSelf, SessionState } from '../state/state.js';
import { sync } from '../state/sync.js';
import type { SessionOptions } from '../types/options.js';
import type { SessionSnapshot } from '../types/session.js';

/** What a run's `finish` call gave, once it was called. */
export interface Finished {
  value?: { result: unknown };
}

/** The description of a run's `finish` tool. */
const FINISH_DESCRIPTION =
  'End this run with its result: call it once, when the task is done, with the result in the given shape. Nothing after it runs.';

/** The run's element: the subagent's children as an agent (an `<Agent>` of their own, or wrapped in one), with `finish`. */
function runElement(props: SubagentProps, finished: Finished, child: () => SessionState): ReactNode {
  const finish = props.result
    ? createElement(Tool, {
        key: '\u0000finish',
        name: 'finish',
        description: FINISH_DESCRIPTION,
        input: props.result,
        run: (result: unknown) => {
          finished.value = { result };
          finishRun(child());
          return 'Result recorded: the run ends here.';
        },
      })
    : null;
  const kids = props.children;
  if (isValidElement(kids) && kids.type === Agent) {
    const agent = kids as ReactElement<{ children?: ReactNode }>;
    return cloneElement(agent, undefined, agent.props.children, finish);
  }
  return createElement(Agent, null, kids, finish);
}

/** The options a run's session goes by: the parent's, with the subagent's model and `maxSteps`, traced under its name. */
function runOptions(parent: SessionState, props: SubagentProps): SessionOptions {
  const options: SessionOptions = { ...parent.options };
  if (props.model) options.model = props.model;
  if (typeof props.maxSteps === 'number') options.maxSteps = props.maxSteps;
  const telemetry = parent.options.telemetry;
  if (telemetry !== false && !(typeof telemetry === 'object' && telemetry.enabled === false)) {
    options.telemetry = { ...(typeof telemetry === 'object' ? telemetry : {}), agentName: props.name };
  }
  return options;
}

/**
 * A run's state, rendered: throws (unmounted) with the tree's mistakes, naming the subagent. `restore`
 * (a waiting run brought back) is the run's own snapshot.
 */
export function mountRun(
  self: RunSelf,
  props: SubagentProps,
  finished: Finished,
  restore?: SessionSnapshot,
): SessionState {
  const { parent } = self;
  let child: SessionState | undefined;
  const get = () => child as SessionState;
  const handle: SessionHandle = {
    store: (def) => storeOf(get().stores, def),
    warn: (message, source) => warn(get(), message, source),
    get loadedSkills() {
      return [...loadedSkills(get())];
    },
    get activeSkill() {
      return activeSkill(get());
    },
    get transcript() {
      return transcriptOf(get()).messages;
    },
  };
  const chat = parent.runtime.chat;
  child = createState(runElement(props, finished, get), runOptions(parent, props), handle, restore, chat ?? undefined);
  // Ids of its own (`call_<scope>_N`): the run's index in the chat's list keeps them apart from every other run's.
  adoptRun(child, self, `r${runsOf(parent).indexOf(self.run) + 1}`);
  inheritTracing(child, parent);
  render(child);
  const problems = developerProblems(child);
  if (problems.length > 0) {
    unmount(child);
    throw new Error(`Subagent "${props.name}" cannot run: ${problems.join(' ')}`);
  }
  sync(child);
  // A waiting run brought back mounts the skills it had loaded (from their initial state).
  if (restore) restoreSkills(child, restore.loadedSkills);
  resetBaseline(child);
  return child;
}
