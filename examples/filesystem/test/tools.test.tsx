import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { edits } from '../src/store.js';
import { makeSandbox, SECRET } from './fixtures.js';
import { allText, failed, ok, renderFs, text } from './helpers.js';

/** A fresh sandbox, and the agent on it with `skills` read. */
async function inSandbox(...skills: string[]) {
  const sandbox = makeSandbox();
  const agent = renderFs(sandbox.root);
  for (const name of skills) await agent.callTool('read_skill', { name });
  return { ...sandbox, agent };
}

describe('files skill', () => {
  test('list_dir lists folders, files and where symlinks go', async () => {
    const { agent } = await inSandbox('files');
    expect(ok(await agent.callTool('list_dir', {}))).toBe(
      [
        '.:',
        'a.txt (70 bytes)',
        'blob.bin (4 bytes)',
        'dangling.txt (symlink to outside the sandbox; cannot be used)',
        'notes/',
        'outside-dir (symlink to outside the sandbox; cannot be used)',
        'secret-link.txt (symlink to outside the sandbox; cannot be used)',
        'todo-link.md -> notes/todo.md',
      ].join('\n'),
    );
    expect(ok(await agent.callTool('list_dir', { path: 'notes' }))).toBe('notes:\nmeetings/\ntodo.md (53 bytes)');
  });

  test('read_file numbers lines and reads ranges', async () => {
    const { agent } = await inSandbox('files');
    expect(ok(await agent.callTool('read_file', { path: 'notes/todo.md' }))).toBe(
      'notes/todo.md, lines 1-4 of 4:\n1\t# To do\n2\t\n3\t- [ ] Call the dentist\n4\t- [ ] Renew passport',
    );
    expect(ok(await agent.callTool('read_file', { path: 'a.txt', fromLine: 3, toLine: 4 }))).toBe(
      'a.txt, lines 3-4 of 10:\n3\tline 3\n4\tline 4\n(6 more lines: read from line 5.)',
    );
    expect(ok(await agent.callTool('read_file', { path: 'todo-link.md', toLine: 1 }))).toMatch(
      /^notes\/todo\.md, lines 1-1 of 4:/,
    );
  });

  test('read_file errors are clear', async () => {
    const { agent } = await inSandbox('files');
    expect(failed(await agent.callTool('read_file', { path: 'nope.md' }))).toBe(
      'Tool "read_file" failed: No such file or directory: "nope.md".',
    );
    expect(failed(await agent.callTool('read_file', { path: 'notes' }))).toMatch(
      /"notes" is a directory: use list_dir/,
    );
    expect(failed(await agent.callTool('read_file', { path: 'blob.bin' }))).toMatch(/"blob\.bin" is a binary file/);
    expect(failed(await agent.callTool('read_file', { path: 'a.txt', fromLine: 0 }))).toMatch(
      /^Invalid input for tool "read_file": fromLine:/,
    );
  });
});

describe('nothing outside the sandbox is reachable', () => {
  const attempts: [string, Record<string, unknown>][] = [
    ['read_file', { path: '../outside/secret.txt' }],
    ['read_file', { path: 'notes/../../outside/secret.txt' }],
    ['read_file', { path: '/etc/passwd' }],
    ['read_file', { path: 'secret-link.txt' }],
    ['read_file', { path: 'outside-dir/secret.txt' }],
    ['list_dir', { path: '..' }],
    ['list_dir', { path: 'outside-dir' }],
    ['grep', { pattern: 'SECRET', path: '..' }],
    ['grep', { pattern: 'SECRET', path: 'outside-dir' }],
    ['grep', { pattern: 'SECRET', path: 'secret-link.txt' }],
    ['write_file', { path: '../outside/new.txt', content: 'x' }],
    ['write_file', { path: 'outside-dir/new.txt', content: 'x' }],
    ['write_file', { path: 'secret-link.txt', content: 'overwritten' }],
    ['write_file', { path: 'dangling.txt', content: 'x' }],
    ['replace_in_file', { path: 'secret-link.txt', old: SECRET, new: 'gone' }],
    ['replace_in_file', { path: '../outside/secret.txt', old: SECRET, new: 'gone' }],
  ];

  test.each(attempts)('%s %j is refused', async (tool, input) => {
    const { agent, outside } = await inSandbox('files', 'search', 'edit');
    const content = failed(await agent.callTool(tool, input));
    expect(content).toMatch(/^Tool "\w+" failed: Refused: ".*" (is outside the sandbox|goes through a symlink)/);
    expect(content).not.toContain(SECRET);
    // Nothing outside changed.
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'created-by-link.txt'))).toBe(false);
  });

  test('searching the whole sandbox never follows a link outside', async () => {
    const { agent } = await inSandbox('search');
    expect(ok(await agent.callTool('grep', { pattern: 'SECRET', ignoreCase: true }))).toBe(
      'No matches for /SECRET/i in the sandbox.',
    );
    expect(ok(await agent.callTool('find_files', { pattern: 'secret*' }))).toBe('No files match secret*.');
    expect(allText(agent.transcript)).not.toContain(SECRET);
  });
});

