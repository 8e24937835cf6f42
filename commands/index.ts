import type { AnyCommand } from '../src/core/command.js';
import annotate from './review/annotate.js';
import brigade from './hearts-of-tin/brigade.js';
import config from './review/config.js';
import disorder from './hearts-of-tin/disorder.js';
import dr from './asl/dr.js';
import exportCommand from './review/export.js';
import fatigue from './wacht-am-rhein/fatigue.js';
import game from './roster/game.js';
import help from './help.js';
import history from './review/history.js';
import hob from './asl/hob.js';
import mc from './asl/mc.js';
import morale from './lightning-war/morale.js';
import odds from './odds.js';
import pack from './packs/pack.js';
import rally from './hearts-of-tin/rally.js';
import reveal from './review/reveal.js';
import roll from './review/roll.js';
import stats from './review/stats.js';
import unit from './roster/unit.js';
import verify from './review/verify.js';
import voidCommand from './review/void.js';

/** Every slash command the bot offers; the router, /help and deploy-commands read this list. */
export const COMMANDS: readonly AnyCommand[] = [
  // Rolling and rulings, by system
  rally,
  disorder,
  brigade,
  morale,
  hob,
  mc,
  dr,
  fatigue,
  odds,
  pack,
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
