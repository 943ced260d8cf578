/**
 * The module the CLI loads: `pnpm skilltree chat examples/research-notes/agent.tsx`.
 * Set RESEARCH_WIKI_TOKEN to use your own token with the in-memory wiki (or a random demo token
 * is used). `default` is the agent; `demo` is the conversation played offline when no API key is set.
 */
import { ResearchNotes } from './src/research-agent.js';

export { demo } from './src/demo.js';
export default ResearchNotes;
