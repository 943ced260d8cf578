/** The pure parts of `skilltree dev`: timeline entries, reload summaries, JSON-safe stores, asset lookup. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ModelRequest, placeContext } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import type { TreeView } from '../src/dev/protocol.js';
import { findPlaygroundAssets } from '../src/dev/server.js';
import { contentLines, describeReload, jsonSafe, Timeline } from '../src/dev/state.js';

const tool = (name: string, description = name) => ({ name, description, inputSchema: { type: 'object' } });

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You keep notes.',
    context: '<current_context>\n<agent>\nhello\n</agent>\n</current_context>',
    messages: [{ role: 'user', content: 'hi' }],
    tools: [tool('read_skill')],
    contextPlacement: 'end',
    ...overrides,
  };
}

describe('Timeline', () => {
  it('records per step what was loaded, which tools and lines changed, and the shared prefix', () => {
    const timeline = new Timeline();
    const info = { turn: 1, step: 1, transcript: 1, generation: 1 };
    const first = timeline.request(request(), info, placeContext);
    expect(first).toMatchObject({ toolsAdded: ['read_skill'], linesAdded: 1, prefixBytes: 0, messages: 1 });

    timeline.skillLoaded('notes');
    const second = timeline.request(
      request({
        context:
          '<current_context>\n<agent>\nhello\n</agent>\n<skill name="notes" active="true">\nNotes: none\n</skill>\n</current_context>',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'notes' } }] },
          { role: 'tool', toolCallId: 'c1', name: 'read_skill', content: 'Loaded.' },
        ],
      }),
      { ...info, step: 2, transcript: 3 },
      placeContext,
    );
    expect(second).toMatchObject({ loaded: ['notes'], toolsAdded: [], linesAdded: 1, lineSamples: ['Notes: none'] });
    // Tools and system are unchanged; the first message changed only by losing the context placed on it.
    expect(second.prefixBytes).toBeGreaterThan(Buffer.byteLength(JSON.stringify([tool('read_skill')])));
    expect(second.prefixBytes).toBeLessThan(second.bytes);

    const third = timeline.request(request({ tools: [tool('read_skill'), tool('add_note')] }), info, placeContext);
    expect(third).toMatchObject({ loaded: [], toolsAdded: ['add_note'], linesRemoved: 1 });
  });

  it('strips the section markup from context lines', () => {
    expect(contentLines('<current_context>\n<skill name="a" active="true">\nx\n</skill>\n</current_context>')).toEqual([
      'x',
    ]);
  });
});

describe('describeReload', () => {
  it('says which skills, tools, schemas and context lines changed', () => {
    const tree = (skills: string[]): TreeView => ({
      agent: { props: {}, instructions: [], lines: [], tools: [] },
      skills: skills.map((name) => ({
        name,
        description: name,
        owner: 'A',
        state: 'unloaded',
        lines: [],
        tools: [],
      })),
      problems: [],
    });
    const before = {
      request: request({ tools: [tool('a'), tool('b')] }),
      tree: tree(['notes']),
    };
    const after = {
      request: request({
        system: 'You keep notes. Briefly.',
        tools: [tool('a', 'changed'), { ...tool('c') }],
        context: '<current_context>\n<agent>\nbye\n</agent>\n</current_context>',
      }),
      tree: tree(['notes', 'weather']),
    };
    expect(describeReload(before, after)).toEqual([
      'skill "weather" added',
      'tool c added',
      'tool b removed',
      'tool a: description changed',
      'system prompt changed',
      'context + bye',
      'context − hello',
    ]);
    expect(describeReload(before, before)).toEqual(['no change to the prompt or the tools']);
  });
});

describe('jsonSafe', () => {
  it('keeps data and describes functions, cycles and maps', () => {
    const state: any = { items: ['a'], add: function add() {}, when: new Date(0), tags: new Set(['x']) };
    state.self = state;
    expect(jsonSafe(state)).toEqual({
      items: ['a'],
      add: 'ƒ add()',
      when: '1970-01-01T00:00:00.000Z',
      tags: ['x'],
      self: '[circular]',
    });
  });
});

describe('findPlaygroundAssets', () => {
  it('prefers an explicit directory with an index.html', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-assets-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    expect(findPlaygroundAssets(dir)).toBe(dir);
  });
});
