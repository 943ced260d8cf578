/**
 * Creating the session, restoring it from a `--session` file, and saving it after each turn.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Session, SessionOptions, SessionSnapshot } from '@skilltree/core';
import { CliError, errorMessage } from './errors.js';
import type { AgentModule } from './load-module.js';

/** How to build sessions for one CLI invocation. */
export interface SessionSetup {
  agent: AgentModule;
  options: SessionOptions;
  /** Absolute path of the `--session` file, if any. */
  file?: string;
}

/** Resolves the `--session` path against `cwd`. */
export function sessionPath(file: string | undefined, cwd: string): string | undefined {
  return file === undefined ? undefined : resolve(cwd, file);
}

/**
 * Opens the session: restored from `setup.file` when it exists, fresh otherwise.
 * `resumed` tells which, so the caller can say so. `fresh` ignores the file (for `/reset`).
 */
export function openSession(setup: SessionSetup, fresh = false): { session: Session; resumed: boolean } {
  const { agent, options, file } = setup;
  const { createSession, restoreSession } = agent.core;
  if (!fresh && file && existsSync(file)) {
    let snapshot: SessionSnapshot;
    try {
      snapshot = JSON.parse(readFileSync(file, 'utf8')) as SessionSnapshot;
    } catch (error) {
      throw new CliError(`Could not read the session file ${file}: ${errorMessage(error)}`);
    }
    try {
      return { session: restoreSession(agent.element(), snapshot, options), resumed: true };
    } catch (error) {
      throw new CliError(`Could not resume the session from ${file}: ${errorMessage(error)}`);
    }
  }
  try {
    return { session: createSession(agent.element(), options), resumed: false };
  } catch (error) {
    throw new CliError(`The agent failed to mount: ${errorMessage(error)}`);
  }
}

/** Writes `session.snapshot()` to `file` (atomically: a temporary file, then a rename). */
export function saveSession(session: Session, file: string | undefined): void {
  if (!file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(session.snapshot(), null, 2)}\n`);
    renameSync(temp, file);
  } catch (error) {
    throw new CliError(`Could not save the session to ${file}: ${errorMessage(error)}`);
  }
}
