/**
 * `dbosEngine`'s names are refused before DBOS sees them: DBOS writes the schema into SQL between
 * double quotes and the executor id into each connection's name, so a hostile schema (a quote, a
 * statement, 200 characters, letters PostgreSQL would fold) or a control character in an id never
 * reaches PostgreSQL. A wait id that is not one of this engine's (`#wait:` twice, a NUL, 10 KB) is
 * refused by `signal`, naming the rule, before DBOS launches. No database is needed: every refusal
 * happens first.
 */
import { WaitUndeliverableError } from '@skilltree/core/provider';
import { describe, expect, test } from 'vitest';
import { dbosEngine } from '../src/dbos.js';

/** A database nobody listens on: reaching it would fail (or hang), so passing means it was never asked. */
const connectionString = 'postgres://nobody@127.0.0.1:1/none';

describe('dbosEngine refuses a schema that is not a plain PostgreSQL identifier', () => {
  test.each([
    ['a statement', '"; drop table x; --'],
    ['a double quote', 'dbos"x'],
    ['a single quote', "dbos'x"],
    ['200 characters', 'a'.repeat(200)],
    ['64 characters (PostgreSQL would cut it to 63)', 'a'.repeat(64)],
    ['upper case (PostgreSQL would fold it)', 'Dbos'],
    ['unicode letters', 'schéma'],
    ['an emoji', 'dbos_😀'],
    ['a leading digit', '1dbos'],
    ['a system prefix', 'pg_turns'],
    ['a dot', 'public.dbos'],
    ['empty', ''],
    ['not a string', 42],
  ])('%s', (_what, schema) => {
    expect(() => dbosEngine({ connectionString, schema: schema as string })).toThrow(TypeError);
    expect(() => dbosEngine({ connectionString, schema: schema as string })).toThrow(
      /dbosEngine: schema .* is not a plain PostgreSQL schema name: use 1 to 63 lower-case ASCII letters, digits and underscores.*e\.g\. \{ schema: 'skilltree_dbos' \}/,
    );
  });

  test('a plain name of up to 63 characters is taken', async () => {
    const engine = dbosEngine({ connectionString, schema: `s_${'a'.repeat(61)}` });
    await engine.close();
  });
});

describe('dbosEngine refuses an executorId or appName with control characters or of the wrong length', () => {
  test.each([
    ['executorId', 'worker\u0000one'],
    ['executorId', 'worker\none'],
    ['executorId', 'w'.repeat(101)],
    ['executorId', ''],
    ['appName', 'shop\u0000'],
    ['appName', 'a'.repeat(200)],
    ['appName', { toString: (): string => 'shop' }],
  ])('%s %j', (option, value) => {
    expect(() => dbosEngine({ connectionString, [option]: value })).toThrow(
      new RegExp(`dbosEngine: ${option} .* must be 1 to 100 characters without control characters`),
    );
  });

  test('the refusal leaves no engine behind: a good engine can be made next', async () => {
    expect(() => dbosEngine({ connectionString, executorId: 'a\u0000b' })).toThrow(TypeError);
    const engine = dbosEngine({ connectionString, executorId: 'host-1 (eu)', appName: 'Shop ✓' });
    await engine.close();
  });
});

describe("dbosEngine's signal refuses a wait id that is not one of its waits, before DBOS launches, as undeliverable (never sent again)", () => {
  test.each([
    ['#wait: twice', 'skilltree-turn-a#wait:b#wait:answers'],
    ['no #wait:', 'skilltree-turn-a'],
    ['a NUL', 'skilltree-turn-a\u0000#wait:answers'],
    ['10 KB', `${'a'.repeat(10_240)}#wait:answers`],
    ['an empty workflow', '#wait:answers'],
    ['an empty topic', 'skilltree-turn-a#wait:'],
    ['not a string', { toString: (): string => 'x#wait:answers' }],
  ])('%s', async (_what, waitId) => {
    const engine = dbosEngine({ connectionString });
    try {
      const sent = (engine.signal as (id: unknown, v: unknown) => Promise<void>)(waitId, { text: 'x' });
      await expect(sent).rejects.toThrow(
        /dbosEngine: .* names no wait of this engine \(.*\); pass the id wait\(\) gave/,
      );
      await expect(sent).rejects.toBeInstanceOf(WaitUndeliverableError);
    } finally {
      await engine.close();
    }
  });
});
