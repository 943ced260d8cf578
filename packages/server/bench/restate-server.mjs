/**
 * A throwaway Restate server for the crash load test (`load-crash.mjs --engine restate`):
 * @skilltree/durable's test fixture (packages/durable/test/fixtures/restate-server.ts) is the one
 * implementation. The bench runs in plain Node, so the fixture is loaded through `tsx` from
 * @skilltree/durable's dev dependencies (run `pnpm install` first), as the CLI loads a `.tsx` agent.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repo } from './serve-process.mjs';

const durable = join(repo, 'packages', 'durable');

/**
 * `tsx`'s ES module API (its `tsImport`), resolved from @skilltree/durable's dependencies: the
 * package's `import` entry, since its CommonJS entry cannot start the loader from a plain Node script.
 */
async function tsxApi() {
  const manifest = createRequire(join(durable, 'package.json')).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8'));
  return import(pathToFileURL(join(dirname(manifest), exports['./esm/api'].import.default)).href);
}

/**
 * Starts a Restate server (the binary the `@restatedev/restate-server` npm package installs, on free
 * loopback ports, its data in a temp dir): resolves once its ingress listens and its admin API
 * answers, with `{ ingressUrl, adminUrl, stop() }`.
 */
export async function startRestateServer() {
  const { tsImport } = await tsxApi();
  const fixture = pathToFileURL(join(durable, 'test', 'fixtures', 'restate-server.ts')).href;
  const { startRestateServer: start } = await tsImport(fixture, import.meta.url);
  return start();
}
