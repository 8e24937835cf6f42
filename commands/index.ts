import type { AnyCommand } from '../src/core/command.js';
import help from './help.js';
import rally from './rally.js';

/** Every slash command the bot offers; the router, /help and deploy-commands read this list. */
export const COMMANDS: readonly AnyCommand[] = [rally, help];
