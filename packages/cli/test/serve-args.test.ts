/**
 * `skilltree serve` flags and `--store` specs.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/kit/errors.js';
import { parseCliArgs } from '../src/kit/flags.js';
import { chooseStore } from '../src/kit/store.js';

const parseServeArgs = (argv: readonly string[]) => parseCliArgs(['serve', ...argv]);

describe('parseCliArgs for serve', () => {
  it('has defaults: port 3000 on 127.0.0.1, the memory store, one worker, 30 turns a minute', () => {
    expect(parseServeArgs(['agent.tsx'])).toEqual({
      command: 'serve',
      module: 'agent.tsx',
      messages: [],
      json: false,
      verbose: false,
      reasoning: false,
      port: 3000,
      host: '127.0.0.1',
      store: 'memory',
      workers: 1,
      turnsPerMinute: 30,
      noPage: false,
      help: false,
      version: false,
    });
  });

  it('reads every flag', () => {
    expect(
      parseServeArgs([
        'agent.tsx',
        '-p',
        '8080',
        '--host',
        '0.0.0.0',
        '--store',
        'postgres://u@localhost/db',
        '--model',
        'demo',
        '--workers',
        '4',
        '--turns-per-minute',
        '0',
        '--max-steps',
        '5',
        '--no-page',
      ]),
    ).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      store: 'postgres://u@localhost/db',
      model: 'demo',
      workers: 4,
      turnsPerMinute: 0,
      maxSteps: 5,
      noPage: true,
    });
  });

  it('refuses unknown flags, bad numbers and a missing module with usage errors', () => {
    for (const [argv, message] of [
      [['agent.tsx', '--frob'], 'Unknown flag --frob.'],
      [['agent.tsx', '--workers', '0'], '--workers needs a whole number from 1 to 64'],
      [['agent.tsx', '--port', 'x'], '--port needs a whole number'],
      [['a.tsx', 'b.tsx'], 'Unexpected argument "b.tsx"'],
      [[], 'Missing agent module'],
      [['agent.tsx', '--store', ' '], '--store needs a value'],
    ] as const) {
      expect(() => parseServeArgs(argv), message).toThrow(message);
      try {
        parseServeArgs(argv);
      } catch (error) {
        expect((error as { exitCode: number }).exitCode).toBe(2);
      }
    }
  });
});

describe('--store', () => {
  const agent = join(import.meta.dirname, 'fixtures', 'shop-agent.tsx');

  it('is parsed by the store package next to the agent module: every backend, for every command', async () => {
    expect((await chooseStore('memory', agent, '/w')).spec).toEqual({ kind: 'memory' });
    expect((await chooseStore('sqlite:./data/s.db', agent, '/w')).spec).toEqual({
      kind: 'sqlite',
      path: '/w/data/s.db',
    });
    expect((await chooseStore('postgresql://u:p@h/db', agent, '/w')).spec).toEqual({
      kind: 'postgres',
      connectionString: 'postgresql://u:p@h/db',
    });
    expect((await chooseStore('rediss://h:6380', agent, '/w')).spec).toEqual({ kind: 'redis', url: 'rediss://h:6380' });
    for (const command of ['chat', 'run', 'serve']) {
      const extra = command === 'serve' ? [] : ['--session', 's'];
      for (const store of ['postgres://h/db', 'redis://h', 'sqlite:s.db']) {
        expect(parseCliArgs([command, 'a.tsx', ...extra, '--store', store]).store, `${command} ${store}`).toBe(store);
      }
    }
  });

  it('refuses a spec no backend takes with a usage error naming the forms', async () => {
    const error = await chooseStore('mongodb://x', agent, '/w').catch((e) => e);
    expect(error).toBeInstanceOf(CliError);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(
      /^--store: Unknown store "mongodb:\/\/x": use sqlite:<file>, postgres:\/\/…, redis:\/\/… or memory/,
    );
    await expect(chooseStore('sqlite:', agent, '/w')).rejects.toThrow('needs a file');
  });

  it('knows which stores processes can share', async () => {
    expect((await chooseStore('memory', agent, '/w')).shared).toBe(false);
    expect((await chooseStore('sqlite::memory:', agent, '/w')).shared).toBe(false);
    expect((await chooseStore('sqlite:/w/s.db', agent, '/w')).shared).toBe(true);
    expect((await chooseStore('redis://h', agent, '/w')).shared).toBe(true);
  });
});
