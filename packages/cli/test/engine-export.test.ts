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

describe('an engine export whose properties throw when read is refused, naming the export', () => {
  const hostile = {
    get register(): never {
      throw new Error('boom');
    },
  };
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
    },
  );

  it('as the export, or as what the function returns', async () => {
    for (const engine of [hostile, proxy]) {
      expect(() => readModuleOptions({ engine }, 'agent.tsx')).toThrow(
        /agent\.tsx: "engine" must be a durable engine \(with register, run, step and close\) or a function that returns one/,
      );
      // Returned, a Proxy is read as a Promise first (its `then`): either way, the export is named.
      await expect(makeEngine(() => engine as never, 'agent.tsx')).rejects.toThrow(
        /agent\.tsx: "engine" (returned object, not a durable engine|failed: trap)/,
      );
    }
  });

  it('an export with a then that throws is no Promise, and the module still loads', async () => {
    const odd = Object.defineProperty({}, 'then', {
      get() {
        throw new Error('no then');
      },
    });
    const { exports } = await importNotingRejections(async () => ({ default: null, engine: odd }), 'agent.tsx');
    expect(() => readModuleOptions(exports, 'agent.tsx')).toThrow(/"engine" must be a durable engine/);
  });
});
