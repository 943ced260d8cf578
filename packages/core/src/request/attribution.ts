/**
 * What each part of the tree costs in a request (issue 34): the agent's instructions, text and
 * tools, the catalog, each loaded skill's instructions, text and tools, and the transcript. Read
 * from the tree snapshot the serializer made (each line and tool knows the skill that rendered
 * it), never by parsing the request's text. Counted on first read of `request.attribution`, with
 * every piece cached on what it is made of (a skill entry, a tool spec, a message), so a read
 * costs in proportion to the window and the loaded skills, like the request's estimate.
 */
import { toolSpec } from '../host/prompt.js';
import type { SkillEntry, TreeSnapshot } from '../host/serialize.js';
import { escapeContext } from '../parts/text.js';
import { messageTokens, type Tokenizer, tokenCounter } from '../transcript/window.js';
import type { ModelRequest, RequestAttribution, SkillAttribution, ToolSpec } from '../types/request.js';
import { estimateRequestTokens, messageEstimate, requestChars, specText } from './usage-estimate.js';

/** What the attribution of one request is read from: the tree and loaded skills it was built from. */
export interface AttributionInputs {
  snap: TreeSnapshot;
  loaded: readonly string[];
  /**
   * The loaded skills' entries when the request was built, one per name of `loaded`: a later commit
   * swaps a re-rendered skill's entry into the same catalog (host/tree-update.ts), and the
   * attribution, counted on first read, counts what the request held.
   */
  entries?: readonly (SkillEntry | undefined)[];
  /** The session's tokenizer, when it has one. */
  tokenizer?: Tokenizer;
}

/** A piece of the request: its characters, and its text for a tokenizer (made only when one asks). */
interface Piece {
  chars: number;
  text: () => string;
}

/** A loaded skill's lines as `<current_context>` carries them (escaped), by kind. */
interface SkillPieces {
  instructions: Piece;
  text: Piece;
}

function piece(text: string): Piece {
  return { chars: text.length, text: () => text };
}

/** Pieces by skill entry: an entry is kept while its subtree did not change, and so are these. */
const skillPieces = new WeakMap<SkillEntry, SkillPieces>();

function piecesOf(skill: SkillEntry): SkillPieces {
  let out = skillPieces.get(skill);
  if (!out) {
    const instructions: string[] = [];
    const text: string[] = [];
    for (const source of skill.sources) {
      (source.kind === 'instructions' ? instructions : text).push(escapeContext(source.line));
    }
    out = { instructions: piece(instructions.join('\n')), text: piece(text.join('\n')) };
    skillPieces.set(skill, out);
  }
  return out;
}

/** The agent's own pieces by snapshot: its instructions as the system prompt joins them, its text lines. */
const agentPieces = new WeakMap<TreeSnapshot, { instructions: Piece; text: Piece }>();

function agentOf(snap: TreeSnapshot): { instructions: Piece; text: Piece } {
  let out = agentPieces.get(snap);
  if (!out) {
    // As renderSystem joins them: blank blocks are left out.
    const blocks = snap.instructions.filter((block) => block.trim() !== '');
    out = {
      instructions: piece(blocks.join('\n\n')),
      text: piece(snap.agentLines.map(escapeContext).join('\n')),
    };
    agentPieces.set(snap, out);
  }
  return out;
}

/** Which skill (or null: the agent) rendered each tool spec the snapshot offers, by spec object. */
const specOwners = new WeakMap<readonly unknown[], Map<ToolSpec, string | null>>();

function ownersOf(snap: TreeSnapshot): Map<ToolSpec, string | null> {
  let out = specOwners.get(snap.tools);
  if (!out) {
    out = new Map();
    for (const entry of snap.tools) {
      // The request's specs are these very objects (one per tool while its name, description and schema stay).
      const spec = toolSpec(entry);
      if (!out.has(spec)) out.set(spec, entry.skill);
    }
    specOwners.set(snap.tools, out);
  }
  return out;
}

const specPieces = new WeakMap<ToolSpec, Piece>();

function specPiece(spec: ToolSpec): Piece {
  let out = specPieces.get(spec);
  if (!out) {
    out = piece(specText(spec));
    specPieces.set(spec, out);
  }
  return out;
}

/** Tokens of a piece's text by a tokenizer, counted once per piece and tokenizer. */
const tokensOf = tokenCounter<Piece>((part, tokenizer) => tokenizer(part.text()));

function countWith(tokenizer: Tokenizer, part: Piece): number {
  return part.chars === 0 ? 0 : tokensOf(part, tokenizer);
}

