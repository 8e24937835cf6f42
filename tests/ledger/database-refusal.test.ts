import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PgLedger } from '../../src/ledger/postgres/pg-ledger.js';
import { databaseRefusal } from '../../src/ops/database-refusal.js';
import { testPostgres } from '../helpers/postgres.js';
import { tmpDb, tmpDir } from '../helpers/tmp.js';

// A PostgreSQL server that answers and refuses (no such database, an unknown role, a database the
// role does not own) is a refusal a restart cannot mend: one line naming what to type, exit 78, in
// the bot and in the admin commands alike. A server that cannot be reached is not one (it is waited for).
const ROOT = path.resolve(__dirname, '../..');
const server = await testPostgres();
afterAll(() => server?.stop());

const PASSWORD = 'never-shown-31337';
const URL_OF = `postgres://bot:${PASSWORD}@db.example:6543/ledger`;

describe('which errors are refusals, and the line for each', () => {
  it('no such database, a wrong password, an unknown role, no right to make tables: each its line, never the password', () => {
    const said = (code: string, message: string) => databaseRefusal({ code, message }, URL_OF);
    expect(said('3D000', 'database "ledger" does not exist')).toBe(
      'there is no database "ledger" on the PostgreSQL server at db.example:6543: create it (sudo -u postgres createdb --owner=bot ledger) or correct DATABASE_URL',
    );
    expect(said('28P01', 'password authentication failed for user "bot"')).toBe(
      'the PostgreSQL server at db.example:6543 refused user "bot" for database "ledger" (password authentication failed for user "bot"): correct the password in DATABASE_URL',
    );
    expect(said('28000', 'role "bot" does not exist')).toBe(
      'the PostgreSQL server at db.example:6543 refused user "bot" for database "ledger" (role "bot" does not exist): correct the user in DATABASE_URL, or create the role (sudo -u postgres createuser --pwprompt bot)',
    );
    expect(said('42501', 'permission denied for schema public')).toBe(
      `user "bot" may not set up the ledger in database "ledger" on the PostgreSQL server at db.example:6543 (permission denied for schema public): make the database the user's own (sudo -u postgres psql -c 'ALTER DATABASE ledger OWNER TO bot')`,
    );
    // Where the connection string was typed is named: migrate-ledger's is --to.
    expect(databaseRefusal({ code: '3D000', message: '' }, 'postgres://u@h/d', '--to')).toBe(
      'there is no database "d" on the PostgreSQL server at h:5432: create it (sudo -u postgres createdb --owner=u d) or correct --to',
    );
  });

  it('a server that cannot be reached, starting up or failing otherwise is not a refusal; nor is anything on SQLite', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', '57P03', '08006', '53300', '23505', 'XX000', 'constructor'])
      expect(databaseRefusal({ code, message: 'x' }, URL_OF), code).toBeUndefined();
    expect(databaseRefusal(new Error('no code'), URL_OF)).toBeUndefined();
    expect(databaseRefusal({ code: '3D000', message: 'x' }, undefined)).toBeUndefined();
  });
});

/** A database name the server has not got. */
const missing = () => {
  const url = new URL(server!.url);
  url.pathname = `/missing_${randomBytes(4).toString('hex')}`;
  // trust authentication lets any password in: the server then finds no such database.
  url.password = PASSWORD;
  return url;
};
const expectedLine = (url: URL) => {
  const name = url.pathname.slice(1);
  return `refused: there is no database "${name}" on the PostgreSQL server at ${url.host}: create it (sudo -u postgres createdb --owner=${url.username} ${name}) or correct DATABASE_URL\n`;
};
/** An admin command from the source (nothing here needs a build), its data in a fresh folder. */
const admin = (script: string, args: string[], databaseUrl: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', `src/ops/${script}.ts`, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_PATH: tmpDb(), DISCORD_TOKEN: '', DOTENV_CONFIG_PATH: '/nonexistent' },
    timeout: 60_000,
  });

