/**
 * A folder skill reads only its folder's own regular files, `SKILL.md` included, bounded in size
 * (SPEC §12). Each test is one attack on that rule: a `SKILL.md` that links out of the folder, a
 * named pipe, a device, a huge file, a symlink loop, frontmatter keys that reach for a prototype,
 * an over-long description. A bad folder becomes an error or a warning that names it and the fix;
 * it never hangs or crashes the agent.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { readCheckedBytes } from '../src/checked-paths.js';
import {
  loadSkillFolders,
  readSkillFolder,
  SkillFolder,
  SkillFolderError,
  type SkillFolderWarning,
} from '../src/index.js';
import { call, mount, tempDir } from './helpers.js';

/** The 8-byte PNG signature and a little more: enough for the bytes to say image/png. */
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)]);

const SKILL = (name: string, description = `The ${name} skill.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nInstructions of ${name}.\n`;

/** A skills folder with one good skill (`good`) and one sub-folder `bad`, whose SKILL.md `plant` makes. */
function skills(plant: (skillFile: string, root: string) => void): { root: string; bad: string } {
  const root = tempDir();
  mkdirSync(path.join(root, 'good'));
  writeFileSync(path.join(root, 'good', 'SKILL.md'), SKILL('good'));
  const bad = path.join(root, 'bad');
  mkdirSync(bad);
  plant(path.join(bad, 'SKILL.md'), root);
  return { root, bad };
}

/** A folder `name` in a fresh temporary directory holding only `SKILL.md` with `skillMd`; its path. */
function skillDir(name: string, skillMd: string): string {
  const dir = path.join(tempDir(), name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'SKILL.md'), skillMd);
  return dir;
}

function refusal(run: () => unknown): SkillFolderError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SkillFolderError);
    return error as SkillFolderError;
  }
  throw new Error('expected the folder to be refused');
}

/**
 * The lenient `loadSkillFolders` of `root`: the good skill loads, the bad folder is left out with a
 * warning (to `onWarning` and the session), and none of `secrets` reaches the request.
 */
