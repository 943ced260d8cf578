/**
 * How one process serves the steps of subagent runs' child workflows (`src/child-steps.ts`), with
 * bodies that record in memory: the rules both engines rely on, without an engine.
 */
import { describe, expect, test, vi } from 'vitest';
import { type ChildBody, childSteps, refusedChild } from '../src/child-steps.js';

/** A body that records each step it is handed (running it, or giving back `recorded[i]`), and the children it starts. */
function body(recorded: unknown[] = []) {
  const names: string[] = [];
  const started: string[] = [];
  let ran = 0;
  const served: ChildBody = {
    async step(name, fn) {
      const at = names.length;
      names.push(name);
      if (at < recorded.length) return recorded[at];
      ran++;
      return fn();
    },
    async start(id) {
      names.push(`start ${id}`);
      started.push(id);
    },
  };
  return {
    served,
    names,
    started,
    get ran() {
      return ran;
    },
  };
}

describe('the steps of a child workflow in one process', () => {
  test('steps asked before a body serves the child wait for it, then run in the order they were asked', async () => {
    const steps = childSteps();
    const run = steps.handle('t/sub/a', 't');
    const first = run.step('sub/a/model-1', async () => 'one');
    const second = run.step('sub/a/tool-x-1', async () => 'two');
    const b = body();
    steps.attach('t/sub/a', 't', b.served);
    await expect(Promise.all([first, second])).resolves.toEqual(['one', 'two']);
    expect(b.names).toEqual(['sub/a/model-1', 'sub/a/tool-x-1']);
  });

  test('a step asked again at a position asked already (the turn replays in this process) gets its outcome and never runs twice', async () => {
    const steps = childSteps();
    const b = body();
    steps.attach('t/sub/a', 't', b.served);
    let runs = 0;
    const charge = async () => `charged ${++runs}`;
    await expect(steps.handle('t/sub/a', 't').step('sub/a/tool-charge-1', charge)).resolves.toBe('charged 1');
    // The turn's next attempt opens the child again: its handle counts from the first position.
    const again = steps.handle('t/sub/a', 't');
    await expect(again.step('sub/a/tool-charge-1', charge)).resolves.toBe('charged 1');
    await expect(again.step('sub/a/model-2', async () => 'live')).resolves.toBe('live');
    expect(runs).toBe(1);
    expect(b.names).toEqual(['sub/a/tool-charge-1', 'sub/a/model-2']);
  });

  test('a step asked again under another name at a position asked already fails, naming both', async () => {
    const steps = childSteps();
    steps.attach('t/sub/a', 't', body().served);
    await steps.handle('t/sub/a', 't').step('sub/a/model-1', async () => 1);
    await expect(steps.handle('t/sub/a', 't').step('sub/a/tool-x-1', async () => 2)).rejects.toThrow(
      /step 0 was asked as sub\/a\/model-1, and is asked now as sub\/a\/tool-x-1/,
    );
  });

  test('a retried body is handed every step asked so far, in order: its journal replays them, and a step the last attempt left unsettled is settled by this one', async () => {
    const steps = childSteps();
    const run = steps.handle('t/sub/a', 't');
    // The first attempt records the model call, then dies while the tool runs (its step never settles).
    const dying: ChildBody = {
      step: (name) => (name.includes('model') ? Promise.resolve('asked') : new Promise(() => {})),
      start: async () => {},
    };
    steps.attach('t/sub/a', 't', dying);
    await expect(run.step('sub/a/model-1', async () => 'asked')).resolves.toBe('asked');
    const tool = run.step('sub/a/tool-charge-1', async () => 'charged');
    // The engine retries the child: its journal has the model call, not the tool run.
    const retried = body(['asked']);
    steps.attach('t/sub/a', 't', retried.served);
    await expect(tool).resolves.toBe('charged');
    expect(retried.names).toEqual(['sub/a/model-1', 'sub/a/tool-charge-1']);
    expect(retried.ran).toBe(1);
  });

  test('a child that cannot start fails the steps asked of it, and the ones asked after, with why', async () => {
    const steps = childSteps();
    const run = steps.handle('t/sub/a', 't');
    const asked = run.step('sub/a/model-1', async () => 1);
    steps.fail('t/sub/a', 't', new Error('DBOS refused the child'));
    await expect(asked).rejects.toThrow('DBOS refused the child');
    await expect(run.step('sub/a/model-2', async () => 2)).rejects.toThrow('DBOS refused the child');
  });

  test('a nested run starts its child in its parent child, in the order of the parent child’s steps, and records there', async () => {
    const steps = childSteps();
    const outer = body();
    steps.attach('t/sub/a', 't', outer.served);
    const run = steps.handle('t/sub/a', 't');
    await run.step('sub/a/model-1', async () => 1);
    const nested = run.child?.('sub/b');
    expect(nested?.id).toBe('t/sub/a/sub/b');
    const inner = body();
    steps.attach('t/sub/a/sub/b', 't', inner.served);
    await expect(nested?.step('sub/a/sub/b/model-1', async () => 'inner')).resolves.toBe('inner');
    expect(outer.names).toEqual(['sub/a/model-1', 'start t/sub/a/sub/b']);
    expect(inner.names).toEqual(['sub/a/sub/b/model-1']);
  });

  test("a child's body waits for its turn's run to end here, then for the engine to record the end; a turn with no child left is forgotten", async () => {
    const steps = childSteps();
    steps.handle('t/sub/a', 't');
    steps.attach('t/sub/a', 't', body().served);
    let reads = 0;
    let over = false;
    // The engine records the end on its third read.
    const waiting = steps
      .turnOver('t', async () => ++reads < 3)
      .then(() => {
        over = true;
      });
    await Promise.resolve();
    expect(over).toBe(false);
    expect(reads).toBe(0);
    steps.turnEnded('t');
    await waiting;
    expect(reads).toBe(3);
    expect(steps.endedHere('t')).toBe(true);
    steps.forget('t/sub/a');
    expect(steps.endedHere('t')).toBe(false);
    // A turn that ran no subagent is not kept once it ended.
    steps.turnEnded('u');
    expect(steps.endedHere('u')).toBe(false);
  });

  test('a child no body serves (its start failed) is forgotten when its turn ends', () => {
    const steps = childSteps();
    steps.handle('t/sub/a', 't');
    steps.fail('t/sub/a', 't', new Error('refused'));
    steps.turnEnded('t');
    expect(steps.endedHere('t')).toBe(false);
  });

  test('once the engine closed, a body waiting for its turn to be recorded as ended is left waiting (the child stays pending for the process that takes the turn over)', async () => {
    vi.useFakeTimers();
    try {
      const steps = childSteps();
      steps.handle('t/sub/a', 't');
      steps.attach('t/sub/a', 't', body().served);
      steps.turnEnded('t');
      steps.close();
      let reads = 0;
      let over = false;
      // Pending on the first read, recorded as ended on the second: a body still reading would end.
      void steps
        .turnOver('t', async () => ++reads < 2)
        .then(() => {
          over = true;
        });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(reads).toBe(1);
      expect(over).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  test('a child body serves only its own child of its own turn: forged, corrupt or borrowed requests are refused, naming the child', () => {
    expect(refusedChild('t/sub/a', 't', 't/sub/a')).toBeNull();
    expect(refusedChild('t/sub/a/sub/b', 't', 't/sub/a/sub/b')).toBeNull();
    // Not strings (a corrupt row, a hand-written invocation).
    for (const [child, turn] of [
      [null, 't'],
      ['t/sub/a', undefined],
      [42, 't'],
      ['t/sub/a', { id: 't' }],
      ['t/sub/a', ''],
    ] as const) {
      expect(refusedChild(child, turn, 't/sub/a')).toMatch(/without a child id and a turn id/);
    }
    // Another turn's child, or a turn id that is only a prefix of the child's.
    expect(refusedChild('u/sub/a', 't', 'u/sub/a')).toMatch(/is not a child of turn "t"/);
    expect(refusedChild('tt/sub/a', 't', 'tt/sub/a')).toMatch(/is not a child of turn/);
    // Another workflow's id than the one the engine runs: it would serve (and record) that run's steps.
    expect(refusedChild('t/sub/a', 't', 't/sub/b')).toMatch(/was started as "t\/sub\/b"/);
    expect(refusedChild('t/sub/a', 't', undefined)).toMatch(/was started as "undefined"/);
    // A huge id is named short.
    const huge = `t/sub/${'x'.repeat(100_000)}`;
    expect((refusedChild(huge, 't', 'other') as string).length).toBeLessThan(600);
  });
});
