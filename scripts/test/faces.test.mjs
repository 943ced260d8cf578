// Core has two faces: `@skilltree/core` (what an app writes with) and `@skilltree/core/provider`
// (what an adapter builds on). A model adapter needs only the second: if one reaches for the root,
// either the name belongs in /provider too or the adapter is doing an app's job.
// `node --test scripts/test/`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeFiles, shortPath, specifiers, workspacePackages } from '../lib/imports.mjs';

const models = workspacePackages().find((p) => p.name === '@skilltree/models');
const sources = codeFiles(join(models.dir, 'src'));
const coreImports = sources.flatMap((file) =>
  specifiers(file)
    .filter((s) => s === '@skilltree/core' || s.startsWith('@skilltree/core/'))
    .map((specifier) => ({ file: shortPath(file), specifier })),
);

test('an adapter needs only @skilltree/core/provider: packages/models/src imports nothing else from core', () => {
  assert.deepEqual(
    coreImports
      .filter((i) => i.specifier !== '@skilltree/core/provider')
      .map((i) => `${i.file} imports ${i.specifier}`),
    [],
    'import it from @skilltree/core/provider (add it to packages/core/src/provider.ts if it is not there)',
  );
});

test('the adapter rule reads real imports: the adapters do import @skilltree/core/provider', () => {
  // Guards the rule above: with no core import found at all it would pass.
  const files = new Set(coreImports.map((i) => i.file));
  assert.ok(files.has('packages/models/src/anthropic.ts'));
  assert.ok(files.has('packages/models/src/openai.ts'));
  assert.ok(files.size >= 10);
});
