// 5 MCP servers of 10–20 tools each, with JSON Schemas like the ones real servers list (GitHub,
// filesystem, database, calendar and chat servers): typed properties with descriptions, enums,
// defaults, bounds, arrays and nested objects. They run in this process over the SDK's
// InMemoryTransport.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { seeded } from './random.mjs';

const str = (description, extra = {}) => ({ type: 'string', description, ...extra });
const int = (description, extra = {}) => ({ type: 'integer', description, ...extra });
const bool = (description) => ({ type: 'boolean', description });
const list = (items, description) => ({ type: 'array', items, description });

/** Properties a tool of each server draws from; `required` ones come first in each tool. */
const FIELDS = {
  common: {
    page: int('Page number of the results to fetch (1-based).', { minimum: 1, default: 1 }),
    perPage: int('Results per page.', { minimum: 1, maximum: 100, default: 30 }),
    sort: str('What to sort the results by.', { enum: ['created', 'updated', 'name', 'relevance'] }),
    direction: str('Sort direction.', { enum: ['asc', 'desc'], default: 'desc' }),
    since: str('Only results updated at or after this time, as an ISO 8601 timestamp.', { format: 'date-time' }),
  },
  github: {
    owner: str('Repository owner: a user or organization login.'),
    repo: str('Repository name, without the owner.'),
    number: int('The issue or pull request number.', { minimum: 1 }),
    title: str('The title, one line.'),
    body: str('The body, in GitHub-flavored Markdown.'),
    state: str('Filter by state.', { enum: ['open', 'closed', 'all'], default: 'open' }),
    labels: list(str('A label name.'), 'Labels to set or filter by.'),
    assignees: list(
      str('A user login.'),
      'Logins of the users to assign. Only users with push access can be assigned.',
    ),
    branch: str('A branch name, e.g. main.'),
    base: str('The branch the changes are pulled into.'),
    head: str('The branch that holds the changes, as owner:branch for a fork.'),
    sha: str('A commit SHA, 40 hexadecimal characters.', { pattern: '^[0-9a-f]{40}$' }),
    query: str('Search query in GitHub search syntax, e.g. "is:open label:bug repo:owner/name".'),
  },
  files: {
    path: str('Path of the file or directory, relative to an allowed root.'),
    content: str('The full text to write. Existing content is replaced.'),
    encoding: str('Text encoding of the file.', { enum: ['utf-8', 'latin1', 'base64'], default: 'utf-8' }),
    pattern: str('A glob pattern, e.g. "**/*.ts". Matched against paths relative to path.'),
    exclude: list(str('A glob pattern.'), 'Patterns of paths to leave out.'),
    edits: list(
      {
        type: 'object',
        properties: { oldText: str('Text to find, exactly as in the file.'), newText: str('Text to put instead.') },
        required: ['oldText', 'newText'],
        additionalProperties: false,
      },
      'Edits to apply in order; each oldText must occur exactly once.',
    ),
    dryRun: bool('Return the diff without writing the file.'),
    recursive: bool('Include the contents of subdirectories.'),
  },
  database: {
    sql: str('One SQL statement. Use $1, $2… placeholders for values, never string concatenation.'),
    params: list({ type: ['string', 'number', 'boolean', 'null'] }, 'Values for the $n placeholders, in order.'),
    schema: str('Database schema name.', { default: 'public' }),
    table: str('Table name, unquoted.'),
    timeoutMs: int('Cancel the statement after this many milliseconds.', {
      minimum: 100,
      maximum: 60000,
      default: 5000,
    }),
    readOnly: bool('Run in a read-only transaction.'),
    columns: list(
      {
        type: 'object',
        properties: {
          name: str('Column name.'),
          type: str('SQL type, e.g. text, integer, timestamptz.'),
          nullable: bool('Whether NULL is allowed.'),
        },
        required: ['name', 'type'],
      },
      'Column definitions.',
    ),
  },
  calendar: {
    calendarId: str('Calendar identifier. Use "primary" for the user\'s main calendar.', { default: 'primary' }),
    eventId: str('Event identifier, as returned by list_events.'),
    start: str('Start time, ISO 8601 with a time zone offset.', { format: 'date-time' }),
    end: str('End time, ISO 8601 with a time zone offset. Must be after start.', { format: 'date-time' }),
    summary: str('Title of the event.'),
    description: str('Description of the event; plain text or simple HTML.'),
    attendees: list(
      {
        type: 'object',
        properties: {
          email: str('Attendee email address.', { format: 'email' }),
          optional: bool('Optional attendee.'),
        },
        required: ['email'],
      },
      'People to invite.',
    ),
    timeZone: str('IANA time zone name, e.g. Europe/Berlin.'),
    recurrence: list(str('An RRULE, EXRULE, RDATE or EXDATE line (RFC 5545).'), 'Recurrence rules.'),
    sendUpdates: str('Who is notified of the change.', { enum: ['all', 'externalOnly', 'none'], default: 'all' }),
  },
  chat: {
    channel: str('Channel ID (C…) or name with its leading #.'),
    text: str('Message text, in mrkdwn. Mention users as <@U123>.'),
    threadTs: str('Timestamp of the parent message, to reply in its thread.'),
    user: str('User ID (U…).'),
    emoji: str('Reaction name without colons, e.g. thumbsup.'),
    blocks: list(
      { type: 'object', properties: { type: str('Block type, e.g. section.') }, required: ['type'] },
      'Block Kit blocks; text is then the notification fallback.',
    ),
    cursor: str('Pagination cursor from the previous response.'),
    limit: int('How many items to return.', { minimum: 1, maximum: 1000, default: 100 }),
  },
};

