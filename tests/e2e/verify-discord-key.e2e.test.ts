import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLedger } from '../../src/core/export-files.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { testChain } from '../helpers/beacon-relay.js';
import { startBeaconHttpHarness, type HttpHarness } from '../helpers/discord.js';
import { tmpDir } from '../helpers/tmp.js';
import { beaconGameExport, discordKeyOf, forgedUnderHostKey } from '../helpers/verify-corpus-pinning.js';
import { APP, checkOnPage, haveChromium, PAGE, sharedChromium } from '../helpers/verify-page.js';
import { APP_ID, type Member, originalEdit, slashCommand, slashSubcommand } from './fake-discord.js';

// Discord's key pinned by the reader. A tournament game played over HTTP interactions against a fake
// Discord, exported; `npm run verify` (the built CLI) pins Discord's key as given (--discord-key
// <hex>) or asks Discord for it (--discord-key fetch: the one request a verifier makes, and only
// then); verify.html takes it in a field of its own; bad input is refused once, saying why.
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.FAKE00.ThisIsThePinningTokenDoNotLogIt0123456';
const GUILD = '900000000000000041';
const alice: Member = { id: '300000000000000041', username: 'alice' };
const { chain, sign } = testChain(41, 1);
let h: HttpHarness;
let played: string;

/** A tournament game's start and one rally over HTTP, exported as a GM would 16 minutes on (its requests then in the file). */
async function playOverHttp(): Promise<string> {
  const start = await h.fake.postInteraction(
    h.url,
    slashSubcommand('game', 'start', { system: 'hearts-of-tin', name: 'Wavre', fair: 'tournament' }, { guildId: GUILD, member: alice }),
  );
  expect(start.status).toBe(200);
  const rally = slashCommand('rally', { disorder: 1, unit: 'Grouchy' }, { guildId: GUILD, member: alice });
  expect((await h.fake.postInteraction(h.url, rally)).status).toBe(200);
  await originalEdit(h.fake, rally.token);
  const now = Date.now() + 16 * 60_000;
  const result = await exportLedger(sqliteStore(h.app.ledger), { filter: { guildId: GUILD, kinds: 'all' }, limit: 8 * 1024 * 1024, stamp: `t${now}`, now });
  if (!result.ok) throw new Error('the export did not fit');
  return fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8');
}

beforeAll(async () => {
  h = await startBeaconHttpHarness(TOKEN, [GUILD], chain, sign);
  played = await playOverHttp();
}, 60_000);
afterAll(() => h?.stop());

/** The built CLI on an export, Discord's API at the fake (as DISCORD_API_BASE points the bot), never the real one. */
async function verify(text: string, args: string[], apiBase = h.fake.apiBase) {
  const file = path.join(tmpDir(), 'export.jsonl');
  fs.writeFileSync(file, text);
  const env = { ...process.env, DISCORD_API_BASE: apiBase };
  const out = await promisify(execFile)(process.execPath, [path.join(APP, 'dist/src/verify/main.js'), file, ...args], { cwd: APP, env }).then(
    (r) => ({ ...r, code: 0 }),
    (err: { stdout: string; stderr: string; code: number }) => err,
  );
  return { code: out.code, stdout: out.stdout.split('\n').filter(Boolean), stderr: out.stderr.trim() };
}

const HOSTS_WORD = "that key is the host's word: pin Discord's own with --discord-key or verify.html's Discord key field";

