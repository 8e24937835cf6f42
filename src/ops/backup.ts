import './supported-node.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { loadConfigOrExit } from '../config.js';
import { keyFileFor } from './signing-key.js';
import { exitOnDatabaseRefusal } from './database-refusal.js';

/**
 * npm run backup -- <file>: an online backup of the ledger while the bot runs, on either backend,
 * written owner-only and never over an existing file.
 * - SQLite: SQLite's backup API (a consistent copy, page by page, without stopping writers).
 *   Restore: stop the bot, put the file at DATABASE_PATH, start it.
 * - PostgreSQL: pg_dump in its custom format (one consistent snapshot). Restore into an empty
 *   database: pg_restore --no-owner --dbname=<url> <file>, then point DATABASE_URL at it.
 * Either way, /verify (or `npm run verify` on an /export) then checks every chain. The receipt
 * keys' file is copied beside the backup (<file>.signing-key.json): restore it to SIGNING_KEY_FILE.
 */
const target = process.argv[2];
if (!target || process.argv.length > 3) {
  process.stderr.write('usage: npm run backup -- <backup file>\n');
  process.exit(2);
}
if (fs.existsSync(target)) {
  process.stderr.write(`${target} exists: give a new file name (a backup never overwrites).\n`);
  process.exit(2);
}
// The backup holds what the ledger holds (sealed results, players' names): its owner's alone.
process.umask(0o077);
const config = loadConfigOrExit();
if (config.databaseUrl) {
  await refuseUnlessServed(config.databaseUrl);
  backUpPostgres(config.databaseUrl, target);
} else backUpSqlite(config.databasePath, target);

/** A database the server refuses (missing, a wrong role) is said as the bot says it, exit 78, before pg_dump would say it its own way. */
async function refuseUnlessServed(url: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (err) {
    // Anything else (a server not up) is left to pg_dump to report.
    exitOnDatabaseRefusal(err, url);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The receipt keys go with the ledger (they are not in it): beside the backup, owner-only, once it is made. */
function copyKeys() {
  const from = keyFileFor(config.dataDir, config.signingKeyFile);
  const to = `${target}.signing-key.json`;
  if (!fs.existsSync(from)) return;
  fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
  fs.chmodSync(to, 0o600);
  process.stdout.write(`copied the receipt keys ${from} to ${to}\n`);
}

function backUpSqlite(file: string, to: string) {
  let db: Database.Database;
  try {
    db = new Database(file, { fileMustExist: true });
  } catch (err) {
    process.stderr.write(`cannot open the ledger at ${file}: ${(err as Error).message}\n`);
    process.exit(1);
  }
  db.pragma('busy_timeout = 5000');
  db.backup(to)
    .then((r) => {
      db.close();
      fs.chmodSync(to, 0o600);
      process.stdout.write(`backed up ${file} to ${to} (${r.totalPages} pages)\n`);
      copyKeys();
    })
    .catch((err: Error) => {
      db.close();
      process.stderr.write(`backup failed: ${err.message}\n`);
      process.exit(1);
    });
}

/** pg_dump's arguments for this URL, the password left out of them (it goes in PGPASSWORD, never on a command line). */
function pgDumpCommand(url: string, to: string): { args: string[]; password: string | undefined; shown: string } {
  const u = new URL(url);
  const password = u.password ? decodeURIComponent(u.password) : undefined;
  u.password = '';
  const args = ['--format=custom', `--file=${to}`, `--dbname=${u.toString()}`];
  return { args, password, shown: `PGPASSWORD=… pg_dump ${args.map((a) => `'${a}'`).join(' ')}` };
}

function backUpPostgres(url: string, to: string) {
  const { args, password, shown } = pgDumpCommand(url, to);
  const bin = process.env.PG_DUMP || 'pg_dump';
  const child = spawn(bin, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } });
  child.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT')
      process.stderr.write(
        `${bin} is not installed here, so nothing was backed up. Install PostgreSQL's client (Debian: apt-get install postgresql-client, the server's major version or newer), or run this where it is:\n  ${shown}\n`,
      );
    else process.stderr.write(`could not run ${bin}: ${err.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code) => {
    if (code !== 0) {
      fs.rmSync(to, { force: true });
      process.stderr.write(`backup failed: pg_dump exited with ${code}; nothing was kept.\n`);
      process.exit(1);
    }
    process.stdout.write(`backed up the PostgreSQL ledger ${new URL(url).pathname.slice(1)} to ${to} (${fs.statSync(to).size} bytes, pg_dump custom format)\n`);
    copyKeys();
  });
}
