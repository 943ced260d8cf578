/**
 * `skilltree dev` as a user runs it: the CLI's binary (from the `@skilltree/cli` package this app
 * depends on) in its own process, on a temp copy of the CLI's notes fixture agent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The `@skilltree/cli` package folder. */
const cliDir = dirname(createRequire(import.meta.url).resolve('@skilltree/cli/package.json'));

/** A temp copy of the CLI's test/dev-fixtures/notes-agent whose node_modules links to the CLI's. */
export function fixtureCopy(): { dir: string; module: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'skilltree-playground-test-'));
  cpSync(join(cliDir, 'test', 'dev-fixtures', 'notes-agent'), dir, { recursive: true });
  symlinkSync(join(cliDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, module: join(dir, 'agent.tsx'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A running `skilltree dev`. */
export interface DevProcess {
  url: string;
  child: ChildProcess;
  /** What it wrote to stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Runs `skilltree dev <module> --port 0` and resolves with the URL it prints. */
export function startDev(module: string): Promise<DevProcess> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'development' };
  for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'SKILLTREE_MODEL']) delete env[key];
  const child = spawn(process.execPath, [join(cliDir, 'bin', 'skilltree.js'), 'dev', module, '--port', '0'], {
    cwd: dirname(module),
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`skilltree dev printed no URL in 20 s.\n${stdout}\n${stderr}`));
    }, 20_000);
    child.stdout!.on('data', (chunk) => {
      stdout += String(chunk);
      const match = /skilltree playground: (http:\/\/\S+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({ url: match[1], child, output: () => stderr, stop });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`skilltree dev exited with ${code}.\n${stdout}\n${stderr}`));
    });
  });
}