/** A sum of pieces: their characters, and their tokens by the tokenizer (or 0 without one). */
class Sum {
  chars = 0;
  tokens = 0;
  constructor(private readonly tokenizer: Tokenizer | undefined) {}
  add(part: Piece): this {
    this.chars += part.chars;
    if (this.tokenizer) this.tokens += countWith(this.tokenizer, part);
    return this;
  }
  /** Its tokens: the tokenizer's count, or the estimate's (characters / 4, rounded down so the parts never add up to more than the whole). */
  count(): number {
    return this.tokenizer ? this.tokens : Math.floor(this.chars / 4);
  }
}

/**
 * The attribution of `request`, built from `inputs` (the tree it was built from). The tools the
 * tree did not render (the read tool, or another the catalog offers) count as the catalog.
 */
export function attributeRequest(request: ModelRequest, inputs: AttributionInputs): RequestAttribution {
  const { snap, loaded, tokenizer } = inputs;
  const sum = () => new Sum(tokenizer);
  const agent = agentOf(snap);
  const instructions = sum().add(agent.instructions);
  const text = sum().add(agent.text);
  const agentTools = sum();
  const catalog = sum();
  // The system prompt is the agent's instructions, a blank line, then the catalog.
  const system = request.system;
  const before = agent.instructions.chars;
  if (system.length > before) {
    const from = before > 0 ? before + 2 : 0;
    catalog.add(catalogPiece(snap, system, from));
  }
  const owners = ownersOf(snap);
  const skillTools = new Map<string, Sum>();
  for (const spec of request.tools) {
    const owner = owners.get(spec);
    if (owner === undefined) catalog.add(specPiece(spec));
    else if (owner === null) agentTools.add(specPiece(spec));
    else {
      let tools = skillTools.get(owner);
      if (!tools) {
        tools = sum();
        skillTools.set(owner, tools);
      }
      tools.add(specPiece(spec));
    }
  }
  const skills: Record<string, SkillAttribution> = {};
  let partChars = instructions.chars + text.chars + agentTools.chars + catalog.chars;
  let partTokens = instructions.count() + text.count() + agentTools.count() + catalog.count();
  for (const [i, name] of loaded.entries()) {
    const skill = inputs.entries ? inputs.entries[i] : snap.skillsByName.get(name);
    if (!skill || skills[name]) continue;
    const pieces = piecesOf(skill);
    const own = sum().add(pieces.instructions);
    const lines = sum().add(pieces.text);
    const tools = skillTools.get(name) ?? sum();
    const cost = { instructions: own.count(), text: lines.count(), tools: tools.count(), total: 0 };
    cost.total = cost.instructions + cost.text + cost.tools;
    skills[name] = cost;
    partChars += own.chars + lines.chars + tools.chars;
    partTokens += cost.total;
  }
  const transcript = transcriptOf(request, tokenizer);
  partChars += transcript.chars;
  partTokens += transcript.tokens;
  let machinery: number;
  if (tokenizer) {
    // The tags and separators are few and short: estimated from their characters.
    machinery = Math.ceil(Math.max(0, requestChars(request) - partChars) / 4);
  } else {
    machinery = Math.max(0, estimateRequestTokens(request) - partTokens);
  }
  return {
    total: partTokens + machinery,
    instructions: instructions.count(),
    text: text.count(),
    tools: agentTools.count(),
    catalog: catalog.count(),
    transcript: transcript.tokens,
    machinery,
    skills,
    counted: tokenizer ? 'tokenizer' : 'estimate',
  };
}

/** The catalog's part of the system prompt, by snapshot (checked against the prompt, which settings may change). */
const catalogPieces = new WeakMap<TreeSnapshot, { system: string; from: number; piece: Piece }>();

function catalogPiece(snap: TreeSnapshot, system: string, from: number): Piece {
  const last = catalogPieces.get(snap);
  if (last && last.system === system && last.from === from) return last.piece;
  const out: Piece = { chars: system.length - from, text: () => system.slice(from) };
  catalogPieces.set(snap, { system, from, piece: out });
  return out;
}

/** The window's characters and tokens (files included), from each message's cached counts. */
function transcriptOf(request: ModelRequest, tokenizer: Tokenizer | undefined): { chars: number; tokens: number } {
  let chars = 0;
  let files = 0;
  let exact = 0;
  for (const message of request.messages) {
    const known = messageEstimate(message);
    chars += known.chars;
    files += known.files;
    if (tokenizer) exact += messageTokens(message, tokenizer);
  }
  return { chars, tokens: tokenizer ? exact : Math.floor(chars / 4) + files };
}
