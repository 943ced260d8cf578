import { describe, expect, test } from 'vitest';
import { parseSkillFile, readLines } from '../src/frontmatter.js';
import { tempDir } from './helpers.js';

const file = (front: string, body = 'Body.\n') => `---\n${front}---\n${body}`;

describe('parseSkillFile: valid YAML', () => {
  test('reads the fields and the body after the closing line', () => {
    const parsed = parseSkillFile(file('name: pdf\ndescription: Work with PDFs.\n', '\n\n# PDF\n\nStep 1.\n\n'));
    expect(parsed.data).toEqual({ name: 'pdf', description: 'Work with PDFs.' });
    expect(parsed.body).toBe('# PDF\n\nStep 1.');
    expect(parsed.issues).toEqual([]);
  });

  test('a quoted value may hold ": "', () => {
    const parsed = parseSkillFile(file('name: q\ndescription: "Use when: the user asks"\n'));
    expect(parsed.data.description).toBe('Use when: the user asks');
    expect(parsed.issues).toEqual([]);
  });

  test('folded and literal block scalars', () => {
    expect(parseSkillFile(file('description: >\n  one\n  two\n')).data.description).toBe('one two\n');
    expect(parseSkillFile(file('description: |\n  one\n  two\n')).data.description).toBe('one\ntwo\n');
  });

  test('nested metadata map and comments', () => {
    const parsed = parseSkillFile(file('# note\nname: m # trailing\nmetadata:\n  author: me\n  version: "1.0"\n'));
    expect(parsed.data).toEqual({ name: 'm', metadata: { author: 'me', version: '1.0' } });
  });

  test('CRLF line endings and a byte-order mark', () => {
    const parsed = parseSkillFile(
      '\uFEFF---\r\nname: crlf\r\ndescription: Windows file.\r\n---\r\nLine 1\r\nLine 2\r\n',
    );
    expect(parsed.data).toEqual({ name: 'crlf', description: 'Windows file.' });
    expect(parsed.body).toBe('Line 1\nLine 2');
    expect(parsed.issues).toEqual([]);
  });

  test('only the first closing line ends the frontmatter; later --- lines belong to the body', () => {
    const parsed = parseSkillFile(file('name: d\n', 'Above\n---\nBelow\n'));
    expect(parsed.body).toBe('Above\n---\nBelow');
  });

  test('"..." also closes the frontmatter (YAML document end)', () => {
    expect(parseSkillFile('---\nname: dots\n...\nBody\n').body).toBe('Body');
  });

  test('an empty frontmatter is an empty mapping', () => {
    expect(parseSkillFile('---\n---\nBody\n')).toEqual({ data: {}, body: 'Body', issues: [] });
  });

  test('YAML 1.2: yes/no/on/off stay strings, numbers stay numbers', () => {
    const parsed = parseSkillFile(file('a: yes\nb: off\nc: 1.0\n'));
    expect(parsed.data).toEqual({ a: 'yes', b: 'off', c: 1 });
  });
});

describe('parseSkillFile: departures are issues, never exceptions', () => {
  test('an unquoted ": " in a value is read line by line, with the YAML error as the issue', () => {
    const parsed = parseSkillFile(file('name: c\ndescription: Use when: the user asks for a summary\nlicense: MIT\n'));
    expect(parsed.data).toEqual({ name: 'c', description: 'Use when: the user asks for a summary', license: 'MIT' });
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.issues[0].field).toBe('description');
    expect(parsed.issues[0].rule).toMatch(
      /^is not valid YAML \(SKILL\.md line 3, column \d+: .*quote a value that holds ": "\)$/,
    );
    expect(parsed.issues[0].lenient).toBe('the frontmatter is read line by line as key: value pairs');
  });

  test('duplicate keys: the YAML error is an issue; the later value wins', () => {
    const parsed = parseSkillFile(file('name: first\nname: second\n'));
    expect(parsed.data.name).toBe('second');
    expect(parsed.issues[0].rule).toMatch(/Map keys must be unique/);
  });

  test('a frontmatter that is a list, not a mapping', () => {
    const parsed = parseSkillFile(file('- name\n- description\n'));
    expect(parsed.issues[0]).toMatchObject({
      field: 'frontmatter',
      rule: 'must be a mapping of keys to values (got a list)',
    });
  });

  test('no frontmatter: the whole file is the body', () => {
    const parsed = parseSkillFile('# Title\n\nText.\n');
    expect(parsed.data).toEqual({});
    expect(parsed.body).toBe('# Title\n\nText.');
    expect(parsed.issues[0]).toMatchObject({ field: 'frontmatter', rule: expect.stringMatching(/^is missing/) });
  });

  test('an unclosed frontmatter: the key lines at the top are the fields, the rest is the body', () => {
    const parsed = parseSkillFile('---\nname: u\ndescription: Open.\n\n# Body\nText\n');
    expect(parsed.data).toEqual({ name: 'u', description: 'Open.' });
    expect(parsed.body).toBe('# Body\nText');
    expect(parsed.issues[0]).toMatchObject({ field: 'frontmatter', rule: 'is not closed: a "---" line must end it' });
  });

  test('tabs for indentation (invalid YAML) still read', () => {
    const parsed = parseSkillFile(file('name: t\nmetadata:\n\tauthor: me\n'));
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.data).toEqual({ name: 't', metadata: { author: 'me' } });
  });
});

describe('readLines (the lenient reading)', () => {
  test('key: value with everything after the first colon as the value, quotes removed', () => {
    expect(readLines(['a: x: y: z', "b: 'it''s'", 'c: "q: \\"r\\""', 'd:'])).toEqual({
      a: 'x: y: z',
      b: "it's",
      c: 'q: "r"',
      d: null,
    });
  });

  test('indented lines: a map, a list, or the rest of a value', () => {
    expect(
      readLines([
        'metadata:',
        '  author: me: you',
        '  version: 2',
        'tools:',
        '  - Read',
        '  - Grep',
        'description: starts here',
        '  and goes on: here',
      ]),
    ).toEqual({
      metadata: { author: 'me: you', version: '2' },
      tools: ['Read', 'Grep'],
      description: 'starts here and goes on: here',
    });
  });

  test('block scalars: | keeps lines, > folds them', () => {
    expect(readLines(['a: |', '  one: 1', '    two', 'b: >-', '  three', '  four'])).toEqual({
      a: 'one: 1\n  two',
      b: 'three four',
    });
  });
});

test('readSkillFolder keeps a JSON copy of the frontmatter (YAML values JSON cannot hold become null)', async () => {
  const { writeFileSync, mkdirSync } = await import('node:fs');
  const path = await import('node:path');
  const { readSkillFolder } = await import('../src/index.js');
  const dir = path.join(tempDir(), 'odd');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: odd\ndescription: Odd values.\nx-limit: .inf\n---\n');
  const info = readSkillFolder(dir);
  expect(info.frontmatter).toEqual({ name: 'odd', description: 'Odd values.', 'x-limit': null });
  expect(JSON.parse(JSON.stringify(info))).toEqual(info);
});
