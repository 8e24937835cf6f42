import { COMMANDS } from '../commands/index.js';
import { Router } from './core/router.js';
import { cryptoRoller, type Roller } from './dice/roller.js';
import type { Ledger } from './ledger/ledger.js';
import type { Logger } from './log.js';

/** Wires the one router every transport uses. Tests pass fixed dice; production gets crypto dice. */
export function createRouter(deps: { ledger: Ledger; log: Logger; roller?: Roller }): Router {
  return new Router(COMMANDS, { ledger: deps.ledger, log: deps.log, roller: deps.roller ?? cryptoRoller });
}
