/**
 * Scripts: never run unless the agent opts in; then run without a shell, by an allowed
 * interpreter, in the skill folder, with a small environment, a timeout, an output cap, and
 * killed when the skill unloads (or the call is aborted, or the session ends).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ReactNode } from 'react';
import { describe, expect, test } from 'vitest';
import { type ScriptsOptions, SkillFolder } from '../src/index.js';
import { call, fixture, folderMeta, mount, tempDir } from './helpers.js';

const lab = fixture('lab', 'script-lab');
const RUN = 'script-lab_run_script';

async function loaded(scripts?: boolean | ScriptsOptions, extra?: ReactNode) {
  const session = mount(
    <>
      <SkillFolder path={lab} scripts={scripts} />
      {extra}
    </>,
    { maxLoadedSkills: 1 },
  );
  await session.readSkill('script-lab');
  return session;
}

/** True while the process runs (a zombie counts as ended). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    if (existsSync('/proc/self')) return false;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The pids a script wrote to `file`, once it has. */
async function pids(file: string): Promise<number[]> {
  await until(() => existsSync(file) && readFileSync(file, 'utf8').trim() !== '');
  return readFileSync(file, 'utf8').trim().split(/\s+/).map(Number);
}

describe('scripts are not run by default', () => {
  test('no run tool; the context says scripts cannot be run; a call is an Unknown tool', async () => {
    const session = await loaded();
    expect(session.request().tools.map((t) => t.name)).toEqual(['read_skill', 'script-lab_read_file']);
    expect(session.request().context).toContain(
      'The scripts in scripts/ cannot be run here; read them with script-lab_read_file if their code helps.',
    );
    const result = await call(session, RUN, { script: 'scripts/report.py' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Unknown tool: script-lab_run_script/);
    // Reading a script is fine: it is a file of the folder.
    expect((await call(session, 'script-lab_read_file', { path: 'scripts/fail.sh' })).content).toContain('exit 3');
  });
});

describe('scripts: true', () => {
  test('offers a run tool; the context names it with the interpreters and the timeout', async () => {
    const session = await loaded(true);
    expect(session.request().tools.map((t) => t.name)).toEqual([
      'read_skill',
      'script-lab_read_file',
      'script-lab_run_script',
    ]);
    expect(session.request().context).toContain(
      'Run the scripts in scripts/ with script-lab_run_script (.py with python3, .sh with bash, .js with node, .mjs with node; no shell; stopped after 30 s).',
    );
    const meta = folderMeta(session, 'script-lab');
    expect(meta.tools).toEqual({ read: 'script-lab_read_file', run: RUN });
    expect(meta.scripts).toEqual({ '.py': 'python3', '.sh': 'bash', '.js': 'node', '.mjs': 'node' });
  });

  test('without a shell: arguments arrive as they are written; the working directory is the folder', async () => {
    const session = await loaded(true);
    const args = ['two words', '$(echo injected)', '; rm -rf /', '*', '"quoted"', '$HOME'];
    const result = await call(session, RUN, { script: 'scripts/report.py', args, stdin: 'from stdin' });
    expect(result.isError).toBeUndefined();
    const [header, status, , json] = result.content.split('\n');
    expect(header).toBe(
      '$ python3 scripts/report.py "two words" "$(echo injected)" "; rm -rf /" "*" "\\"quoted\\"" "$HOME"',
    );
    expect(status).toBe('exit code 0');
    const report = JSON.parse(json);
    expect(report.args).toEqual(args);
    expect(report.cwd).toBe(realpathSync(lab));
    expect(report.stdin).toBe('from stdin');
  });

  test('"report.py" means scripts/report.py', async () => {
    const session = await loaded(true);
    expect((await call(session, RUN, { script: 'report.py' })).content).toContain('$ python3 scripts/report.py');
  });

  test('a small environment by default: no API keys; env adds variables; inheritEnv passes everything', async () => {
    process.env.AGENT_SKILLS_TEST_SECRET = 'sk-secret';
    try {
      const envOf = async (scripts: ScriptsOptions) => {
        const session = await loaded(scripts);
        const { content } = await call(session, RUN, { script: 'scripts/report.py' });
        session.dispose();
        return JSON.parse(content.split('\n')[3]).env as string[];
      };
      const plain = await envOf({});
      expect(plain).toContain('PATH');
      expect(plain).not.toContain('AGENT_SKILLS_TEST_SECRET');
      expect(await envOf({ env: { PDF_MODE: 'fast' } })).toContain('PDF_MODE');
      expect(await envOf({ inheritEnv: true })).toContain('AGENT_SKILLS_TEST_SECRET');
    } finally {
      delete process.env.AGENT_SKILLS_TEST_SECRET;
    }
  });

  test('a non-zero exit is an error result with the exit code, stdout and stderr', async () => {
    const session = await loaded(true);
    const result = await call(session, RUN, { script: 'scripts/fail.sh' });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^Tool "script-lab_run_script" failed: \$ bash scripts\/fail\.sh\nexit code 3\n--- stdout\npartial output\n\n--- stderr\nsomething went wrong\n?$/,
    );
  });
});