function leftOut(root: string, secrets: string[] = []): string {
  const heard: SkillFolderWarning[] = [];
  const session = mount(loadSkillFolders(root, { onWarning: (w) => heard.push(w) }));
  expect(session.skills.map((s) => s.name)).toEqual(['good']);
  const warning = heard.find((w) => w.source === 'agent-skills:bad');
  expect(warning?.folder).toBe(path.join(root, 'bad'));
  expect(session.warnings).toContainEqual({ message: warning?.message, source: 'agent-skills:bad' });
  const request = JSON.stringify(session.request());
  for (const secret of secrets) expect(request).not.toContain(secret);
  return warning!.message;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('SKILL.md must be a file inside its folder', () => {
  test('a SKILL.md that links to /proc/self/environ is refused: no environment variable reaches the catalog', () => {
    process.env.SKILLTREE_TEST_API_KEY = 'sk-must-not-leak-0123456789';
    try {
      const { root, bad } = skills((file) => symlinkSync('/proc/self/environ', file));
      const error = refusal(() => readSkillFolder(bad));
      expect(error.message).toMatch(
        /^Agent Skills folder refused: .*bad\/SKILL\.md: the SKILL\.md must be a file inside the folder \(it is a symlink that leads outside it\)\. A folder skill reads only its own files: put the file itself in the folder instead of a link\.$/,
      );
      expect(error.issues).toEqual([
        { field: 'SKILL.md', rule: expect.stringMatching(/symlink that leads outside/), lenient: expect.any(String) },
      ]);
      expect(() => mount(<SkillFolder path={bad} />)).toThrow(SkillFolderError);
      expect(() => loadSkillFolders(root, { strict: true })).toThrow(/bad\/SKILL\.md: the SKILL\.md must be a file/);
      const warning = leftOut(root, ['sk-must-not-leak', 'SKILLTREE_TEST_API_KEY', 'PATH=']);
      expect(warning).toMatch(/^Agent Skills folder left out: .*bad\/SKILL\.md: the SKILL\.md must be a file inside/);
      expect(warning).not.toContain('/proc');
    } finally {
      delete process.env.SKILLTREE_TEST_API_KEY;
    }
  });

  test('a SKILL.md that links to a file outside the folder is refused, and the file is read by no one', () => {
    const { root, bad } = skills((file, root) => {
      writeFileSync(path.join(root, 'secret.md'), SKILL('bad', 'SECRET description from outside'));
      symlinkSync('../secret.md', file);
    });
    expect(refusal(() => readSkillFolder(bad)).message).not.toContain('SECRET');
    expect(leftOut(root, ['SECRET'])).toMatch(/symlink that leads outside it/);
  });

  test('a SKILL.md that links inside its own folder is read', () => {
    const dir = path.join(tempDir(), 'inside');
    mkdirSync(path.join(dir, 'docs'), { recursive: true });
    writeFileSync(path.join(dir, 'docs', 'skill.txt'), SKILL('inside'));
    symlinkSync('docs/skill.txt', path.join(dir, 'SKILL.md'));
    expect(readSkillFolder(dir)).toMatchObject({ name: 'inside', description: 'The inside skill.', warnings: [] });
  });
});

describe('SKILL.md must be a regular file', () => {
  test('a SKILL.md that is a named pipe is refused at once, without waiting for a writer', () => {
    const { root, bad } = skills((file) => execFileSync('mkfifo', [file]));
    // A writer that shows up after a while: were the pipe opened to be read, the read would wait
    // for it and then return its text, and the assertions below would fail instead of hanging.
    const writer = spawn('sh', ['-c', `sleep 3; printf '%s' "$0" > "$1"`, SKILL('bad'), path.join(bad, 'SKILL.md')]);
    children.push(writer);
    const error = refusal(() => readSkillFolder(bad));
    expect(error.message).toMatch(
      /bad\/SKILL\.md: the SKILL\.md must be a regular file \(it is a named pipe \(FIFO\)\)\. Replace it with a regular file\.$/,
    );
    expect(leftOut(root)).toMatch(/must be a regular file \(it is a named pipe \(FIFO\)\)/);
  });

  test('a SKILL.md that links to /dev/zero is refused as a device, not read forever', () => {
    const { root, bad } = skills((file) => symlinkSync('/dev/zero', file));
    // Outside the folder and a device: the first rule broken is the one reported.
    expect(refusal(() => readSkillFolder(bad)).message).toMatch(/symlink that leads outside it/);
    expect(leftOut(root)).toMatch(/bad\/SKILL\.md/);
  });

  test('a SKILL.md that is a folder is refused as a folder', () => {
    const { bad } = skills((file) => mkdirSync(file));
    expect(refusal(() => readSkillFolder(bad)).message).toMatch(/must be a regular file \(it is a folder\)/);
  });

  test('a named pipe in the folder is refused by the read tool at once, and is not listed', async () => {
    const dir = path.join(tempDir(), 'piped');
    mkdirSync(path.join(dir, 'references'), { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), SKILL('piped'));
    execFileSync('mkfifo', [path.join(dir, 'references', 'pipe.md')]);
    const writer = spawn('sh', ['-c', `sleep 3; echo late > "$0"`, path.join(dir, 'references', 'pipe.md')]);
    children.push(writer);
    const session = mount(<SkillFolder path={dir} />);
    await session.readSkill('piped');
    expect(session.request().context).not.toContain('pipe.md');
    const result = await call(session, 'piped_read_file', { path: 'references/pipe.md' });
    expect(result).toMatchObject({
      isError: true,
      content: expect.stringContaining(
        'Refused: "references/pipe.md" is a named pipe (FIFO), not a regular file. Only the folder\'s own regular files can be read.',
      ),
    });
  });
});

describe('SKILL.md is bounded in size', () => {
  test('a huge SKILL.md (8 GB, sparse) is refused by its size, without being read', () => {
    const { root, bad } = skills((file) => {
      writeFileSync(file, SKILL('bad'));
      truncateSync(file, 8 * 1024 ** 3);
    });
    const error = refusal(() => readSkillFolder(bad));
    expect(error.message).toMatch(
      /bad\/SKILL\.md: the SKILL\.md must be at most 256\.0 KB \(it is 8192\.0 MB\)\. Keep SKILL\.md short and move the details into files such as references\/, which the skill reads when it needs them\.$/,
    );
    expect(leftOut(root)).toMatch(/must be at most 256\.0 KB/);
  });

  test('256 KB is read; one byte more is refused', () => {
    const dir = path.join(tempDir(), 'edge');
    mkdirSync(dir);
    const head = SKILL('edge');
    writeFileSync(path.join(dir, 'SKILL.md'), head + 'x'.repeat(256 * 1024 - head.length));
    expect(readSkillFolder(dir).body.length).toBeGreaterThan(256 * 1000);
    writeFileSync(path.join(dir, 'SKILL.md'), head + 'x'.repeat(256 * 1024 - head.length + 1));
    expect(refusal(() => readSkillFolder(dir)).message).toMatch(/must be at most 256\.0 KB \(it is 256\.0 KB\)/);
  });
});

describe('a symlink loop is an error that names the folder as it was given, never by its absolute path', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const absolute of made.splice(0)) rmSync(absolute, { recursive: true, force: true });
  });
  /** A temporary folder under the working directory (removed after the test), so the test can name it by a relative path. */
  function local(): { relative: string; absolute: string } {
    const absolute = mkdtempSync(path.join(process.cwd(), '.loop-test-'));
    made.push(absolute);
    return { absolute, relative: path.relative(process.cwd(), absolute) };
  }

  test('SKILL.md that links to itself', () => {
    const dir = local();
    mkdirSync(path.join(dir.absolute, 'skill'));
    symlinkSync('SKILL.md', path.join(dir.absolute, 'skill', 'SKILL.md'));
    const error = refusal(() => readSkillFolder(`./${dir.relative}/skill`));
    expect(error.message).toBe(
      `Agent Skills folder refused: ${dir.relative}/skill/SKILL.md: the SKILL.md must be a file (it is a symlink loop). Replace the link with the file.`,
    );
    expect(error.message).not.toContain(process.cwd());
  });

  test('a skill folder that links to itself, alone or among others', () => {
    const dir = local();
    symlinkSync('loop', path.join(dir.absolute, 'loop'));
    mkdirSync(path.join(dir.absolute, 'good'));
    writeFileSync(path.join(dir.absolute, 'good', 'SKILL.md'), SKILL('good'));
    expect(() => readSkillFolder(`${dir.relative}/loop`)).toThrow(
      new Error(
        `Agent Skills folder ${dir.relative}/loop is a symlink loop (it leads back to itself). Point it at a real folder.`,
      ),
    );
    const heard: string[] = [];
    const session = mount(loadSkillFolders(dir.relative, { onWarning: (w) => heard.push(w.message) }));
    expect(session.skills.map((s) => s.name)).toEqual(['good']);
    expect(heard).toEqual([
      `Agent Skills folder left out: ${dir.relative}/loop is a symlink loop (it leads back to itself). Point it at a real folder.`,
    ]);
    expect(session.warnings.map((w) => w.message)).toContain(heard[0]);
  });

  test('a skills folder given to loadSkillFolders that links to itself', () => {
    const dir = local();
    symlinkSync('skills', path.join(dir.absolute, 'skills'));
    let message = '';
    try {
      loadSkillFolders(`${dir.relative}/skills`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `loadSkillFolders: ${dir.relative}/skills is a symlink loop (it leads back to itself). Point it at a real folder.`,
    );
  });

  test('a file of the folder that links to itself: the read tool names it relative to the folder', async () => {
    const dir = skillDir('loopy', SKILL('loopy'));
    symlinkSync('again.md', path.join(dir, 'again.md'));
    const session = mount(<SkillFolder path={dir} />);
    await session.readSkill('loopy');
    const result = await call(session, 'loopy_read_file', { path: 'again.md' });
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain(
      'Refused: "again.md" is a symlink loop (it leads back to itself); it cannot be read.',
    );
    expect(result.content).not.toContain(dir);
  });
});

