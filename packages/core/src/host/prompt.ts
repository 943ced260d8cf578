/**
 * Turns a tree snapshot into the strings and tool specs of a request. Each piece is memoised on
 * what it depends on, so a step that changed one skill re-renders one section.
 */
import { toJSONSchema } from 'zod/v4/core';
import { escapeContext } from '../parts/text.js';
import type { LifecycleEntry, ToolSpec } from '../types/request.js';
import { catalogSection, isBuiltinTool, sameCatalog } from './catalog.js';
import { rawJsonSchema } from './json-schema.js';
import { type ToolEntry, type TreeSnapshot, toolProblems, toolRecord } from './serialize.js';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** The system prompt: agent instructions, then the catalog (listed, or how to search it; see catalog.ts). */
export function renderSystem(snap: TreeSnapshot, readToolName: string, maxLoadedSkills: number): string {
  const parts: string[] = [];
  for (const block of snap.instructions) if (block.trim()) parts.push(block);
  if (snap.skillCount > 0) parts.push(catalogSection(snap, readToolName, maxLoadedSkills));
  return parts.join('\n\n');
}

/**
 * Whether two snapshots give the same system prompt: the same agent instructions and catalog. A step
 * re-renders some skill almost every time, and comparing names is far cheaper than rebuilding a
 * catalog of hundreds of skills.
 */
export function sameSystem(a: TreeSnapshot | null, b: TreeSnapshot): boolean {
  if (a === b) return true;
  if (!a || a.instructions.length !== b.instructions.length) return false;
  for (let i = 0; i < a.instructions.length; i++) if (a.instructions[i] !== b.instructions[i]) return false;
  return sameCatalog(a, b);
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

/**
 * `<current_context>`: agent text, then each loaded skill in LRU order, the active one (last) marked.
 * `linesOf` picks a skill's lines (default: all of them; the delta layout leaves out what a load stated).
 */
export function renderContext(
  snap: TreeSnapshot,
  loaded: readonly string[],
  linesOf: (name: string, lines: string[]) => string[] = (_, lines) => lines,
): string {
  let out = '<current_context>\n';
  if (snap.agentLines.length > 0) out += `${agentSection(snap.agentLines)}\n`;
  for (let i = 0; i < loaded.length; i++) {
    const skill = snap.skillsByName.get(loaded[i]);
    if (!skill) continue;
    out += `${skillContextSection(skill.name, linesOf(skill.name, skill.lines), i === loaded.length - 1)}\n`;
  }
  return `${out}</current_context>`;
}

/** The agent's section of `<current_context>`. */
export function agentSection(lines: string[]): string {
  return `<agent>\n${body(lines)}\n</agent>`;
}

/** One loaded skill's section of `<current_context>`; the active skill's is marked. */
export function skillContextSection(name: string, lines: string[], active: boolean): string {
  const text = lines.length > 0 ? `${body(lines)}\n` : '';
  return `<skill name="${escapeAttribute(name)}"${active ? ' active="true"' : ''}>\n${text}</skill>`;
}

/** A skill that left `<current_context>` (the append-only layout says so where it happened). */
export function unloadedSection(name: string): string {
  return `<skill name="${escapeAttribute(name)}" unloaded="true"/>`;
}

/** A skill's static lines as a section of a load message (or of the re-statement). */
function skillSection(name: string, lines: readonly string[]): string {
  const text = lines.filter((line) => line.trim() !== '').map(escapeContext);
  return `<skill name="${escapeAttribute(name)}">\n${text.length > 0 ? `${text.join('\n')}\n` : ''}</skill>`;
}

const LIVE = 'Lines that change later are in <current_context> at the end.';

/**
 * The text of a delta: what a provider's mid-conversation system message says for `entries`. A load
 * states the skill's lines as they were at the load; an unload says its tools and instructions are
 * gone; tool changes carry no text (the provider's tool blocks say it).
 */
export function lifecycleText(entries: readonly LifecycleEntry[], readToolName: string): string {
  const parts: string[] = [];
  const restated = entries.filter(
    (e): e is Extract<LifecycleEntry, { type: 'loaded' }> => e.type === 'loaded' && e.restated === true,
  );
  if (restated.length > 0) {
    parts.push(
      `Skills loaded before this part of the conversation; their instructions and tools apply. ${LIVE}\n${restated
        .map((e) => skillSection(e.skill, e.lines))
        .join('\n')}`,
    );
  }
  for (const entry of entries) {
    if (entry.type === 'loaded' && !entry.restated) {
      parts.push(
        `Skill "${entry.skill}" loaded: its instructions and tools apply from here on. ${LIVE}\n${skillSection(entry.skill, entry.lines)}`,
      );
    } else if (entry.type === 'unloaded') {
      parts.push(
        `Skill "${entry.skill}" unloaded: its tools are gone and its instructions no longer apply. Read it again with ${readToolName} to use it.`,
      );
    }
  }
  return parts.join('\n\n');
}

/** A tool the request never offered at the point of a call, added right before it so the call stays valid. */
export function unofferedToolSpec(name: string): ToolSpec {
  return {
    name,
    description: 'Not offered at this point of the conversation: the call that follows was refused (Unknown tool).',
    inputSchema: { type: 'object', properties: {} },
  };
}

/**
 * Whether `tool` is offered to the model: the first of its name in tree order, not shadowing the read
 * tool (or the search tool, in search mode), and not broken. The one rule behind the request's tools and the lifecycle's deltas.
 */
export function isOffered(snap: TreeSnapshot, tool: ToolEntry, readToolName: string): boolean {
  if (snap.toolsByName.get(tool.name) !== tool) return false;
  if (isBuiltinTool(snap, tool.name, readToolName)) return false;
  // Checked once per tool entry (see toolProblems), which outlives re-renders that only change `run`.
  return toolProblems(tool).length === 0;
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

/**
 * A tool's spec: one object for as long as what it is made of (name, description, schema) stays
 * the same. Kept on the tool's record (see `ToolRecord`): confirmed by props object first (a
 * re-render that changes only `run` keeps it), then by content (a re-render that changes, say,
 * `meta` or `timeout`), so requests and the lifecycle compare equal specs by identity.
 */
export function toolSpec(tool: ToolEntry): ToolSpec {
  const props = tool.node.props;
  const record = toolRecord(tool.node);
  let spec = record?.spec;
  if (spec && record?.specProps === props && spec.name === tool.name) return spec;
  const description = String(props.description ?? '');
  const inputSchema = inputJsonSchema(props.input);
  if (!spec || spec.name !== tool.name || spec.description !== description || spec.inputSchema !== inputSchema) {
    spec = { name: tool.name, description, inputSchema };
  }
  if (record) {
    record.spec = spec;
    record.specProps = props;
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
