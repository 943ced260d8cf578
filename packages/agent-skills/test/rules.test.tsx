/**
 * Each rule of the Agent Skills specification, broken by one fixture folder under
 * test/fixtures/rules: strict mode refuses it with an error naming the file, the field and the
 * rule; lenient mode (the default) renders it, and reports the same rule as a warning event and in
 * the skill's meta for the playground.
 */
import path from 'node:path';
import type { SessionEvent } from '@skilltree/core';
import { describe, expect, test } from 'vitest';
import { folderToolName, loadSkillFolders, readSkillFolder, SkillFolder, SkillFolderError } from '../src/index.js';
import { fixture, folderMeta, mount } from './helpers.js';

interface Case {
  folder: string;
  field: string;
  rule: RegExp;
  /** What lenient mode lists in the catalog. */
  name?: string | RegExp;
  description?: string | RegExp;
  file?: string;
}

const LONG_NAME = 'a'.repeat(65);

const cases: Case[] = [
  { folder: 'name-missing', field: 'name', rule: /is required/, name: 'name-missing' },
  {
    folder: 'Name-Upper',
    field: 'name',
    rule: /may contain only lowercase letters, digits and hyphens \(got "Name-Upper", with "N" "U"\)/,
    name: 'Name-Upper',
  },
  { folder: 'name_underscore', field: 'name', rule: /may contain only lowercase letters, digits and hyphens/ },
  // Neither the name nor the folder name is one skilltree accepts: a cleaned, fingerprinted name.
  { folder: LONG_NAME, field: 'name', rule: /must be at most 64 characters \(got 65\)/, name: /^a{55}-[0-9a-f]{8}$/ },
  { folder: '-leading-hyphen', field: 'name', rule: /must not start or end with a hyphen/ },
  { folder: 'trailing-hyphen-', field: 'name', rule: /must not start or end with a hyphen/ },
  { folder: 'double--hyphen', field: 'name', rule: /must not contain two hyphens in a row/ },
  {
    folder: 'name-mismatch',
    field: 'name',
    rule: /must equal the folder name "name-mismatch" \(got "another-name"\)/,
    name: 'another-name',
  },
  { folder: 'description-missing', field: 'description', rule: /is required/, description: 'Checks invoices' },
  { folder: 'description-empty', field: 'description', rule: /must not be empty/, description: 'Instructions.' },
  {
    folder: 'description-too-long',
    field: 'description',
    rule: /must be at most 1,024 characters \(got 1,025\)/,
    description: /^x{1023}…$/,
  },
  { folder: 'compatibility-too-long', field: 'compatibility', rule: /must be at most 500 characters \(got 501\)/ },
  { folder: 'license-not-string', field: 'license', rule: /must be a string \(got a list\)/ },
  { folder: 'metadata-not-map', field: 'metadata', rule: /must be a map of string keys to string values/ },
  { folder: 'metadata-not-string', field: 'metadata.version', rule: /must be a string \(got number 1; quote it\)/ },
  { folder: 'allowed-tools-list', field: 'allowed-tools', rule: /must be a space-separated string \(got a list\)/ },
  { folder: 'unknown-keys', field: 'argument-hint', rule: /is not a field of the Agent Skills specification/ },
  {
    folder: 'no-frontmatter',
    field: 'frontmatter',
    rule: /is missing: SKILL.md must start with a "---" line/,
    name: 'no-frontmatter',
    description: 'Sorting',
  },
  { folder: 'unclosed-frontmatter', field: 'frontmatter', rule: /is not closed/ },
  {
    folder: 'unquoted-colon',
    field: 'description',
    rule: /is not valid YAML \(SKILL.md line 3, column \d+: .*quote a value that holds ": "\)/,
    description: 'Use when: the user asks for a summary',
  },
  {
    folder: 'lowercase-file',
    field: 'SKILL.md',
    rule: /must be named exactly "SKILL.md" \(found "skill.md"\)/,
    file: 'skill.md',
  },
];

/** A rule's regex as words, for test names. */
const says = (rule: RegExp) => rule.source.replaceAll('\\d+', 'N').replaceAll('.*', '…').replaceAll('\\', '');
const label = (field: string) => (field === 'frontmatter' || field === 'SKILL.md' ? `the ${field}` : `"${field}"`);
const rules = fixture('rules');
const displayFile = (c: Case) => path.relative(process.cwd(), path.join(rules, c.folder, c.file ?? 'SKILL.md'));

describe('strict mode refuses a folder that breaks a rule, naming the file, the field and the rule', () => {
  for (const c of cases) {
    test(`${c.folder}: ${label(c.field)} ${says(c.rule)}`, () => {
      let error: unknown;
      try {
        mount(<SkillFolder path={path.join(rules, c.folder)} strict />);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SkillFolderError);
      const refused = error as SkillFolderError;
      expect(refused.message).toContain(`refused (strict mode): ${displayFile(c)} breaks the specification`);
      const line = refused.message.split('\n').find((l) => l.startsWith(`- ${label(c.field)} `));
      expect(line, refused.message).toMatch(c.rule);
      expect(refused.file).toBe(path.join(rules, c.folder, c.file ?? 'SKILL.md'));
      expect(refused.issues.some((i) => i.field === c.field && c.rule.test(i.rule))).toBe(true);
    });
  }
});

