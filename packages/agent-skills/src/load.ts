/**
 * `loadSkillFolders(dir)`: every sub-folder of `dir` that holds a `SKILL.md`, as `<SkillFolder>`
 * elements, sorted by folder name, for `<Agent>{loadSkillFolders('./skills')}</Agent>`.
 */
import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { createElement, type ReactElement } from 'react';
import { hasSkillFile, readSkillFolder, SkillFolderError, type SkillFolderInfo, toPath } from './folder.js';
import { usableSkillName } from './names.js';
import { SkillFolder, type SkillFolderOptions, type SkillFolderProps } from './skill-folder.js';

/** Options of {@link loadSkillFolders}: those of every `<SkillFolder>` it returns. */
export interface LoadSkillFoldersOptions extends SkillFolderOptions {}

function isFolder(dir: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path.join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
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
    throw error;
  }
  const names = entries
    .filter((e) => !e.name.startsWith('.') && isFolder(root, e) && hasSkillFile(path.join(root, e.name)))
    .map((e) => e.name)
    .sort();

  const infos: SkillFolderInfo[] = [];
  const refused: SkillFolderError[] = [];
  for (const name of names) {
    try {
      infos.push(readSkillFolder(path.join(root, name), { strict: options.strict }));
    } catch (error) {
      if (options.strict && error instanceof SkillFolderError) refused.push(error);
      else throw error;
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
  return elements;
}
