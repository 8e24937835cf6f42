import type { AnyCommand } from '../src/core/command.js';
import annotate from './review/annotate.js';
import ask from './ask/ask.js';
import config from './review/config.js';
import exportCommand from './review/export.js';
import game from './roster/game.js';
import help from './help.js';
import history from './review/history.js';
import odds from './odds.js';
import pack from './packs/pack.js';
import privacy from './privacy/privacy.js';
import reveal from './review/reveal.js';
import roll from './review/roll.js';
import stats from './review/stats.js';
import { SYSTEM_MODULES } from './systems.js';
import unit from './roster/unit.js';
import verify from './review/verify.js';
import voidCommand from './review/void.js';

/** Every slash command the bot offers; the router, /help and deploy-commands read this list. */
export const COMMANDS: readonly AnyCommand[] = [
  // Rolling and rulings: each built-in system's commands, from its descriptor
  ...SYSTEM_MODULES.flatMap((s) => s.commands),
  odds,
  pack,
  // Games and rosters
  game,
  ask,
  unit,
  // Review and trust
  history,
  roll,
  verify,
  stats,
  reveal,
  voidCommand,
  annotate,
  exportCommand,
  config,
  privacy,
  help,
];
