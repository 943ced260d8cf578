// The build step of `pnpm skilltree …` (and so of `pnpm start`): turbo builds what the CLI needs,
// and this reads turbo's output as it comes to say what it is doing, on stderr, one line per
// package it builds ("skilltree: building @skilltree/core…"), then how long it took. A cold build
// takes a minute or more and would otherwise be silent. A warm one (every package cached) prints
// nothing. When the build fails, turbo's output of the failed run is printed whole. stdout is never
// written: it is the command's own.

/** turbo's line for a task it runs: `@skilltree/core:build: cache miss, executing 1a2b…` (or `cache bypass, force executing`). */
const EXECUTING = /^(\S+?):([\w:-]+): cache (?:miss|bypass), (?:force )?executing\b/;

/** Colors, in case turbo was told to keep them (FORCE_COLOR). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * Runs the build and reports its progress.
 * @param {object} options
 * @param {string} options.command the turbo executable
 * @param {string[]} options.args its arguments
 * @param {string} options.cwd
 * @param {NodeJS.ProcessEnv} [options.env]
 * @param {{ write(text: string): unknown }} options.stderr where the progress lines go
 * @param {'ignore' | 'pipe'} [options.stdin] turbo's stdin (default: none)
 * @param {() => number} [options.now] the clock, in ms
 * @returns {{ child: import('node:child_process').ChildProcess, done: Promise<number> }} the exit code, once turbo ends
 */
export async function startBuild({ command, args, cwd, env = process.env, stderr, stdin = 'ignore', now = Date.now }) {
  const { spawn } = await import('node:child_process');
  const started = now();
  const child = spawn(command, args, { cwd, env, stdio: [stdin, 'pipe', 'pipe'] });
  /** Everything turbo said, for a failure. */
  const output = [];
  const built = [];
  let pending = '';
  const line = (raw) => {
    output.push(raw);
    const match = EXECUTING.exec(raw.replace(ANSI, ''));
    if (match) {
      built.push(match[1]);
      stderr.write(`skilltree: building ${match[1]}…\n`);
    }
  };
  const read = (chunk) => {
    pending += chunk;
    let end = pending.indexOf('\n');
    while (end !== -1) {
      line(pending.slice(0, end));
      pending = pending.slice(end + 1);
      end = pending.indexOf('\n');
    }
  };
  child.stdout.setEncoding('utf8').on('data', read);
  child.stderr.setEncoding('utf8').on('data', read);
  const done = new Promise((resolve) => {
    child.once('error', (error) => {
      stderr.write(`skilltree: could not run ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.once('close', (code, signal) => {
      if (pending !== '') line(pending);
      const status = code ?? (signal ? 1 : 0);
      if (status !== 0) {
        stderr.write(`${output.join('\n')}\n`);
      } else if (built.length > 0) {
        const seconds = Math.round((now() - started) / 1000);
        stderr.write(`skilltree: built ${built.length} package${built.length === 1 ? '' : 's'} in ${seconds} s.\n`);
      }
      resolve(status);
    });
  });
  return { child, done };
}
