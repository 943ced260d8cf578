// Copies the built playground into dist/playground so a published CLI serves it without the
// workspace around it. Inside the workspace the dev server also finds apps/playground/dist.
import { cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, '..', '..', 'apps', 'playground', 'dist');
if (existsSync(join(source, 'index.html'))) {
  cpSync(source, join(root, 'dist', 'playground'), { recursive: true });
} else {
  console.warn('skilltree: apps/playground is not built; `skilltree dev` will say how to build it.');
}
