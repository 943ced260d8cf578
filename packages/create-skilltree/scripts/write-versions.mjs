// Runs after `tsc` in `build`: records the versions of the checkout in dist/versions.json, so a
// published create-skilltree pins the skilltree release it belongs to.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaceVersions } from '../dist/versions.js';

const here = dirname(fileURLToPath(import.meta.url));
const versions = workspaceVersions(join(here, '..', '..', '..'));
writeFileSync(join(here, '..', 'dist', 'versions.json'), `${JSON.stringify(versions, null, 2)}\n`);
