import { REST } from '@discordjs/rest';
import { Routes, type RESTPutAPIApplicationCommandsJSONBody } from 'discord.js';
import { COMMANDS } from '../../commands/index.js';
import { loadConfigOrExit } from '../config.js';
import { createLogger } from '../log.js';
import { commandDefinitions } from './definitions.js';

/** Registers every command: to DISCORD_GUILD_ID when set (instant, for development), else globally. */
async function main() {
  const body: RESTPutAPIApplicationCommandsJSONBody = commandDefinitions(COMMANDS);
  if (process.argv.includes('--dry-run')) {
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    return;
  }
  const config = loadConfigOrExit(['token', 'application']);
  const log = createLogger({ level: config.logLevel, secrets: [config.discordToken] });
  const rest = new REST(config.apiBase ? { api: config.apiBase } : {}).setToken(config.discordToken!);
  const route = config.guildId ? Routes.applicationGuildCommands(config.applicationId!, config.guildId) : Routes.applicationCommands(config.applicationId!);
  try {
    const saved = (await rest.put(route, { body })) as unknown[];
    log.info('commands registered', { count: saved.length, scope: config.guildId ? `guild ${config.guildId}` : 'global' });
    process.stderr.write(
      `Registered ${saved.length} commands ${config.guildId ? `to server ${config.guildId}` : 'globally (may take up to an hour to appear)'}.\n`,
    );
    // The REST client keeps timers alive; the job is done.
    process.exit(0);
  } catch (err) {
    log.error('command registration failed', { err });
    process.exit(1);
  }
}

void main();
