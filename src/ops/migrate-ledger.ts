import fs from 'node:fs';
import { Ledger } from '../ledger/ledger.js';
import { ImportRefused, importLedger } from '../ledger/postgres/import.js';
import { PgLedger } from '../ledger/postgres/pg-ledger.js';

/**
 * npm run migrate-ledger -- --from sqlite:<file> --to postgres://…: copies a SQLite ledger into an
 * empty PostgreSQL database and verifies every chain on arrival (see importLedger). Stop the bot
 * first: rows written during the copy would not move.
 */
const USAGE = 'usage: npm run migrate-ledger -- --from sqlite:<ledger file> --to postgres://user@host:port/database\n';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const from = arg('--from');
const to = arg('--to');
if (!from?.startsWith('sqlite:') || !to || !/^postgres(ql)?:\/\//.test(to)) {
  process.stderr.write(USAGE);
  process.exit(2);
}
const file = from.slice('sqlite:'.length);
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
  process.stderr.write(err instanceof ImportRefused ? `refused: ${message}\n` : `migration failed: ${message}\n`);
  process.exitCode = 1;
} finally {
  source.close();
  await target?.close();
}