describe('what is refused', () => {
  test('an extension without an allowed interpreter, naming the allowed ones', async () => {
    const session = await loaded({ interpreters: { '.sh': 'bash' } });
    const txt = await call(session, RUN, { script: 'scripts/notes.txt' });
    expect(txt.isError).toBe(true);
    expect(txt.content).toContain(
      'Refused: "scripts/notes.txt" has no allowed interpreter (.txt). Allowed: .sh (bash).',
    );
    const py = await call(session, RUN, { script: 'scripts/report.py' });
    expect(py.content).toContain('Refused: "scripts/report.py" has no allowed interpreter (.py). Allowed: .sh (bash).');
  });

  test('anything outside scripts/, by any path', async () => {
    const session = await loaded(true);
    for (const script of [
      'tools/outside.py',
      '../tools/outside.py',
      'scripts/../tools/outside.py',
      '/bin/sh',
      'SKILL.md',
    ]) {
      const result = await call(session, RUN, { script });
      expect(result.isError, script).toBe(true);
      expect(result.content, script).toMatch(/Refused: |No such file/);
      expect(result.content).not.toContain('never run');
    }
  });

  test('an interpreter that is not installed is a clear error', async () => {
    const session = await loaded({ interpreters: { '.py': 'no-such-interpreter-xyz' } });
    const result = await call(session, RUN, { script: 'scripts/report.py' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain(
      'Could not start: the interpreter "no-such-interpreter-xyz" was not found on PATH.',
    );
  });

  test('malformed options fail when the tree renders', () => {
    expect(() => mount(<SkillFolder path={lab} scripts={{ timeoutMs: 0 }} />)).toThrow(
      /scripts\.timeoutMs must be a positive/,
    );
    expect(() => mount(<SkillFolder path={lab} scripts={{ interpreters: { '.py': [] } }} />)).toThrow(
      /scripts\.interpreters\["\.py"\] must be a command/,
    );
  });
});

describe('limits', () => {
  test('a script that runs too long is killed, with everything it started, and says so', async () => {
    const session = await loaded({ timeoutMs: 700 });
    const file = path.join(tempDir(), 'pids');
    const started = Date.now();
    const result = await call(session, RUN, { script: 'scripts/hang.sh', args: [file] });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Stopped: timed out after 700 ms and was killed\./);
    const [shell, child] = await pids(file);
    await until(() => !alive(shell) && !alive(child));
  });

  test('output beyond maxOutputBytes is cut, and the note says how much there was', async () => {
    const session = await loaded({ maxOutputBytes: 1000 });
    const result = await call(session, RUN, { script: 'scripts/flood.mjs' });
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain(
      `--- stdout\n${'y'.repeat(1000)}\n[…stdout truncated: 1048576 bytes in all, the first 1000 shown]`,
    );
    expect(result.content).toContain('--- stderr\ndone');
  });

  test('what a script leaves running in the background is ended when it exits', async () => {
    const session = await loaded(true);
    const file = path.join(tempDir(), 'bg');
    const result = await call(session, RUN, { script: 'scripts/background.sh', args: [file] });
    expect(result.content).toContain('--- stdout\nstarted');
    const [background] = await pids(file);
    await until(() => !alive(background));
  });
});

describe('a running script is killed when the skill unloads', () => {
  test('a newer read unloads the skill: the script and its child are killed; the call reports why', async () => {
    const session = await loaded(true, <SkillFolder path={fixture('skills', 'code-review')} />);
    const file = path.join(tempDir(), 'pids');
    const running = call(session, RUN, { script: 'scripts/hang.sh', args: [file] });
    const [shell, child] = await pids(file);
    expect(alive(shell) && alive(child)).toBe(true);

    await session.readSkill('code-review'); // maxLoadedSkills: 1, so script-lab unloads
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/Stopped: the skill "script-lab" was unloaded; the script was killed\./);
    await until(() => !alive(shell) && !alive(child));
  });

  test('disposing the session kills it too', async () => {
    const session = await loaded(true);
    const file = path.join(tempDir(), 'pids');
    const running = call(session, RUN, { script: 'scripts/hang.sh', args: [file] });
    const [shell, child] = await pids(file);
    session.dispose();
    await until(() => !alive(shell) && !alive(child));
    await running.catch(() => {});
  });

  test('an aborted call kills it', async () => {
    const session = await loaded(true);
    const file = path.join(tempDir(), 'pids');
    const controller = new AbortController();
    const [toolCall] = session.addAssistantMessage({
      content: '',
      toolCalls: [{ id: '', name: RUN, input: { script: 'scripts/hang.sh', args: [file] } }],
    }).toolCalls!;
    const running = session.callTool(toolCall, { signal: controller.signal });
    const [shell, child] = await pids(file);
    controller.abort();
    const result = await running;
    expect(result.isError).toBe(true);
    await until(() => !alive(shell) && !alive(child));
  });
});

test('under StrictMode (effects run twice on mount) scripts still run, and still die with the skill', async () => {
  const session = mount(
    <>
      <SkillFolder path={lab} scripts />
      <SkillFolder path={fixture('skills', 'code-review')} />
    </>,
    { maxLoadedSkills: 1, strictMode: true },
  );
  await session.readSkill('script-lab');
  expect((await call(session, RUN, { script: 'scripts/report.py' })).isError).toBeUndefined();
  const file = path.join(tempDir(), 'pids');
  const running = call(session, RUN, { script: 'scripts/hang.sh', args: [file] });
  const [shell, child] = await pids(file);
  await session.readSkill('code-review');
  expect((await running).content).toMatch(/the skill "script-lab" was unloaded; the script was killed/);
  await until(() => !alive(shell) && !alive(child));
  expect(session.warnings).toEqual([]);
});
