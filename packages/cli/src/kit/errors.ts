/**
 * Errors the CLI reports as one clear line on stderr, with an exit code.
 */

/** Exit code for usage errors: unknown flag, missing argument, bad value. */
export const USAGE_ERROR = 2;

/** Exit code for every other failure: bad module, model error, I/O error. */
export const RUNTIME_ERROR = 1;

/** An error whose message is shown as is (no stack) and whose `exitCode` becomes the process exit code. */
export class CliError extends Error {
  /** The process exit code this error maps to. */
  readonly exitCode: number;

  constructor(message: string, exitCode: number = RUNTIME_ERROR) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** The message of any thrown value. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
