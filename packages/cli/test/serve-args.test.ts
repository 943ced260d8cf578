/**
 * `skilltree serve` flags and `--store` specs.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/kit/flags.js';
import { describeStore, isShared, parseStoreSpec } from '../src/kit/store.js';

const parseServeArgs = (argv: readonly string[]) => parseCliArgs(['serve', ...argv]);

describe('parseCliArgs for serve', () => {
  it('has defaults: port 3000 on 127.0.0.1, the memory store, one worker, 30 turns a minute', () => {
    expect(parseServeArgs(['agent.tsx'])).toEqual({
      command: 'serve',
      module: 'agent.tsx',
      messages: [],
      json: false,
      verbose: false,
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

describe('parseStoreSpec', () => {
  it('reads memory, sqlite:<file> (relative to the working directory), postgres:// and redis://', () => {
    expect(parseStoreSpec('memory', '/w')).toEqual({ kind: 'memory' });
    expect(parseStoreSpec('sqlite:./data/s.db', '/w')).toEqual({ kind: 'sqlite', path: '/w/data/s.db' });
    expect(parseStoreSpec('sqlite:///abs/s.db', '/w')).toEqual({ kind: 'sqlite', path: '/abs/s.db' });
    expect(parseStoreSpec('postgresql://u:p@h/db', '/w')).toEqual({
      kind: 'postgres',
      connectionString: 'postgresql://u:p@h/db',
    });
    expect(parseStoreSpec('rediss://h:6380', '/w')).toEqual({ kind: 'redis', url: 'rediss://h:6380' });
    expect(() => parseStoreSpec('sqlite:', '/w')).toThrow('needs a file');
    expect(() => parseStoreSpec('mongodb://x', '/w')).toThrow('Unknown store "mongodb://x"');
  });

  it('never shows a password, and knows which stores processes can share', () => {
    expect(describeStore(parseStoreSpec('postgres://me:secret@db:5432/app', '/w'))).toBe(
      'postgres://me:***@db:5432/app',
    );
    expect(isShared({ kind: 'memory' })).toBe(false);
    expect(isShared({ kind: 'sqlite', path: ':memory:' })).toBe(false);
    expect(isShared({ kind: 'sqlite', path: '/w/s.db' })).toBe(true);
    expect(isShared({ kind: 'redis', url: 'redis://h' })).toBe(true);
  });
});