describe('search skill', () => {
  test('find_files matches names anywhere, or whole paths with /', async () => {
    const { agent } = await inSandbox('search');
    expect(ok(await agent.callTool('find_files', { pattern: '*.md' }))).toBe(
      '3 files match *.md:\ntodo-link.md\nnotes/todo.md\nnotes/meetings/monday.md',
    );
    expect(ok(await agent.callTool('find_files', { pattern: 'notes/**/*.md' }))).toBe(
      '2 files match notes/**/*.md:\nnotes/todo.md\nnotes/meetings/monday.md',
    );
    expect(ok(await agent.callTool('find_files', { pattern: 'notes/*.md' }))).toBe(
      '1 file match notes/*.md:\nnotes/todo.md',
    );
  });

  test('grep returns path:line: text, skips binaries, and explains a bad pattern', async () => {
    const { agent } = await inSandbox('search');
    expect(ok(await agent.callTool('grep', { pattern: 'dentist', ignoreCase: true }))).toBe(
      '3 matches:\ntodo-link.md:3: - [ ] Call the dentist\nnotes/todo.md:3: - [ ] Call the dentist\nnotes/meetings/monday.md:1: Dentist on Friday.',
    );
    expect(ok(await agent.callTool('grep', { pattern: '^line 1\\d$', path: 'a.txt' }))).toBe(
      '1 match:\na.txt:10: line 10',
    );
    expect(failed(await agent.callTool('grep', { pattern: '([' }))).toMatch(/Invalid regular expression \(\[/);
  });
});

describe('edit skill', () => {
  test('replace_in_file changes exactly one occurrence', async () => {
    const { agent, root } = await inSandbox('edit');
    const file = path.join(root, 'notes', 'todo.md');
    expect(
      ok(await agent.callTool('replace_in_file', { path: 'notes/todo.md', old: '[ ] Call', new: '[x] Call' })),
    ).toBe('Replaced 1 occurrence in notes/todo.md.');
    expect(readFileSync(file, 'utf8')).toContain('- [x] Call the dentist\n- [ ] Renew passport');
    expect(failed(await agent.callTool('replace_in_file', { path: 'notes/todo.md', old: '- [', new: '* [' }))).toMatch(
      /occurs 2 times in notes\/todo\.md; quote more of it/,
    );
    expect(
      failed(await agent.callTool('replace_in_file', { path: 'notes/todo.md', old: 'walk the dog', new: '' })),
    ).toMatch(/not in notes\/todo\.md\. Read the file and quote it exactly/);
  });

  test('write_file creates folders inside the sandbox', async () => {
    const { agent, root } = await inSandbox('edit');
    expect(ok(await agent.callTool('write_file', { path: 'recipes/soup.md', content: '# Soup\n' }))).toBe(
      'Created recipes/soup.md (7 characters).',
    );
    expect(readFileSync(path.join(root, 'recipes', 'soup.md'), 'utf8')).toBe('# Soup\n');
    expect(ok(await agent.callTool('write_file', { path: 'recipes/soup.md', content: '# Lentil soup\n' }))).toBe(
      'Rewrote recipes/soup.md (14 characters).',
    );
  });

  test('undo_last_edit is offered only while there is an edit to undo', async () => {
    const { agent, root } = await inSandbox('edit');
    expect(agent).not.toHaveTool('undo_last_edit');
    const todo = path.join(root, 'notes', 'todo.md');
    const before = readFileSync(todo, 'utf8');

    const edit = await agent.callTool('replace_in_file', { path: 'notes/todo.md', old: 'Renew', new: 'Renewed' });
    expect(text(edit)).toContain('contextChanged edit added: Edited in this conversation: notes/todo.md');
    await agent.callTool('write_file', { path: 'new.md', content: 'hello' });
    expect(agent.getSkill('edit')).toHaveContext('Edited in this conversation: notes/todo.md, new.md');
    expect(agent.getByTool('undo_last_edit').description).toBe('Undo the last edit (new.md).');

    expect(ok(await agent.callTool('undo_last_edit', {}))).toBe('Deleted new.md, which the edit had created.');
    expect(existsSync(path.join(root, 'new.md'))).toBe(false);
    expect(ok(await agent.callTool('undo_last_edit', {}))).toBe('Restored notes/todo.md.');
    expect(readFileSync(todo, 'utf8')).toBe(before);
    expect(agent).not.toHaveTool('undo_last_edit');
    expect(agent.session.store(edits).getState().log).toEqual([]);
  });

  test("the previous contents an edit keeps for undo stay out of the model's view", async () => {
    const { agent } = await inSandbox('edit');
    await agent.callTool('write_file', { path: 'notes/todo.md', content: 'all done' });
    expect(agent.session.store(edits).getState().log[0].before).toContain('Renew passport');
    const request = agent.request();
    expect(JSON.stringify(request)).not.toContain('Renew passport');
  });
});
