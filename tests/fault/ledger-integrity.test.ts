import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { readMigrations } from '../../src/ledger/migrate.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDir } from '../helpers/tmp.js';
import { FakeDiscord } from '../e2e/fake-discord.js';

// With pages of `rolls` overwritten the bot started, said it was ready and appended a roll
// into the malformed file; a zero-length file silently began a new chain at position 1; a schema
// from a newer version was accepted without a word. The bot (built, as `npm start` runs it) now
// refuses each, naming the file and what to do, and exits 78, which its systemd unit never restarts.
const ROOT = path.resolve(__dirname, '../..');
const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAx.INTEG0.TheIntegrityTestTokenMustNeverBeLogged98';
const GUILD = '900000000000000002';
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await new FakeDiscord([GUILD]).start();
}, 120_000);
afterAll(async () => fake?.stop());

/** The bot on this ledger file: its exit code (or 'running' once it connected, then stopped), and what it logged. */
async function startBot(db: string, args: string[] = []): Promise<{ outcome: number | 'running'; stderr: string }> {
  const env = {
    ...process.env,
    DISCORD_TOKEN: TOKEN,
    DISCORD_API_BASE: fake.apiBase,
    DATABASE_PATH: db,
    LOG_LEVEL: 'info',
    DOTENV_CONFIG_PATH: '/nonexistent',
  };
  const child = spawn(process.execPath, ['dist/main.js', ...args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const connected = new Promise<'running'>((resolve) => {
    const timer = setInterval(() => {
      if (stderr.includes('connected to Discord')) {
        clearInterval(timer);
        resolve('running');
      }
    }, 50);
    void exited.then(() => clearInterval(timer));
  });
  const outcome = await Promise.race([exited, connected]);
  if (outcome === 'running') {
    child.kill('SIGTERM');
    await exited;
  }
  return { outcome, stderr };
}

const refusal = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; reason?: string })
    .find((l) => l.msg === 'the ledger was refused')?.reason;

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A ledger of `rows` rolls, checkpointed into its file (no WAL beside it). */
function ledgerOf(rows: number): string {
  const file = path.join(tmpDir(), 'ledger.db');
  const ledger = Ledger.open(file);
  ledger.db.transaction(() => {
    for (let i = 0; i < rows; i++) ledger.append(ledgerEntry({ guildId: GUILD, input: { i, pad: 'x'.repeat(200) } }));
  })();
  ledger.close();
  return file;
}

describe('the bot refuses a ledger it must not serve from (npm start)', () => {
  it('pages of `rolls` overwritten: refused, naming the file and SQLite’s finding; nothing appended', async () => {
    const file = ledgerOf(3_000);
    // Overwrite eight pages in the middle of the rolls table, as a failing disk would.
    const fd = fs.openSync(file, 'r+');
    const size = fs.fstatSync(fd).size;
    fs.writeSync(fd, Buffer.alloc(8 * 4096, 0x5a), 0, 8 * 4096, Math.floor(size / 2 / 4096) * 4096);
    fs.closeSync(fd);
    const before = sha(file);
    const { outcome, stderr } = await startBot(file);
    expect(outcome).toBe(78);
    expect(refusal(stderr)).toMatch(
      new RegExp(
        `^the ledger ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(SQLite's check found: .+\\)\\. The bot will not write to it\\. .*restore the ledger from your backup`,
      ),
    );
    expect(sha(file)).toBe(before);
  }, 120_000);

  it('a zero-length file: refused (it would start a new chain at position 1); --new-ledger makes a new ledger there on purpose', async () => {
    const file = path.join(tmpDir(), 'ledger.db');
    fs.writeFileSync(file, '');
    const refused = await startBot(file);
    expect(refused.outcome).toBe(78);
    expect(refusal(refused.stderr)).toBe(
      `the ledger ${file} is an empty file (0 bytes): opened, it would start a new chain at position 1 as if nothing had ever been recorded. Restore it from your backup, or start a new ledger on purpose with --new-ledger.`,
    );
    expect(fs.statSync(file).size).toBe(0);
    const made = await startBot(file, ['--new-ledger']);
    expect(made.outcome).toBe('running');
    expect(made.stderr).toContain('"msg":"created a new ledger"');
    // --new-ledger never replaces a ledger that holds data.
    const again = await startBot(file, ['--new-ledger']);
    expect(again.outcome).toBe(78);
    expect(refusal(again.stderr)).toMatch(/^--new-ledger never replaces a ledger that holds data/);
  }, 120_000);

  it('a schema written by a newer version: refused, naming both versions; the file untouched', async () => {
    const file = ledgerOf(3);
    const raw = new Database(file);
    const newer = readMigrations().length + 1;
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(newer, 'from_the_future', new Date().toISOString());
    raw.close();
    const before = sha(file);
    const { outcome, stderr } = await startBot(file);
    expect(outcome).toBe(78);
    expect(refusal(stderr)).toBe(
      `the ledger ${file} has schema version ${newer}, written by a newer Morale Officer; this one knows versions up to ${newer - 1}. Run the newer version (or restore a backup made by this one): this version will not write to it.`,
    );
    expect(sha(file)).toBe(before);
  }, 120_000);

  it('no ledger where its receipt key shows one was kept: refused; a first start in an empty folder makes one; a sound ledger is served', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'ledger.db');
    const first = await startBot(file);
    expect(first.outcome).toBe('running');
    expect(first.stderr).toContain('"msg":"created a new ledger"');
    expect(fs.existsSync(path.join(dir, 'signing-key.json'))).toBe(true);
    const sound = await startBot(file);
    expect(sound.outcome).toBe('running');
    expect(sound.stderr).not.toContain('created a new ledger');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    const lost = await startBot(file);
    expect(lost.outcome).toBe(78);
    expect(refusal(lost.stderr)).toBe(
      `there is no ledger at ${file}, but one was kept here: its receipt key file ${path.join(dir, 'signing-key.json')} is still there. Restore the ledger from your backup (npm run backup made it), or start a new ledger on purpose with --new-ledger.`,
    );
  }, 120_000);
});
