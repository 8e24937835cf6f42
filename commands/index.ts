import type { AnyCommand } from '../src/core/command.js';
import brigade from './brigade.js';
import disorder from './disorder.js';
import fatigue from './fatigue.js';
import game from './game.js';
import help from './help.js';
import hob from './hob.js';
import mc from './mc.js';
import odds from './odds.js';
import morale from './morale.js';
import rally from './rally.js';
import unit from './unit.js';

/** Every slash command the bot offers; the router, /help and deploy-commands read this list. */
export const COMMANDS: readonly AnyCommand[] = [rally, disorder, brigade, morale, hob, mc, fatigue, odds, game, unit, help];
