import './supported-node.js';
import fs from 'node:fs';
import { Ledger } from '../ledger/ledger.js';
import { ImportRefused, importLedger } from '../ledger/postgres/import.js';
import { PgLedger } from '../ledger/postgres/pg-ledger.js';
import { EX_CONFIG } from '../config.js';
import { databaseRefusal } from './database-refusal.js';

/**
 * npm run migrate-ledger -- --from [sqlite:]<file> --to postgres://…: copies a SQLite ledger into an
 * empty PostgreSQL database and verifies every chain on arrival (see importLedger). Stop the bot
 * first: rows written during the copy would not move.
 */
const USAGE = 'usage: npm run migrate-ledger -- --from <SQLite ledger file> --to postgres://user:password@host:5432/database\n';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The SQLite file --from names: `sqlite:<file>`, or the bare path people type; a URL of another kind names none. */
function sqliteFile(from: string | undefined): string | undefined {
  if (from?.startsWith('sqlite:')) return from.slice('sqlite:'.length);
  return from && !/^[a-z][a-z0-9+.-]*:\/\//i.test(from) ? from : undefined;
}

const file = sqliteFile(arg('--from'));
const to = arg('--to');
if (!file || !to || !/^postgres(ql)?:\/\//.test(to)) {
  process.stderr.write(USAGE);
  process.exit(2);
}
if (!fs.existsSync(file)) {
  process.stderr.write(`no ledger at ${file}\n`);
  process.exit(2);
}

const source = Ledger.open(file);
let target: PgLedger | undefined;
try {
  target = await PgLedger.connect(to);
  const report = await importLedger(source, target, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`migrated ${report.guilds.reduce((a, g) => a + g.rows, 0)} rolls of ${report.guilds.length} guilds; every chain verified on arrival\n`);
} catch (err) {
  // The connection string may carry a password: never print it.
  const message = (err as Error).message.split(to).join('<DATABASE_URL>');
  // A missing database or a role the server refuses: the bot's own refusal, and its exit status.
  const refusedByServer = databaseRefusal(err, to, '--to');
  if (err instanceof ImportRefused) process.stderr.write(`refused: ${message}\n`);
  else if (refusedByServer) process.stderr.write(`refused: ${refusedByServer}\n`);
  else process.stderr.write(`migration failed: ${message}\n`);
  process.exitCode = refusedByServer ? EX_CONFIG : 1;
} finally {
  source.close();
  await target?.close();
}
