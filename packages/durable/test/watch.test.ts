import type { DurableRegistration } from '@skilltree/core/provider';
import { afterEach, expect, test, vi } from 'vitest';
import { registerOnce, watchEvery } from '../src/watch.js';

afterEach(() => {
  vi.useRealTimers();
});

test('the recovery watch looks one at a time: a tick while a look runs is skipped, not queued', async () => {
  vi.useFakeTimers();
  let looks = 0;
  let open = () => {};
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const watch = watchEvery(100, async () => {
    looks++;
    await gate;
  });
  await vi.advanceTimersByTimeAsync(350);
  // Three ticks, one look running: the other two were skipped.
  expect(looks).toBe(1);
  open();
  gate = Promise.resolve();
  // Once it ended, nothing queued runs at once: the next look comes with the next tick.
  await vi.advanceTimersByTimeAsync(0);
  expect(looks).toBe(1);
  await vi.advanceTimersByTimeAsync(50);
  expect(looks).toBe(2);
  await watch.stop();
});

test('a failed look (the database restarting) is tried again at the next tick, not thrown', async () => {
  vi.useFakeTimers();
  const outcomes: string[] = [];
  const watch = watchEvery(100, async () => {
    if (outcomes.length === 0) {
      outcomes.push('failed');
      throw new Error('connection refused');
    }
    outcomes.push('looked');
  });
  await vi.advanceTimersByTimeAsync(250);
  await watch.stop();
  expect(outcomes).toEqual(['failed', 'looked']);
});

test('stop waits for the look that is running, and no look starts after it', async () => {
  vi.useFakeTimers();
  const events: string[] = [];
  let release = () => {};
  const watch = watchEvery(100, async () => {
    events.push('look');
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    events.push('look ended');
  });
  await vi.advanceTimersByTimeAsync(100);
  const stopped = watch.stop().then(() => events.push('stopped'));
  release();
  await stopped;
  await vi.advanceTimersByTimeAsync(1_000);
  expect(events).toEqual(['look', 'look ended', 'stopped']);
});

test('an interval of 0 turns the watch off', async () => {
  vi.useFakeTimers();
  const look = vi.fn(async () => {});
  const watch = watchEvery(0, look);
  await vi.advanceTimersByTimeAsync(10_000);
  await watch.stop();
  expect(look).not.toHaveBeenCalled();
});

test('an engine serves one createSessions: a second registration is refused, naming the engine and the fix', () => {
  const first = {} as DurableRegistration;
  expect(registerOnce('dbosEngine', null, first)).toBe(first);
  expect(() => registerOnce('dbosEngine', first, {} as DurableRegistration)).toThrow(
    'dbosEngine: this engine serves one createSessions already; make one engine per createSessions.',
  );
});
