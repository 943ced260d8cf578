import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@skilltree/core';
import { providers } from '@skilltree/models';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/kit/errors.js';
import type { AgentModule } from '../src/kit/load-module.js';
import { keyVariables, modelSpecs, pickModel, readScript } from '../src/kit/pick-model.js';

const demo = { messages: ['hi'], model: () => core.scriptedModel([{ text: 'demo reply' }]) };
const withDemo: Pick<AgentModule, 'demo' | 'core'> = { core, demo };
const noDemo: Pick<AgentModule, 'demo' | 'core'> = { core };
const cwd = mkdtempSync(join(tmpdir(), 'skilltree-pick-'));

/** The CliError `promise` rejected with (fails the test when it did not). */
async function failure(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}

describe('pickModel defaults', () => {
  it('prefers the providers in the order of the table, then the demo, saying so', async () => {
    // Each provider whose key is set wins over every later one (Anthropic, then OpenAI today).
    const table = providers();
    for (const [i, provider] of table.entries()) {
      const env = Object.fromEntries(table.slice(i).map((p) => [p.apiKeyEnv, 'key']));
      const picked = await pickModel(undefined, { env, cwd, agent: withDemo });
      expect(picked.label).toBe(`${provider.prefix}:${provider.defaultModel}`);
      expect(picked.notice).toContain(`${provider.apiKeyEnv} is set`);
    }
    const d = await pickModel(undefined, { env: {}, cwd, agent: withDemo });
    expect(d.kind).toBe('demo');
    expect(d.notice).toMatch(/scripted demo/);
    expect((await d.create().generate({} as core.ModelRequest, {})).text).toBe('demo reply');
  });

  it('uses SKILLTREE_MODEL when --model is not given, and --model over it', async () => {
    const env = { SKILLTREE_MODEL: 'openai:gpt-x', OPENAI_API_KEY: 'o' };
    expect((await pickModel(undefined, { env, cwd, agent: noDemo })).label).toBe('openai:gpt-x');
    expect((await pickModel('demo', { env, cwd, agent: withDemo })).label).toBe('demo');
  });

  it("the module's model export wins over SKILLTREE_MODEL, keys and the demo; --model wins over it", async () => {
    const own: core.Model = { name: 'module:own', generate: async () => ({ text: 'own reply', toolCalls: [] }) };
    const agent = { ...withDemo, options: { model: own } };
    const env = { SKILLTREE_MODEL: 'openai:gpt-x', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' };
    const picked = await pickModel(undefined, { env, cwd, agent });
    expect(picked).toMatchObject({ kind: 'module', label: 'module:own' });
    expect(picked.create()).toBe(own);
    expect(picked.notice).toMatch(/module's "model" export \(module:own\) \(--model overrides it\)/);
    expect((await pickModel('openai:gpt-y', { env, cwd, agent })).label).toBe('openai:gpt-y');
    expect((await pickModel('demo', { env, cwd, agent })).kind).toBe('demo');
  });

  it("a module's model function is called per chat with its id and owner (chat and run: the session name)", async () => {
    const calls: [string, string | undefined][] = [];
    const factory = (id: string, owner: string | undefined): core.Model => {
      calls.push([id, owner]);
      return { generate: async () => ({ text: `${owner}/${id}`, toolCalls: [] }) };
    };
    const picked = await pickModel(undefined, { env: {}, cwd, agent: { ...noDemo, options: { model: factory } } });
    expect(picked.forChat).toBe(factory);
    expect(picked.label).toBe("the module's model");
    picked.create();
    expect(calls).toEqual([['cli', undefined]]);
  });

  it('fails clearly with no model at all', async () => {
    expect((await failure(pickModel(undefined, { env: {}, cwd, agent: noDemo }))).message).toContain(
      `No model: set ${keyVariables()}`,
    );
  });

  it('fails clearly on a provider without its key, an unknown kind, a demo that is missing', async () => {
    for (const provider of providers()) {
      const message = (await failure(pickModel(`${provider.prefix}:x`, { env: {}, cwd, agent: noDemo }))).message;
      expect(message).toContain(`needs ${provider.apiKeyEnv}`);
    }
    const unknown = await failure(pickModel('gemini:pro', { env: {}, cwd, agent: noDemo }));
    expect(unknown.exitCode).toBe(2);
    expect(unknown.message).toBe(`Unknown model "gemini:pro". Use ${modelSpecs()}.`);
    // Names of Object's own members are no providers.
    for (const spec of ['__proto__:x', 'toString', 'constructor:y']) {
      expect((await failure(pickModel(spec, { env: {}, cwd, agent: noDemo }))).exitCode, spec).toBe(2);
    }
    expect((await failure(pickModel('demo', { env: {}, cwd, agent: noDemo }))).message).toMatch(/no "demo" export/);
  });
});

describe('scripted:<file.json>', () => {
  it('plays the steps of the file', async () => {
    writeFileSync(join(cwd, 'ok.json'), JSON.stringify([{ text: 'one' }, { text: 'two' }]));
    const picked = await pickModel('scripted:ok.json', { env: {}, cwd, agent: noDemo });
    const model = picked.create();
    expect((await model.generate({} as core.ModelRequest, {})).text).toBe('one');
    expect((await model.generate({} as core.ModelRequest, {})).text).toBe('two');
    // A fresh instance starts the script again.
    expect((await picked.create().generate({} as core.ModelRequest, {})).text).toBe('one');
  });

  it('refuses files that are not scripts, naming the problem', () => {
    writeFileSync(join(cwd, 'obj.json'), '{"text":"x"}');
    writeFileSync(join(cwd, 'bad-text.json'), '[{"text":1}]');
    writeFileSync(join(cwd, 'bad-call.json'), '[{"toolCalls":[{"input":{}}]}]');
    writeFileSync(join(cwd, 'broken.json'), '[{');
    expect(() => readScript('obj.json', cwd)).toThrow(/JSON array of steps/);
    expect(() => readScript('bad-text.json', cwd)).toThrow(/step 1: "text" must be a string/);
    expect(() => readScript('bad-call.json', cwd)).toThrow(/toolCalls\[0\] needs a "name"/);
    expect(() => readScript('broken.json', cwd)).toThrow(/Could not read the script broken.json/);
    expect(() => readScript('missing.json', cwd)).toThrow(/Could not read the script missing.json/);
  });
});
