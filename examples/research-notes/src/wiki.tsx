/**
 * The team wiki the notes are published to, behind an interface so tests and the demo use an
 * in-memory wiki, and an app passes a real client through {@link WikiProvider}.
 */
import { createContext, type ReactNode, useContext } from 'react';

export interface WikiPage {
  title: string;
  body: string;
}

export interface WikiClient {
  /** Creates or updates a page. `authorization` is the HTTP header value, `Bearer <token>`. */
  publish(page: WikiPage, authorization: string): Promise<{ url: string; revision: number }>;
}

export interface MemoryWiki extends WikiClient {
  pages: Map<string, WikiPage & { revision: number; authorization: string }>;
}

export function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A wiki in memory. It accepts any `Bearer wk_…` token, as a real one would check it. */
export function createMemoryWiki(base = 'https://wiki.example.com/research'): MemoryWiki {
  const pages: MemoryWiki['pages'] = new Map();
  return {
    pages,
    async publish(page, authorization) {
      if (!/^Bearer wk_\w{8,}$/.test(authorization)) {
        // Like many real APIs, the error echoes what it was given. The tool redacts it.
        throw new Error(`401 Unauthorized: invalid authorization "${authorization}"`);
      }
      const key = slug(page.title);
      const revision = (pages.get(key)?.revision ?? 0) + 1;
      pages.set(key, { ...page, revision, authorization });
      return { url: `${base}/${key}`, revision };
    },
  };
}

const WikiContext = createContext<WikiClient | null>(null);

export function WikiProvider({ wiki, children }: { wiki: WikiClient; children?: ReactNode }) {
  return <WikiContext.Provider value={wiki}>{children}</WikiContext.Provider>;
}

export function useWiki(): WikiClient {
  const wiki = useContext(WikiContext);
  if (!wiki) throw new Error('useWiki() needs a <WikiProvider> above it.');
  return wiki;
}
