/**
 * The crash load test's agent (crash-agent.tsx) on a durable engine: the same agent, model and
 * options, plus the `engine` export `skilltree serve` calls once in each serving process
 * (docs/durable.md, "With skilltree serve"). `BENCH_ENGINE` names the engine: `dbos` keeps its
 * workflows in the test's PostgreSQL ($SKILLTREE_TEST_POSTGRES_URL), beside the session store;
 * `restate` serves the process's turns to the Restate server the test started
 * ($BENCH_RESTATE_INGRESS, $BENCH_RESTATE_ADMIN), each process on its own endpoint and executor.
 *
 * @skilltree/durable is not a dependency of this package: its build is imported from the checkout
 * (run `pnpm build` first), as a user's agent module would import it from npm.
 */
import type { TurnEngine } from '@skilltree/core/provider';

export { authorize, default, demo, sessionOptions } from './crash-agent.js';

/** Where @skilltree/durable's DBOS adapter is built in this checkout. */
const DBOS_BUILD = new URL('../../durable/dist/dbos.js', import.meta.url).href;
/** Where @skilltree/durable's Restate adapter is built in this checkout. */
const RESTATE_BUILD = new URL('../../durable/dist/restate.js', import.meta.url).href;

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
  if (name === 'restate') {
    const ingressUrl = process.env.BENCH_RESTATE_INGRESS;
    const adminUrl = process.env.BENCH_RESTATE_ADMIN;
    if (!ingressUrl || !adminUrl)
      throw new Error(
        'BENCH_ENGINE=restate needs BENCH_RESTATE_INGRESS and BENCH_RESTATE_ADMIN (load-crash.mjs sets them).',
      );
    const { restateEngine } = (await import(RESTATE_BUILD)) as {
      restateEngine(options: {
        ingressUrl: string;
        adminUrl: string;
        onRecovered(info: { turnId: string; chatId: string; error?: string }): void;
      }): TurnEngine;
    };
    // Each turn this process finishes for another one is one line on stderr (the test counts them).
    const onRecovered = (info: { turnId: string; chatId: string; error?: string }) =>
      console.error(`skilltree-bench recovered ${JSON.stringify(info)}`);
    return restateEngine({ ingressUrl, adminUrl, onRecovered });
  }
  throw new Error(`BENCH_ENGINE=${name ?? ''}: no such engine in the crash load test (dbos, restate).`);
}
