/**
 * The `engine` export as the one loader reads it, when it is hostile: a function whose Promise
 * never settles is given up on after the limit (serve would otherwise wait on nothing, and Node
 * exit without a word), one that throws or rejects is named with its reason, and a Promise export
 * (made at import, even by commands that make no engine) is refused, naming why and the fix. A
 * module that leaves a Promise rejected while it loads fails to load with the reason, instead of
 * Node ending the process. The tests wait on the rejection each case ends with.
 */
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/kit/errors.js';
import { importNotingRejections } from '../src/kit/import-rejections.js';
import { makeEngine, readModuleOptions } from '../src/kit/module-options.js';

describe('a hostile engine export ends with an error naming the module and the fix', () => {
  it('a function whose Promise never settles is given up on after the limit', async () => {
    const never = () => new Promise<never>(() => {});
    const made = makeEngine(never, 'agent.tsx', 20);
    await expect(made).rejects.toBeInstanceOf(CliError);
    await expect(made).rejects.toThrow(
      /agent\.tsx: "engine" has not returned an engine after 0\.02 s \(a Promise that never settles\?\): make sure everything engine\(\) awaits ends/,
    );
  });

  it('a function that throws, or whose Promise rejects, is named with its reason', async () => {
    const throws = () => {
      throw new Error('no database');
    };
    await expect(makeEngine(throws, 'agent.tsx')).rejects.toThrow('agent.tsx: "engine" failed: no database');
    const rejects = () => Promise.reject('vault unreachable');
    await expect(makeEngine(rejects, 'agent.tsx')).rejects.toThrow('agent.tsx: "engine" failed: vault unreachable');
  });

  it('a Promise export is refused with why it rejected and the fix, and never left unhandled', async () => {
    const { exports, rejected } = await importNotingRejections(
      async () => ({ default: null, engine: Promise.reject(new Error('vault unreachable')) }),
      'agent.tsx',
    );
    expect(() => readModuleOptions(exports, 'agent.tsx', rejected)).toThrow(
      /agent\.tsx: "engine" is a Promise \(made when the module was imported, and it rejected: vault unreachable\): export a function that makes the engine instead/,
    );
    // One that has not settled (or resolved) is refused alike: the engine is made in serving processes only.
    expect(() => readModuleOptions({ engine: new Promise(() => {}) }, 'agent.tsx')).toThrow(
      /"engine" is a Promise \(made when the module was imported\)/,
    );
  });

  it('a Promise the module leaves rejected while it loads fails the load with its reason, not the process', async () => {
    const load = importNotingRejections(async () => {
      void Promise.reject(new Error('lost connection'));
      await new Promise((resolve) => setImmediate(resolve));
      return { default: null };
    }, 'agent.tsx');
    await expect(load).rejects.toThrow(
      'Could not load agent.tsx: a Promise it made while loading rejected, and nothing handled it: lost connection.',
    );
  });
});
