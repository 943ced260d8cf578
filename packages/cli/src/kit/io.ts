/**
 * The streams and environment a command works with. `main` takes them as a parameter so that it
 * can run in-process (tests, other tools) as well as from the `skilltree` binary.
 */

/** A writable text stream, as `process.stdout` is. */
export interface Output {
  write(chunk: string): unknown;
  /** True when the stream is a terminal: enables colors and the spinner. */
  isTTY?: boolean;
  /** Terminal width, when known. */
  columns?: number;
}

/** The environment of one CLI invocation. */
export interface Io {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: Output;
  stderr: Output;
  env: Record<string, string | undefined>;
  /** Directory relative paths (module, `--session`, `scripted:` files) resolve against. */
  cwd: string;
}

/** The real process streams and environment. */
export function processIo(): Io {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}
