import type { Model } from '../src/index.js';

/** A gate a test opens: `opened` settles, with the value given, once `open` is called. */
export function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A model held in its call: `called` settles once a call has started, and `release()` lets the
 * call started last answer `text` (no tool calls). For tests of what happens while a turn runs.
 */
export function heldModel(text = 'done') {
  const called = gate();
  let release: () => void = () => {
    throw new Error('heldModel: release() before any call started; await `called` first');
  };
  const model: Model = {
    generate: () =>
      new Promise((resolve) => {
        release = () => resolve({ text, toolCalls: [] });
        called.open();
      }),
  };
  return { model, called: called.opened, release: () => release() };
}

/**
 * Whether `promise` has settled once everything queued now has run (one macrotask later): how a
 * test tells a run that goes on waiting from one that ended, without a clock. `undefined` never settles.
 */
export async function settled(promise: Promise<unknown> | undefined): Promise<boolean> {
  let done = false;
  promise?.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

/** Whether `promise` is still pending once everything queued now has run (see {@link settled}). */
export async function pending(promise: Promise<unknown>): Promise<boolean> {
  return !(await settled(promise));
}
