/**
 * The optional exports of an agent module (`model`, `sessionOptions`, `budget`, `telemetry`,
 * `authorize`): each is checked when the module loads, and a wrong one is an error that names it.
 */
import { scriptedModel } from '@skilltree/core';
import type { TurnEngine } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/kit/errors.js';
import { makeEngine, readModuleOptions } from '../src/kit/module-options.js';

function refusal(exports: Record<string, unknown>): string {
  try {
    readModuleOptions(exports, 'agent.tsx');
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('the optional exports of an agent module', () => {
  it('reads a model, a model per chat, session options, a budget, telemetry and authorize', () => {
    const model = scriptedModel([{ text: 'hi' }]);
    const authorize = () => 'alice';
    const read = readModuleOptions(
      {
        model,
        sessionOptions: { maxSteps: 4, windowMode: 'stable' },
        budget: { perTurn: { tokens: 100 } },
        telemetry: { agentName: 'shop' },
        authorize,
      },
      'agent.tsx',
    );
    expect(read).toEqual({
      model,
      sessionOptions: { maxSteps: 4, windowMode: 'stable' },
      budget: { perTurn: { tokens: 100 } },
      telemetry: { agentName: 'shop' },
      authorize,
    });
    expect(readModuleOptions({}, 'agent.tsx')).toEqual({});
    const perChat = readModuleOptions({ model: (id: string) => scriptedModel([{ text: id }]) }, 'agent.tsx').model;
    expect(typeof perChat).toBe('function');
  });

  it('an export of the wrong shape is refused with its name and what it must be', () => {
    expect(refusal({ model: 'gpt-4.1' })).toMatch(
      /^agent\.tsx: "model" must be a model \(an object with generate\(\)\)/,
    );
    expect(refusal({ sessionOptions: 'fast' })).toMatch(/"sessionOptions" must be an object of createSessions options/);
    expect(refusal({ budget: 5 })).toMatch(/"budget" must be a budget/);
    expect(refusal({ telemetry: 'on' })).toMatch(/"telemetry" must be true, false or telemetry options/);
    expect(refusal({ authorize: 'alice' })).toMatch(/"authorize" must be a function \(request\) => userId \| null/);
  });

  it('sessionOptions may not carry what has its own export or flag, and says where it goes', () => {
    expect(refusal({ sessionOptions: { store: {} } })).toMatch(/must not hold "store": pass --store instead/);
    expect(refusal({ sessionOptions: { model: {} } })).toMatch(/must not hold "model": export it as "model" instead/);
    expect(refusal({ sessionOptions: { budget: {} } })).toMatch(/"budget": export it as "budget"/);
    expect(refusal({ sessionOptions: { telemetry: false } })).toMatch(/"telemetry": export it as "telemetry"/);
  });

  it('a model function that returns no model fails the chat that asked, naming the export', () => {
    const read = readModuleOptions({ model: () => null }, 'agent.tsx');
    expect(() => (read.model as (id: string, owner?: string) => unknown)('c1', 'alice')).toThrow(
      /agent\.tsx: "model" \(a function of the chat\) returned null, not a model with generate\(\)/,
    );
  });

  it('an engine export is an engine or a function that makes one; anything else, or a second engine, is refused', async () => {
    const engine: TurnEngine = {
      name: 'e',
      register() {},
      run: async () => ({}),
      step: (_name, fn) => fn(),
      close: async () => {},
    };
    expect(readModuleOptions({ engine }, 'agent.tsx').engine).toBe(engine);
    const factory = readModuleOptions({ engine: () => engine }, 'agent.tsx').engine;
    expect(typeof factory).toBe('function');
    expect(await makeEngine(factory as () => TurnEngine, 'agent.tsx')).toBe(engine);
    expect(refusal({ engine: 'dbos' })).toMatch(
      /"engine" must be a durable engine \(with register, run, step and close\)/,
    );
    expect(refusal({ engine: { name: 'half', run() {} } })).toMatch(/"engine" must be a durable engine/);
    expect(refusal({ engine, sessionOptions: { engine } })).toMatch(/the engine is set twice/);
    await expect(makeEngine(() => ({}) as never, 'agent.tsx')).rejects.toThrow(
      /agent\.tsx: "engine" returned object, not a durable engine/,
    );
    await expect(
      makeEngine(() => {
        throw new Error('no database');
      }, 'agent.tsx'),
    ).rejects.toThrow(/agent\.tsx: "engine" failed: no database/);
  });
});
