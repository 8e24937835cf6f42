#!/usr/bin/env node
import './supported-node.js';
import { config as loadDotenv } from 'dotenv';

/**
 * morale-officer [--env <file>] <command> [arguments]: every admin command of every install
 * through one entry point — a clone (`npx morale-officer …` or the npm scripts), Docker (the image's
 * entry point: `docker compose run --rm morale-officer deploy-commands`) and systemd (the
 * /usr/local/bin/morale-officer wrapper reads the service's environment file and data directory).
 * The env file is read first; variables already set win, as with .env.
 */
const COMMANDS: Record<string, { module: string; what: string }> = {
  start: { module: '../../main', what: 'run the bot (what npm start runs)' },
  setup: { module: './setup', what: 'first run: check the token with Discord, write the env file, register the commands' },
  'deploy-commands': { module: '../discord/deploy', what: 'register the slash commands with Discord' },
  backup: { module: './backup', what: 'a consistent copy of the ledger (backup <file>)' },
  keys: { module: './keys', what: 'the receipt keys (keys show | keys rotate)' },
  health: { module: './health', what: 'exit 0 when the running bot is healthy' },
  verify: { module: '../verify/main', what: 'check an export or a receipt offline' },
  'migrate-ledger': { module: './migrate-ledger', what: 'copy a SQLite ledger into PostgreSQL' },
  console: { module: '../console/main', what: 'the offline console' },
};

const usage = () =>
  `usage: morale-officer [--env <file>] <command> [arguments]\n\n${Object.entries(COMMANDS)
    .map(([name, c]) => `  ${name.padEnd(16)}${c.what}`)
    .join('\n')}\n`;

const args = process.argv.slice(2);
if (args[0] === '--env') {
  if (!args[1]) {
    process.stderr.write(usage());
    process.exit(2);
  }
  loadDotenv({ path: args[1], quiet: true });
  args.splice(0, 2);
}
const [name = 'start', ...rest] = args;
const command = COMMANDS[name] && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
if (!command) {
  process.stderr.write(`${name === '--help' || name === 'help' ? '' : `no command ${JSON.stringify(name)}\n`}${usage()}`);
  process.exit(name === '--help' || name === 'help' ? 0 : 2);
}
// Each command is a script that reads its own arguments: it sees them as if run directly.
const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
const target = new URL(`${command.module}.${ext}`, import.meta.url);
process.argv = [process.argv[0]!, target.pathname, ...rest];
await import(target.href);
