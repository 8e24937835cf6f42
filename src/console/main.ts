import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { createRouter } from '../app.js';
import { fixedRoller, type Roller } from '../dice/roller.js';
import { loadConfigOrExit } from '../config.js';
import { beaconFor } from '../beacon/from-config.js';
import type { BeaconSource } from '../beacon/relay.js';
import { Ledger } from '../ledger/ledger.js';
import { createLogger } from '../log.js';
import { ConsoleSession } from './session.js';
import { loadOrCreateKeys, registerKeys } from '../ops/signing-key.js';

/** The console's own ledger: trying the bot offline never writes into the bot's history. */
export const CONSOLE_DB = 'data/console.db';

const USAGE = `npm run console -- [--json] [--db <file>] [--guild <id>] [--channel <id>] [--user <name>] [--gm] [--dice 3,5,1,…] [--files <folder>] [--locale de|fr|en-US]

Without --json: an interactive prompt that shows each reply as text.
With --json: reads command lines from standard input, prints one JSON line per line.
--db: the ledger file to write (default ${CONSOLE_DB}, the console's own: the bot's ledger is
never touched unless --db names it).
--dice: take the dice from this list, in order, instead of rolling (to replay dice rolled at the
table, or to script a game); it needs --db, so hand-fed dice go only into a ledger you name.
--files: keep the attachments (charts, exports) in this folder; without it they go to a temporary
folder of this console's, removed when it exits.
--locale: answer as the bot answers a player whose Discord is in this language (de, fr; any
other locale reads English); commands are typed with their English names either way.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
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

function main() {
  const args = readArgs();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = loadConfigOrExit();
  let dice: Roller | undefined;
  if (args.dice !== undefined) {
    const faces = args.dice.split(',').map((f) => Number(f.trim()));
    if (!args.db) fail("--dice needs --db <file>: hand-fed dice go only into a ledger you name, never the console's own.");
    if (faces.some((f) => !Number.isInteger(f) || f < 1))
      fail(`--dice takes whole numbers from 1 up, separated by commas (you gave ${JSON.stringify(args.dice)}).`);
    dice = fixedRoller(faces);
  }
  // The console is for people: keep routine log lines out of their terminal unless asked for.
  const log = createLogger({ level: process.env.LOG_LEVEL ? config.logLevel : 'warn', secrets: [config.discordToken] });
  const dbPath = path.resolve(args.db ?? CONSOLE_DB);
  // umask: the console's ledger is its owner's alone, as the bot's is.
  process.umask(0o077);
  let ledger: Ledger;
  try {
    ledger = Ledger.open(dbPath);
  } catch (err) {
    process.stderr.write(`Cannot open the ledger at ${dbPath}: ${(err as Error).message}\n`);
    process.exit(1);
  }
  // The console signs receipts with a key of its own, beside its ledger: never the bot's.
  const keys = loadOrCreateKeys(path.join(path.dirname(dbPath), 'console-signing-key.json'));
  // The offline tool reads a beacon only when BEACON_CHAIN names one: then a game binds and rolls as in the bot.
  let beacon: BeaconSource | undefined;
  try {
    beacon = beaconFor(config.beaconChain, 'off', config.beaconUrls);
  } catch (err) {
    fail((err as Error).message);
  }
  const router = createRouter({
    ledger,
    log,
    signer: keys.signer,
    ...(dice ? { roller: dice, gameRoller: () => dice } : {}),
    ...(beacon ? { beacon } : {}),
  });
  const session = new ConsoleSession(
    router,
    { guildId: args.guild, channelId: args.channel, userId: args.user, userName: args.user, isGm: args.gm },
    args.files === undefined ? undefined : path.resolve(args.files),
    args.locale,
  );

  const interactive = !args.json && process.stdin.isTTY;
  const rl = readline.createInterface({ input: process.stdin, output: interactive ? process.stdout : undefined, terminal: interactive });
  // Which file it writes, always: on the prompt, or on stderr beside --json's output.
  if (!interactive) process.stderr.write(`Morale Officer offline console · ledger ${dbPath}\n`);
  if (interactive) {
    process.stdout.write(`Morale Officer offline console · ledger ${dbPath}\nType help for help, /help for the commands.\n`);
    rl.setPrompt('morale> ');
    rl.prompt();
  }
  const run = async () => {
    await registerKeys(ledger, keys.records);
    for await (const line of rl) {
      const out = await session.run(line);
      if (out && 'quit' in out) break;
      if (out) process.stdout.write(`${args.json ? JSON.stringify(out.json) : out.text}\n`);
      if (interactive) rl.prompt();
    }
    rl.close();
    session.close();
    ledger.close();
  };
  run().catch((err) => {
    log.error('console failed', { err });
    session.close();
    ledger.close();
    process.exit(1);
  });
}

main();
