import '../ops/supported-node.js';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { createRouter } from '../app.js';
import { type Config, loadConfigOrExit } from '../config.js';
import { beaconFor } from '../beacon/from-config.js';
import type { BeaconSource } from '../beacon/relay.js';
import { Ledger } from '../ledger/ledger.js';
import { PgLedger } from '../ledger/postgres/pg-ledger.js';
import { PgStore } from '../ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../ledger/store.js';
import { createLogger, type Logger } from '../log.js';
import { ScriptedDice, ScriptedDiceError } from './dice.js';
import { type ConsoleOutput, ConsoleSession } from './session.js';
import { loadOrCreateKeys, registerKeys } from '../ops/signing-key.js';

/** The console's own ledger: trying the bot offline never writes into the bot's history. */
export const CONSOLE_DB = 'data/console.db';
/** The folder beside the ledger where the console keeps its attachments, unless --files names one. */
export const CONSOLE_FILES = 'console-files';

const USAGE = `npm run console -- [--json] [--db <file>] [--guild <id>] [--channel <id>] [--user <name>] [--gm] [--dice 3,5,1,…] [--files <folder>] [--locale de|fr|en-US]

Without --json: an interactive prompt that shows each reply as text.
With --json: reads command lines from standard input, prints one JSON line per line.
--db: the ledger file to write (default ${CONSOLE_DB}, the console's own: the bot's ledger file is
never touched unless --db names it). With DATABASE_URL set (a PostgreSQL ledger, after npm run
migrate-ledger) and no --db, the console works on that database, the bot's ledger: what is done
there is in the bot's history (an admin's /verify, /stats or /export offline). --db wins over
DATABASE_URL. The console says on start which ledger it uses.
--dice: take the dice from this list, in order, instead of rolling (to replay dice rolled at the
table, or to script a game); it needs --db, so hand-fed dice go only into a ledger file you name.
A line that records nothing gives its dice back to the list.
--files: keep the attachments (charts, exports) in this folder; without it they are kept in
${CONSOLE_FILES}/ beside the ledger file (beside DATA_DIR's files on PostgreSQL), made owner-only.
They stay after the console exits.
--locale: answer as the bot answers a player whose Discord is in this language (de, fr; any
other locale reads English); commands are typed with their English names either way.`;

function fail(message: string, status = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(status);
}

