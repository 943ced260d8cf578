/**
 * An OpenAI-compatible provider built on openai() with its `provider`, `apiKeyEnv` and `reasoning`
 * options, against a local server that keeps a compatible server's rules: only `/v1/responses` and
 * `/v1/chat/completions` exist, the key goes as `Authorization: Bearer`, a refused key is a 401 with
 * the server's own body, and (as at OpenAI) a stateless request gets its reasoning's encrypted
 * content only when `include` asks for it. OpenAI's key, account headers and reasoning stay OpenAI's.
 */
import type { Message, Model, ModelRequest, ReasoningPart } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { type OpenAIOptions, openai } from '../src/openai.js';
import { collect, withEnv } from './helpers/collect.js';
import { outputItems, responseEvents, responseObject } from './helpers/openai-wire.js';
import { simpleRequest, text } from './helpers/request.js';
import { type Handler, json, serverPerTest, sse } from './helpers/server.js';

const KEY = 'acme-key';
const MODEL = 'acme-think-1';
const ROUTES = ['/v1/responses', '/v1/chat/completions'];
const REFUSED_KEY = { error: { type: 'authentication_error', code: 'invalid_api_key', message: 'Acme: unknown key.' } };

/** The compatible server's rules in front of `handler`: its routes, its auth header, its refusal body. */
function acmeRules(handler: Handler): Handler {
  return (req, res, body) => {
    if (req.method !== 'POST' || !ROUTES.includes(req.url ?? '')) {
      return json(404, { error: { type: 'not_found', message: `no route ${req.method} ${req.url}` } })(req, res, body);
    }
    if (req.headers.authorization !== `Bearer ${KEY}`) return json(401, REFUSED_KEY)(req, res, body);
    return handler(req, res, body);
  };
}

/** A reasoning model's answer: its reasoning encrypted only when the request's `include` asks. */
function thinking(stream = false): Handler {
  return acmeRules((req, res, body) => {
    const asked = body.include?.includes('reasoning.encrypted_content');
    const output = outputItems({
      reasoning: { id: 'rs_acme', summary: [], encrypted_content: asked ? 'enc-acme' : undefined },
      text: 'hello',
    });
    const answer = stream
      ? sse(responseEvents(output, undefined, MODEL))
      : json(200, responseObject(output, undefined, MODEL));
    return answer(req, res, body);
  });
}

const server = serverPerTest();

/** The compatible provider's adapter, as its file in packages/models/src would build it. */
function acme(options: Partial<OpenAIOptions> = {}) {
  return openai({
    model: MODEL,
    provider: 'acme',
    apiKeyEnv: 'ACME_API_KEY',
    baseURL: `${server.url}/v1`,
    reasoning: true,
    ...options,
  });
}

/** The model's stream of a simple request (openai() always has `stream`). */
const streamOf = (model: Model) => (model.stream as NonNullable<Model['stream']>)(simpleRequest(), {});

/** A request whose transcript holds `part` in an earlier assistant message. */
function following(part: ReasoningPart): ModelRequest {
  const messages: Message[] = [
    { role: 'user', content: text('hi') },
    { role: 'assistant', content: [part, ...text('hello')] },
    { role: 'user', content: text('and then?') },
  ];
  return { ...simpleRequest('and then?'), messages };
}

const OPENAI_ACCOUNT = { OPENAI_API_KEY: 'sk-openai', OPENAI_ORG_ID: 'org-openai', OPENAI_PROJECT_ID: 'proj-openai' };