describe('lenient mode renders the folder and reports the rule as a warning event and in meta', () => {
  for (const c of cases) {
    test(`${c.folder}: ${label(c.field)} ${says(c.rule)}`, async () => {
      const info = readSkillFolder(path.join(rules, c.folder));
      const events: SessionEvent[] = [];
      const session = mount(<SkillFolder path={path.join(rules, c.folder)} />);
      session.on('warning', (e) => events.push(e));
      await session.readSkill(info.name);

      const warning = session.warnings.find((w) => w.message.startsWith(`${displayFile(c)}: ${label(c.field)} `));
      expect(warning, JSON.stringify(session.warnings, null, 2)).toBeDefined();
      expect(warning!.message).toMatch(c.rule);
      expect(warning!.source).toBe(`agent-skills:${c.folder}`);
      expect(folderMeta(session, info.name).warnings).toContain(warning!.message);

      const skill = session.skills.find((s) => s.name === info.name)!;
      expect(skill.state).toBe('active');
      if (typeof c.name === 'string') expect(skill.name).toBe(c.name);
      else if (c.name) expect(skill.name).toMatch(c.name);
      if (typeof c.description === 'string') expect(skill.description).toBe(c.description);
      else if (c.description) expect(skill.description).toMatch(c.description);
      expect(session.request().tools.map((t) => t.name)).toContain(folderToolName(info.name, 'read_file'));
    });
  }

  test('the warning says what lenient mode did instead of refusing', () => {
    const messages = (folder: string) => readSkillFolder(path.join(rules, folder)).warnings;
    expect(messages('name-missing')[0]).toMatch(/"name" is required; the skill is listed as "name-missing"\.$/);
    expect(messages('name_underscore')[0]).toMatch(/; used as written\.$/);
    expect(messages('-leading-hyphen')[0]).toMatch(/; used as written\.$/);
    expect(messages('description-too-long')[0]).toMatch(/; cut to 1,024 characters, the last one "…"\.$/);
    expect(messages('description-missing')[0]).toMatch(/; the body's first line is used: "Checks invoices"\.$/);
    expect(messages('unknown-keys')).toHaveLength(3);
    expect(messages('unknown-keys').every((m) => m.endsWith('; ignored.'))).toBe(true);
    expect(messages('metadata-not-string')[0]).toMatch(/; read as text\.$/);
  });

  test('lenient values: metadata turned into strings, allowed-tools from a list, the body as written', () => {
    expect(readSkillFolder(path.join(rules, 'metadata-not-string')).metadata).toEqual({ author: 'me', version: '1' });
    expect(readSkillFolder(path.join(rules, 'allowed-tools-list')).allowedTools).toEqual(['Read', 'Grep']);
    expect(readSkillFolder(path.join(rules, 'no-frontmatter')).body).toBe(
      '# Sorting\n\nSort the list before you print it.',
    );
    expect(readSkillFolder(path.join(rules, 'unclosed-frontmatter'))).toMatchObject({
      name: 'unclosed-frontmatter',
      description: 'The closing line is missing.',
      body: '# Body\nThe body starts here.',
    });
  });

  test('every rule broken at once: loadSkillFolders renders all of them, and every one loads', async () => {
    const warnings: string[] = [];
    const session = mount(loadSkillFolders(rules, { onWarning: (w) => warnings.push(w.message) }), {
      maxLoadedSkills: 2,
    });
    const names = session.skills.map((s) => s.name);
    expect(names).toHaveLength(cases.length);
    for (const name of names) {
      await session.readSkill(name);
      expect(session.request().context).toContain(`<skill name="${name}" active="true">`);
    }
    // Every rule of every case was reported, once, to both the callback and the session.
    for (const c of cases)
      expect(warnings.some((m) => m.startsWith(`${displayFile(c)}: ${label(c.field)}`))).toBe(true);
    expect(new Set(session.warnings.map((w) => w.message))).toEqual(new Set(warnings));
  });
});

test('a folder that follows the specification has no warnings in either mode', () => {
  for (const folder of ['pdf-forms', 'code-review']) {
    expect(readSkillFolder(fixture('skills', folder), { strict: true }).warnings).toEqual([]);
  }
  const session = mount(loadSkillFolders(fixture('skills'), { strict: true }));
  expect(session.warnings).toEqual([]);
});

test('a name the specification allows but skilltree does not (lowercase letters of any script) loads in strict mode, renamed with a warning', async () => {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { tempDir } = await import('./helpers.js');
  const dir = path.join(tempDir(), 'données');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: données\ndescription: Spec-valid, not ASCII.\n---\nBody.\n');
  const session = mount(<SkillFolder path={dir} strict />);
  const [skill] = session.skills;
  expect(skill.name).toMatch(/^donnees-[0-9a-f]{8}$/);
  expect(session.warnings.map((w) => w.message)).toEqual([
    expect.stringMatching(
      /"name" "données" is not a skill name skilltree accepts .*; the skill is listed as "donnees-[0-9a-f]{8}"\.$/,
    ),
  ]);
  await session.readSkill(skill.name);
  expect(session.request().tools.map((t) => t.name)).toContain(`${skill.name}_read_file`);
});
