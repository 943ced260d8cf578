/**
 * Creating the session, restoring it from a `--session` file, and saving it after each turn.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
 * Fails now, before the module is loaded or any model is called, when `--session` names a path
 * that cannot be written: a directory, or a file whose directory cannot be created or written.
 * It tries exactly what {@link saveSession} does (create the directory, write a temporary file
 * next to the file) and removes the temporary file again. Otherwise the model would run a whole
 * turn, and only then would the save fail.
 */
export function checkSessionPath(file: string | undefined): void {
  if (!file) return;
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new CliError(`--session ${file} is a directory: pass a file path, e.g. --session ${file}/session.json.`);
  }
  const fail = (why: string) =>
    new CliError(`Cannot write the session file ${file}: ${why}. Pass --session a path in a directory you can write.`);
  let existing = dirname(file);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (!statSync(existing).isDirectory()) throw fail(`${existing} is a file, not a directory`);
  const probe = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(probe, '');
  } catch (error) {
    throw fail(errorMessage(error));
  }
  rmSync(probe, { force: true });
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
