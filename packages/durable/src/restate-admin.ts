/**
 * The few calls `restateEngine` makes to a Restate server's admin API (`:9070`): register or
 * re-point a deployment, list deployments, and read the pending invocations of a service (with the
 * input they were started with) through the SQL introspection endpoint.
 */

/** A deployment as the admin API lists it: its id, where it is served, and its services' names. */
export interface RestateDeployment {
  id: string;
  uri: string;
  services: string[];
}

/** An invocation of a turn service that has not completed, with the turn it runs. */
export interface PendingTurn {
  invocationId: string;
  service: string;
  status: string;
  /** The handler's input (`{ turnId, input }`), or undefined when the journal does not show it yet. */
  request?: unknown;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, base), {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `restateEngine: ${method} ${path} on the Restate admin API (${base}) failed: ${response.status} ${text}`,
    );
  }
  return text === '' ? null : JSON.parse(text);
}

/** Every deployment the server knows. */
export async function listDeployments(admin: string): Promise<RestateDeployment[]> {
  const listed = (await call(admin, 'GET', '/deployments')) as {
    deployments: Array<{ id: string; uri?: string; services?: Array<{ name: string }> }>;
  };
  return listed.deployments.map((d) => ({
    id: d.id,
    uri: d.uri ?? '',
    services: (d.services ?? []).map((s) => s.name),
  }));
}

/** Registers the endpoint at `uri` (its services are discovered by the server). */
export async function registerDeployment(admin: string, uri: string): Promise<void> {
  await call(admin, 'POST', '/deployments', { uri, force: true });
}

/** Points deployment `id` at `uri`: the server sends its invocations (retries included) there from now on. */
export async function moveDeployment(admin: string, id: string, uri: string): Promise<void> {
  await call(admin, 'PATCH', `/deployments/${encodeURIComponent(id)}`, { uri });
}

/** Asks the server to retry an invocation now (a backing-off or paused one); a finished one is left alone. */
export async function resumeInvocation(admin: string, id: string): Promise<void> {
  await call(admin, 'PATCH', `/invocations/${encodeURIComponent(id)}/resume`).catch(() => {});
}

/** Ends an invocation for good, wherever it stands (its journal is kept for inspection). */
export async function killInvocation(admin: string, id: string): Promise<void> {
  await call(admin, 'PATCH', `/invocations/${encodeURIComponent(id)}/kill`).catch(() => {});
}

async function query(admin: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const result = (await call(admin, 'POST', '/query', { query: sql })) as { rows: Array<Record<string, unknown>> };
  return result.rows;
}

const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The invocations of `services` that have not completed, each with the input it was started with. */
export async function pendingTurns(admin: string, services: readonly string[]): Promise<PendingTurn[]> {
  if (services.length === 0) return [];
  const rows = await query(
    admin,
    `SELECT id, target_service_name, status FROM sys_invocation WHERE target_service_name IN (${services.map(quote).join(', ')}) AND status <> 'completed'`,
  );
  const pending: PendingTurn[] = [];
  for (const row of rows) {
    const invocationId = String(row.id);
    const entries = await query(
      admin,
      `SELECT entry_json FROM sys_journal WHERE id = ${quote(invocationId)} AND index = 0`,
    );
    pending.push({
      invocationId,
      service: String(row.target_service_name),
      status: String(row.status),
      request: inputOf(entries[0]?.entry_json),
    });
  }
  return pending;
}

/** The handler's JSON input out of the journal's first entry (the input command), as the server shows it. */
function inputOf(json: unknown): unknown {
  if (typeof json !== 'string') return undefined;
  try {
    const entry = JSON.parse(json) as Record<string, unknown>;
    const found = findValue(entry);
    return found === undefined ? undefined : JSON.parse(found);
  } catch {
    return undefined;
  }
}

/** The input command's payload: a byte array or a base64 string somewhere under `value`/`payload`. */
function findValue(node: unknown): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'value' || key === 'payload' || key === 'content') {
      if (Array.isArray(value) && value.every((b) => typeof b === 'number')) {
        return Buffer.from(value as number[]).toString('utf8');
      }
      if (typeof value === 'string') {
        const decoded = Buffer.from(value, 'base64').toString('utf8');
        if (decoded.startsWith('{')) return decoded;
        if (value.startsWith('{')) return value;
      }
    }
    const inner = findValue(value);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * Whether invocation `id`, started with idempotency key `key`, has not completed (one the server
 * forgot, or another invocation than the one `key` started, counts as completed).
 */
export async function invocationPending(admin: string, id: string, key: string): Promise<boolean> {
  const byKey = `SELECT id, status FROM sys_invocation WHERE idempotency_key = ${quote(key)}`;
  const rows = await query(admin, `${byKey} AND id = ${quote(id)}`).catch(async (error: unknown) => {
    // The server fails the whole query on an id it cannot parse (a forged request's): the key's
    // invocations are looked up instead, the id compared here. An outage fails this one too.
    const listed = await query(admin, byKey).catch(() => Promise.reject(error));
    return listed.filter((row) => row.id === id);
  });
  return rows.some((row) => row.status !== 'completed');
}

/** The idempotency key invocation `id` was started with (undefined: none, or no such invocation). */
export async function invocationKey(admin: string, id: string): Promise<string | undefined> {
  const rows = await query(admin, `SELECT idempotency_key FROM sys_invocation WHERE id = ${quote(id)}`);
  const key = rows[0]?.idempotency_key;
  return typeof key === 'string' ? key : undefined;
}
