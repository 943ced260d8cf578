#!/usr/bin/env node
// `serve` runs React's production build unless --react-dev asks otherwise: NODE_ENV is set before
// anything loads React (main.js does), since React reads it once, when it is first loaded.
import { chooseReactBuild } from '../dist/kit/react-build.js';

const reactBuild = chooseReactBuild(process.argv.slice(2), process.env);
// A worker of --workers inherits NODE_ENV from the primary, which has said it already.
if (reactBuild?.notice && process.env.SKILLTREE_SERVE_WORKER !== '1') process.stderr.write(`${reactBuild.notice}\n`);
const { main } = await import('../dist/main.js');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`skilltree: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
