/**
 * The key crash test on DBOS: a real process runs a turn `model step → tool step` and is SIGKILLed
 * while the tool runs; another process finishes the turn once the dead one's lease expires. The
 * model was asked once per recorded step, the tool's side effect happened once (its idempotency
 * key was the same on both attempts), the chat shows one user message and one answer, and the
 * owner's budget was charged for each model call once.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '@skilltree/core';
import { ownerKey, periodOf } from '@skilltree/core/provider';
import { postgresStore } from '@skilltree/store/postgres';
import { describe, expect, test } from 'vitest';
import { hangs, logLines, scratch, startWorker } from './workers.js';

const url = process.env.SKILLTREE_TEST_POSTGRES_URL;
if (!url) {
  throw new Error(
    'These tests need PostgreSQL: run them with `bash .ci/with-services pnpm --filter @skilltree/durable test`.',
  );
}

describe('DBOS: a turn killed mid-tool', () => {
  test('another process finishes it: the model asked once per recorded step, the side effect once, one answer, charged once', async () => {
    const dir = scratch();
    const chat = `chat-${Date.now()}`;
    const base = { engine: 'dbos' as const, storeUrl: url!, dir, chat, owner: `u-${chat}` };
    const victim = startWorker({
      ...base,
      role: 'send',
      leaseTtl: 1_500,
      hang: 'tool',
      engineOptions: { connectionString: url, executorId: `victim-${chat}`, recoveryInterval: 0 },
    });
    await hangs(victim, join(dir, 'hang'));
    await victim.kill();
    const survivor = startWorker({
      ...base,
      role: 'serve',
      leaseTtl: 6_000,
      hang: 'none',
      engineOptions: { connectionString: url, executorId: `survivor-${chat}`, recoveryInterval: 200 },
    });
    try {
      const recovered = JSON.parse((await survivor.line('recovered ')).slice('recovered '.length));
      expect(recovered.error).toBeUndefined();
      expect(recovered.chatId).toBe(chat);
      // The model: step 1 in the victim (recorded), step 2 in the survivor. Never step 1 again.
      expect(logLines(dir, 'model.log').map((l) => l.split(' ').slice(1).join(' '))).toEqual(['step 1', 'step 2']);
      // The tool ran twice (the victim's attempt never returned), with one key, and charged once.
      const attempts = logLines(dir, 'attempts.log').map((l) => l.split(' ')[1]);
      expect(attempts).toHaveLength(2);
      expect(new Set(attempts).size).toBe(1);
      expect(readdirSync(join(dir, 'effects'))).toHaveLength(1);
      // Seen from outside: one user message, the call and its result, one answer.
      const store = postgresStore({ connectionString: url! });
      try {
        const { createSessions } = await import('@skilltree/core');
        const reader = createSessions(null, { store });
        const messages = await reader.messages(chat, { owner: `u-${chat}` });
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(messages.filter((m) => m.role === 'user')).toHaveLength(1);
        expect(textOf(messages[3])).toBe('Charged 500 cents.');
        expect(textOf(messages[2])).toBe('charged 500');
        // Budget: 110 tokens for step 1, 210 for step 2, each charged once.
        const spent = await store.spent(await ownerKey(base.owner), periodOf('day').key);
        expect(spent.tokens).toBe(320);
      } finally {
        await store.close();
      }
    } finally {
      await survivor.end();
    }
  });
});
