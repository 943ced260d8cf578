#!/usr/bin/env node
import { main } from '../dist/index.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`create-skilltree: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
