/**
 * `<SkillFolder>`: one Agent Skills folder as a skilltree `<Skill>`. The catalog gets the
 * frontmatter's name and description; while the model has the skill loaded, the `SKILL.md` body
 * is its instructions, the folder's file list is in its context, and it has a tool to read those
 * files (and, when opted in, one to run its scripts).
 */

import { stat } from 'node:fs/promises';
import { Instructions, Skill, Text, Tool, toolResult, useSession } from '@skilltree/core';
import { sniffMediaType, truncationNote } from '@skilltree/core/provider';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { checkRegular, RefusedPathError, readCheckedBytes, resolveInside } from './checked-paths.js';
import { readSkillFolder, type SkillFolderInfo } from './folder.js';
import { formatSize, listDirectory, listFolder } from './folder-listing.js';
import { readTextWindow } from './text-window.js';

/** The largest image or PDF the read tool returns as a file (the session's default file limit). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

import { folderToolName } from './names.js';
import { type ResolvedScripts, resolveScripts, runScript, type ScriptsOptions } from './scripts.js';

/** A warning about a folder, as `onWarning` receives it. */
export interface SkillFolderWarning {
  message: string;
  /** `agent-skills:<folder name>`: the `source` of the session's `warning` event. */
  source: string;
  /** The folder, absolute. */
  folder: string;
}

/** Options shared by {@link SkillFolder} and {@link loadSkillFolders}. */
export interface SkillFolderOptions {
  /**
   * Refuse a folder that breaks any rule of the Agent Skills specification: rendering throws a
   * `SkillFolderError` that names the file, each field and its rule, so `createSession`
   * fails. Default false: each departure is a warning and the folder is used as its author meant.
   */
  strict?: boolean;
  /**
   * Let the model run the scripts in the folder's `scripts/`: `true` for the default interpreters
   * (`.py` python3, `.sh` bash, `.js`/`.mjs` node), or the options. Default false: scripts are
   * files to read, never run. A script runs with this process's user rights: see the docs.
   */
  scripts?: boolean | ScriptsOptions;
  /** Files listed in the skill's context at most; the rest are counted. Default 100. */
  maxListedFiles?: number;
  /** Bytes of text one read returns at most (longer files come in parts). Default 65 536. */
  maxReadBytes?: number;
  /** Lines one read returns at most. Default 2 000. */
  maxReadLines?: number;
  /** Called with each warning (besides the session's `warning` event). */
  onWarning?: (warning: SkillFolderWarning) => void;
}

/** Props of {@link SkillFolder}. */
export interface SkillFolderProps extends SkillFolderOptions {
  /** The folder that holds `SKILL.md`: a path (relative to the working directory) or a `file:` URL. */
  path: string | URL;
  /** The name in the catalog, instead of the frontmatter's `name`. */
  name?: string;
  /** More of the skill, mounted with it while it is loaded: your own tools or text beside the folder's. */
  children?: ReactNode;
  /** Words a searched catalog finds this skill by, beside its name, description and `SKILL.md` body. */
  keywords?: readonly string[];
  /** In a searched catalog (`<Agent catalog="search">`), list this skill in the system prompt anyway. */
  pinned?: boolean;
  /** @internal Warnings `loadSkillFolders` found about this folder among its siblings. */
  extraWarnings?: readonly string[];
}

const DEFAULTS = { maxListedFiles: 100, maxReadBytes: 64 * 1024, maxReadLines: 2000 };

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** The JSON-safe facts the playground shows for a folder skill (the `<Skill meta>`). */
export interface SkillFolderMeta {
  kind: 'agent-skill';
  /** The folder, absolute. */
  path: string;
  skillFile: string;
  folderName: string;
  license?: string;
  compatibility?: string;
  metadata: Record<string, string>;
  allowedTools: string[];
  /** The frontmatter as parsed, unknown keys included. */
  frontmatter: Record<string, unknown>;
  files: { path: string; size: number }[];
  /** False when the folder has more files than were walked. */
  filesComplete: boolean;
  warnings: string[];
  strict: boolean;
  /** The tools the skill offers while loaded. */
  tools: { read: string; run: string | null };
  /** Interpreter per extension when scripts may run, else null. */
  scripts: Record<string, string> | null;
}

