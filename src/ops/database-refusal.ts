import os from 'node:os';
import { EX_CONFIG } from '../config.js';

/**
 * A PostgreSQL server that answered and refused us: no such database, an unknown role or a wrong
 * password, or a role that may not make the ledger's tables. Unlike a server that cannot be reached
 * (waited for: it may be starting), a retry cannot mend these, so they are refusals (EX_CONFIG).
 */
const REFUSALS: Record<string, (t: Target, said: string) => string> = {
  // invalid_catalog_name
  '3D000': (t) =>
    `there is no database "${t.database}" on the PostgreSQL server at ${t.server}: create it (sudo -u postgres createdb --owner=${t.user} ${t.database}) or correct ${t.setting}`,
  // invalid_password
  '28P01': (t, said) =>
    `the PostgreSQL server at ${t.server} refused user "${t.user}" for database "${t.database}" (${said}): correct the password in ${t.setting}`,
  // invalid_authorization_specification: no such role, or no pg_hba.conf line lets it in
  '28000': (t, said) =>
    `the PostgreSQL server at ${t.server} refused user "${t.user}" for database "${t.database}" (${said}): correct the user in ${t.setting}, or create the role (sudo -u postgres createuser --pwprompt ${t.user})`,
  // insufficient_privilege: since PostgreSQL 15 only the database's owner may create tables in it
  '42501': (t, said) =>
    `user "${t.user}" may not set up the ledger in database "${t.database}" on the PostgreSQL server at ${t.server} (${said}): make the database the user's own (sudo -u postgres psql -c 'ALTER DATABASE ${t.database} OWNER TO ${t.user}')`,
};

type Target = { database: string; user: string; server: string; setting: string };

/** What a connection string names, never its password. */
function targetOf(url: string, setting: string): Target {
  const u = new URL(url);
  const user = decodeURIComponent(u.username) || process.env.PGUSER || os.userInfo().username;
  const host = u.hostname || u.searchParams.get('host') || 'localhost';
  return { user, database: decodeURIComponent(u.pathname.slice(1)) || user, server: `${host}:${u.port || 5432}`, setting };
}

/**
 * The one line for a refusal a restart cannot mend, or undefined for anything else (an outage, a
 * bug). `setting` is where the user typed the connection string (DATABASE_URL, --to).
 */
export function databaseRefusal(err: unknown, url: string | undefined, setting = 'DATABASE_URL'): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (!url || typeof e?.code !== 'string' || !Object.hasOwn(REFUSALS, e.code)) return undefined;
  return REFUSALS[e.code]!(targetOf(url, setting), String(e.message ?? ''));
}

/** For an admin command: a refusal is one line (`refused: …`) and EX_CONFIG, as the bot's own; anything else is left to the caller. */
export function exitOnDatabaseRefusal(err: unknown, url: string | undefined, setting?: string): void {
  const reason = databaseRefusal(err, url, setting);
  if (reason === undefined) return;
  process.stderr.write(`refused: ${reason}\n`);
  process.exit(EX_CONFIG);
}