const SERVERS = [
  {
    name: 'github',
    tools: 18,
    nouns: ['issue', 'pull_request', 'branch', 'commit', 'release', 'workflow_run', 'review', 'label', 'file'],
  },
  { name: 'files', tools: 12, nouns: ['file', 'directory', 'tree', 'match', 'file_info'] },
  { name: 'database', tools: 14, nouns: ['query', 'table', 'index', 'view', 'migration', 'row'] },
  { name: 'calendar', tools: 16, nouns: ['event', 'calendar', 'free_busy', 'attendee', 'reminder', 'room'] },
  { name: 'chat', tools: 11, nouns: ['message', 'channel', 'thread', 'reaction', 'user', 'file'] },
];
const VERBS = ['list', 'get', 'create', 'update', 'delete', 'search', 'merge', 'close'];

function describeTool(rnd, verb, noun, server) {
  const what = noun.replaceAll('_', ' ');
  const lines = [
    `${verb[0].toUpperCase()}${verb.slice(1)} ${verb === 'list' || verb === 'search' ? `${what}s` : `a ${what}`} in ${server}.`,
  ];
  const extra = [
    'Returns the result as JSON with the fields the API documents.',
    'Requires write access; the call fails with 403 otherwise.',
    'Results are paginated: pass page and perPage to walk them.',
    'Use this before changing anything, to check the current state.',
    'Rate limited: back off when the response says so.',
    `Prefer search_${noun}s when you do not know the exact identifier.`,
  ];
  for (const line of rnd.sample(extra, rnd.int(1, 3))) lines.push(line);
  return lines.join(' ');
}

/** The tool definitions of one server, as its `tools/list` returns them. */
function toolsOf(spec, rnd) {
  const own = Object.entries(FIELDS[spec.name]);
  const common = Object.entries(FIELDS.common);
  const tools = [];
  const seen = new Set();
  while (tools.length < spec.tools) {
    const verb = rnd.pick(VERBS);
    const noun = rnd.pick(spec.nouns);
    const name = `${verb}_${noun}${verb === 'list' || verb === 'search' ? 's' : ''}`;
    if (seen.has(name)) continue;
    seen.add(name);
    const picked = rnd.sample(own, rnd.int(2, Math.min(7, own.length)));
    if (verb === 'list' || verb === 'search') picked.push(...rnd.sample(common, rnd.int(2, 5)));
    const properties = Object.fromEntries(picked);
    const required = picked.slice(0, rnd.int(1, 2)).map(([key]) => key);
    tools.push({
      name,
      description: describeTool(rnd, verb, noun, spec.name),
      inputSchema: { type: 'object', properties, required, additionalProperties: false },
      annotations: { readOnlyHint: ['list', 'get', 'search'].includes(verb) },
    });
  }
  return tools;
}

/**
 * The 5 servers: `{ name, description, tools, connect }`, where `connect()` returns a fresh
 * client transport linked to a new server in this process (what `<McpTools transport>` takes).
 */
export function makeServers(seed = 14) {
  const rnd = seeded(seed);
  return SERVERS.map((spec) => {
    const tools = toolsOf(spec, rnd);
    const connect = () => {
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      const server = new Server({ name: spec.name, version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
      server.setRequestHandler(CallToolRequestSchema, (request) => ({
        content: [{ type: 'text', text: `${request.params.name}: ok` }],
      }));
      void server.connect(serverSide);
      return client;
    };
    const nouns = spec.nouns.map((n) => `${n.replaceAll('_', ' ')}s`);
    const description = `The ${spec.name} MCP server (${tools.length} tools): ${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}. Use when the user asks about ${nouns[0]} or ${nouns[1]}.`;
    return { name: spec.name, description, tools, connect };
  });
}
