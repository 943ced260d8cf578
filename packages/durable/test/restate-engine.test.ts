/**
 * What `restateEngine` says before it touches a server: the Node it needs, and a step outside a turn.
 * (Its crash behaviour is the conformance suite's, in restate-conformance.test.ts.)
 */
import { restateEngine } from '@skilltree/durable/restate';
import { describe, expect, it } from 'vitest';

describe('restateEngine', () => {
  it('on a Node without Promise.withResolvers (Node < 22) throws an error that names Node 22', () => {
    const promise = Promise as { withResolvers?: unknown };
    const saved = promise.withResolvers;
    // This test runs on any Node: it takes away what Node 22 added, as Node 20 lacks it.
    delete promise.withResolvers;
    try {
      expect(() => restateEngine({})).toThrow(/needs Node 22 or later.*Promise\.withResolvers/);
    } finally {
      if (saved) promise.withResolvers = saved;
    }
  });

  it('refuses a step outside a turn of the engine, naming the step', async () => {
    const promise = Promise as { withResolvers?: unknown };
    const saved = promise.withResolvers;
    promise.withResolvers ??= () => {
      throw new Error('unused');
    };
    try {
      const engine = restateEngine({ recoveryInterval: 0 });
      await expect(engine.step('model-1', async () => 1)).rejects.toThrow(/step model-1 ran outside a turn/);
      await engine.close();
    } finally {
      if (!saved) delete promise.withResolvers;
    }
  });
});
