import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { OutsideSandboxError, Sandbox } from '../src/sandbox.js';
import { makeSandbox } from './fixtures.js';

describe('Sandbox.resolve', () => {
  test('resolves paths relative to the root', async () => {
    const { root } = makeSandbox();
    const sandbox = new Sandbox(root);
    expect(await sandbox.resolve('notes/todo.md')).toBe(path.join(root, 'notes', 'todo.md'));
    expect(await sandbox.resolve('.')).toBe(root);
    expect(await sandbox.resolve('notes/../a.txt')).toBe(path.join(root, 'a.txt'));
    expect(await sandbox.resolve(path.join(root, 'a.txt'))).toBe(path.join(root, 'a.txt'));
  });

  test.each([
    '..',
    '../outside/secret.txt',
    'notes/../../outside/secret.txt',
    '../../../../../../etc/passwd',
    '/etc/passwd',
  ])('refuses %s: it is outside', async (input) => {
    const sandbox = new Sandbox(makeSandbox().root);
    await expect(sandbox.resolve(input)).rejects.toThrow(OutsideSandboxError);
    await expect(sandbox.resolve(input, { mustExist: false })).rejects.toThrow(/is outside the sandbox/);
  });

  test('refuses a sibling folder whose name starts with the root name', async () => {
    const { base, root } = makeSandbox();
    mkdirSync(path.join(base, 'sandbox-evil'));
    await expect(new Sandbox(root).resolve('../sandbox-evil/x', { mustExist: false })).rejects.toThrow(
      /outside the sandbox/,
    );
  });

  test('refuses symlinks that point outside, to files and folders alike', async () => {
    const sandbox = new Sandbox(makeSandbox().root);
    await expect(sandbox.resolve('secret-link.txt')).rejects.toThrow(/symlink that points outside the sandbox/);
    await expect(sandbox.resolve('outside-dir')).rejects.toThrow(/symlink that points outside/);
    await expect(sandbox.resolve('outside-dir/secret.txt')).rejects.toThrow(/symlink that points outside/);
    // Writing a new file through a linked folder is refused too.
    await expect(sandbox.resolve('outside-dir/new.txt', { mustExist: false })).rejects.toThrow(
      /symlink that points outside/,
    );
    await expect(sandbox.resolve('outside-dir/deeper/new.txt', { mustExist: false })).rejects.toThrow(
      /symlink that points outside/,
    );
  });

  test('refuses a dangling symlink: writing through it would create its target', async () => {
    const sandbox = new Sandbox(makeSandbox().root);
    await expect(sandbox.resolve('dangling.txt', { mustExist: false })).rejects.toThrow(
      /symlink whose target does not exist/,
    );
  });

  test('follows symlinks that stay inside', async () => {
    const { root } = makeSandbox();
    expect(await new Sandbox(root).resolve('todo-link.md')).toBe(path.join(root, 'notes', 'todo.md'));
  });

  test('a root given through a symlink works, and absolute paths through it too', async () => {
    const { base, root } = makeSandbox();
    const alias = path.join(base, 'alias');
    symlinkSync(root, alias);
    const sandbox = new Sandbox(alias);
    expect(sandbox.root).toBe(root);
    expect(await sandbox.resolve('a.txt')).toBe(path.join(root, 'a.txt'));
    expect(await sandbox.resolve(path.join(alias, 'a.txt'))).toBe(path.join(root, 'a.txt'));
    await expect(sandbox.resolve(path.join(alias, '..', 'outside', 'secret.txt'))).rejects.toThrow(/outside/);
  });

  test('a missing path: an error when it must exist, its future real path otherwise', async () => {
    const { root } = makeSandbox();
    const sandbox = new Sandbox(root);
    await expect(sandbox.resolve('nope.md')).rejects.toThrow('No such file or directory: "nope.md".');
    expect(await sandbox.resolve('new/dir/file.md', { mustExist: false })).toBe(
      path.join(root, 'new', 'dir', 'file.md'),
    );
  });

  test('a missing root is a clear error', () => {
    expect(() => new Sandbox('/definitely/not/here')).toThrow(/sandbox root \/definitely\/not\/here does not exist/);
  });
});
