/**
 * `<SkillFolder>` through a real session: what the catalog, the context and the tools hold before
 * and after the model reads the skill, the meta the playground shows, and re-reading on change.
 */
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, Tool } from '@skilltree/core';
import { describe, expect, test } from 'vitest';
import { SkillFolder, type SkillFolderWarning } from '../src/index.js';
import { call, fixture, folderMeta, mount, tempDir } from './helpers.js';

const pdf = fixture('skills', 'pdf-forms');
const toolNames = (session: ReturnType<typeof mount>) => session.request().tools.map((t) => t.name);

describe('the catalog and the loaded skill', () => {
  test('name and description come from the frontmatter; the catalog lists the skill before it is read', () => {
    const session = mount(<SkillFolder path={pdf} />);
    const { system, context, tools } = session.request();
    expect(system).toContain(
      '- pdf-forms — Fill in PDF forms and check them. Use when the user mentions a PDF form, a W-9, or fields to fill.',
    );
    // Nothing of the folder reaches the model until the skill is read.
    expect(context).not.toContain('PDF forms');
    expect(tools.map((t) => t.name)).toEqual(['read_skill']);
  });

  test('once read, the SKILL.md body is the skill instructions, followed by the file list', async () => {
    const session = mount(<SkillFolder path={pdf} />);
    await session.readSkill('pdf-forms');
    const context = session.request().context;
    const body = readFileSync(path.join(pdf, 'SKILL.md'), 'utf8').split('---\n')[2].trim();
    expect(context).toContain(body);
    expect(context.indexOf(body)).toBeLessThan(context.indexOf('Files in the folder'));
    expect(context).toContain(
      [
        'This skill comes from the folder "pdf-forms". Paths in its instructions are relative to that folder; read its files with pdf-forms_read_file.',
        'Files in the folder (6):',
        'SKILL.md (443 B)',
        'assets/pixel.png (33 B)',
        'assets/template.txt (30 B)',
        'references/REFERENCE.md (99 B)',
        'references/forms/w9.md (93 B)',
        'scripts/fill.py (179 B)',
        'The scripts in scripts/ cannot be run here; read them with pdf-forms_read_file if their code helps.',
      ].join('\n'),
    );
    expect(toolNames(session)).toEqual(['read_skill', 'pdf-forms_read_file']);
  });

  test('the read tool leaves the request when newer reads unload the skill', async () => {
    const session = mount(
      <>
        <SkillFolder path={pdf} />
        <SkillFolder path={fixture('skills', 'code-review')} />
      </>,
      { maxLoadedSkills: 1 },
    );
    await session.readSkill('pdf-forms');
    await session.readSkill('code-review');
    expect(toolNames(session)).toEqual(['read_skill', 'code-review_read_file']);
    const result = await call(session, 'pdf-forms_read_file', { path: 'SKILL.md' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Unknown tool: pdf-forms_read_file \(skill "pdf-forms" is not loaded/);
  });

  test("a call of the folder's tools before the skill was ever read says to read the skill first", async () => {
    const session = mount(<SkillFolder path={pdf} scripts />);
    for (const tool of ['pdf-forms_read_file', 'pdf-forms_run_script']) {
      const result = await call(session, tool, {});
      expect(result.content).toMatch(
        new RegExp(`^Unknown tool: ${tool} \\(skill "pdf-forms" is not loaded; read it first with read_skill\\)`),
      );
    }
  });

  test('a frontmatter description over several lines is one catalog line', () => {
    const session = mount(<SkillFolder path={fixture('yaml', 'folded-description')} />);
    expect(session.request().system).toContain('- folded-description — Fold these lines into one.');
    const literal = mount(<SkillFolder path={fixture('yaml', 'literal-description')} />);
    expect(literal.request().system).toContain('- literal-description — First line. Second line.');
  });

  test('YAML edge cases that are valid give no warning', () => {
    for (const folder of ['quoted-colon', 'single-quoted', 'comments', 'dashes-in-body', 'empty-body', 'unicode']) {
      const session = mount(<SkillFolder path={fixture('yaml', folder)} strict />);
      expect(session.warnings).toEqual([]);
    }
    expect(mount(<SkillFolder path={fixture('yaml', 'single-quoted')} />).skills[0].description).toBe(
      "It's quoted: fine",
    );
    expect(mount(<SkillFolder path={fixture('yaml', 'comments')} />).skills[0]).toMatchObject({
      name: 'comments',
      description: 'Comments are not part of values.',
    });
  });

  test('a --- line in the body stays in the instructions; an empty body adds no instructions', async () => {
    const session = mount(
      <>
        <SkillFolder path={fixture('yaml', 'dashes-in-body')} />
        <SkillFolder path={fixture('yaml', 'empty-body')} />
      </>,
    );
    await session.readSkill('dashes-in-body');
    expect(session.request().context).toContain('Above\n\n---\n\nBelow the rule.');
    await session.readSkill('empty-body');
    const part = session.request().context.split('<skill name="empty-body" active="true">')[1];
    expect(part.trimStart().startsWith('This skill comes from the folder "empty-body"')).toBe(true);
  });

  test('name overrides the frontmatter name; children mount with the skill', async () => {
    const session = mount(
      <SkillFolder path={pdf} name="forms">
        <Tool name="submit_form" description="Submit" run={() => 'sent'} />
      </SkillFolder>,
    );
    expect(session.skills.map((s) => s.name)).toEqual(['forms']);
    expect(toolNames(session)).toEqual(['read_skill']);
    await session.readSkill('forms');
    expect(toolNames(session)).toEqual(['read_skill', 'forms_read_file', 'submit_form']);
  });

  test('path may be a file: URL or a path relative to the working directory', () => {
    expect(mount(<SkillFolder path={pathToFileURL(pdf)} />).skills[0].name).toBe('pdf-forms');
    expect(mount(<SkillFolder path={path.relative(process.cwd(), pdf)} />).skills[0].name).toBe('pdf-forms');
  });
});

describe('meta for the playground', () => {
  test('kind, path, frontmatter fields, files, warnings and tools, all JSON-safe', () => {
    const session = mount(<SkillFolder path={pdf} />);
    const meta = folderMeta(session, 'pdf-forms');
    expect(JSON.parse(JSON.stringify(meta))).toEqual(meta);
    expect(meta).toMatchObject({
      kind: 'agent-skill',
      path: pdf,
      skillFile: path.join(pdf, 'SKILL.md'),
      folderName: 'pdf-forms',
      license: 'Apache-2.0',
      compatibility: 'Needs python3 for scripts/fill.py',
      metadata: { author: 'skilltree-tests', version: '1.0' },
      allowedTools: ['Read', 'Bash(python3:*)'],
      filesComplete: true,
      warnings: [],
      strict: false,
      tools: { read: 'pdf-forms_read_file', run: null },
      scripts: null,
    });
    expect(meta.files.map((f) => f.path)).toEqual([
      'SKILL.md',
      'assets/pixel.png',
      'assets/template.txt',
      'references/REFERENCE.md',
      'references/forms/w9.md',
      'scripts/fill.py',
    ]);
    // The model never sees meta.
    expect(JSON.stringify(session.request())).not.toContain('skilltree-tests');
  });

  test('warnings are in meta and in session.warnings right after createSession, once each', () => {
    const folder = fixture('rules', 'unknown-keys');
    const seen: SkillFolderWarning[] = [];
    const session = mount(<SkillFolder path={folder} onWarning={(w) => seen.push(w)} />);
    const meta = folderMeta(session, 'unknown-keys');
    expect(meta.warnings).toHaveLength(3);
    expect(session.warnings.map((w) => w.message)).toEqual(meta.warnings);
    expect(session.warnings.every((w) => w.source === 'agent-skills:unknown-keys')).toBe(true);
    expect(seen.map((w) => w.message)).toEqual(meta.warnings);
    expect(seen[0]).toMatchObject({ source: 'agent-skills:unknown-keys', folder });
  });
});

describe('reading the folder', () => {
  test('a changed SKILL.md is read again on the next render (cache by modification time)', async () => {
    const dir = path.join(tempDir(pdf), 'pdf-forms');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: pdf-forms\ndescription: First.\n---\nOne.\n');
    const session = mount(<SkillFolder path={dir} />);
    expect(session.skills[0].description).toBe('First.');
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: pdf-forms\ndescription: Second.\n---\nTwo.\n');
    const later = new Date(Date.now() + 5000);
    utimesSync(path.join(dir, 'SKILL.md'), later, later);
    await session.rerender(
      <Agent>
        <SkillFolder path={dir} />
      </Agent>,
    );
    expect(session.skills[0].description).toBe('Second.');
  });

  test('a long file list is capped, saying how many were left out', async () => {
    const dir = path.join(tempDir(), 'many');
    mkdirSync(path.join(dir, 'references'), { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: many\ndescription: Many files.\n---\nBody.\n');
    for (let i = 0; i < 149; i++) writeFileSync(path.join(dir, 'references', `r${String(i).padStart(3, '0')}.md`), 'x');
    const session = mount(<SkillFolder path={dir} maxListedFiles={20} />);
    await session.readSkill('many');
    const context = session.request().context;
    expect(context).toContain('Files in the folder (150):');
    expect(context).toContain('references/r018.md (1 B)');
    expect(context).not.toContain('references/r019.md');
    expect(context).toContain(
      '… and 130 more files not listed; many_read_file with a folder path (e.g. "references") lists a folder.',
    );
    const listed = await call(session, 'many_read_file', { path: 'references' });
    expect(listed.content).toContain('references/r148.md (1 B)');
  });

  test('.git and node_modules are not listed', async () => {
    const dir = path.join(tempDir(), 'tidy');
    for (const sub of ['.git', 'node_modules/x', 'src']) mkdirSync(path.join(dir, sub), { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: tidy\ndescription: Tidy.\n---\n');
    writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref');
    writeFileSync(path.join(dir, 'node_modules', 'x', 'index.js'), '');
    writeFileSync(path.join(dir, 'src', 'a.txt'), 'a');
    const session = mount(<SkillFolder path={dir} />);
    const meta = folderMeta(session, 'tidy');
    expect(meta.files.map((f) => f.path)).toEqual(['SKILL.md', 'src/a.txt']);
  });

  test('a missing folder, or one without SKILL.md, fails with a clear error in either mode', () => {
    expect(() => mount(<SkillFolder path={fixture('nope')} />)).toThrow(/Agent Skills folder not found: .*nope/);
    expect(() => mount(<SkillFolder path={fixture('skills', 'notes')} />)).toThrow(
      /No SKILL\.md in .*notes: an Agent Skills folder holds a SKILL\.md file\./,
    );
  });
});
