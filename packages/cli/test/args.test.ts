import { describe, expect, it } from 'vitest';
import { CliError } from '../src/kit/errors.js';
import { parseCliArgs } from '../src/kit/flags.js';

function usageError(argv: string[]): CliError {
  try {
    parseCliArgs(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return error as CliError;
  }
  throw new Error(`expected ${argv.join(' ')} to fail`);
}

describe('parseCliArgs', () => {
  it('leaves everything after -- to the agent module', () => {
    const args = parseCliArgs(['chat', 'agent.tsx', '--', '--sandbox', '/tmp/x', 'extra']);
    expect(args).toMatchObject({ command: 'chat', module: 'agent.tsx' });
    expect(() => parseCliArgs(['chat', 'agent.tsx', '--sandbox', '/tmp/x'])).toThrow('Unknown flag --sandbox.');
  });

  it('parses run with messages, model and limits', () => {
    const args = parseCliArgs([
      'run',
      'agent.tsx',
      '-m',
      'hi',
      '--message',
      'again',
      '--model',
      'openai:gpt-4.1',
      '--json',
      '--max-loaded-skills',
      '2',
      '--max-transcript-messages=40',
      '--session',
      'cart',
      '--store',
      'sqlite:./s.db',
    ]);
    expect(args).toMatchObject({
      command: 'run',
      module: 'agent.tsx',
      messages: ['hi', 'again'],
      model: 'openai:gpt-4.1',
      json: true,
      maxLoadedSkills: 2,
      maxTranscriptMessages: 40,
      session: 'cart',
      store: 'sqlite:./s.db',
    });
  });

  it('parses chat, dev, --help and --version', () => {
    expect(parseCliArgs(['chat', 'a.tsx']).command).toBe('chat');
    expect(parseCliArgs(['dev', 'a.tsx', '-p', '0', '--host', '0.0.0.0'])).toMatchObject({ port: 0, host: '0.0.0.0' });
    expect(parseCliArgs(['--help']).command).toBe('help');
    expect(parseCliArgs(['--version']).version).toBe(true);
    expect(parseCliArgs(['run', '--help']).help).toBe(true);
  });

  it('parses --price for chat, run and dev into a price and its label', () => {
    expect(parseCliArgs(['run', 'a.tsx', '--price', '3,15,0.3,3.75']).price).toEqual({
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      label: '--price',
    });
    expect(parseCliArgs(['chat', 'a.tsx', '--price', 'gpt-4o']).price?.label).toMatch(/^gpt-4o, list prices of /);
    expect(parseCliArgs(['dev', 'a.tsx', '--price=1,2']).price?.price).toEqual({ input: 1, output: 2 });
    expect(parseCliArgs(['run', 'a.tsx']).price).toBeUndefined();
    expect(usageError(['run', 'a.tsx', '--price', '3']).message).toMatch(/--price needs a model from the price table/);
  });

  it('parses eval with its filters, trials, thresholds, reports and recordings', () => {
    const args = parseCliArgs([
      'eval',
      'shop.eval.tsx',
      '--case',
      'refund',
      '--case',
      'lamp',
      '--variant',
      'lru',
      '--trials',
      '3',
      '--concurrency',
      '2',
      '--threshold',
      'selection.recall >= 0.9',
      '--report',
      'r.html',
      '--replay',
      'recordings',
      '--price',
      'claude-haiku-4-5',
    ]);
    expect(args).toMatchObject({
      command: 'eval',
      module: 'shop.eval.tsx',
      case: ['refund', 'lamp'],
      variant: ['lru'],
      trials: 3,
      concurrency: 2,
      threshold: ['selection.recall >= 0.9'],
      report: ['r.html'],
      replay: 'recordings',
      price: { label: 'claude-haiku-4-5, list prices of 2025-11-01' },
    });
    expect(usageError(['eval', 'x.eval.tsx', '--max-loaded-skills', '2']).message).toMatch(
      /--max-loaded-skills is not a flag of "eval".*\nRun "skilltree eval --help" for usage\./s,
    );
    expect(usageError(['eval', 'x.eval.tsx', '--trials', '0']).message).toMatch(
      /--trials needs a whole number from 1 to 1000/,
    );
    expect(usageError(['run', 'agent.tsx', '--trials', '2']).message).toMatch(
      /--trials is not a flag of "run" \(only of eval\)/,
    );
  });

  it('refuses unknown flags, commands and bad values with usage errors', () => {
    expect(usageError(['run', 'a.tsx', '--nope']).message).toMatch(/Unknown flag --nope/);
    expect(usageError(['talk', 'a.tsx']).message).toMatch(/Unknown command "talk"/);
    expect(usageError(['a.tsx']).message).toMatch(/skilltree chat a\.tsx/);
    expect(usageError([]).message).toMatch(/Missing command/);
    expect(usageError(['chat']).message).toMatch(/Missing agent module/);
    expect(usageError(['chat', 'a.tsx', '-m', 'hi']).message).toMatch(/--message is not a flag of "chat"/);
    expect(usageError(['run', 'a.tsx', '--max-loaded-skills', '0']).message).toMatch(/whole number from 1/);
    expect(usageError(['run', 'a.tsx', '--max-transcript-messages', 'ten']).message).toMatch(/"ten"/);
    expect(usageError(['run', 'a.tsx', 'b.tsx']).message).toMatch(/Unexpected argument "b.tsx"/);
    expect(usageError(['run', 'a.tsx', '--model']).message).toMatch(/--model/);
    expect(usageError(['run', 'a.tsx', '--store', 'sqlite:s.db']).message).toMatch(/--store needs --session <name>/);
    expect(usageError(['run', 'a.tsx', '--session', 'x', '--store', ' ']).message).toMatch(/--store needs a value/);
    expect(usageError(['run', 'a.tsx', '--session', '']).message).toMatch(/--session needs a name/);
    expect(usageError(['dev', 'a.tsx', '--session', 'x']).message).toMatch(/--session is not a flag of "dev"/);
  });
});
