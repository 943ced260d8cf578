/**
 * A test script in a process of its own (run with tsx, from the package folder), read line by line:
 * what the multi-process tests, the outage tests and the chat servers of durable-chat start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A running script: its process, its exit code, and what it wrote to stderr so far. */
export interface Script {
  child: ChildProcess;
  exit: Promise<number | null>;
  stderr(): string;
}

/**
 * Runs the script `file` with `args` under tsx, handing each line it prints on stdout to `onLine`
 * as soon as the line is whole (its newline arrived: output comes in chunks that cut lines).
 */
export function runScript(file: string, args: string[], onLine: (line: string) => void): Script {
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) onLine(line);
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}
