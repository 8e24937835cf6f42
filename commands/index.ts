import type { AnyCommand } from '../src/core/command.js';
import annotate from './annotate.js';
import brigade from './brigade.js';
import config from './config.js';
import disorder from './disorder.js';
import exportCommand from './export.js';
import fatigue from './fatigue.js';
import game from './game.js';
import help from './help.js';
import history from './history.js';
import hob from './hob.js';
import mc from './mc.js';
import morale from './morale.js';
import odds from './odds.js';
import rally from './rally.js';
import reveal from './reveal.js';
import roll from './roll.js';
import stats from './stats.js';
import unit from './unit.js';
import verify from './verify.js';
import voidCommand from './void.js';

/** Every slash command the bot offers; the router, /help and deploy-commands read this list. */
export const COMMANDS: readonly AnyCommand[] = [
  // Rolling and rulings, by system
  rally,
  disorder,
  brigade,
  morale,
  hob,
  mc,
  fatigue,
  odds,
  // Games and rosters
  game,
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
  help,
];
