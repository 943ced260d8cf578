/**
 * HTML and SVG hidden in text: what makes a text file one a browser (or a Markdown renderer that
 * passes HTML through) would run. Text files are shown to people (the playground, an app's chat), so
 * a "text" file that is HTML or SVG, or that carries active markup anywhere, is refused like one.
 */

/**
 * Elements that make a text file an HTML document when it opens with them. Inline HTML that runs
 * nothing (a README's `<p align="center">`) is Markdown's own; what runs is refused wherever it is.
 */
const DOCUMENT_TAGS = new Set([
  'html',
  'head',
  'body',
  'script',
  'iframe',
  'meta',
  'base',
  'link',
  'style',
  'title',
  'object',
  'embed',
  'frameset',
  'frame',
  'template',
  'noscript',
]);

/** Elements that run something, or load or navigate, wherever they appear. */
const ACTIVE_TAGS = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'applet',
  'frame',
  'frameset',
  'meta',
  'base',
  'svg',
  'math',
  'portal',
]);

/** Event-handler attributes (`onerror=`, `onload =`), and `javascript:` / `vbscript:` URLs in an attribute. */
const ACTIVE_ATTRIBUTE = /[\s/"']on[a-z]+\s*=|=\s*["'`]?\s*(?:java|vb)script\s*:/i;

/** The longest part of a tag read: a real one is far shorter, and the scan stays linear. */
const MAX_TAG = 4096;

/** The text after its leading BOM, whitespace, comments, XML declarations and DOCTYPE, lower-cased (1 KB). */
function leadingMarkup(text: string): string {
  let head = text.slice(0, 64 * 1024);
  for (let i = 0; i < 64; i++) {
    head = head.replace(/^[\s\ufeff]+/, '');
    const close = head.startsWith('<!--')
      ? head.indexOf('-->', 4) + 3
      : head.startsWith('<?') || /^<!doctype[\s>]/i.test(head)
        ? head.indexOf('>') + 1
        : 0;
    if (close <= 0) break;
    head = head.slice(close);
  }
  return head.slice(0, 1024).toLowerCase();
}

/** The name of the tag opening at `i` (`<name` followed by a space, `/` or `>`), lower-cased, or null. */
function tagName(text: string, i: number): string | null {
  const match = /^<([a-z][a-z0-9-]*)(?=[\s/>]|$)/i.exec(text.slice(i, i + 40));
  return match ? match[1].toLowerCase() : null;
}

/**
 * What markup a text holds: `'svg'` for an SVG document, `'html'` for an HTML (or XHTML) document
 * or a text that carries active markup anywhere (a script, an iframe, an SVG, a `<meta>` refresh, an
 * event handler such as `<img onerror=…>`, a `javascript:` URL), else null. Leading comments, XML
 * declarations and a DOCTYPE are skipped before the first element is read; the scan is linear in the
 * text's length.
 */
export function markupOf(text: string): 'html' | 'svg' | null {
  const head = leadingMarkup(text);
  const first = tagName(head, 0);
  if (first === 'svg' || (head.startsWith('<') && head.includes('http://www.w3.org/2000/svg'))) return 'svg';
  if ((first && DOCUMENT_TAGS.has(first)) || head.includes('http://www.w3.org/1999/xhtml')) return 'html';
  if (/^<!doctype\s+html/i.test(text.replace(/^[\s\ufeff]+/, ''))) return 'html';
  // Active markup anywhere: each tag is read up to its `>` (or the next `<`), so no character is read twice.
  let i = text.indexOf('<');
  while (i !== -1) {
    const name = tagName(text, i);
    const next = text.indexOf('<', i + 1);
    if (name) {
      if (ACTIVE_TAGS.has(name)) return name === 'svg' ? 'svg' : 'html';
      const part = text.slice(i, Math.min(next === -1 ? text.length : next, i + MAX_TAG));
      const close = part.indexOf('>');
      if (ACTIVE_ATTRIBUTE.test(close === -1 ? part : part.slice(0, close + 1))) return 'html';
    }
    i = next;
  }
  return null;
}
