/**
 * The read tool of a loaded folder skill: its own files only, text only, large files in parts;
 * and tool names that never clash between two loaded folder skills.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { folderToolName, loadSkillFolders, SkillFolder } from '../src/index.js';
import { call, fixture, folderMeta, mount, newSkill, tempDir } from './helpers.js';

const pdf = fixture('skills', 'pdf-forms');

async function loaded(element = <SkillFolder path={pdf} />, name = 'pdf-forms') {
  const session = mount(element);
  await session.readSkill(name);
  return session;
}

describe('reading the folder files', () => {
  test('a nested reference file is returned as it is', async () => {
    const session = await loaded();
    const result = await call(session, 'pdf-forms_read_file', { path: 'references/forms/w9.md' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(readFileSync(path.join(pdf, 'references/forms/w9.md'), 'utf8').trimEnd());
  });

  test('./ and backslashes are accepted as the same relative path', async () => {
    const session = await loaded();
    const expected = (await call(session, 'pdf-forms_read_file', { path: 'references/REFERENCE.md' })).content;
    for (const p of ['./references/REFERENCE.md', 'references\\REFERENCE.md', 'references//REFERENCE.md']) {
      expect((await call(session, 'pdf-forms_read_file', { path: p })).content).toBe(expected);
    }
  });

  test('a folder path lists its files', async () => {
    const session = await loaded();
    const result = await call(session, 'pdf-forms_read_file', { path: 'references' });
    expect(result.content).toBe('Files in references/:\nreferences/REFERENCE.md (99 B)\nreferences/forms/w9.md (93 B)');
  });

  test('a missing file is an error result that names it', async () => {
    const session = await loaded();
    const result = await call(session, 'pdf-forms_read_file', { path: 'references/missing.md' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('No such file in the skill folder: "references/missing.md".');
  });

  test('offset and limit choose lines; an offset past the end is an error result', async () => {
    const session = await loaded();
    const part = await call(session, 'pdf-forms_read_file', { path: 'references/forms/w9.md', offset: 3, limit: 1 });
    expect(part.content).toMatch(/^Line 1: the name as shown on the tax return\.\n\[…truncated: lines 3–3 of/);
    expect(part.content).toContain('Call pdf-forms_read_file with {"path": "references/forms/w9.md", "offset": 4}');
    const past = await call(session, 'pdf-forms_read_file', { path: 'references/forms/w9.md', offset: 40 });
    expect(past.isError).toBe(true);
    expect(past.content).toContain('"references/forms/w9.md" has 4 lines; there is nothing at offset 40.');
  });

  test('input is validated: a non-string path or offset 0 is refused before reading', async () => {
    const session = await loaded();
    const bad = await call(session, 'pdf-forms_read_file', { path: 42 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/path/);
    expect((await call(session, 'pdf-forms_read_file', { path: 'SKILL.md', offset: 0 })).isError).toBe(true);
  });
});

describe('paths that leave the folder are refused', () => {
  const refused = [
    ['..', '../code-review/SKILL.md'],
    ['.. after a folder', 'references/../../code-review/SKILL.md'],
    ['.. with backslashes', '..\\code-review\\SKILL.md'],
    ['an absolute path', '/etc/passwd'],
    ['the folder by its absolute path', path.join(pdf, 'SKILL.md')],
    ['a Windows drive path', 'C:\\Windows\\win.ini'],
    ['a NUL byte', 'SKILL.md\0.png'],
  ] as const;
  for (const [what, p] of refused) {
    test(`${what}: ${JSON.stringify(p)}`, async () => {
      const session = await loaded();
      const result = await call(session, 'pdf-forms_read_file', { path: p });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/Refused: /);
      expect(result.content).not.toContain('Review a change');
      expect(result.content).not.toContain('root:');
    });
  }

  describe('symlinks', () => {
    let root: string;
    let skill: string;
    beforeAll(() => {
      root = tempDir();
      skill = path.join(root, 'linked');
      mkdirSync(path.join(skill, 'references'), { recursive: true });
      mkdirSync(path.join(root, 'outside'));
      writeFileSync(path.join(root, 'secret.txt'), 'SECRET outside the folder');
      writeFileSync(path.join(root, 'outside', 'also-secret.md'), 'SECRET in an outside folder');
      writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: linked\ndescription: Has symlinks.\n---\nBody.\n');
      writeFileSync(path.join(skill, 'references', 'real.md'), 'Inside.');
      symlinkSync('../../secret.txt', path.join(skill, 'references', 'escape.md'));
      symlinkSync(path.join(root, 'outside'), path.join(skill, 'outside-dir'));
      symlinkSync('real.md', path.join(skill, 'references', 'alias.md'));
      symlinkSync('missing.md', path.join(skill, 'references', 'dangling.md'));
    });

    test('a symlink to a file outside the folder is refused', async () => {
      const session = await loaded(<SkillFolder path={skill} />, 'linked');
      const result = await call(session, 'linked_read_file', { path: 'references/escape.md' });
      expect(result.isError).toBe(true);
      expect(result.content).toContain(
        'Refused: "references/escape.md" is a symlink that leads outside the skill folder. Only the folder\'s own files can be read.',
      );
      expect(result.content).not.toContain('SECRET');
    });

    test('a symlinked folder that leads outside is refused, and so is a path through it', async () => {
      const session = await loaded(<SkillFolder path={skill} />, 'linked');
      for (const p of ['outside-dir', 'outside-dir/also-secret.md']) {
        const result = await call(session, 'linked_read_file', { path: p });
        expect(result.isError).toBe(true);
        expect(result.content).toMatch(/Refused: .* is a symlink that leads outside the skill folder/);
        expect(result.content).not.toContain('SECRET');
      }
    });

    test('a symlink that stays inside works; escaping and dangling links are left out of the listing and warned about', async () => {
      const session = await loaded(<SkillFolder path={skill} />, 'linked');
      expect((await call(session, 'linked_read_file', { path: 'references/alias.md' })).content).toBe('Inside.');
      const meta = folderMeta(session, 'linked');
      expect(meta.files.map((f) => f.path)).toEqual(['SKILL.md', 'references/alias.md', 'references/real.md']);
      expect(session.request().context).not.toContain('escape.md');
      const messages = session.warnings.map((w) => w.message);
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /"outside-dir" is a symlink that leads outside the folder; it is not listed and cannot be read\.$/,
          ),
          expect.stringMatching(/"references\/escape\.md" is a symlink that leads outside the folder/),
          expect.stringMatching(
            /"references\/dangling\.md" is a symlink whose target does not exist; it is not listed\.$/,
          ),
        ]),
      );
    });

    test('a skill folder that is itself a symlink reads its target, and still nothing outside it', async () => {
      const link = path.join(root, 'via-link');
      symlinkSync(skill, link);
      const session = await loaded(<SkillFolder path={link} name="linked" />, 'linked');
      expect((await call(session, 'linked_read_file', { path: 'references/real.md' })).content).toBe('Inside.');
      expect((await call(session, 'linked_read_file', { path: 'references/escape.md' })).isError).toBe(true);
    });
  });
});

describe('an image or a PDF of the folder comes back as a file the model sees; other binary files are refused', () => {
  test('a PNG is a file part (its bytes decide its type), after a line that names it', async () => {
    const session = await loaded();
    const result = await call(session, 'pdf-forms_read_file', { path: 'assets/pixel.png' });
    expect(result.isError).toBeUndefined();
    const bytes = readFileSync(fixture('skills/pdf-forms/assets/pixel.png'));
    expect(result.content).toBe('assets/pixel.png (image/png, 33 B):[file: assets/pixel.png]');
    expect(result.message.content.filter((p) => p.type !== 'context-changed')).toEqual([
      { type: 'text', text: 'assets/pixel.png (image/png, 33 B):' },
      { type: 'file', mediaType: 'image/png', data: bytes.toString('base64'), filename: 'assets/pixel.png' },
    ]);
  });

  test('an SVG is never an image: it is read as the text it is', async () => {
    const dir = newSkill('vector', 'A drawing.');
    writeFileSync(path.join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script></svg>\n');
    const session = await loaded(<SkillFolder path={dir} />, 'vector');
    const result = await call(session, 'vector_read_file', { path: 'logo.svg' });
    expect(result.message.content.every((p) => p.type !== 'file')).toBe(true);
  });

  test('invalid UTF-8 without NUL bytes', async () => {
    const dir = newSkill('latin', 'Latin-1 file.');
    writeFileSync(path.join(dir, 'old.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe]));
    const session = await loaded(<SkillFolder path={dir} />, 'latin');
    const result = await call(session, 'latin_read_file', { path: 'old.txt' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('"old.txt" is a binary file');
  });

  test('UTF-8 text with multi-byte characters across the first chunk boundary is text', async () => {
    const dir = newSkill('wide', 'Wide text.');
    const text = `${'é'.repeat(10_000)}\n${'日本語'.repeat(5000)}\n`;
    writeFileSync(path.join(dir, 'wide.md'), text);
    const session = await loaded(<SkillFolder path={dir} />, 'wide');
    const result = await call(session, 'wide_read_file', { path: 'wide.md' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(text.trimEnd());
  });
});

describe('text followed by binary data is cut where the binary data starts, never returned', () => {
  /** Whether `text` has a control character a text file does not hold, or the replacement character of bytes that are not UTF-8. */
  const hasNonText = (text: string) =>
    [...text].some((c) => {
      const n = c.codePointAt(0) as number;
      return (n < 0x20 && !(n >= 0x09 && n <= 0x0d) && n !== 0x1b) || n === 0xfffd;
    });
  /** 400 lines of 61 bytes (24 KB, past the first 8 KB the binary check looks at), then `tail`. */
  function folderWith(tail: Buffer): string {
    const dir = newSkill('mixed', 'Text, then binary.');
    const lines = Array.from({ length: 400 }, (_, i) => `line ${String(i + 1).padStart(3, '0')} ${'x'.repeat(51)}`);
    writeFileSync(path.join(dir, 'run.sh'), Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), tail]));
    return dir;
  }
  const archive = Buffer.from([
    0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x0a, 0x9c, 0x00,
  ]);

  test('a script with an archive appended: its text lines, and a note that says where the binary data starts', async () => {
    const session = await loaded(<SkillFolder path={folderWith(archive)} />, 'mixed');
    const result = await call(session, 'mixed_read_file', { path: 'run.sh' });
    expect(result.isError).toBeUndefined();
    expect(hasNonText(result.content)).toBe(false);
    const [text, note] = result.content.split('\n[…truncated: ');
    expect(text.split('\n')).toHaveLength(400);
    expect(text.split('\n').at(-1)).toBe(`line 400 ${'x'.repeat(51)}`);
    expect(note).toBe(
      'lines 1–400 of "run.sh" (23.8 KB) are shown; from line 401 on (byte 24,402), the file holds binary data, which mixed_read_file does not return.]',
    );
  });

  test('a line where text runs into binary data is left out with the rest; invalid UTF-8 counts as a NUL does', async () => {
    for (const tail of [Buffer.from('tail of text\u0000\u0001'), Buffer.from([0x61, 0x62, 0xc3, 0x28, 0x0a, 0x61])]) {
      const session = await loaded(<SkillFolder path={folderWith(tail)} />, 'mixed');
      const result = await call(session, 'mixed_read_file', { path: 'run.sh' });
      expect(hasNonText(result.content)).toBe(false);
      expect(result.content).not.toContain('tail of text');
      expect(result.content).toContain('from line 401 on (byte 24,');
    }
  });

  test('reading on from past where the binary data starts is refused, with where it starts', async () => {
    const session = await loaded(<SkillFolder path={folderWith(archive)} />, 'mixed');
    const result = await call(session, 'mixed_read_file', { path: 'run.sh', offset: 401 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      'Refused: "run.sh" holds binary data from line 401 on (byte 24,402 of 23.8 KB), and there is no text at offset 401; mixed_read_file reads text only.',
    );
  });

  test('control characters in the first 8 KB make the file binary; tabs, line breaks, form feeds and escapes are text', async () => {
    const dir = newSkill('controls', 'Control characters.');
    writeFileSync(path.join(dir, 'bell.txt'), 'ring the bell \u0007 now\n');
    const text = 'a\tb\r\nc\fd\u000be \u001b[1mbold\u001b[0m\n';
    writeFileSync(path.join(dir, 'text.txt'), text);
    const session = await loaded(<SkillFolder path={dir} />, 'controls');
    const bell = await call(session, 'controls_read_file', { path: 'bell.txt' });
    expect(bell.isError).toBe(true);
    expect(bell.content).toContain('"bell.txt" is a binary file');
    const ok = await call(session, 'controls_read_file', { path: 'text.txt' });
    expect(ok.isError).toBeUndefined();
    expect(ok.content).toBe('a\tb\nc\fd\u000be \u001b[1mbold\u001b[0m');
  });
});