const OPTIONS = {
  json: { type: 'boolean', default: false },
  db: { type: 'string' },
  guild: { type: 'string', default: 'console-guild' },
  channel: { type: 'string', default: 'console-channel' },
  user: { type: 'string', default: 'player' },
  gm: { type: 'boolean', default: false },
  dice: { type: 'string' },
  files: { type: 'string' },
  locale: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The flags, or the usage and exit 2 for an unknown flag or a missing value (not a stack trace). */
function readArgs() {
  try {
    return parseArgs({ options: OPTIONS, strict: true }).values;
  } catch (err) {
    fail(`${(err as Error).message}\n\nusage: ${USAGE}`);
  }
}

/** --dice as the roller of every roll, or undefined without it; a bad list exits 2. */
function scriptedDice(list: string | undefined, db: string | undefined): ScriptedDice | undefined {
  if (list === undefined) return undefined;
  const faces = list.split(',').map((f) => Number(f.trim()));
  if (!db) fail("--dice needs --db <file>: hand-fed dice go only into a ledger file you name, never the console's own or a PostgreSQL ledger (DATABASE_URL).");
  if (faces.some((f) => !Number.isInteger(f) || f < 1)) fail(`--dice takes whole numbers from 1 up, separated by commas (you gave ${JSON.stringify(list)}).`);
  return new ScriptedDice(faces);
}

const passwordOf = (url: string | undefined) => (url ? decodeURIComponent(new URL(url).password) || undefined : undefined);

/** A connection string as the console may print it: without its password. */
function shownUrl(url: string): string {
  const u = new URL(url);
  u.password = '';
  return u.toString();
}

/**
 * The console's log: routine lines stay out of the terminal unless LOG_LEVEL asks for them, the
 * token and the database password are never written, and a die --dice cannot give is left to the
 * reply, which says why (a stack trace would only bury it).
 */
function consoleLog(config: Config): Logger {
  const secrets = [config.discordToken, config.databaseUrl, passwordOf(config.databaseUrl)];
  const log = createLogger({ level: process.env.LOG_LEVEL ? config.logLevel : 'warn', secrets });
  return { ...log, error: (msg, fields) => (fields?.err instanceof ScriptedDiceError ? undefined : log.error(msg, fields)) };
}

/** The ledger the console works on, what its banner says of it, and the folder its own files go in. */
type Opened = { store: LedgerStore; banner: string; dir: string };

/** --db's file; else DATABASE_URL's PostgreSQL ledger, as the bot opens it; else the console's own file. */
async function openLedger(db: string | undefined, config: Config): Promise<Opened> {
  if (db === undefined && config.databaseUrl) return openPostgres(config.databaseUrl, config.dataDir);
  const file = path.resolve(db ?? CONSOLE_DB);
  let ledger: Ledger;
  try {
    ledger = Ledger.open(file);
  } catch (err) {
    fail(`Cannot open the ledger at ${file}: ${(err as Error).message}`, 1);
  }
  const unused = db !== undefined && config.databaseUrl ? ' (--db: DATABASE_URL is set and not used)' : '';
  return { store: sqliteStore(ledger), banner: `ledger ${file}${unused}`, dir: path.dirname(file) };
}

async function openPostgres(url: string, dataDir: string): Promise<Opened> {
  const shown = shownUrl(url);
  try {
    const store = PgStore.over(await PgLedger.connect(url));
    const banner = `ledger PostgreSQL ${shown} (DATABASE_URL: the bot's own ledger, so what is done here is in its history; --db <file> works on a file instead)`;
    return { store, banner, dir: dataDir };
  } catch (err) {
    const password = passwordOf(url);
    let reason = (err as Error).message.split(url).join(shown);
    if (password) reason = reason.split(password).join('[redacted]');
    fail(`Cannot open the ledger at PostgreSQL ${shown} (DATABASE_URL): ${reason}`, 1);
  }
}

/** The beacon the console reads: none unless BEACON_CHAIN names one; then a game binds and rolls as in the bot. */
function beaconOrExit(config: Config): BeaconSource | undefined {
  try {
    return beaconFor(config.beaconChain, 'off', config.beaconUrls);
  } catch (err) {
    fail((err as Error).message);
  }
}

async function main() {
  const args = readArgs();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfigOrExit();
  const dice = scriptedDice(args.dice, args.db);
  const log = consoleLog(config);
  const beacon = beaconOrExit(config);
  // umask: the console's ledger, key and attachments are their owner's alone, as the bot's are.
  process.umask(0o077);
  const ledger = await openLedger(args.db, config);
  // The console signs receipts with a key of its own, beside its ledger: never the bot's.
  const keys = loadOrCreateKeys(path.join(ledger.dir, 'console-signing-key.json'));
  const router = createRouter({
    ledger: ledger.store,
    log,
    signer: keys.signer,
    ...(dice ? { roller: dice, gameRoller: (game) => dice.forGame(game), scriptedDice: true } : {}),
    ...(beacon ? { beacon } : {}),
  });
  // Attachments are kept where the user finds them again, after the console has exited.
  const files = path.resolve(args.files ?? path.join(ledger.dir, CONSOLE_FILES));
  const actor = { guildId: args.guild, channelId: args.channel, userId: args.user, userName: args.user, isGm: args.gm };
  const session = new ConsoleSession(router, actor, files, args.locale, dice);
  try {
    await registerKeys(ledger.store, keys.records);
    await serve(session, ledger.banner, args.json, log);
  } catch (err) {
    log.error('the console failed', { err });
    process.exitCode = 1;
  } finally {
    session.close();
    await ledger.store.close();
  }
}

/** Reads lines until the input ends (or quit), printing each answer: a JSON line with --json, text otherwise. */
async function serve(session: ConsoleSession, banner: string, json: boolean, log: Logger) {
  const interactive = !json && process.stdin.isTTY;
  const rl = readline.createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  // Which ledger it uses, always: on the prompt, or on stderr beside --json's output.
  if (!interactive) process.stderr.write(`Morale Officer offline console · ${banner}\n`);
  if (interactive) {
    process.stdout.write(`Morale Officer offline console · ${banner}\nType help for help, /help for the commands.\n`);
    rl.setPrompt('morale> ');
    rl.prompt();
  }
  try {
    for await (const line of rl) {
      const out = await answer(session, line, log);
      if (out && 'quit' in out) break;
      if (out) process.stdout.write(`${json ? JSON.stringify(out.json) : out.text}\n`);
      if (interactive) rl.prompt();
    }
  } finally {
    rl.close();
  }
}

/** A line's answer, even when the console itself fails on it: --json stays one JSON line per line, the details go to stderr. */
async function answer(session: ConsoleSession, line: string, log: Logger): Promise<ConsoleOutput> {
  try {
    return await session.run(line);
  } catch (err) {
    const ref = randomBytes(4).toString('hex');
    log.error('the console failed on a line', { ref, err });
    const error = `the console failed on this line (ref ${ref}, details on stderr): ${(err as Error).message}`;
    return { json: { ok: false, error }, text: `  ! ${error}` };
  }
}

main().catch((err) => {
  process.stderr.write(`The console failed: ${(err as Error).message}\n`);
  process.exit(1);
});
