/**
 * `skilltree dev`: the command starts the playground server, prints its URL and stops on SIGINT.
 * (The playground itself is tested with its own code in src/dev.)
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { providers } from '@skilltree/models';
import { expect, it } from 'vitest';
import { tracked } from './helpers/children.js';
import { CLI_DIR } from './helpers/run-cli.js';

it('prints the playground URL, serves it, and exits 0 on Ctrl+C', async () => {
  const env = { ...process.env };
  for (const key of [...providers().map((p) => p.apiKeyEnv), 'SKILLTREE_MODEL']) delete env[key];
  const child = tracked(
    spawn(
      process.execPath,
      [
        join(CLI_DIR, 'bin', 'skilltree.js'),
        'dev',
        'test/fixtures/shop-agent.tsx',
        '--port',
        '0',
        '--host',
        '127.0.0.1',
      ],
      { cwd: CLI_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    // The URL once it is printed, however long a busy machine takes (the test's timeout bounds it).
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (d) => {
        stdout += d;
        const match = /skilltree playground: (http:\/\/127\.0\.0\.1:\d+\/?)/.exec(stdout);
        if (match) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`exited early.\nstdout: ${stdout}\nstderr: ${stderr}`)));
    });
    const response = await fetch(url);
    expect(response.status).toBeLessThan(500);
    await response.arrayBuffer();
  } finally {
    child.kill('SIGINT');
  }
  expect(await exited).toBe(0);
});
