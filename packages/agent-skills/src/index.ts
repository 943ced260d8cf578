/**
 * `@skilltree/agent-skills`: Agent Skills folders (a `SKILL.md` with YAML frontmatter, plus
 * `references/`, `assets/`, `scripts/`) as skilltree skills.
 *
 * @packageDocumentation
 */

export {
  MAX_SKILL_FILE_BYTES,
  type ReadSkillFolderOptions,
  readSkillFolder,
  SkillFolderError,
  type SkillFolderInfo,
} from './folder.js';
export type { FolderFile } from './folder-listing.js';
export type { SkillFolderIssue } from './frontmatter.js';
export { type LoadSkillFoldersOptions, loadSkillFolders } from './load.js';
export { folderToolName } from './names.js';
export { LIMITS, type SkillFrontmatter, SPEC_FIELDS } from './rules.js';
export { DEFAULT_INTERPRETERS, type ScriptsOptions } from './scripts.js';
export {
  SkillFolder,
  type SkillFolderMeta,
  type SkillFolderOptions,
  type SkillFolderProps,
  type SkillFolderWarning,
} from './skill-folder.js';
