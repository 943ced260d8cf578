/**
 * Which React build `skilltree serve` runs. React picks its build from `NODE_ENV` the first time it
 * is loaded, and a user who sets nothing gets the development build: about twice the memory per
 * mounted chat and slower renders (docs/serving.md, "What one process holds"). So `bin/skilltree.js`
 * calls {@link chooseReactBuild} before it loads anything that loads React. This module imports
 * nothing, so that stays true.
 */

/** The flag that asks `serve` for React's development build. */
export const REACT_DEV_FLAG = '--react-dev';

/** What {@link chooseReactBuild} decided: the build, and a line to print when it overrode `NODE_ENV`. */
export interface ReactBuildChoice {
  build: 'production' | 'development';
  /** Set when the user's `NODE_ENV` was something else, to say it is not what serve runs. */
  notice?: string;
}

/**
 * For `skilltree serve` (the first argument that is not a flag, as the command line reads it),
 * sets `env.NODE_ENV` to `production` whatever it was, or to `development` with `--react-dev`, and
 * says so when that overrides a value the user set. Other commands are left as they are (null).
 * Workers forked by `--workers` inherit the choice through the environment.
 *
 * @example
 * chooseReactBuild(['serve', 'agent.tsx'], process.env); // { build: 'production' }, NODE_ENV=production
 */
export function chooseReactBuild(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): ReactBuildChoice | null {
  const end = argv.indexOf('--');
  const own = end === -1 ? argv : argv.slice(0, end);
  if (own.find((arg) => !arg.startsWith('-')) !== 'serve') return null;
  const build = own.includes(REACT_DEV_FLAG) ? 'development' : 'production';
  const before = env.NODE_ENV;
  env.NODE_ENV = build;
  if (before === undefined || before === '' || before === build) return { build };
  const notice =
    build === 'production'
      ? `skilltree serve: NODE_ENV=${before} is set, but serve runs React's production build (NODE_ENV=production); pass ${REACT_DEV_FLAG} for the development build.`
      : `skilltree serve: ${REACT_DEV_FLAG}: running React's development build (NODE_ENV=development, was ${before}).`;
  return { build, notice };
}
