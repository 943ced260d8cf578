/**
 * Turns a tree snapshot into the strings and tool specs of a request. Each piece is memoised on
 * what it depends on, so a step that changed one skill re-renders one section.
 */
import { toJSONSchema } from 'zod/v4/core';
import { rawJsonSchema } from './json-schema.js';
import type { ToolEntry, TreeSnapshot } from './serialize.js';
import { escapeContext } from './text.js';
import type { ToolSpec } from './types.js';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The system prompt: agent instructions, then the catalog. */
export function renderSystem(snap: TreeSnapshot, readToolName: string, maxLoadedSkills: number): string {
  const parts: string[] = [];
  for (const block of snap.instructions) if (block.trim()) parts.push(block);
  if (snap.skills.length > 0) {
    let catalog = `## Skills\nCall ${readToolName} with a skill's name to load its instructions and tools. `;
    catalog += `At most ${maxLoadedSkills} stay loaded; reading another unloads the least recently read.`;
    for (const skill of snap.skills) {
      catalog += `\n- ${skill.name}${skill.description ? ` — ${skill.description}` : ''}`;
    }
    parts.push(catalog);
  }
  return parts.join('\n\n');
}

/**
 * Whether two snapshots give the same system prompt: the same agent instructions and catalog. A step
 * re-renders some skill almost every time, and comparing names is far cheaper than rebuilding a
 * catalog of hundreds of skills.
 */
export function sameSystem(a: TreeSnapshot | null, b: TreeSnapshot): boolean {
  if (a === b) return true;
  if (!a || a.instructions.length !== b.instructions.length || a.skills.length !== b.skills.length) return false;
  for (let i = 0; i < a.instructions.length; i++) if (a.instructions[i] !== b.instructions[i]) return false;
  for (let i = 0; i < a.skills.length; i++) {
    const x = a.skills[i];
    const y = b.skills[i];
    if (x !== y && (x.name !== y.name || x.description !== y.description)) return false;
  }
  return true;
}

const sectionCache = new WeakMap<string[], string>();

function body(lines: string[]): string {
  let out = sectionCache.get(lines);
  if (out === undefined) {
    out = lines.map(escapeContext).join('\n');
    sectionCache.set(lines, out);
  }
  return out;
}

/** `<current_context>`: agent text, then each loaded skill in LRU order, the active one (last) marked. */
export function renderContext(snap: TreeSnapshot, loaded: readonly string[]): string {
  let out = '<current_context>\n';
  if (snap.agentLines.length > 0) out += `<agent>\n${body(snap.agentLines)}\n</agent>\n`;
  for (let i = 0; i < loaded.length; i++) {
    const skill = snap.skillsByName.get(loaded[i]);
    if (!skill) continue;
    const active = i === loaded.length - 1 ? ' active="true"' : '';
    out += `<skill name="${escapeAttribute(skill.name)}"${active}>\n`;
    if (skill.lines.length > 0) out += `${body(skill.lines)}\n`;
    out += '</skill>\n';
  }
  return `${out}</current_context>`;
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {}, additionalProperties: false };
const schemaCache = new WeakMap<object, Record<string, unknown>>();

/** The JSON Schema of a tool's zod input, cached per schema object. */
export function inputJsonSchema(input: unknown): Record<string, unknown> {
  if (!input || typeof input !== 'object') return EMPTY_OBJECT_SCHEMA;
  const raw = rawJsonSchema(input);
  if (raw) return raw;
  let schema = schemaCache.get(input);
  if (!schema) {
    const { $schema: _drop, ...rest } = toJSONSchema(input as Parameters<typeof toJSONSchema>[0]) as Record<
      string,
      unknown
    >;
    schema = rest;
    schemaCache.set(input, schema);
  }
  return schema;
}

const specCache = new WeakMap<object, ToolSpec>();

/** A tool's spec, rebuilt only when its props object changed. */
export function toolSpec(tool: ToolEntry): ToolSpec {
  const props = tool.node.props;
  let spec = specCache.get(props);
  if (!spec) {
    spec = { name: tool.name, description: String(props.description ?? ''), inputSchema: inputJsonSchema(props.input) };
    specCache.set(props, spec);
  }
  return spec;
}

const readSpecs = new Map<string, ToolSpec>();

/** The built-in read tool's spec (one object per name, so requests share it). */
export function readToolSpec(name: string): ToolSpec {
  let spec = readSpecs.get(name);
  if (!spec) {
    spec = {
      name,
      description:
        'Load a skill by name: its instructions, text and tools join the request. Reading a loaded skill makes it the active one.',
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The skill name, as listed in the catalog.' } },
        required: ['name'],
        additionalProperties: false,
      },
    };
    readSpecs.set(name, spec);
  }
  return spec;
}
