import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDir } from '../helpers/tmp.js';

// After a move to PostgreSQL (DATABASE_URL), the console works on that ledger, as the bot does: an
// admin's /verify and /stats offline read it, and the console says which ledger it uses.
const ROOT = path.resolve(__dirname, '../..');
const server = await testPostgres();
afterAll(() => server?.stop());

const BANNER = "(DATABASE_URL: the bot's own ledger, so what is done here is in its history; --db <file> works on a file instead)";

/** The built console in a folder of its own (no .env there), with DATABASE_URL and these flags. */
function run(url: string, args: string[], lines: string[]) {
  const dir = tmpDir();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, DISCORD_TOKEN: '', LOG_LEVEL: '' };
  for (const v of ['DATABASE_PATH', 'DATA_DIR', 'SIGNING_KEY_FILE']) delete env[v];
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/console/main.js'), '--json', '--gm', ...args], {
    cwd: dir,
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 60_000,
    env,
  });
  const out = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
  return { ...r, dir, out };
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

if (!server) console.warn('\n*** PG_TEST_URL is unset and PostgreSQL is not installed: the console-on-PostgreSQL tests are SKIPPED. ***\n');

describe.skipIf(!server)('the console with DATABASE_URL', () => {
  it('rolls into the PostgreSQL ledger, and /verify and /stats read it; no console.db is made', async () => {
    const url = await freshDatabase(server!);
    const r = run(url, [], ['/rally disorder:2 unit:Rifles', '/verify', '/stats']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Morale Officer offline console · ledger PostgreSQL ${url} ${BANNER}\n`);
    const [rally, verify, stats] = r.out;
    expect(rally).toMatchObject({ ok: true, command: 'rally' });
    expect(verify).toMatchObject({ ok: true, command: 'verify', embed: { title: 'Ledger intact' } });
    expect(verify!.embed.description).toMatch(/^Intact: 1 row, head hash `[0-9a-f]{64}`/);
    expect(stats).toMatchObject({ ok: true, command: 'stats' });
    expect(stats!.embed.description).toMatch(/^1 roll on record · this channel/);
    const rows = await query<{ id: string; command: string }>(url, "SELECT id, command FROM rolls WHERE guild_id = 'console-guild'");
    expect(rows).toEqual([{ id: rally!.roll_id, command: 'rally' }]);
    expect(fs.existsSync(path.join(r.dir, 'data/console.db'))).toBe(false);
    // Its own files beside the bot's data: the receipt key, and the chart /stats drew.
    expect(fs.readdirSync(path.join(r.dir, 'data')).sort()).toEqual(['console-files', 'console-signing-key.json']);
    expect(path.dirname(stats!.attachments[0].path)).toBe(path.join(r.dir, 'data/console-files'));
  });

  it('--db wins over DATABASE_URL, and the banner says DATABASE_URL is not used; the database is left untouched', async () => {
    const url = await freshDatabase(server!);
    const dir = tmpDir();
    const file = path.join(dir, 'own.db');
    const r = run(url, ['--db', file], ['/rally disorder:2']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Morale Officer offline console · ledger ${file} (--db: DATABASE_URL is set and not used)\n`);
    expect(r.out).toMatchObject([{ ok: true, command: 'rally' }]);
    expect(await query(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).toEqual([]);
  });

  it('a database it cannot open is one line on stderr, without the password, and exit 1', async () => {
    const u = new URL(server!.url);
    u.username = 'postgres';
    u.password = 'hunter2-secret';
    u.pathname = '/no_such_ledger';
    const r = run(u.toString(), [], ['/rally disorder:2']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Cannot open the ledger at PostgreSQL postgres://postgres@${u.host}/no_such_ledger (DATABASE_URL): database "no_such_ledger" does not exist\n`,
    );
  });
});
