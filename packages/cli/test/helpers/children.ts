/**
 * The child processes the tests start, killed when the test process exits. The helpers that start
 * one wait for what it prints or for its exit, never for a clock: a busy machine only makes them
 * slower, and the test's own timeout is the one bound. A test that times out leaves its child
 * behind, and this ends it.
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Tracks `child` until it exits; returns it. */
export function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}
