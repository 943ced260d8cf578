/**
 * A throwaway Restate server for the crash load test (`load-crash.mjs --engine restate`): the binary
 * the `@restatedev/restate-server` npm package installs (a dev dependency of @skilltree/durable), on
 * free loopback ports, its data in a temp dir. The same setup as @skilltree/durable's test fixture
 * (packages/durable/test/fixtures/restate-server.ts), in plain JavaScript so the bench runs it as is.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo } from './serve-process.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The server binary, resolved from @skilltree/durable's dependencies (run `pnpm install` first). */
export function restateServerBinary() {
  const durable = createRequire(join(repo, 'packages', 'durable', 'package.json'));
  const launcher = createRequire(durable.resolve('@restatedev/restate-server/package.json'));
  return launcher.resolve(`@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`);
}

/**
 * Starts a Restate server: resolves once its ingress listens and its admin API answers, with
 * `{ ingressUrl, adminUrl, stop() }`.
 */
export async function startRestateServer() {
  const dir = mkdtempSync(join(tmpdir(), 'skilltree-bench-restate-'));
  const [node, admin, ingress] = [await freePort(), await freePort(), await freePort()];
  const config = join(dir, 'restate.toml');
  writeFileSync(
    config,
    [
      `base-dir = "${join(dir, 'data')}"`,
      'node-name = "skilltree-bench"',
      'disable-telemetry = true',
      'log-filter = "warn,restate_admin=info,restate_ingress_http=info"',
      'log-format = "compact"',
      'log-disable-ansi-codes = true',
      `bind-address = "127.0.0.1:${node}"`,
      `advertised-address = "http://127.0.0.1:${node}/"`,
      '[admin]',
      `bind-address = "127.0.0.1:${admin}"`,
      '[ingress]',
      `bind-address = "127.0.0.1:${ingress}"`,
      '',
    ].join('\n'),
  );
  const child = spawn(restateServerBinary(), ['--config-file', config, '--no-logo', '--listen-mode', 'tcp'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const check = () => {
      if (log.includes('Ingress HTTP listening') && log.includes('Admin API starting')) resolve();
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        // Keep the start of the log only: it says why the server did not start.
        if (log.length < 100_000) log += chunk.toString('utf8');
        check();
      });
    }
    exited.then((code) => reject(new Error(`restate-server exited (${code}) before it listened:\n${log}`)));
  });
  const adminUrl = `http://127.0.0.1:${admin}`;
  // The admin API answers once the node has joined its own cluster (the log line comes first).
  for (;;) {
    const ok = await fetch(`${adminUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    ingressUrl: `http://127.0.0.1:${ingress}`,
    adminUrl,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
