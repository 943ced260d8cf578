/**
 * Running a folder's scripts, when the agent opts in: a script under `scripts/`, started by an
 * interpreter from an allow-list (by file extension), without a shell, in the skill folder, with
 * a timeout, an output cap, a small environment, and a kill switch for when the skill unloads.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkRegular, RefusedPathError, resolveInside } from './checked-paths.js';
import { contains } from './folder-listing.js';

/** The `scripts` option: how a folder skill may run the scripts in its `scripts/` folder. */
export interface ScriptsOptions {
  /**
   * Interpreter per file extension: a command, or a command and its first arguments. Only these
   * extensions run. Default {@link DEFAULT_INTERPRETERS}.
   *
   * @example { '.py': 'python3', '.sh': 'bash', '.ts': ['npx', 'tsx'] }
   */
  interpreters?: Record<string, string | readonly string[]>;
  /** Milliseconds a script may run before it is killed. Default 30 000. */
  timeoutMs?: number;
  /** Bytes of stdout, and of stderr, kept for the model; the rest is counted and dropped. Default 65 536. */
  maxOutputBytes?: number;
  /** Variables added to the scripts' environment (after the small default set, or `process.env` with {@link inheritEnv}). */
  env?: Record<string, string>;
  /**
   * Give scripts this process's whole environment (API keys included). Default false: they get
   * only `PATH`, `HOME`, `USER`, `LANG`, `LC_*`, `TZ`, the temp-dir variables (and on Windows the
   * few it needs), plus {@link env}.
   */
  inheritEnv?: boolean;
}

/** The interpreters `scripts: true` allows: Python 3, Bash and Node.js. */
export const DEFAULT_INTERPRETERS: Readonly<Record<string, string>> = Object.freeze({
  '.py': 'python3',
  '.sh': 'bash',
  '.js': 'node',
  '.mjs': 'node',
});

/** {@link ScriptsOptions} with every default filled in. */
export interface ResolvedScripts {
  interpreters: Record<string, readonly string[]>;
  timeoutMs: number;
  maxOutputBytes: number;
  env: Record<string, string>;
}

const SAFE_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'COMSPEC',
  'PATHEXT',
  'WINDIR',
];

/** Fills in the defaults of the `scripts` option, or returns null when scripts are off. Throws for a malformed option. */
export function resolveScripts(option: boolean | ScriptsOptions | undefined): ResolvedScripts | null {
  if (!option) return null;
  const given = option === true ? {} : option;
  const interpreters: Record<string, readonly string[]> = {};
  for (const [ext, command] of Object.entries(given.interpreters ?? DEFAULT_INTERPRETERS)) {
    const argv = typeof command === 'string' ? [command] : [...command];
    if (argv.length === 0 || argv.some((a) => typeof a !== 'string' || a === '')) {
      throw new Error(`scripts.interpreters["${ext}"] must be a command or a non-empty list of strings.`);
    }
    const key = ext.startsWith('.') ? ext.toLowerCase() : `.${ext.toLowerCase()}`;
    interpreters[key] = argv;
  }
  const timeoutMs = given.timeoutMs ?? 30_000;
  const maxOutputBytes = given.maxOutputBytes ?? 64 * 1024;
  if (!(timeoutMs > 0))
    throw new Error(`scripts.timeoutMs must be a positive number of milliseconds (got ${timeoutMs}).`);
  if (!(maxOutputBytes > 0))
    throw new Error(`scripts.maxOutputBytes must be a positive number (got ${maxOutputBytes}).`);
  const env: Record<string, string> = {};
  if (given.inheritEnv) {
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  } else {
    for (const k of SAFE_ENV) if (process.env[k] !== undefined) env[k] = process.env[k]!;
    for (const [k, v] of Object.entries(process.env)) if (k.startsWith('LC_') && v !== undefined) env[k] = v;
  }
  Object.assign(env, given.env ?? {});
  return { interpreters, timeoutMs, maxOutputBytes, env };
}

/** What the model passes to the run tool. */
export interface RunScriptInput {
  script: string;
  args?: string[];
  stdin?: string;
}

