/**
 * `skilltree serve` runs React's production build whatever NODE_ENV says (the development build
 * costs about twice the memory per mounted chat), unless `--react-dev` asks for the development one.
 */
import { describe, expect, it } from 'vitest';
import { chat, type ServeProcess, startServe, stopServesAfterEach } from './serve-helpers.js';

const agent = 'test/fixtures/react-build-agent.tsx';
let serve: ServeProcess | undefined;
stopServesAfterEach();

const replyText = async (url: string) => {
  const reply = await chat(url, 'c1', 'which build?');
  const last = reply.parts.at(-1);
  return last?.type === 'text' ? last.text : '';
};

describe('skilltree serve: the React build', () => {
  it('serve loads React’s production build when NODE_ENV is not set', async () => {
    serve = await startServe([agent, '--port', '0', '--model', 'demo'], { NODE_ENV: null });
    expect(await replyText(serve.url)).toBe('react=production NODE_ENV=production');
  });

  it('serve loads React’s production build even when NODE_ENV says development, and says it overrode it', async () => {
    serve = await startServe([agent, '--port', '0', '--model', 'demo'], { NODE_ENV: 'development' });
    expect(await replyText(serve.url)).toBe('react=production NODE_ENV=production');
    expect(serve.stderr()).toContain("NODE_ENV=development is set, but serve runs React's production build");
  });

  it('serve --react-dev loads React’s development build', async () => {
    serve = await startServe([agent, '--port', '0', '--model', 'demo', '--react-dev']);
    expect(await replyText(serve.url)).toBe('react=development NODE_ENV=development');
  });
});