describe('frontmatter keys never reach a prototype', () => {
  test('__proto__ in a frontmatter read line by line lends no field to the skill', () => {
    // The unquoted ": " makes the YAML invalid, so the lenient line-by-line reading runs.
    const dir = skillDir(
      'proto-lines',
      '---\ndescription: Use when: anything\n__proto__:\n  name: admin\n  polluted: yes\n---\nBody.\n',
    );
    const info = readSkillFolder(dir);
    expect(info.name).toBe('proto-lines');
    expect(info.description).toBe('Use when: anything');
    expect(Object.getPrototypeOf(info.frontmatter)).toBe(Object.prototype);
    expect(Object.hasOwn(info.frontmatter, '__proto__')).toBe(false);
    expect((info.frontmatter as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(info.warnings.some((w) => w.includes('"__proto__" is not a field of the Agent Skills specification'))).toBe(
      true,
    );
  });

  test('__proto__ in valid YAML, at the top and in metadata, is reported and ignored', () => {
    const dir = skillDir(
      'proto-yaml',
      '---\nname: proto-yaml\ndescription: Fine.\n__proto__: {description: Hijacked}\nmetadata:\n  __proto__: {polluted: "yes"}\n  constructor: kept\n  prototype: kept too\n---\n',
    );
    const info = readSkillFolder(dir);
    expect(info.description).toBe('Fine.');
    expect(info.metadata).toEqual({ constructor: 'kept', prototype: 'kept too' });
    expect(Object.getPrototypeOf(info.metadata)).toBe(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(info.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/"metadata\.__proto__" is not a key skilltree accepts; ignored\.$/),
        expect.stringMatching(/"__proto__" is not a field of the Agent Skills specification; ignored\.$/),
      ]),
    );
    expect(JSON.stringify(info.frontmatter)).not.toContain('__proto__');
  });

  test('constructor and prototype keys are unknown fields, and do not change what the fields read', () => {
    const dir = skillDir(
      'ctor',
      '---\ndescription: Use when: x\nconstructor:\n  name: admin\nprototype:\n  name: admin\n---\n',
    );
    const info = readSkillFolder(dir);
    expect(info.name).toBe('ctor');
    expect(info.issues.map((i) => i.field)).toEqual(expect.arrayContaining(['constructor', 'prototype']));
  });
});

