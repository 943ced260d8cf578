// Bundles the served chat page's script (src/commands/serve/page/main.ts, with the AI SDK's chat
// client it runs on) into dist/commands/serve/page-script.js: one browser file that `skilltree
// serve` inlines into the page, so the page needs no file or package at run time.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'commands', 'serve', 'page-script.js');
const result = await build({
  entryPoints: [join(root, 'src', 'commands', 'serve', 'page', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  write: false,
  outfile,
  logLevel: 'warning',
});
const text = result.outputFiles[0].text;
// The script goes inside <script>…</script>: a closing tag or a comment opener in it would end or
// confuse the element. esbuild escapes `</script` in strings; this check keeps it that way.
for (const bad of ['</script', '<!--']) {
  if (text.toLowerCase().includes(bad)) throw new Error(`The page script contains "${bad}": it cannot be inlined.`);
}
const { mkdirSync, writeFileSync } = await import('node:fs');
mkdirSync(dirname(outfile), { recursive: true });
writeFileSync(outfile, text);