/** Collects up to `max` bytes of a stream; counts the rest. */
class Capture {
  readonly chunks: Buffer[] = [];
  kept = 0;
  total = 0;
  constructor(readonly max: number) {}
  add(chunk: Buffer) {
    this.total += chunk.length;
    const room = this.max - this.kept;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  text(label: string): string {
    let text = Buffer.concat(this.chunks).toString('utf8');
    if (this.total > this.kept) {
      text = text.replace(/\uFFFD+$/, '');
      text += `\n[…${label} truncated: ${this.total} bytes in all, the first ${this.kept} shown]`;
    }
    return text;
  }
}

/** Ends a script and everything it started: its process group on POSIX, the process elsewhere. */
function kill(child: ChildProcess, signal: NodeJS.Signals, groupOnly = false): void {
  if (!groupOnly && (child.exitCode !== null || child.signalCode !== null)) {
    // The script is gone, but what it started may not be.
    groupOnly = true;
  }
  if (process.platform !== 'win32' && child.pid) {
    try {
      process.kill(-child.pid, signal);
      return;
    } catch {}
  }
  if (!groupOnly) child.kill(signal);
}

/**
 * Runs one script of a folder skill and resolves with a report for the model (command, exit
 * code, stdout, stderr). Rejects, with the same report, when the script fails, times out, or is
 * stopped (`signal`: the call was aborted or the skill unloaded).
 */
export async function runScript(
  root: string,
  input: RunScriptInput,
  options: ResolvedScripts,
  signal: AbortSignal,
  stopReason: () => string,
): Promise<string> {
  const scriptsDir = await realpath(path.join(root, 'scripts')).catch(() => null);
  if (!scriptsDir || !contains(root, scriptsDir)) {
    throw new RefusedPathError('This skill folder has no scripts/ folder: there is nothing to run.');
  }
  const given = typeof input.script === 'string' ? input.script.trim().replace(/\\/g, '/') : '';
  const relative = given.startsWith('scripts/') || given.startsWith('./scripts/') ? given : `scripts/${given}`;
  const { real, display } = await resolveInside(root, relative);
  if (!contains(scriptsDir, real)) {
    throw new RefusedPathError(`Refused: "${display}" is not in scripts/. Only the folder's scripts/ can be run.`);
  }
  checkRegular(await stat(real), display);
  const ext = path.extname(real).toLowerCase();
  const interpreter = options.interpreters[ext];
  if (!interpreter) {
    const allowed = Object.keys(options.interpreters);
    throw new RefusedPathError(
      `Refused: "${display}" has no allowed interpreter (${ext || 'no extension'}). Allowed: ${
        allowed.map((e) => `${e} (${options.interpreters[e].join(' ')})`).join(', ') || 'none'
      }.`,
    );
  }
  const args = (input.args ?? []).map(String);
  const scriptArg = path.relative(root, real).split(path.sep).join('/');
  const [command, ...leading] = interpreter;
  const shown = [command, ...leading, scriptArg, ...args].map((a) =>
    /^[\w./:=@%+-]+$/.test(a) ? a : JSON.stringify(a),
  );
  const header = `$ ${shown.join(' ')}`;
  if (signal.aborted) throw new Error(`${header}\nNot started: ${stopReason()}.`);

  return new Promise<string>((resolve, reject) => {
    const stdout = new Capture(options.maxOutputBytes);
    const stderr = new Capture(options.maxOutputBytes);
    let stopped: string | null = null;
    let settled = false;
    let child: ChildProcess;
    try {
      child = spawn(command, [...leading, scriptArg, ...args], {
        cwd: root,
        env: options.env,
        shell: false,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      reject(new Error(`${header}\nCould not start: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    const report = (status: string) => {
      const parts = [header, status];
      const out = stdout.text('stdout');
      const err = stderr.text('stderr');
      parts.push(out === '' ? '--- stdout: (empty)' : `--- stdout\n${out}`);
      if (err !== '') parts.push(`--- stderr\n${err}`);
      return parts.join('\n');
    };
    let hardKill: NodeJS.Timeout | undefined;
    const stop = (why: string) => {
      if (stopped || settled) return;
      stopped = why;
      kill(child, 'SIGTERM');
      hardKill = setTimeout(() => kill(child, 'SIGKILL'), 2000);
      hardKill.unref();
    };
    const timer = setTimeout(() => stop(`timed out after ${options.timeoutMs} ms and was killed`), options.timeoutMs);
    const onAbort = () => stop(`${stopReason()}; the script was killed`);
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.stdin?.on('error', () => {});
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      finish();
      const why =
        error.code === 'ENOENT'
          ? `Could not start: the interpreter "${command}" was not found on PATH.`
          : `Could not start: ${error.message}`;
      reject(new Error(`${header}\n${why}`));
    });
    // Whatever the script left running in the background keeps its output open: once the script
    // itself has exited, end its process group so the call can finish.
    let reaper: NodeJS.Timeout | undefined;
    child.on('exit', () => {
      reaper = setTimeout(() => kill(child, 'SIGKILL', true), 500);
      reaper.unref();
    });
    child.on('close', (code, sig) => {
      if (settled) return;
      finish();
      if (hardKill) clearTimeout(hardKill);
      if (reaper) clearTimeout(reaper);
      if (stopped) reject(new Error(report(`Stopped: ${stopped}.`)));
      else if (code === 0) resolve(report('exit code 0'));
      else reject(new Error(report(code === null ? `killed by ${sig}` : `exit code ${code}`)));
    });
    if (input.stdin) child.stdin?.end(input.stdin);
    else child.stdin?.end();
  });
}
