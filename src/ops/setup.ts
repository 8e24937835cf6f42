import './supported-node.js';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { registerCommands, registeredLine } from '../discord/register.js';

/**
 * npm run setup (morale-officer setup): the first run in one command. It takes the bot token (and,
 * to check them, the application id and public key) from flags, the environment or a prompt; asks
 * Discord who the token is, so a wrong token is named at once and the application id and public
 * key come from Discord itself; writes them to the env file owner-only (other lines kept); registers
 * the commands; and says how to start.
 */
const USAGE = `usage: npm run setup -- [--token <bot token>] [--application-id <id>] [--public-key <64 hex>] [--guild-id <server id>] [--env <file>]
Anything not given is read from the environment (DISCORD_TOKEN, DISCORD_APPLICATION_ID, DISCORD_PUBLIC_KEY,
DISCORD_GUILD_ID) or, at a terminal, asked for. --env: where to write (default .env here).`;

type Answers = { token: string; applicationId?: string | undefined; publicKey?: string | undefined; guildId?: string | undefined };

class SetupError extends Error {}

function readArgs() {
  try {
    return parseArgs({
      options: {
        token: { type: 'string' },
        'application-id': { type: 'string' },
        'public-key': { type: 'string' },
        'guild-id': { type: 'string' },
        env: { type: 'string', default: '.env' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    throw new SetupError(`${(err as Error).message}\n${USAGE}`);
  }
}

/** What Discord says the token is: its application's id and public key; a refused token is named. */
async function whoIs(token: string, apiBase: string): Promise<{ applicationId: string; publicKey: string; name: string }> {
  const get = (route: string) => fetch(`${apiBase}/v10/${route}`, { headers: { authorization: `Bot ${token}` } });
  const app = await get('applications/@me').catch((err: Error) => {
    throw new SetupError(`could not reach Discord at ${apiBase} (${err.message}): check this machine's network`);
  });
  if (app.status === 401)
    throw new SetupError(
      'Discord refused the bot token (401 Unauthorized): copy it again from the Developer Portal, Bot → Reset Token, and paste all three parts',
    );
  if (!app.ok) throw new SetupError(`Discord answered ${app.status} when asked about the token's application: try again in a minute`);
  const body = (await app.json()) as { id: string; verify_key: string; name: string };
  return { applicationId: body.id, publicKey: body.verify_key, name: body.name };
}

/** The given id and key against Discord's: a mismatch is named, since either would fail later in silence. */
function checkAgainst(given: Answers, found: { applicationId: string; publicKey: string }): void {
  if (given.applicationId && given.applicationId !== found.applicationId)
    throw new SetupError(
      `the application id ${given.applicationId} is not this token's application (${found.applicationId}): copy it from General Information`,
    );
  if (given.publicKey && given.publicKey.toLowerCase() !== found.publicKey.toLowerCase())
    throw new SetupError(`the public key given is not this application's (${found.publicKey}): copy it from General Information`);
}

/** The env file with these keys set (other lines kept), written owner-only. */
function writeEnvFile(file: string, values: Record<string, string | undefined>): void {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const at = lines.findIndex((l) => l.startsWith(`${key}=`));
    if (at >= 0) lines[at] = `${key}=${value}`;
    else lines.splice(lines.length && lines.at(-1) === '' ? lines.length - 1 : lines.length, 0, `${key}=${value}`);
  }
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, lines.join('\n').replace(/\n*$/, '\n'), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** Missing answers asked at the terminal; none can be asked without one. */
async function ask(a: Partial<Answers>): Promise<Answers> {
  if (a.token) return a as Answers;
  if (!process.stdin.isTTY) throw new SetupError(`no bot token: give --token or DISCORD_TOKEN (or run this at a terminal to be asked)\n${USAGE}`);
  const rl = readline.createInterface({ input: process.stdin });
  // Lines read as they come, so answers typed (or pasted) ahead of their question are kept.
  const lines = rl[Symbol.asyncIterator]();
  const question = async (q: string) => {
    process.stdout.write(q);
    return String((await lines.next()).value ?? '').trim();
  };
  try {
    process.stdout.write('Developer Portal (https://discord.com/developers/applications) → your application.\n');
    const token = await question('Bot token (Bot → Reset Token): ');
    const guildId = await question('Your server id, to see the commands at once (Enter for every server): ');
    return { ...a, token, guildId: guildId || a.guildId };
  } finally {
    rl.close();
  }
}

async function main(): Promise<void> {
  const args = readArgs();
  if (args.help) return void process.stdout.write(`${USAGE}\n`);
  const env = process.env;
  const given = await ask({
    token: args.token ?? env.DISCORD_TOKEN,
    applicationId: args['application-id'] ?? env.DISCORD_APPLICATION_ID,
    publicKey: args['public-key'] ?? env.DISCORD_PUBLIC_KEY,
    guildId: args['guild-id'] ?? env.DISCORD_GUILD_ID,
  });
  if (!/^[\w-]{20,}\.[\w-]{4,}\.[\w-]{20,}$/.test(given.token))
    throw new SetupError('that is not a bot token: it has three parts separated by dots (Bot → Reset Token)');
  if (given.guildId && !/^\d{17,20}$/.test(given.guildId)) throw new SetupError(`the server id ${JSON.stringify(given.guildId)} is not one: 17 to 20 digits`);
  const apiBase = env.DISCORD_API_BASE || 'https://discord.com/api';
  const found = await whoIs(given.token, apiBase);
  checkAgainst(given, found);
  const file = args.env;
  writeEnvFile(file, {
    DISCORD_TOKEN: given.token,
    DISCORD_APPLICATION_ID: found.applicationId,
    DISCORD_PUBLIC_KEY: found.publicKey,
    DISCORD_GUILD_ID: given.guildId,
  });
  process.stdout.write(`The token is ${found.name}'s (application ${found.applicationId}). Wrote ${file} (owner-only).\n`);
  const count = await registerCommands({ token: given.token, applicationId: found.applicationId, guildId: given.guildId, apiBase: env.DISCORD_API_BASE });
  process.stdout.write(
    `${registeredLine(count, given.guildId)}\nInvite it: https://discord.com/oauth2/authorize?client_id=${found.applicationId}&scope=bot%20applications.commands&permissions=19456\nThen start it: npm start\n`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`setup: ${err instanceof SetupError ? err.message : `failed: ${(err as Error).message}`}\n`);
    process.exit(err instanceof SetupError ? 78 : 1);
  },
);
