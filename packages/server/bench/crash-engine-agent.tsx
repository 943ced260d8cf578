/**
 * The crash load test's agent (crash-agent.tsx) on a durable engine: the same agent, model and
 * options, plus the `engine` export `skilltree serve` calls once in each serving process
 * (docs/durable.md, "With skilltree serve"). `BENCH_ENGINE` names the engine: `dbos` keeps its
 * workflows in the test's PostgreSQL ($SKILLTREE_TEST_POSTGRES_URL), beside the session store.
 *
 * @skilltree/durable is not a dependency of this package: its build is imported from the checkout
 * (run `pnpm build` first), as a user's agent module would import it from npm.
 */
import type { TurnEngine } from '@skilltree/core/provider';

export { authorize, default, demo, sessionOptions } from './crash-agent.js';

/** Where @skilltree/durable's DBOS adapter is built in this checkout. */
const DBOS_BUILD = new URL('../../durable/dist/dbos.js', import.meta.url).href;

export async function engine(): Promise<TurnEngine> {
  const name = process.env.BENCH_ENGINE;
  if (name === 'dbos') {
    const connectionString = process.env.SKILLTREE_TEST_POSTGRES_URL;
    if (!connectionString)
      throw new Error('BENCH_ENGINE=dbos needs SKILLTREE_TEST_POSTGRES_URL (run under .ci/with-services).');
    const { dbosEngine } = (await import(DBOS_BUILD)) as {
      dbosEngine(options: { connectionString: string; logLevel?: string }): TurnEngine;
    };
    return dbosEngine({ connectionString, logLevel: 'error' });
  }
  throw new Error(`BENCH_ENGINE=${name ?? ''}: no such engine in the crash load test (dbos).`);
}
