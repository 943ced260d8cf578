import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type ToolMessage, textOf } from '@skilltree/core';
import { playDemo } from '@skilltree/test-kit';
import { renderAgent } from '@skilltree/testing';
import { afterEach, expect, test } from 'vitest';
import FilesystemExample, { demo } from '../agent.js';
import { copySeed as copySeedTo, SEED_DIR, sandboxFromArgs } from '../src/config.js';

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function copySeed() {
  const dir = copySeedTo();
  copies.push(dir);
  return dir;
}

test('the sandbox comes from --sandbox, then SKILLTREE_SANDBOX, else a copy of the seed', () => {
  expect(sandboxFromArgs(['node', 'cli', 'chat', 'agent.tsx', '--sandbox', '/srv/notes'], {})).toBe('/srv/notes');
  expect(sandboxFromArgs(['--sandbox=/srv/a'], { SKILLTREE_SANDBOX: '/srv/b' })).toBe('/srv/a');
  expect(sandboxFromArgs([], { SKILLTREE_SANDBOX: '/srv/b' })).toBe('/srv/b');
  expect(sandboxFromArgs([], {})).toBeNull();
  const copy = copySeed();
  expect(copy).not.toBe(SEED_DIR);
  expect(readFileSync(path.join(copy, 'notes', 'todo.md'), 'utf8')).toBe(
    readFileSync(path.join(SEED_DIR, 'notes', 'todo.md'), 'utf8'),
  );
});

test('the demo plays end to end on a copy of the seed, which stays untouched', async () => {
  const root = copySeed();
  const seedTodo = readFileSync(path.join(SEED_DIR, 'notes', 'todo.md'), 'utf8');
  const { agent, model, replies } = await playDemo(demo, (model) =>
    renderAgent(<FilesystemExample root={root} />, { model }),
  );
  expect(model.remaining).toBe(0);

  expect(replies).toEqual([
    'You have 4 open items:\n- Call the dentist to move the March 20 appointment\n- Renew passport (expires in June)\n- Buy a birthday present for Sam\n- Book train tickets to Edinburgh',
    'You mention the dentist in notes/todo.md (line 3) and notes/meetings/2026-03-10-planning.md (line 7).',
    'Ticked off: "Call the dentist to move the March 20 appointment" is done in notes/todo.md.',
    "I can't: I only have access to the files in your sandbox folder, and both are outside it.",
    'Restored notes/todo.md. The dentist item is open again.',
  ]);

  const results = agent.transcript.filter((m): m is ToolMessage => m.role === 'tool');
  const refusals = results.filter((m) => m.isError);
  expect(refusals.map(textOf)).toEqual([
    'Tool "read_file" failed: Refused: "/etc/passwd" is outside the sandbox. Paths are relative to the sandbox root, and cannot leave it.',
    'Tool "read_file" failed: Refused: "../../.ssh/id_rsa" is outside the sandbox. Paths are relative to the sandbox root, and cannot leave it.',
  ]);
  const edit = results.find((m) => m.name === 'replace_in_file')!;
  expect(textOf(edit)).toBe(
    'Replaced 1 occurrence in notes/todo.md.\ncontextChanged edit added: Edited in this conversation: notes/todo.md',
  );
  // The edit was undone: the copy is back to the seed; the seed itself was never touched.
  expect(readFileSync(path.join(root, 'notes', 'todo.md'), 'utf8')).toBe(seedTodo);
  expect(readFileSync(path.join(SEED_DIR, 'notes', 'todo.md'), 'utf8')).toBe(seedTodo);
  expect(agent.queryByTool('undo_last_edit')).toBeNull();
  expect(agent.session.loadedSkills).toEqual(['files', 'search', 'edit']);
});
