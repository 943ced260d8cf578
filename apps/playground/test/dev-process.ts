/**
 * `skilltree dev` as a user runs it: the CLI's binary (from the `@skilltree/cli` package this app
 * depends on) in its own process, on a temp copy of the CLI's notes fixture agent.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { copyFixture, type FixtureCopy, type ListeningProcess, startListening } from '@skilltree/test-kit';

/** The `@skilltree/cli` package folder. */
const cliDir = dirname(createRequire(import.meta.url).resolve('@skilltree/cli/package.json'));

/** A temp copy of the CLI's test/dev-fixtures/notes-agent whose node_modules links to the CLI's. */
export function fixtureCopy(): FixtureCopy {
  return copyFixture(join(cliDir, 'test', 'dev-fixtures', 'notes-agent'), {
    nodeModules: join(cliDir, 'node_modules'),
    entry: 'agent.tsx',
    prefix: 'skilltree-playground-test-',
  });
}

/** A running `skilltree dev`. */
export type DevProcess = ListeningProcess;

/** Runs `skilltree dev <module> --port 0` and resolves with the URL it prints. */
export function startDev(module: string): Promise<DevProcess> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'development' };
  for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'SKILLTREE_MODEL']) delete env[key];
  return startListening({
    name: 'skilltree dev',
    args: [join(cliDir, 'bin', 'skilltree.js'), 'dev', module, '--port', '0'],
    cwd: dirname(module),
    env,
    readUrl: (stdout) => /skilltree playground: (http:\/\/\S+)/.exec(stdout)?.[1],
    giveUpAfterMs: 20_000,
  });
}
