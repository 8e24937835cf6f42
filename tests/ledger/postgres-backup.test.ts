import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Reply } from '../../src/core/command.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { silentLogger } from '../../src/log.js';
import { loadOrCreateKeys } from '../../src/ops/signing-key.js';
import { alice, gm } from '../helpers/app.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDir } from '../helpers/tmp.js';

// `npm run backup` with DATABASE_URL set backs up PostgreSQL (pg_dump's custom
// format), not an unrelated SQLite file; a restore of it verifies intact.
const ROOT = path.resolve(__dirname, '../..');
const server = await testPostgres();
afterAll(() => server?.stop());

const PASSWORD = 'never-on-a-command-line-42';
const withPassword = (url: string) => {
  const u = new URL(url);
  u.password = PASSWORD;
  return u.toString();
};
/** The data directory is a fresh folder: no key file there unless the test makes one. */
const backup = (url: string, file: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['dist/src/ops/backup.js', file], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: url, DATABASE_PATH: path.join(tmpDir(), 'ledger.db'), DISCORD_TOKEN: '', ...env },
  });
const text = (r: Reply) => (r.type === 'message' ? `${r.embed.title}\n${r.embed.description}` : JSON.stringify(r));

describe.skipIf(!server)('npm run backup on PostgreSQL', () => {
  it('pg_dump in custom format, owner-only, the password kept off the command line; pg_restore of it verifies intact', async () => {
    const url = await freshDatabase(server!);
    const store = await PgStore.connect(url);
    const router = createRouter({ ledger: store, log: silentLogger });
    for (const unit of ['Rifles', 'Guards', 'Hussars'])
      expect((await router.handle({ type: 'command', name: 'rally', options: { disorder: 1, unit }, actor: alice })).type).toBe('message');
    await store.close();

    const file = path.join(tmpDir(), 'ledger.dump');
    const keys = path.join(tmpDir(), 'keys.json');
    loadOrCreateKeys(keys);
    // trust authentication accepts any password: the one in the URL must still go to PGPASSWORD only.
    const r = backup(withPassword(url), file, { SIGNING_KEY_FILE: keys });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^backed up the PostgreSQL ledger ${new URL(url).pathname.slice(1)} to .*ledger\\.dump \\(\\d+ bytes, pg_dump custom format\\)\\ncopied the receipt keys `,
      ),
    );
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(fs.readFileSync(`${file}.signing-key.json`, 'utf8')).toBe(fs.readFileSync(keys, 'utf8'));
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    // Never over an existing file.
    expect(backup(url, file).status).toBe(2);

    const restored = await freshDatabase(server!);
    const pgRestore = path.join(path.dirname(spawnSync('sh', ['-c', 'command -v pg_dump'], { encoding: 'utf8' }).stdout.trim()), 'pg_restore');
    const restore = spawnSync(pgRestore, ['--no-owner', `--dbname=${restored}`, file], { encoding: 'utf8' });
    expect(restore.status, restore.stderr).toBe(0);
    const back = await PgStore.connect(restored);
    try {
      const verdict = await createRouter({ ledger: back, log: silentLogger }).handle({ type: 'command', name: 'verify', options: {}, actor: gm });
      expect(text(verdict)).toContain('Ledger intact');
      expect(text(verdict)).toContain('3 rows');
    } finally {
      await back.close();
    }
  });

  it('without pg_dump it backs up nothing and prints the exact command to run, without the password', async () => {
    const url = await freshDatabase(server!);
    const file = path.join(tmpDir(), 'ledger.dump');
    const keys = path.join(tmpDir(), 'keys.json');
    loadOrCreateKeys(keys);
    const r = backup(withPassword(url), file, { PG_DUMP: '/nonexistent/pg_dump', SIGNING_KEY_FILE: keys });
    expect(r.status).toBe(1);
    const plain = new URL(url);
    expect(r.stderr).toContain('/nonexistent/pg_dump is not installed here, so nothing was backed up.');
    expect(r.stderr).toContain(`PGPASSWORD=… pg_dump '--format=custom' '--file=${file}' '--dbname=${plain.toString()}'`);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(fs.existsSync(file)).toBe(false);
    // Nothing half-made: not even the keys' copy.
    expect(fs.existsSync(`${file}.signing-key.json`)).toBe(false);
  });
});