describe('openai({ provider }): an OpenAI-compatible provider', () => {
  it('names its model <provider>:<model-id> and its reasoning after itself, replayed to itself only', async () => {
    server.queue(thinking(), thinking(), thinking());
    const model = acme({ apiKey: KEY });
    expect(model.name).toBe('acme:acme-think-1');
    expect(model.reasoningSource).toEqual({ provider: 'acme', endpoint: `${server.url}/v1`, model: MODEL });
    const first = await model.generate(simpleRequest(), {});
    const part = first.content?.[0] as ReasoningPart;
    expect(part).toMatchObject({ type: 'reasoning', provider: 'acme', endpoint: `${server.url}/v1`, model: MODEL });
    await model.generate(following(part), {});
    expect(server.requests[1].body.input).toContainEqual(expect.objectContaining({ type: 'reasoning', id: 'rs_acme' }));
    // The same model id at the same endpoint through a plain openai() is another provider: not sent.
    await openai({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1` }).generate(following(part), {});
    expect(server.requests[2].body.input).not.toContainEqual(expect.objectContaining({ type: 'reasoning' }));
  });

  it('reads its key from apiKeyEnv, never OPENAI_API_KEY, and never sends OpenAI organization or project headers', async () => {
    server.queue(thinking());
    await withEnv({ ...OPENAI_ACCOUNT, ACME_API_KEY: KEY }, () => acme().generate(simpleRequest(), {}));
    const headers = server.requests[0].headers;
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
    expect(headers['openai-organization']).toBeUndefined();
    expect(headers['openai-project']).toBeUndefined();
  });

  it('without its key fails before any request, naming its variable, even when OPENAI_API_KEY is set', async () => {
    await withEnv({ ...OPENAI_ACCOUNT, ACME_API_KEY: undefined }, async () => {
      const model = acme();
      await expect(model.generate(simpleRequest(), {})).rejects.toThrow(
        'acme: no API key. Set the ACME_API_KEY environment variable or pass { apiKey } to acme().',
      );
      await expect(collect(streamOf(model))).rejects.toThrow(/ACME_API_KEY/);
    });
    expect(server.requests).toEqual([]);
  });

  it("a refused key is the server's 401, naming the provider and its variable, not retried", async () => {
    server.queue(thinking());
    const error = await acme({ apiKey: 'wrong' })
      .generate(simpleRequest(), {})
      .then(
        () => undefined,
        (e: unknown) => e as { status?: number; provider?: string; message: string },
      );
    expect(error).toMatchObject({ status: 401, provider: 'acme' });
    expect(error?.message).toMatch(/Acme: unknown key\..*ACME_API_KEY.*acme\(\)/);
    expect(server.requests).toHaveLength(1);
  });

  it('reasoning: true asks for encrypted reasoning for a model the table does not know, so it can be sent back', async () => {
    server.queue(thinking(), thinking(true), thinking());
    const part = (await acme({ apiKey: KEY }).generate(simpleRequest(), {})).content?.[0];
    expect(part).toMatchObject({ providerData: { encryptedContent: 'enc-acme' } });
    const streamed = await collect(streamOf(acme({ apiKey: KEY })));
    expect(JSON.stringify(streamed)).toContain('enc-acme');
    await acme({ apiKey: KEY, reasoning: undefined }).generate(simpleRequest(), {});
    expect(server.requests.map((r) => r.body.include)).toEqual([
      ['reasoning.encrypted_content'],
      ['reasoning.encrypted_content'],
      undefined,
    ]);
  });

  it("has only the server's routes: another is its 404, tried once more on /chat/completions", async () => {
    // openai() takes a 404 on /responses for a server without it and retries on /chat/completions
    // once (said on stderr): a route test queues two answers and expects both requests.
    server.queue(thinking(), thinking());
    const error = await acme({ apiKey: KEY, baseURL: `${server.url}/v2` })
      .generate(simpleRequest(), {})
      .then(
        () => undefined,
        (e: unknown) => e as { status?: number; provider?: string },
      );
    expect(error).toMatchObject({ status: 404, provider: 'acme' });
    expect(server.requests.map((r) => r.url)).toEqual(['/v2/responses', '/v2/chat/completions']);
  });

  it('needs its own baseURL: without one its key would go to OpenAI', () => {
    expect(() => openai({ model: MODEL, provider: 'acme', apiKey: KEY })).toThrow(
      /provider 'acme' needs its own baseURL/,
    );
  });
});

describe("openai() at a baseURL that is not OpenAI's", () => {
  it('never sends OPENAI_API_KEY there unless apiKeyEnv names it', async () => {
    server.queue(acmeRules(json(200, responseObject(outputItems({ text: 'hi' })))));
    const baseURL = `${server.url}/v1`;
    await withEnv({ OPENAI_API_KEY: KEY }, async () => {
      await expect(openai({ model: 'gpt-4.1', baseURL }).generate(simpleRequest(), {})).rejects.toThrow(
        /does not send OPENAI_API_KEY to a baseURL that is not OpenAI's/,
      );
      expect(server.requests).toEqual([]);
      await openai({ model: 'gpt-4.1', baseURL, apiKeyEnv: 'OPENAI_API_KEY' }).generate(simpleRequest(), {});
    });
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('never sends OpenAI organization or project headers from the environment; OPENAI_BASE_URL still does', async () => {
    const answer = () => acmeRules(json(200, responseObject(outputItems({ text: 'hi' }))));
    server.queue(answer(), answer());
    const baseURL = `${server.url}/v1`;
    await withEnv({ ...OPENAI_ACCOUNT, OPENAI_API_KEY: KEY, OPENAI_BASE_URL: baseURL }, async () => {
      await openai({ model: 'gpt-4.1', baseURL, apiKey: KEY }).generate(simpleRequest(), {});
      // The user's own OpenAI setup (key, endpoint and account in OpenAI's variables) is kept whole.
      await openai({ model: 'gpt-4.1' }).generate(simpleRequest(), {});
    });
    expect(server.requests[0].headers['openai-organization']).toBeUndefined();
    expect(server.requests[0].headers['openai-project']).toBeUndefined();
    expect(server.requests[1].headers['openai-organization']).toBe('org-openai');
    expect(server.requests[1].headers['openai-project']).toBe('proj-openai');
  });
});
