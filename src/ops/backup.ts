import fs from 'node:fs';
import Database from 'better-sqlite3';
import { loadConfigOrExit } from '../config.js';

/**
 * npm run backup -- <file>: an online backup of the ledger while the bot runs, through SQLite's
 * backup API (a consistent copy, page by page, without stopping writers). Restore: stop the bot,
 * put the file at DATABASE_PATH, start it; `npm run verify` on an /export of it checks the chains.
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
const config = loadConfigOrExit();
let db: Database.Database;
try {
  db = new Database(config.databasePath, { fileMustExist: true });
} catch (err) {
  process.stderr.write(`cannot open the ledger at ${config.databasePath}: ${(err as Error).message}\n`);
  process.exit(1);
}
db.pragma('busy_timeout = 5000');
db.backup(target)
  .then((r) => {
    db.close();
    process.stdout.write(`backed up ${config.databasePath} to ${target} (${r.totalPages} pages)\n`);
  })
  .catch((err: Error) => {
    db.close();
    process.stderr.write(`backup failed: ${err.message}\n`);
    process.exit(1);
  });