describe.skipIf(!server)('the admin commands refused by the server, as the bot is', () => {
  it('npm run backup: exit 78 with the line, and no file made', () => {
    const url = missing();
    const file = path.join(tmpDir(), 'ledger.dump');
    const r = admin('backup', [file], url.toString());
    expect(r.stderr).toBe(expectedLine(url));
    expect(r.status).toBe(78);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('npm run keys -- show: exit 78 with the line', () => {
    const url = missing();
    const r = admin('keys', ['show'], url.toString());
    expect(r.stderr).toBe(expectedLine(url));
    expect(r.status).toBe(78);
    expect(r.stdout).toBe('');
  });
});

const haveClients = spawnSync('createdb', ['--version']).status === 0 && spawnSync('createuser', ['--version']).status === 0;
describe.skipIf(!server || !haveClients)("docs/self-hosting.md's PostgreSQL steps", () => {
  const docs = fs.readFileSync(path.join(ROOT, 'docs/self-hosting.md'), 'utf8');
  const section = docs.slice(docs.indexOf('**PostgreSQL on Debian, step by step.**'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const steps = block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => /\bcreate(user|db)\b/.test(l));

  it('run as PostgreSQL’s own superuser, make a role and a database it owns, in which the bot sets up its ledger', async () => {
    // A fresh Debian admin is root or themself: only the postgres user may create roles and databases.
    expect(steps.map((l) => l.split(' ').slice(0, 4).join(' '))).toEqual(['sudo -u postgres createuser', 'sudo -u postgres createdb']);
    const role = /createuser .*?(\w+)$/.exec(steps[0]!)![1]!;
    const database = /createdb .*?(\w+)$/.exec(steps[1]!)![1]!;
    // The DATABASE_URL the docs give names the same role and database.
    expect(section).toContain(`DATABASE_URL=postgres://${role}:<that password>@localhost:5432/${database}`);

    const u = new URL(server!.url);
    const ours = { role: `${role}_${randomBytes(3).toString('hex')}`, database: `${database}_${randomBytes(3).toString('hex')}` };
    const connection = ['-h', u.hostname, '-p', u.port, '-U', u.username];
    const run = (step: string) => {
      // The steps as typed, on this server (trust authentication here: no password to prompt for).
      const argv = step
        .replace(/^sudo -u postgres /, '')
        .split(/\s+/)
        .filter((a) => a !== '--pwprompt')
        .map((a) => a.replace(new RegExp(`^(--owner=)?${role}$`), `$1${ours.role}`).replace(new RegExp(`^${database}$`), ours.database));
      const r = spawnSync(argv[0]!, [...connection, ...argv.slice(1)], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    };
    const other = `${ours.database}_b`;
    const superuser = new pg.Client({ connectionString: server!.url });
    await superuser.connect();
    try {
      for (const step of steps) run(step);
      const asRole = new URL(server!.url);
      asRole.username = ours.role;
      asRole.pathname = `/${ours.database}`;
      const ledger = await PgLedger.connect(asRole.toString());
      const tables = await ledger.pool.query<{ owner: string }>("SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'public'");
      await ledger.pool.end();
      expect(tables.rows).toEqual([{ owner: ours.role }]);

      // Without --owner the database is the superuser's, and the bot is refused, saying what to type.
      run(steps[1]!.replace(/--owner=\S+ /, '').replace(new RegExp(`${database}$`), other));
      asRole.pathname = `/${other}`;
      const refused = await PgLedger.connect(asRole.toString()).then(
        () => undefined,
        (err: unknown) => databaseRefusal(err, asRole.toString()),
      );
      expect(refused).toBe(
        `user "${ours.role}" may not set up the ledger in database "${other}" on the PostgreSQL server at ${u.host} (permission denied for schema public): make the database the user's own (sudo -u postgres psql -c 'ALTER DATABASE ${other} OWNER TO ${ours.role}')`,
      );
    } finally {
      await superuser.query(`DROP DATABASE IF EXISTS ${other}`);
      await superuser.query(`DROP DATABASE IF EXISTS ${ours.database}`);
      await superuser.query(`DROP ROLE IF EXISTS ${ours.role}`);
      await superuser.end();
    }
  }, 120_000);
});
