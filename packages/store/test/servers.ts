/**
 * The real servers the tests run against: `.ci/with-services` starts a throwaway PostgreSQL and
 * Redis and exports their URLs. Under CI a missing server fails the run; locally it says how to
 * get one.
 */
export const POSTGRES_URL = process.env.SKILLTREE_TEST_POSTGRES_URL;
export const REDIS_URL = process.env.SKILLTREE_TEST_REDIS_URL;

const HOW =
  'Run the tests through .ci/with-services (it starts throwaway servers and sets the variable): ' +
  'bash .ci/with-services pnpm --filter @skilltree/store test. It needs the Debian packages postgresql and redis-server.';

/** The URL, or an error that names the variable and how to set it. */
export function server(name: 'SKILLTREE_TEST_POSTGRES_URL' | 'SKILLTREE_TEST_REDIS_URL'): string {
  const url = process.env[name];
  if (!url) throw new Error(`${name} is not set. ${HOW}`);
  return url;
}

/** A prefix no earlier run used, so runs on one server never see each other's tables or keys. */
export const runPrefix = (kind: string) =>
  `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}_${kind}`;
