/**
 * SPEC §21: the guards over a durable turn's engine cover its subagent runs' child workflows too
 * (`src/sessions/durable-children.ts`). A superseded recovered turn only replays, in its runs'
 * children as in itself; after `sessions.close()` handed the turns over, no child step is recorded
 * and no child is opened.
 */
import { describe, expect, test } from 'vitest';
import { handoverEngine, TurnHandedOverError } from '../src/sessions/durable-handover.js';
import { replayOnly } from '../src/sessions/durable-superseded.js';
import { TurnSupersededError } from '../src/turn/journal.js';
import type { ChildWorkflow, TurnEngine } from '../src/types/engine.js';

/** An engine whose children record in memory: `recorded` steps hand back their value, others run. */
function engineWithChildren(recorded: Record<string, unknown>) {
  const opened: string[] = [];
  const ran: string[] = [];
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    if (name in recorded) return recorded[name] as T;
    ran.push(name);
    return fn();
  };
  const child = (id: string): ChildWorkflow => {
    opened.push(id);
    return { id, step, child: (name) => child(`${id}/${name}`) };
  };
  const engine: TurnEngine = {
    name: 'children',
    register() {},
    run: () => Promise.resolve(null),
    step,
    child: (name) => child(`t/${name}`),
    async close() {},
  };
  return { engine, opened, ran };
}

describe("the guards of a durable turn's engine cover its runs' child workflows", () => {
  test('a superseded recovered turn replays the steps its runs recorded in their children and runs none live, nested runs included', async () => {
    const { engine, ran } = engineWithChildren({ 'sub/a/model-1': 'recorded' });
    const guarded = replayOnly(engine, 'c1');
    const child = guarded.child?.('sub/a') as ChildWorkflow;
    await expect(child.step('sub/a/model-1', async () => 'live')).resolves.toBe('recorded');
    await expect(child.step('sub/a/tool-charge-pay-1', async () => 'charged')).rejects.toBeInstanceOf(
      TurnSupersededError,
    );
    const nested = child.child?.('sub/b') as ChildWorkflow;
    expect(nested.id).toBe('t/sub/a/sub/b');
    await expect(nested.step('sub/a/sub/b/model-1', async () => 'live')).rejects.toBeInstanceOf(TurnSupersededError);
    // The guard's own failure was what ran: no step of the run did its work.
    expect(ran).toEqual(['sub/a/tool-charge-pay-1', 'sub/a/sub/b/model-1']);
  });

  test('after a handover no step of a child is recorded, one in flight is cut off, and no child is opened', async () => {
    const { engine, opened } = engineWithChildren({});
    const handover = handoverEngine(engine);
    const child = handover.engine.child?.('sub/a') as ChildWorkflow;
    let finish: (value: string) => void = () => {};
    const inFlight = child.step('sub/a/tool-charge-pay-1', () => new Promise<string>((resolve) => (finish = resolve)));
    handover.begin();
    await expect(inFlight).rejects.toBeInstanceOf(TurnHandedOverError);
    finish('charged late');
    await expect(child.step('sub/a/model-2', async () => 'x')).rejects.toBeInstanceOf(TurnHandedOverError);
    const late = handover.engine.child?.('sub/b') as ChildWorkflow;
    await expect(late.step('sub/b/model-1', async () => 'x')).rejects.toBeInstanceOf(TurnHandedOverError);
    expect(opened).toEqual(['t/sub/a']);
  });
});