describe('large files come in parts', () => {
  let dir: string;
  let big: string;
  beforeAll(() => {
    dir = path.join(tempDir(pdf), 'pdf-forms');
    mkdirSync(dir);
    const root = path.dirname(dir);
    // The fixture, copied, plus a 1 MB reference file.
    writeFileSync(path.join(dir, 'SKILL.md'), readFileSync(path.join(root, 'SKILL.md')));
    mkdirSync(path.join(dir, 'references'));
    const lines: string[] = [];
    for (let i = 1, bytes = 0; bytes < 1024 * 1024; i++) {
      const line = `${String(i).padStart(6, '0')} The quick brown fox jumps over the lazy dog; ünïcödé ✓.`;
      lines.push(line);
      bytes += Buffer.byteLength(line) + 1;
    }
    big = `${lines.join('\n')}\n`;
    writeFileSync(path.join(dir, 'references', 'big.md'), big);
  });

  test('a 1 MB reference file is truncated at 64 KB with a note that says how to read the rest', async () => {
    const session = await loaded(<SkillFolder path={dir} />);
    const result = await call(session, 'pdf-forms_read_file', { path: 'references/big.md' });
    expect(result.isError).toBeUndefined();
    const [text, note] = result.content.split('\n[…truncated: ');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    expect(big.startsWith(`${text}\n`)).toBe(true);
    const shown = text.split('\n').length;
    expect(note).toMatch(
      new RegExp(
        `^lines 1–${shown} of "references/big\\.md" \\(1\\.0 MB\\) are shown\\. Call pdf-forms_read_file with \\{"path": "references/big\\.md", "offset": ${shown + 1}\\} to read the rest\\.\\]`,
      ),
    );
  });

  test('following the notes reads the whole file, exactly', async () => {
    const session = await loaded(<SkillFolder path={dir} />);
    const parts: string[] = [];
    let offset = 1;
    for (let calls = 0; calls < 100; calls++) {
      const { content } = await call(session, 'pdf-forms_read_file', { path: 'references/big.md', offset });
      const [text, note] = content.split('\n[…truncated: ');
      parts.push(text);
      if (!note) break;
      offset = Number(/"offset": (\d+)/.exec(note)![1]);
    }
    expect(`${parts.join('\n')}\n`).toBe(big);
    expect(parts.length).toBeGreaterThan(15);
  });

  test('maxReadBytes and maxReadLines set the caps', async () => {
    const session = await loaded(<SkillFolder path={dir} maxReadBytes={1000} maxReadLines={3} />);
    const lines = await call(session, 'pdf-forms_read_file', { path: 'references/big.md' });
    expect(lines.content.split('\n[…')[0].split('\n')).toHaveLength(3);
    const bytes = await call(session, 'pdf-forms_read_file', { path: 'references/big.md', limit: 3 });
    expect(bytes.content).toContain('"offset": 4}');
    // A limit above the cap is held to it.
    const capped = await call(session, 'pdf-forms_read_file', { path: 'references/big.md', limit: 1000 });
    expect(capped.content.split('\n[…')[0].split('\n')).toHaveLength(3);
  });

  test("a part fits the session's maxToolResultChars, so the session never cuts its note away", async () => {
    const session = mount(<SkillFolder path={dir} />, { maxToolResultChars: 5_000 });
    await session.readSkill('pdf-forms');
    const result = await call(session, 'pdf-forms_read_file', { path: 'references/big.md' });
    expect(result.content.length).toBeLessThanOrEqual(5_000);
    const [text, note] = result.content.split('\n[…truncated: ');
    expect(big.startsWith(`${text}\n`)).toBe(true);
    expect(note).toMatch(/ to read the rest\.\]$/);
    expect(result.content).not.toContain('(maxToolResultChars)');
  });

  test('one line longer than the cap is cut, and the note says so', async () => {
    const one = newSkill('minified', 'One long line.');
    writeFileSync(path.join(one, 'data.json'), `[${'1,'.repeat(300_000)}1]\nsecond line\n`);
    const session = await loaded(<SkillFolder path={one} />, 'minified');
    const result = await call(session, 'minified_read_file', { path: 'data.json' });
    const [text, note] = result.content.split('\n[…truncated: ');
    expect(Buffer.byteLength(text)).toBe(64 * 1024);
    expect(note).toBe(
      'line 1 is longer than 65,536 bytes; its start is shown. Call minified_read_file with {"path": "data.json", "offset": 2} to read the rest.]',
    );
    expect((await call(session, 'minified_read_file', { path: 'data.json', offset: 2 })).content).toBe('second line');
  });

  test('an empty file says it is empty', async () => {
    const one = newSkill('empty', 'Has an empty file.');
    writeFileSync(path.join(one, 'blank.txt'), '');
    const session = await loaded(<SkillFolder path={one} />, 'empty');
    expect((await call(session, 'empty_read_file', { path: 'blank.txt' })).content).toBe('blank.txt is empty.');
  });
});

