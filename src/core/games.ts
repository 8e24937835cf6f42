import type { NamedUnit } from '../ledger/contract.js';
import type { Game } from '../ledger/roster.js';
import type { LedgerTx } from '../ledger/transaction.js';
import { userText } from '../render/embed.js';
import { systemName } from '../rules/systems.js';
import type { AnySystemId } from '../rules/types.js';
import type { Context } from './command.js';
import { refuse } from './user-error.js';
import { command } from '../i18n/said.js';
import { say } from '../i18n/reader.js';

/**
 * Where a command reads the facts it decides from. A command that writes reads them from its own
 * transaction, so nothing it decides from can change
 * before its writes commit; a command that writes nothing (/odds, /unit show) reads the store.
 * Both answer these.
 */
export type Reads = Pick<LedgerTx, 'get' | 'children' | 'gameRollCount'> & {
  roster: Pick<LedgerTx['roster'], 'activeGame' | 'game' | 'unit' | 'unitByName' | 'units' | 'everyUnit' | 'countUnits'>;
};

/** The reads a command decides from, and the channel's game as they saw it (read once per command). */
export type Scope = {
  reads: Reads;
  /** The game running in the channel, whatever its system. */
  channelGame: Game | undefined;
  /** That game when it is of the command's system: the command's results belong to it. */
  game: Game | undefined;
  /** The roster unit the command names, read with the channel's game (trackedUnit takes it instead of reading). */
  named?: NamedUnit | undefined;
};

/** The channel's game if the outcome belongs to it: a roll of another system in the channel is not the game's. */
export const ofSystem = (game: Game | undefined, system: string | null): Game | undefined =>
  game && (system === null || game.system === system) ? game : undefined;

/** The scope of a command of `system` (null: any system's game) from these reads. */
export async function scopeOf(reads: Reads, ctx: Context, system: string | null): Promise<Scope> {
  const channelGame = await reads.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  return { reads, channelGame, game: ofSystem(channelGame, system) };
}

/** The scope of a command that writes nothing, read from the store (its reads may be a moment old). */
export const readScope = (ctx: Context, system: string | null = null): Promise<Scope> => scopeOf(ctx.services.ledger, ctx, system);

/** The game running in the actor's channel; with none, the request is refused with how to start one. */
export const runningGame = (scope: Pick<Scope, 'channelGame'>): Game => scope.channelGame ?? refuse('noGameHere', { start: command('game start') });

/**
 * Said in the reply when the channel's game is of another system: the result is recorded, but not
 * as part of that game.
 */
export function gameNote(scope: Pick<Scope, 'channelGame'>, system: AnySystemId): string | undefined {
  const game = scope.channelGame;
  if (!game || game.system === system) return undefined;
  return say('reply.gameNote', { game: userText(game.name), system: systemName(game.system), result: systemName(system) });
}