describe('npm run verify --discord-key', () => {
  it('fetch: asks Discord once for the application the signed requests name, and checks them under the key Discord gives', async () => {
    const before = h.fake.keyLookups.length;
    const got = await verify(played, ['--discord-key', 'fetch']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout[0]).toBe(
      `Discord's key for application ${APP_ID}, as ${h.fake.apiBase}/v10/applications/${APP_ID}/rpc serves it: ${h.fake.publicKeyHex}`,
    );
    expect(got.stdout.join('\n')).toContain(`signed by Discord under application key ${h.fake.publicKeyHex}, the Discord key you pinned`);
    expect(got.stdout.join('\n')).not.toContain("host's word");
    expect(got.stdout.at(-1)).toBe('verified: all holds');
    expect(h.fake.keyLookups.slice(before)).toEqual([APP_ID]);
  });

  it('without it, no request at all, and the key is the host’s word; given as hex, no request either', async () => {
    const before = h.fake.keyLookups.length;
    const unpinned = await verify(played, []);
    expect(unpinned.code, unpinned.stderr).toBe(0);
    expect(unpinned.stdout.find((l) => l.startsWith('game '))).toContain(`under application key ${h.fake.publicKeyHex} (compare it with Discord's verify_key)`);
    expect(unpinned.stdout.find((l) => l.startsWith('game '))).toContain(HOSTS_WORD);
    expect(unpinned.stdout).toContain(
      `the signed requests name Discord application ${APP_ID}: Discord serves its key as verify_key at discord.com/api/v10/applications/${APP_ID}/rpc (npm run verify -- --discord-key fetch asks it)`,
    );
    const given = await verify(played, ['--discord-key', h.fake.publicKeyHex.toUpperCase()]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout.join('\n')).toContain(`under application key ${h.fake.publicKeyHex}, the Discord key you pinned`);
    expect(h.fake.keyLookups.length).toBe(before);
  });

  it('a game the host signed whole with his own key: fetched, Discord’s key names the key the host committed', async () => {
    const forged = forgedUnderHostKey(played);
    const got = await verify(forged.text, ['--discord-key', 'fetch']);
    expect(got.code).toBe(1);
    expect(got.stdout.find((l) => l.startsWith('game '))).toMatch(
      new RegExp(`: FAILED: its first row commits application key ${forged.hostKey}, not the Discord key you pinned \\(${h.fake.publicKeyHex}\\)`),
    );
    expect(got.stdout.at(-1)).toBe('NOT verified: see above');
  });

  it('bad input is refused once, saying why, and nothing is verified (exit 2)', async () => {
    const sample = fs.readFileSync(path.join(APP, 'tests/fixtures/sample-export.jsonl'), 'utf8');
    const giveIt = 'give the key itself, --discord-key <64 hex digits>';
    const noApp = await verify(sample, ['--discord-key', 'fetch']);
    expect([noApp.code, noApp.stdout, noApp.stderr]).toEqual([
      2,
      [],
      `--discord-key fetch: the export names no Discord application (it holds no Discord-signed request): ${giveIt}`,
    ]);
    const test = testChain(42, 3);
    const unknown = await verify(await beaconGameExport(test.chain, test.sign, 1, discordKeyOf('120000000000000099')), ['--discord-key', 'fetch']);
    const url = `${h.fake.apiBase}/v10/applications/120000000000000099/rpc`;
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      `--discord-key fetch: ${url} answered 404: Discord knows no application 120000000000000099, or could not say: ${giveIt}`,
    ]);
    const unreachable = await verify(played, ['--discord-key', 'fetch'], 'http://127.0.0.1:9/api');
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(
      new RegExp(`^--discord-key fetch: could not reach http://127\\.0\\.0\\.1:9/api/v10/applications/${APP_ID}/rpc \\(.+\\): ${giveIt}$`),
    );
    const short = await verify(played, ['--discord-key', 'ab'.repeat(31)]);
    expect(short.code).toBe(2);
    expect(short.stderr.split('\n')[0]).toBe(
      `--discord-key ${'ab'.repeat(31)}: neither Discord's application public key (64 hex digits, "Public Key" on the Developer Portal's General Information page) nor fetch`,
    );
    expect(short.stdout).toEqual([]);
  });
});

const browser = sharedChromium();

describe.skipIf(!haveChromium)('verify.html’s Discord key field', () => {
  it('pins the key as the CLI does, line for line; a key that is not 64 hex digits is refused in the reader’s words; no request', async () => {
    const file = path.join(tmpDir(), 'export.jsonl');
    fs.writeFileSync(file, played);
    const requests: string[] = [];
    for (const [locale, refusal] of [
      ['en-US', "The Discord key is 64 hex digits (verify_key, or Public Key on the Developer Portal's General Information page): check what you pasted."],
      [
        'de-DE',
        'Der Discord-Schlüssel hat 64 Hex-Ziffern (verify_key, oder Public Key auf der Seite General Information im Developer Portal): prüfe, was du eingefügt hast.',
      ],
    ] as const) {
      const context = await browser().newContext({ locale });
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url !== PAGE && !url.startsWith('blob:')) requests.push(url);
        return url === PAGE || url.startsWith('blob:') ? route.continue() : route.abort();
      });
      const page = await context.newPage();
      await page.goto(PAGE);
      await page.setInputFiles('#file', file);
      await page.fill('#discord-key', `${h.fake.publicKeyHex.slice(1)}`);
      await page.click('#check');
      expect(await page.textContent('#status')).toBe(refusal);
      expect(await page.textContent('#report')).toBe('');
      await page.fill('#discord-key', h.fake.publicKeyHex);
      const got = await checkOnPage(page, {});
      const cli = await verify(played, ['--discord-key', h.fake.publicKeyHex]);
      expect(got.report).toEqual(cli.stdout);
      expect(got.report.join('\n')).toContain('the Discord key you pinned');
      await context.close();
    }
    expect(requests).toEqual([]);
  }, 120_000);
});
