/**
 * Where an eval keeps the recording of each trial: `<dir>/<suite>/<variant>/<case>-<trial>.json`,
 * every part made safe as a file name (no separators, no leading dots), so that no name in a
 * suite can write outside `dir`.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** A name as a safe file name part: lower case letters, digits, `.`, `_`, `-`; a short hash keeps distinct names apart. */
export function fileSafe(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+$/, '')
    .slice(0, 60);
  if (slug === name && slug !== '') return slug;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return slug ? `${slug}-${hash}` : hash;
}

/** The recording file of one trial. */
export function recordingFile(dir: string, suite: string, variant: string, evalCase: string, trial: number): string {
  return join(dir, fileSafe(suite), fileSafe(variant), `${fileSafe(evalCase)}-${trial}.json`);
}
