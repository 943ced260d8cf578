import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

export const SECRET = 'TOP-SECRET-9f2c';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A temp folder holding `sandbox/` (the agent's root) and, beside it, `outside/secret.txt`.
 * The sandbox has a few files and symlinks: one inside, and several that point outside.
 */
export function makeSandbox() {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'skilltree-fs-test-')));
  made.push(base);
  const root = path.join(base, 'sandbox');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'notes', 'meetings'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  writeFileSync(path.join(root, 'notes', 'todo.md'), '# To do\n\n- [ ] Call the dentist\n- [ ] Renew passport\n');
  writeFileSync(path.join(root, 'notes', 'meetings', 'monday.md'), 'Dentist on Friday.\nRetro moves.\n');
  writeFileSync(path.join(root, 'a.txt'), Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
  writeFileSync(path.join(root, 'blob.bin'), Buffer.from([0, 1, 2, 3]));
  // Symlinks: to a file outside, to a folder outside, to nowhere outside, and one that stays inside.
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret-link.txt'));
  symlinkSync(outside, path.join(root, 'outside-dir'));
  symlinkSync(path.join(outside, 'created-by-link.txt'), path.join(root, 'dangling.txt'));
  symlinkSync(path.join(root, 'notes', 'todo.md'), path.join(root, 'todo-link.md'));
  return { base, root, outside };
}