describe('two loaded folder skills never clash on tool names', () => {
  test('each has its own read tool, and each reads its own folder only', async () => {
    const session = mount(loadSkillFolders(fixture('skills')));
    await session.readSkill('pdf-forms');
    await session.readSkill('code-review');
    const names = session.request().tools.map((t) => t.name);
    expect([...names].sort()).toEqual(['code-review_read_file', 'pdf-forms_read_file', 'read_skill']);
    expect((await call(session, 'code-review_read_file', { path: 'SKILL.md' })).content).toContain('name: code-review');
    expect((await call(session, 'pdf-forms_read_file', { path: 'SKILL.md' })).content).toContain('name: pdf-forms');
    expect((await call(session, 'code-review_read_file', { path: 'references/REFERENCE.md' })).isError).toBe(true);
  });

  test('long names that share their first 54 characters still get distinct tool names of at most 64', async () => {
    const root = tempDir();
    const names = [`${'a'.repeat(58)}-one`, `${'a'.repeat(58)}-two`];
    for (const name of names) {
      mkdirSync(path.join(root, name));
      writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${name.slice(-3)}.\n---\n`);
    }
    const session = mount(loadSkillFolders(root, { strict: true }));
    for (const name of names) await session.readSkill(name);
    const tools = session.request().tools.map((t) => t.name);
    expect(new Set(tools).size).toBe(3);
    for (const tool of tools) expect(tool).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    for (const name of names) {
      const result = await call(session, folderToolName(name, 'read_file'), { path: 'SKILL.md' });
      expect(result.content).toContain(`description: ${name.slice(-3)}.`);
    }
  });

  test('lenient names skilltree does not accept are listed under the folder name, so tools stay distinct', async () => {
    const root = tempDir();
    const folders = { 'my-skill-a': 'My Skill', 'my-skill-b': 'My_Skill', 'my-skill-c': 'My.Skill' };
    for (const [folder, name] of Object.entries(folders)) {
      mkdirSync(path.join(root, folder));
      writeFileSync(path.join(root, folder, 'SKILL.md'), `---\nname: ${name}\ndescription: ${folder}.\n---\n`);
    }
    const session = mount(loadSkillFolders(root));
    expect(session.skills.map((s) => s.name)).toEqual(['my-skill-a', 'My_Skill', 'my-skill-c']);
    for (const skill of session.skills) await session.readSkill(skill.name);
    expect(
      session
        .request()
        .tools.map((t) => t.name)
        .sort(),
    ).toEqual(['My_Skill_read_file', 'my-skill-a_read_file', 'my-skill-c_read_file', 'read_skill']);
  });

  test('folderToolName: plain names kept, others cleaned, cut to 64 characters and fingerprinted', () => {
    expect(folderToolName('pdf', 'read_file')).toBe('pdf_read_file');
    expect(folderToolName('a'.repeat(54), 'read_file')).toBe(`${'a'.repeat(54)}_read_file`);
    const long1 = folderToolName(`${'a'.repeat(60)}-x`, 'read_file');
    const long2 = folderToolName(`${'a'.repeat(60)}-y`, 'read_file');
    expect(long1).not.toBe(long2);
    expect(long1.length).toBeLessThanOrEqual(64);
    expect(folderToolName('My Skill', 'run_script')).toMatch(/^My_Skill_[0-9a-f]{8}_run_script$/);
    expect(folderToolName('日本語', 'read_file')).toMatch(/^____[0-9a-f]{8}_read_file$/);
    expect(folderToolName('日本語', 'read_file')).not.toBe(folderToolName('中文字', 'read_file'));
  });
});
