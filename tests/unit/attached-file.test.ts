import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileText } from '../../src/core/attached-file.js';
import { UserError } from '../../src/core/user-error.js';

/** A local stand-in for Discord's file server: /ok.yaml, /latin1.yaml, anything else 404. */
let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/ok.yaml') res.end('pack: abc\n');
    else if (req.url === '/latin1.yaml') res.end(Buffer.from([0x70, 0xe9, 0x0a]));
    else if (req.url === '/big.yaml') res.end('x'.repeat(100));
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const refusal = async (p: Promise<unknown>) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UserError);
  return (err as Error).message;
};

describe('an attached file', () => {
  it('is read from the file server, as text', async () => {
    expect(await fileText({ name: 'ok.yaml', size: 10, url: `${origin}/ok.yaml` }, 100, [origin])).toEqual({ name: 'ok.yaml', text: 'pack: abc\n' });
  });

  it('is never fetched from another address than Discord’s file server', async () => {
    expect(await refusal(fileText({ name: 'ok.yaml', size: 10, url: `${origin}/ok.yaml` }, 100))).toBe(
      "ok.yaml is not on Discord's file server: it was not read.",
    );
    expect(await refusal(fileText({ name: 'x', size: 1, url: 'http://cdn.discordapp.com/x' }, 100))).toBe(
      "x is not on Discord's file server: it was not read.",
    );
  });

  it('is refused past the limit, by its stated size and by what arrives', async () => {
    expect(await refusal(fileText({ name: 'big.yaml', size: 70_000, url: `${origin}/big.yaml` }, 65_536, [origin]))).toBe(
      'big.yaml is 70,000 bytes; at most 65,536 are read.',
    );
    expect(await refusal(fileText({ name: 'big.yaml', size: 10, url: `${origin}/big.yaml` }, 50, [origin]))).toBe(
      'big.yaml is 100 bytes; at most 50 are read.',
    );
  });

  it('is refused when it is not UTF-8, cannot be read, or did not come', async () => {
    expect(await refusal(fileText({ name: 'latin1.yaml', size: 3, url: `${origin}/latin1.yaml` }, 100, [origin]))).toBe('latin1.yaml is not UTF-8 text.');
    expect(await refusal(fileText({ name: 'gone.yaml', size: 3, url: `${origin}/gone.yaml` }, 100, [origin]))).toBe(
      'gone.yaml could not be read from Discord (HTTP 404): attach it again.',
    );
    expect(await refusal(fileText(undefined, 100))).toBe('The file did not come with the command: attach it again.');
  });
});
