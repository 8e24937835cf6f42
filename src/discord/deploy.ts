import '../ops/supported-node.js';
import { COMMANDS } from '../../commands/index.js';
import { loadConfigOrExit } from '../config.js';
import { createLogger } from '../log.js';
import { commandDefinitions } from './definitions.js';
import { registerCommands, registeredLine } from './register.js';

/** npm run deploy-commands: to DISCORD_GUILD_ID when set, else globally; --dry-run prints the request body. */
async function main() {
  if (process.argv.includes('--dry-run')) {
    process.stdout.write(`${JSON.stringify(commandDefinitions(COMMANDS), null, 2)}\n`);
    return;
  }
  const config = loadConfigOrExit(['token', 'application']);
  const log = createLogger({ level: config.logLevel, secrets: [config.discordToken] });
  try {
    const count = await registerCommands({
      token: config.discordToken!,
      applicationId: config.applicationId!,
      guildId: config.guildId,
      apiBase: config.apiBase,
    });
    log.info('commands registered', { count, scope: config.guildId ? `guild ${config.guildId}` : 'global' });
    process.stderr.write(`${registeredLine(count, config.guildId)}\n`);
    // The REST client keeps timers alive; the job is done.
    process.exit(0);
  } catch (err) {
    log.error('command registration failed', { err });
    process.exit(1);
  }
}

void main();
