/**
 * Tool names for a folder skill: `<skill>_<action>`, valid for every provider (core's tool-name
 * rule, `^[a-zA-Z0-9_-]{1,64}$`) and distinct for distinct skill names.
 */
import { isToolName, replaceToolNameChars, TOOL_NAME_MAX_LENGTH } from '@skilltree/core/provider';

/** Characters of the fingerprint a cleaned name ends with, and the `-` or `_` before it. */
const MARK = 9;

/** FNV-1a over the UTF-16 code units, as 8 hex digits: a short, stable fingerprint of a name. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * `text` as a name skilltree accepts for a skill (`^[a-zA-Z0-9_-]{1,64}$`): unchanged when it is
 * one; else every run of other characters made one `-` (accents dropped), cut to fit, and a
 * fingerprint of `text` appended, so two different texts never give one name.
 *
 * @example
 * usableSkillName('pdf-tools'); // 'pdf-tools'
 * usableSkillName('PDF Tools'); // 'PDF-Tools-' + 8 hex digits
 */
export function usableSkillName(text: string): string {
  if (isToolName(text)) return text;
  const cleaned = replaceToolNameChars(text.normalize('NFKD').replace(/\p{M}/gu, ''), '-', true).replace(
    /^-+|-+$/g,
    '',
  );
  return `${cleaned.slice(0, TOOL_NAME_MAX_LENGTH - MARK) || 'skill'}-${fingerprint(text)}`;
}

/**
 * The name of a folder skill's tool: `pdf` + `read_file` → `pdf_read_file`. A skill name that
 * would make the tool name longer than 64 characters (or that has characters other than letters,
 * digits, `_` and `-`) is cut and cleaned, and a fingerprint of the full name is appended, so two
 * skills with different names never get the same tool name.
 *
 * @example
 * folderToolName('pdf', 'read_file'); // 'pdf_read_file'
 * folderToolName('a'.repeat(60), 'read_file'); // 'aaaa…aaa_92b9e111_read_file' (64 characters)
 */
export function folderToolName(skillName: string, action: string): string {
  const suffix = `_${action}`;
  const plain = `${skillName}${suffix}`;
  if (isToolName(plain) && skillName !== '') return plain;
  const cleaned = replaceToolNameChars(skillName, '_');
  const room = TOOL_NAME_MAX_LENGTH - suffix.length - MARK;
  return `${cleaned.slice(0, Math.max(0, room))}_${fingerprint(skillName)}${suffix}`;
}