/**
 * One Agent Skills folder as a skill. Reads `SKILL.md` while rendering (cached by its
 * modification time), so a folder that strict mode refuses makes `createSession` throw.
 *
 * @example
 * <Agent>
 *   <SkillFolder path="./skills/pdf" />
 *   <SkillFolder path="./vendor/deploy" scripts={{ interpreters: { '.sh': 'bash' }, timeoutMs: 60_000 }} />
 * </Agent>
 */
export function SkillFolder(props: SkillFolderProps): ReactNode {
  const { strict = false, children } = props;
  const session = useSession();
  const info = readSkillFolder(props.path, { strict });
  const name = props.name ?? info.name;
  // An inline options object is a new object on each render: compare it by value (it is JSON data).
  const scriptsKey = JSON.stringify(props.scripts ?? false);
  const scripts = useMemo(() => resolveScripts(JSON.parse(scriptsKey) as boolean | ScriptsOptions), [scriptsKey]);
  const tools = useMemo(
    () => ({
      read: folderToolName(name, 'read_file'),
      run: scripts ? folderToolName(name, 'run_script') : null,
    }),
    [name, scripts],
  );
  // Declared for Unknown tool hints: a call of the read tool before the skill was read names it.
  const declared = useMemo(() => (tools.run ? [tools.read, tools.run] : [tools.read]), [tools]);
  const extraKey = (props.extraWarnings ?? []).join('\n');
  const warnings = useMemo(
    () => (extraKey === '' ? info.warnings : [...info.warnings, ...extraKey.split('\n')]),
    [info, extraKey],
  );
  const source = `agent-skills:${info.folderName}`;
  const onWarning = useRef(props.onWarning);
  onWarning.current = props.onWarning;
  useEffect(() => {
    for (const message of warnings) {
      session.warn(message, source);
      onWarning.current?.({ message, source, folder: info.path });
    }
  }, [session, warnings, source, info.path]);

  const meta = useMemo<SkillFolderMeta>(() => {
    const out: SkillFolderMeta = {
      kind: 'agent-skill',
      path: info.path,
      skillFile: info.skillFile,
      folderName: info.folderName,
      metadata: info.metadata,
      allowedTools: info.allowedTools,
      frontmatter: info.frontmatter,
      files: info.files,
      filesComplete: info.filesComplete,
      warnings,
      strict,
      tools,
      scripts: scripts
        ? Object.fromEntries(Object.entries(scripts.interpreters).map(([ext, argv]) => [ext, argv.join(' ')]))
        : null,
    };
    if (info.license !== undefined) out.license = info.license;
    if (info.compatibility !== undefined) out.compatibility = info.compatibility;
    return out;
  }, [info, warnings, strict, tools, scripts]);

  return (
    <Skill
      name={name}
      description={info.description}
      meta={meta as unknown as Record<string, unknown>}
      tools={declared}
      keywords={props.keywords}
      pinned={props.pinned}
      // A searched catalog finds the folder by its SKILL.md body before the model ever reads it.
      searchText={info.body}
    >
      <FolderBody
        info={info}
        skillName={name}
        tools={tools}
        scripts={scripts}
        maxListedFiles={positive(props.maxListedFiles, DEFAULTS.maxListedFiles)}
        maxReadBytes={positive(props.maxReadBytes, DEFAULTS.maxReadBytes)}
        maxReadLines={positive(props.maxReadLines, DEFAULTS.maxReadLines)}
      />
      {children}
    </Skill>
  );
}

interface BodyProps {
  info: SkillFolderInfo;
  skillName: string;
  tools: { read: string; run: string | null };
  scripts: ResolvedScripts | null;
  maxListedFiles: number;
  maxReadBytes: number;
  maxReadLines: number;
}

