/**
 * `loadSkillFolders(dir)`: every sub-folder of `dir` that holds a `SKILL.md`, as `<SkillFolder>`
 * elements, sorted by folder name, for `<Agent>{loadSkillFolders('./skills')}</Agent>`.
 */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { useSession } from '@skilltree/core';
import { createElement, type ReactElement, useEffect } from 'react';
import {
  hasSkillFile,
  labelOf,
  leftOutWarning,
  readFolderAs,
  SkillFolderError,
  type SkillFolderInfo,
  toPath,
} from './folder.js';
import { usableSkillName } from './names.js';
import {
  SkillFolder,
  type SkillFolderOptions,
  type SkillFolderProps,
  type SkillFolderWarning,
} from './skill-folder.js';

/** Options of {@link loadSkillFolders}: those of every `<SkillFolder>` it returns. */
export interface LoadSkillFoldersOptions extends SkillFolderOptions {}

/** True for a folder, or a symlink to one; `'loop'` for a symlink that leads back to itself. */
function isFolder(dir: string, entry: Dirent): boolean | 'loop' {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path.join(dir, entry.name)).isDirectory();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'loop' : false;
  }
}

/** Reports warnings about folders that `loadSkillFolders` left out, as the session's `warning` events. */
function LeftOutFolders({ warnings }: { warnings: readonly SkillFolderWarning[] }): null {
  const session = useSession();
  useEffect(() => {
    for (const warning of warnings) session.warn(warning.message, warning.source);
  }, [session, warnings]);
  return null;
}

/**
 * One `<SkillFolder>` element per sub-folder of `dir` that holds a `SKILL.md`, sorted by folder
 * name (code-unit order: the same on every machine), keyed by folder name. Folders whose name
 * starts with a dot are skipped, and so are folders without `SKILL.md`.
 *
 * Synchronous: call it while building the tree. Lenient by default: each departure from the
 * Agent Skills specification is reported (to `onWarning` now, and as a `warning` event of the
 * session once rendered), and two folders that declare one name get distinct names (the second
 * keeps its folder name). With `strict: true` it throws one `SkillFolderError` that lists every
 * refused folder with its file, fields and rules. A missing `dir` throws in both modes.
 *
 * A folder whose `SKILL.md` cannot be read safely (a symlink out of the folder, a named pipe, a
 * device, a file over 256 KB) is refused in strict mode and left out, with a warning that names it
 * and the fix, in lenient mode; so is a symlink loop among the sub-folders. A folder never makes
 * the agent hang or crash.
 *
 * @example
 * <Agent>{loadSkillFolders('./skills')}</Agent>
 * <Agent>{loadSkillFolders(new URL('./skills', import.meta.url), { strict: true })}</Agent>
 */
export function loadSkillFolders(dir: string | URL, options: LoadSkillFoldersOptions = {}): ReactElement[] {
  const root = toPath(dir);
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new Error(`loadSkillFolders: no folder at ${root} (working directory: ${process.cwd()}).`);
    }
    if (code === 'ENOTDIR')
      throw new Error(`loadSkillFolders: ${root} is a file; pass the folder that holds the skill folders.`);
    // The system's message carries the absolute path; name the folder as the caller did.
    if (code === 'ELOOP') {
      throw new Error(
        `loadSkillFolders: ${labelOf(dir, root)} is a symlink loop (it leads back to itself). Point it at a real folder.`,
      );
    }
    throw new Error(`loadSkillFolders: ${labelOf(dir, root)} cannot be read (${code ?? String(error)}).`);
  }
  const label = labelOf(dir, root);
  const leftOut: SkillFolderWarning[] = [];
  const leave = (name: string, message: string) =>
    leftOut.push({ message, source: `agent-skills:${name}`, folder: path.join(root, name) });
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const folder = isFolder(root, entry);
    if (folder === 'loop') {
      leave(
        entry.name,
        `Agent Skills folder left out: ${path.join(label, entry.name)} is a symlink loop (it leads back to itself). Point it at a real folder.`,
      );
    } else if (folder && hasSkillFile(path.join(root, entry.name))) names.push(entry.name);
  }
  names.sort();

  const infos: SkillFolderInfo[] = [];
  const refused: SkillFolderError[] = [];
  for (const name of names) {
    try {
      infos.push(readFolderAs(path.join(root, name), path.join(label, name), { strict: options.strict }));
    } catch (error) {
      if (!(error instanceof SkillFolderError)) throw error;
      // Lenient mode refuses only a SKILL.md it cannot read safely: the other folders still load.
      if (options.strict) refused.push(error);
      else leave(name, leftOutWarning(error));
    }
  }
  if (refused.length === 1) throw refused[0];
  if (refused.length > 1) {
    throw new SkillFolderError(
      refused[0].file,
      refused[0].file,
      refused.flatMap((e) => e.issues),
      `loadSkillFolders refused ${refused.length} folders (strict mode):\n\n${refused.map((e) => e.message).join('\n\n')}`,
    );
  }

  const { onWarning, ...props } = options;
  const taken = new Set<string>();
  const elements: ReactElement[] = [];
  for (const info of infos) {
    const extra: string[] = [];
    let name = info.name;
    if (taken.has(name)) {
      const base = usableSkillName(info.folderName);
      let alternative = taken.has(base) ? `${base.slice(0, 60)}-2` : base;
      for (let n = 3; taken.has(alternative); n++) alternative = `${base.slice(0, 60)}-${n}`;
      extra.push(
        `${info.displayFile}: "name" ${JSON.stringify(name)} is already used by another folder in ${root}; this skill is listed as ${JSON.stringify(alternative)}.`,
      );
      name = alternative;
    }
    taken.add(name);
    if (onWarning) {
      const source = `agent-skills:${info.folderName}`;
      for (const message of [...info.warnings, ...extra]) onWarning({ message, source, folder: info.path });
    }
    const elementProps: SkillFolderProps & { key: string } = { ...props, key: info.folderName, path: info.path };
    if (name !== info.name) elementProps.name = name;
    if (extra.length > 0) elementProps.extraWarnings = extra;
    elements.push(createElement(SkillFolder, elementProps));
  }
  if (leftOut.length > 0) {
    for (const warning of leftOut) options.onWarning?.(warning);
    elements.push(createElement(LeftOutFolders, { key: '.left-out', warnings: leftOut }));
  }
  return elements;
}
