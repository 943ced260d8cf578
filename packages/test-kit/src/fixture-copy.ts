/**
 * A temp copy of a fixture folder that a test may edit (hot reload, broken files) without touching
 * the repository's copy.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fixture copy: its folder, the module in it, and the cleanup that removes it. */
export interface FixtureCopy {
  dir: string;
  module: string;
  cleanup(): void;
}

/**
 * Copies `from` into a fresh temp folder (named after `prefix`) whose node_modules links to
 * `nodeModules`, so the copy imports what the package it came from imports; `module` is the
 * copy's `entry` file.
 */
export function copyFixture(
  from: string,
  options: { nodeModules: string; entry: string; prefix: string },
): FixtureCopy {
  const dir = mkdtempSync(join(tmpdir(), options.prefix));
  cpSync(from, dir, { recursive: true });
  symlinkSync(options.nodeModules, join(dir, 'node_modules'), 'dir');
  return { dir, module: join(dir, options.entry), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