const readInput = z.object({
  path: z
    .string()
    .describe('A file in the skill folder, relative to it, e.g. "references/REFERENCE.md". A folder lists its files.'),
  offset: z.number().int().min(1).optional().describe('The line to start at, 1-based. Default 1.'),
  limit: z.number().int().min(1).optional().describe('How many lines to read at most.'),
});

const runInput = z.object({
  script: z.string().describe('The script, relative to the skill folder, e.g. "scripts/extract.py".'),
  args: z
    .array(z.string())
    .max(200)
    .optional()
    .describe('Arguments, passed as they are: there is no shell, so no quoting, globs, pipes or variables.'),
  stdin: z.string().optional().describe('Text for the script to read on standard input. Default: none.'),
});

const fmt = new Intl.NumberFormat('en-US');

/** Characters a read leaves for its note under the session's cap on a tool result. */
const NOTE_ROOM = 1000;

/** The skill while loaded: instructions, the file list, the tools. Unmounting it kills running scripts. */
function FolderBody({ info, skillName, tools, scripts, maxListedFiles, maxReadBytes, maxReadLines }: BodyProps) {
  // A fresh listing each time the skill loads: the folder may have changed since the catalog was read.
  const [listing] = useState(() => listFolder(info.realPath));
  const live = useRef<AbortController | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    live.current = controller;
    return () => {
      live.current = null;
      controller.abort();
    };
  }, []);

  const shown = listing.files.slice(0, maxListedFiles);
  const left = listing.files.length - shown.length;
  const lines = [
    `This skill comes from the folder "${info.folderName}". Paths in its instructions are relative to that folder; read its files with ${tools.read}.`,
    `Files in the folder (${listing.complete ? fmt.format(listing.files.length) : `more than ${fmt.format(listing.files.length)}`}):`,
    ...shown.map((f) => `${f.path} (${formatSize(f.size)})`),
  ];
  if (left > 0 || !listing.complete) {
    lines.push(
      `… and ${listing.complete ? fmt.format(left) : `more than ${fmt.format(left)}`} more files not listed; ${tools.read} with a folder path (e.g. "references") lists a folder.`,
    );
  }
  const hasScripts = listing.files.some((f) => f.path.startsWith('scripts/'));
  if (hasScripts && scripts && tools.run) {
    const kinds = Object.entries(scripts.interpreters)
      .map(([ext, argv]) => `${ext} with ${argv.join(' ')}`)
      .join(', ');
    lines.push(
      `Run the scripts in scripts/ with ${tools.run} (${kinds}; no shell; stopped after ${scripts.timeoutMs / 1000} s).`,
    );
  } else if (hasScripts) {
    lines.push(`The scripts in scripts/ cannot be run here; read them with ${tools.read} if their code helps.`);
  }

  const read = async (input: z.infer<typeof readInput>, maxResultChars: number) => {
    const { real, display } = await resolveInside(info.realPath, input.path);
    const stats = await stat(real);
    if (stats.isDirectory()) {
      const entries = await listDirectory(info.realPath, real, Math.max(maxListedFiles, 500));
      return entries.length > 0 ? `Files in ${display}/:\n${entries.join('\n')}` : `${display}/ holds no files.`;
    }
    checkRegular(stats, display);
    const limit = Math.min(input.limit ?? maxReadLines, maxReadLines);
    // A part fits the session's cap on a tool result with room for its note, so the session never
    // cuts it (and its "read the rest" note) again: a UTF-8 byte is at most one character.
    const maxBytes = Math.max(1, Math.min(maxReadBytes, maxResultChars - NOTE_ROOM));
    const window = await readTextWindow({ real, display, stats }, { offset: input.offset ?? 1, limit, maxBytes });
    if (window.kind === 'binary' && !window.from) {
      // An image or a PDF of the folder is returned as a file the model sees (the session's file
      // limits check it: its bytes decide its type, SVG is never an image); other binaries are refused.
      const bytes = await readCheckedBytes({ real, display, stats }, MAX_FILE_BYTES);
      const type = bytes ? sniffMediaType(bytes.subarray(0, 64)) : null;
      if (bytes && type && (type.startsWith('image/') || type === 'application/pdf') && type !== 'image/svg+xml') {
        return toolResult(`${display} (${type}, ${formatSize(bytes.length)}):`, {
          data: bytes,
          mediaType: type,
          filename: display,
        });
      }
    }
    if (window.kind === 'binary') {
      throw new RefusedPathError(
        window.from
          ? `Refused: "${display}" holds binary data from line ${fmt.format(window.from.line)} on (byte ${fmt.format(window.from.byte)} of ${formatSize(window.size)}), and there is no text at offset ${fmt.format(input.offset ?? 1)}; ${tools.read} reads text only.`
          : `Refused: "${display}" is a binary file (${formatSize(window.size)}); ${tools.read} reads text files only.`,
      );
    }
    if (window.last < window.first) {
      if (window.size === 0) return `${display} is empty.`;
      throw new Error(
        `"${display}" has ${window.totalLines ?? 'fewer'} lines; there is nothing at offset ${window.first}.`,
      );
    }
    if (window.binaryFrom) {
      // Text followed by binary data: the text, and a note that the rest is not returned.
      return `${window.text}\n${truncationNote(
        `lines ${window.first}–${window.last} of "${display}" (${formatSize(window.size)}) are shown; from line ${fmt.format(
          window.binaryFrom.line,
        )} on (byte ${fmt.format(window.binaryFrom.byte)}), the file holds binary data, which ${tools.read} does not return.`,
      )}`;
    }
    if (window.next === null && !window.cutLine) return window.text;
    const rest =
      window.next === null
        ? ''
        : ` Call ${tools.read} with {"path": ${JSON.stringify(display)}, "offset": ${window.next}} to read the rest.`;
    const note = window.cutLine
      ? truncationNote(
          `line ${window.last} is longer than ${fmt.format(maxBytes)} bytes; its start is shown.${
            window.next === null ? ' It is the last line.' : rest
          }`,
        )
      : truncationNote(
          `lines ${window.first}–${window.last} of "${display}" (${formatSize(window.size)}) are shown.${rest}`,
        );
    return `${window.text}\n${note}`;
  };

  const run = async (input: z.infer<typeof runInput>, signal: AbortSignal) => {
    const controller = live.current;
    if (!scripts) throw new Error('Scripts are not enabled for this skill.');
    if (!controller) throw new Error(`The skill "${skillName}" is not loaded.`);
    const both = AbortSignal.any([controller.signal, signal]);
    return runScript(info.realPath, input, scripts, both, () =>
      controller.signal.aborted ? `the skill "${skillName}" was unloaded` : 'the call was aborted',
    );
  };

  return (
    <>
      {info.body !== '' && <Instructions>{info.body}</Instructions>}
      <Text>{lines.join('\n')}</Text>
      <Tool
        name={tools.read}
        description={`Read a file of the "${skillName}" skill's folder (text only). The path is relative to the folder, e.g. "references/REFERENCE.md"; a folder path lists its files. Long files come in parts: pass offset (1-based line) to read on.`}
        input={readInput}
        run={(input, ctx) => read(input, ctx.maxResultChars)}
        meta={{ kind: 'agent-skill-read', folder: info.path }}
      />
      {scripts && tools.run && (
        <Tool
          name={tools.run}
          description={`Run a script from the "${skillName}" skill's scripts/ folder, without a shell, in the skill folder. Allowed: ${Object.keys(
            scripts.interpreters,
          ).join(
            ' ',
          )}. Returns exit code, stdout and stderr; stopped after ${scripts.timeoutMs / 1000} s; output beyond ${fmt.format(scripts.maxOutputBytes)} bytes per stream is cut.`}
          input={runInput}
          run={(input, ctx) => run(input, ctx.signal)}
          timeout={scripts.timeoutMs + 5000}
          meta={{ kind: 'agent-skill-run', folder: info.path }}
        />
      )}
    </>
  );
}
