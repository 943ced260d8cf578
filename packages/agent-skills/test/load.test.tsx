/**
 * `loadSkillFolders(dir)`: one element per sub-folder holding a SKILL.md, sorted and stable;
 * strict mode refuses, lenient mode reports; names that clash are told apart.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isValidElement } from 'react';
import { describe, expect, test } from 'vitest';
import { loadSkillFolders, SkillFolder, SkillFolderError, type SkillFolderWarning } from '../src/index.js';
import { fixture, mount, tempDir } from './helpers.js';

function folders(root: string, skills: Record<string, string | null>) {
  for (const [folder, front] of Object.entries(skills)) {
    mkdirSync(path.join(root, folder), { recursive: true });
    if (front !== null) writeFileSync(path.join(root, folder, 'SKILL.md'), `---\n${front}\n---\nBody of ${folder}.\n`);
  }
}

describe('which folders, in which order', () => {
  test('one SkillFolder element per sub-folder that holds a SKILL.md, keyed by folder name', () => {
    const elements = loadSkillFolders(fixture('skills'));
    expect(elements.every((e) => isValidElement(e) && e.type === SkillFolder)).toBe(true);
    expect(elements.map((e) => e.key)).toEqual(['code-review', 'pdf-forms']);
    // Hidden folders (.drafts), folders without SKILL.md (notes) and files (README.md) are not skills.
    expect(mount(elements).skills.map((s) => s.name)).toEqual(['code-review', 'pdf-forms']);
  });

  test('sorted by folder name in code-unit order, the same on every machine, and the same on every call', () => {
    const root = tempDir();
    const names = ['b-skill', 'a-skill', '10-skill', '9-skill', 'z', 'A-upper'];
    folders(root, Object.fromEntries(names.map((n) => [n, `name: ${n}\ndescription: ${n}.`])));
    const order = loadSkillFolders(root).map((e) => e.key);
    expect(order).toEqual(['10-skill', '9-skill', 'A-upper', 'a-skill', 'b-skill', 'z']);
    expect(loadSkillFolders(root).map((e) => e.key)).toEqual(order);
    expect(mount(loadSkillFolders(root)).skills.map((s) => s.name)).toEqual(order);
  });

  test('a symlinked skill folder counts; an empty dir gives no elements', () => {
    const root = tempDir();
    folders(root, { real: 'name: real\ndescription: Real.' });
    mkdirSync(path.join(root, 'skills'));
    symlinkSync(path.join(root, 'real'), path.join(root, 'skills', 'real'));
    expect(loadSkillFolders(path.join(root, 'skills')).map((e) => e.key)).toEqual(['real']);
    mkdirSync(path.join(root, 'empty'));
    expect(loadSkillFolders(path.join(root, 'empty'))).toEqual([]);
  });

  test('a missing folder is a clear error', () => {
    expect(() => loadSkillFolders(fixture('no-such-folder'))).toThrow(
      /^loadSkillFolders: no folder at .*no-such-folder \(working directory: /,
    );
    expect(() => loadSkillFolders(fixture('skills', 'README.md'))).toThrow(/is a file; pass the folder/);
  });

  test('options reach every folder (scripts, caps)', async () => {
    const session = mount(loadSkillFolders(fixture('skills'), { scripts: true, maxListedFiles: 2 }));
    await session.readSkill('pdf-forms');
    expect(session.request().tools.map((t) => t.name)).toContain('pdf-forms_run_script');
    expect(session.request().context).toContain('… and 4 more files not listed');
  });
});

describe('strict and lenient', () => {
  test('strict: one error lists every refused folder with its file, fields and rules', () => {
    let error: unknown;
    try {
      loadSkillFolders(fixture('rules'), { strict: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SkillFolderError);
    const message = (error as Error).message;
    expect(message).toMatch(/^loadSkillFolders refused 21 folders \(strict mode\):/);
    expect(message).toMatch(
      /rules\/double--hyphen\/SKILL\.md breaks the specification:\n- "name" must not contain two hyphens/,
    );
    expect(message).toMatch(
      /rules\/unknown-keys\/SKILL\.md breaks the specification:\n- "argument-hint" is not a field/,
    );
    expect((error as SkillFolderError).issues.length).toBeGreaterThanOrEqual(21);
  });

  test('strict: a single refused folder throws its own error', () => {
    const root = tempDir();
    folders(root, { good: 'name: good\ndescription: Good.', bad: 'name: Bad\ndescription: Bad.' });
    expect(() => loadSkillFolders(root, { strict: true })).toThrow(
      /^Agent Skills folder refused \(strict mode\): .*bad\/SKILL\.md breaks the specification:\n- "name" may contain only lowercase/,
    );
  });

  test('lenient: onWarning hears each warning while loading, before any session exists', () => {
    const seen: SkillFolderWarning[] = [];
    loadSkillFolders(fixture('rules'), { onWarning: (w) => seen.push(w) });
    const mismatch = seen.find((w) => w.source === 'agent-skills:name-mismatch');
    expect(mismatch).toMatchObject({
      folder: fixture('rules', 'name-mismatch'),
      message: expect.stringMatching(/"name" must equal the folder name "name-mismatch" \(got "another-name"\)/),
    });
  });

  test('lenient: two folders that declare one name both load; the second keeps its folder name, with a warning', async () => {
    const root = tempDir();
    folders(root, {
      alpha: 'name: alpha\ndescription: The first alpha.',
      beta: 'name: alpha\ndescription: Beta says it is alpha.',
      gamma: 'name: alpha\ndescription: Gamma says so too.',
    });
    const seen: string[] = [];
    const session = mount(loadSkillFolders(root, { onWarning: (w) => seen.push(w.message) }));
    expect(session.skills.map((s) => [s.name, s.description])).toEqual([
      ['alpha', 'The first alpha.'],
      ['beta', 'Beta says it is alpha.'],
      ['gamma', 'Gamma says so too.'],
    ]);
    expect(
      seen.some((m) =>
        /beta\/SKILL\.md: "name" "alpha" is already used by another folder in .*; this skill is listed as "beta"\./.test(
          m,
        ),
      ),
    ).toBe(true);
    expect(session.warnings.map((w) => w.message)).toEqual(expect.arrayContaining(seen));
    await session.readSkill('beta');
    expect(session.request().tools.map((t) => t.name)).toEqual(['read_skill', 'beta_read_file']);
  });
});
