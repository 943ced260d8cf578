/** What the subagent tests share: the delegating agent with its `researcher`, and steps that must run together. */
import type { ReactNode } from 'react';
import {
  Agent,
  Instructions,
  type ModelRequest,
  ownTextOf,
  type ScriptedResponse,
  type ScriptedStep,
  Subagent,
  type SubagentProps,
  Tool,
} from '../src/index.js';

/**
 * An agent that delegates to one subagent, `researcher`, whose tools are `children`; `input`,
 * `result` and `context` go to the `<Subagent>` as given.
 */
export function Researcher({
  children,
  ...subagent
}: { children?: ReactNode } & Pick<SubagentProps, 'input' | 'result' | 'context'>) {
  return (
    <Agent>
      <Instructions>You delegate.</Instructions>
      <Subagent name="researcher" description="Research" {...subagent}>
        <Instructions>Research.</Instructions>
        {children}
      </Subagent>
    </Agent>
  );
}

/**
 * A run's first step that waits until two runs have started it (so it passes only if they run
 * together), then answers `answer(task)`; `started` lists the runs' tasks in the order they began.
 */
export function stepTogether(answer: (task: string) => ScriptedResponse) {
  const started: string[] = [];
  let release: () => void = () => {};
  const both = new Promise<void>((resolve) => {
    release = resolve;
  });
  const step: ScriptedStep = async (req: ModelRequest) => {
    const task = ownTextOf(req.messages[0]);
    started.push(task);
    if (started.length === 2) release();
    await both;
    return answer(task);
  };
  return { started, step };
}

/** A `wait` tool that runs until its turn is aborted (then fails `stopped`); `onWaiting` once it waits. */
export function WaitTool({ onWaiting }: { onWaiting: () => void }) {
  return (
    <Tool
      name="wait"
      description="Waits until aborted"
      run={(_input, ctx) =>
        new Promise((_, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
          onWaiting();
        })
      }
    />
  );
}
