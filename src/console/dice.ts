import type { Roller } from '../dice/roller.js';
import { gameOptionsOf, type Game } from '../ledger/roster.js';

/** A die --dice cannot give: the router reports it as a failure, the console says why in its place. */
export class ScriptedDiceError extends Error {}

const dice = (n: number) => `${n} ${n === 1 ? 'die' : 'dice'}`;

/**
 * The --dice list as a roller: its faces in order. A die it cannot give (the list used up, or a
 * face the die does not have) throws ScriptedDiceError, whose sentence the session shows instead of
 * the router's "Something went wrong": the router swallows the error, so it is kept here too.
 */
export class ScriptedDice implements Roller {
  private used = 0;
  private lineStart = 0;
  private problem: string | undefined;

  constructor(private readonly faces: readonly number[]) {}

  roll(sides: number): number {
    const face = this.faces[this.used];
    if (face === undefined)
      this.fail(
        `the --dice list is used up after ${dice(this.faces.length)}: this roll needs more, so nothing was recorded. Start the console again with more dice after --dice, or without --dice to roll them.`,
      );
    if (face > sides)
      this.fail(
        `die ${this.used + 1} of the --dice list is ${face}, but this roll needs a d${sides} (1 to ${sides}): nothing was recorded. Start the console again with a --dice list whose die ${this.used + 1} is a face of a d${sides}.`,
      );
    this.used++;
    return face;
  }

  /**
   * The dice of a game's roll: the list's only in a game started with them (scripted on its first
   * row). Any other game's dice are its seed's, recomputed by verifiers once it ends: a die typed
   * into one would make it verify as broken, for good.
   */
  forGame(game: Pick<Game, 'name' | 'options'>): Roller {
    if (gameOptionsOf(game).dice === 'scripted') return this;
    return this.fail(
      `--dice cannot roll in the game ${game.name}: its dice come from its seed, and verifiers recompute every one once it ends, so a die typed in would make it verify as broken. Roll in it without --dice, or script a game of its own: start it with --dice (its first row then says its dice are typed in).`,
    );
  }

  /** A line begins: its dice are counted from here. */
  startLine(): void {
    this.lineStart = this.used;
    this.problem = undefined;
  }

  /**
   * The line recorded nothing: its dice go back to the list, as dice rolled at the table for an
   * entry that failed are still the next entry's. Returns why the list could not serve it, if that was the failure.
   */
  lineFailed(): string | undefined {
    this.used = this.lineStart;
    return this.problem;
  }

  private fail(message: string): never {
    this.problem = message;
    throw new ScriptedDiceError(message);
  }
}