describe('a description over 1,024 characters', () => {
  const long = `Use when ${'the user asks about invoices '.repeat(60)}`.trim();

  test('lenient: cut to 1,024 characters in the catalog, with the warning', () => {
    const dir = skillDir('long', SKILL('long', long));
    const session = mount(<SkillFolder path={dir} />);
    const description = session.skills[0].description;
    expect([...description]).toHaveLength(1024);
    expect(description.endsWith('…')).toBe(true);
    expect(long.startsWith(description.slice(0, -1))).toBe(true);
    expect(session.request().system).toContain(`- long — ${description}`);
    expect(session.request().system).not.toContain(long);
    expect(session.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(
        /"description" must be at most 1,024 characters \(got 1,\d{3}\); cut to 1,024 characters, the last one "…"\.$/,
      ),
    );
  });

  test('strict: refused', () => {
    const dir = skillDir('long', SKILL('long', long));
    expect(() => mount(<SkillFolder path={dir} strict />)).toThrow(/"description" must be at most 1,024 characters/);
  });
});

describe('a file swapped between the check and the byte read', () => {
  /** A folder image checked by path (as the read tool checks it), then `swap` runs before the bytes are read. */
  async function swappedRead(swap: (file: string, root: string) => void) {
    const root = tempDir();
    const file = path.join(root, 'diagram.png');
    writeFileSync(file, PNG);
    const checked = { real: file, display: 'diagram.png', stats: statSync(file) };
    swap(file, root);
    return readCheckedBytes(checked, 1_000_000);
  }

  test('a file renamed over the checked one is refused as changed: its bytes are never read', async () => {
    await expect(
      swappedRead((file, root) => {
        writeFileSync(path.join(root, 'other.png'), 'SECRET');
        renameSync(path.join(root, 'other.png'), file);
      }),
    ).rejects.toMatchObject({ rule: 'changed' });
  });

  test('a symlink to a file outside the folder, swapped in, is refused as changed: the outside file is not read', async () => {
    const outside = path.join(tempDir(), 'secret.png');
    writeFileSync(outside, PNG);
    await expect(
      swappedRead((file) => {
        rmSync(file);
        symlinkSync(outside, file);
      }),
    ).rejects.toMatchObject({ rule: 'changed' });
  });

  test('a named pipe swapped in is refused at once, without waiting for a writer', async () => {
    await expect(
      swappedRead((file) => {
        rmSync(file);
        execFileSync('mkfifo', [file]);
      }),
    ).rejects.toMatchObject({ rule: 'not-regular' });
  });

  test('the checked file itself is read whole', async () => {
    const bytes = await swappedRead(() => {});
    expect(Buffer.from(bytes as Uint8Array).equals(PNG)).toBe(true);
  });
});
