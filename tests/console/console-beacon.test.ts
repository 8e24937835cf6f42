import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readiness } from '../../src/ops/readiness.js';
import { relaySource } from '../../src/beacon/relay.js';
import { chainInfoJson, FakeRelay, testChain } from '../helpers/beacon-relay.js';
import { tmpDir } from '../helpers/tmp.js';

// The console reads a beacon only when BEACON_CHAIN names one; then a scripted game binds
// and rolls as the bot does (each command gets an interaction id of the moment, as Discord's).

const ROOT = path.resolve(__dirname, '../..');
const { chain, sign } = testChain(23, 1);
let relay: FakeRelay;
beforeAll(async () => {
  relay = await new FakeRelay(chain, sign).start();
});
afterAll(() => relay?.stop());

/** The console as a child process, asynchronously: the relay it reads lives in this process. */
async function consoleWith(env: NodeJS.ProcessEnv, lines: string[]) {
  const dir = tmpDir();
  const child = promisify(execFile)('npm', ['run', '--silent', 'console', '--', '--json', '--db', path.join(dir, 'c.db')], {
    cwd: ROOT,
    env: { ...process.env, DISCORD_TOKEN: '', LOG_LEVEL: '', ...env },
    timeout: 60_000,
  });
  child.child.stdin!.end(`${lines.join('\n')}\n`);
  const { stdout } = await child;
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
}

describe('the console with BEACON_CHAIN', () => {
  it('binds a game roll to its round and prints the result once the round is out', async () => {
    const file = path.join(tmpDir(), 'chain.json');
    fs.writeFileSync(file, chainInfoJson(chain));
    const out = await consoleWith({ BEACON_CHAIN: file, BEACON_URLS: relay.url }, [
      '/game start system:hearts-of-tin name:Console',
      '/rally disorder:2 unit:Guard',
    ]);
    expect(out[0]!.ok).toBe(true);
    expect(out[1]).toMatchObject({
      ok: true,
      command: 'rally',
      bound: expect.stringMatching(/^\/rally · bound to beacon round \d+$/),
      roll_id: expect.any(String),
      result: expect.any(String),
    });
  });

  it('without it, a game is the older seeded kind (no binding)', async () => {
    const out = await consoleWith({ BEACON_CHAIN: '' }, ['/game start system:hearts-of-tin name:Console', '/rally disorder:2 unit:Guard']);
    expect(out[1]).toMatchObject({ ok: true, command: 'rally' });
    expect(out[1]!.bound).toBeUndefined();
  });

  it('a chain file that is not one stops the console, saying why', async () => {
    const file = path.join(tmpDir(), 'bad.json');
    fs.writeFileSync(file, '{"public_key":"ab"}');
    await expect(consoleWith({ BEACON_CHAIN: file }, ['/help'])).rejects.toThrow(/BEACON_CHAIN .*bad\.json: public_key: 192 lowercase hex digits/);
  });
});

describe("/readyz's body", () => {
  it('says whether the relays answer and the last round seen, and stays ready when they do not', async () => {
    const source = relaySource(chain, { urls: [relay.url] });
    const round = (await source.round(2, Date.now() + 5000)).round;
    const r = await readiness(
      'http',
      () => true,
      undefined,
      () => source.status(),
    );
    expect(r).toEqual({
      ready: true,
      mode: 'http',
      serving: true,
      writable: true,
      beacon: { chain: chain.hash, relays: 1, answering: true, lastRound: round, lastError: null },
    });
    relay.down = true;
    await expect(source.round(3, Date.now() + 200)).rejects.toThrow('no relay gave round 3 in time');
    relay.down = false;
    const down = await readiness(
      'http',
      () => true,
      undefined,
      () => source.status(),
    );
    expect(down.ready).toBe(true);
    expect(down.beacon).toMatchObject({ answering: false, lastRound: round, lastError: expect.stringContaining('answered 503') });
  });
});
