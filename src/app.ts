import type { BeaconSource } from './beacon/relay.js';
import { COMMANDS } from '../commands/index.js';
import type { RateLimiter } from './core/rate-limit.js';
import { Router } from './core/router.js';
import type { Services } from './core/command.js';
import { cryptoRoller, type Roller } from './dice/roller.js';
import { gameRoller, type GameDraw } from './dice/seeded.js';
import { playerSeedsOf, type Game } from './ledger/roster.js';
import { Ledger } from './ledger/ledger.js';
import { sqliteStore, type LedgerStore } from './ledger/store.js';
import type { Logger } from './log.js';
import type { Signer } from './verify/receipt.js';

/** Wires the one router every transport uses. Tests pass fixed dice; production gets crypto dice. */
/** `ledger`: a store (SQLite or PostgreSQL), or the SQLite ledger itself. */
export function createRouter(deps: {
  ledger: Ledger | LedgerStore;
  log: Logger;
  roller?: Roller;
  gameRoller?: Services['gameRoller'];
  limiter?: RateLimiter;
  signer?: Signer;
  beacon?: BeaconSource;
  guildCommands?: Services['guildCommands'];
  scriptedDice?: boolean;
  retentionDays?: number;
}): Router {
  return new Router(COMMANDS, {
    ledger: deps.ledger instanceof Ledger ? sqliteStore(deps.ledger) : deps.ledger,
    log: deps.log,
    roller: deps.roller ?? cryptoRoller,
    gameRoller: deps.gameRoller ?? gameDice,
    ...(deps.limiter ? { limiter: deps.limiter } : {}),
    ...(deps.signer ? { signer: deps.signer } : {}),
    ...(deps.beacon ? { beacon: deps.beacon } : {}),
    ...(deps.guildCommands ? { guildCommands: deps.guildCommands } : {}),
    ...(deps.scriptedDice ? { scriptedDice: true } : {}),
    ...(deps.retentionDays !== undefined ? { retentionDays: deps.retentionDays } : {}),
  });
}

/** A game's dice: its seeded, verifiable stream. */
function gameDice(game: Game, draw: GameDraw): Roller {
  if (!game.server_seed) throw new Error(`game ${game.id} has no server seed`);
  return gameRoller(game.dice_scheme, game.server_seed, game.id, playerSeedsOf(game), draw);
}
