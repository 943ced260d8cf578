// Files stay small: no source file of a package or an app is over 400 lines, so each one holds one
// thing and is named for it. A file that grows past the limit is split along its own sections.
// `node --test scripts/test/`.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { root } from '../lib/workspace.mjs';

/** The most lines a source file may have. */
const MAX_LINES = 400;

/** Source code, as the limit counts it: TypeScript and JavaScript (stylesheets and assets are not code to split). */
const CODE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Lines as `wc -l` counts them: newline characters (a last line without one is not counted). */
const linesOf = (text) => text.split('\n').length - 1;

/** Every code file under `dir`, recursively. */
function codeFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFilesUnder(path);
    return CODE.test(entry.name) ? [path] : [];
  });
}

/** The `src` folders of every package and app. */
function sourceFolders() {
  return ['packages', 'apps'].flatMap((group) => {
    const base = join(root, group);
    if (!existsSync(base)) return [];
    return readdirSync(base, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'src')))
      .map((entry) => join(base, entry.name, 'src'));
  });
}

/** The files over the limit, as `path (lines)`, longest first. */
function oversized(folders) {
  return folders
    .flatMap(codeFilesUnder)
    .map((file) => ({ file: relative(root, file).split(sep).join('/'), lines: linesOf(readFileSync(file, 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
    .map(({ file, lines }) => `${file} (${lines} lines)`);
}

test("no file in a package's src is over 400 lines", () => {
  const folders = sourceFolders();
  assert.ok(
    folders.some((folder) => folder.endsWith(`packages${sep}core${sep}src`)),
    'the src folders are found (else the rule would pass on nothing)',
  );
  const offenders = oversized(folders);
  assert.deepEqual(
    offenders,
    [],
    `${offenders.length} file(s) over ${MAX_LINES} lines; split each along its own sections into files named for what they hold:\n  ${offenders.join('\n  ')}`,
  );
});

test('lines are counted as wc -l counts them', () => {
  assert.equal(linesOf(''), 0);
  assert.equal(linesOf('one'), 0);
  assert.equal(linesOf('one\n'), 1);
  assert.equal(linesOf('one\ntwo\n'), 2);
  assert.equal(linesOf('one\ntwo'), 1);
});
