import { userText } from '../render/embed.js';
import type { Game } from '../ledger/roster.js';
import { brigadeMorale } from '../rules/hearts-of-tin/disorder.js';
import { isEnaPhase, phaseKey } from '../rules/wacht-am-rhein/fatigue.js';
import { allBrigades, lossesOf, markedShaken } from './brigades.js';
import type { Context } from './command.js';
import { type Tracked, writeBack } from './roster-unit.js';
import type { LedgerTx } from '../ledger/ledger.js';
import { lapseAllRouts } from './pending-rout.js';

/** The game's position as a key: which turn and phase a recovery or an exemption belongs to. */
export const positionKey = (g: { turn: number | null; phase: string | null }) => `${g.turn ?? '-'}|${g.phase === null ? '' : phaseKey(g.phase)}`;

const MAX_MARKERS = 10;

/**
 * What the rules do when /game turn moves the game on, written to the roster as the game's own
 * changes (each a ledger row under the turn's row); returns one line per change for the reply.
 * Hearts of Tin: at the end of every turn each unit of a shaken brigade gains a disorder marker.
 * Wacht am Rhein: an MR exemption ends with the ENA it belonged to (13.1.3).
 */
export async function turnEnd(tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string): Promise<string[]> {
  const lines: string[] = [];
  const write = (t: Tracked, fields: Record<string, unknown>, why: string) => writeBack(tx, ctx, t, { fields, why }, turnRowId, 'game', { asGame: true });
  // A commander re-roll not taken by the next /game turn lapses: the rout stands (hearts-of-tin.md).
  lines.push(...(await lapseAllRouts(tx, ctx, after, `End of turn ${before.turn ?? '–'}`)));
  if (after.system === 'hearts-of-tin' && before.turn !== null && after.turn !== null && after.turn > before.turn) {
    for (const [name, units] of allBrigades(await tx.roster.everyUnit(after.id))) {
      const { original, lost } = lossesOf(units);
      if (brigadeMorale({ original, lost, alreadyShaken: markedShaken(units) }).result !== 'shaken') continue;
      for (const unit of units.filter((u) => !u.removed_at && Number(u.fields.strength) > 0)) {
        const disorder = Math.min(MAX_MARKERS, Number(unit.fields.disorder ?? 0) + 1);
        await write(
          { game: after, unit },
          { disorder, brigade_shaken: true },
          `End of turn ${before.turn}: ${userText(name)} is shaken (lost ${lost} of ${original}), one disorder marker`,
        );
        lines.push(`${userText(unit.name)} (${userText(name)}, shaken): +1 disorder marker, now ${disorder}.`);
      }
    }
  }
  if (after.system === 'wacht-am-rhein' && isEnaPhase(before.phase) && positionKey(before) !== positionKey(after)) {
    const ena = positionKey(before);
    for (const unit of await tx.roster.units(after.id, 10_000, 0)) {
      const f = unit.fields;
      // Armed before this ENA: this was its first possible ENA, and it is over.
      if (!f.mr_exemption || f.mr_armed === ena) continue;
      await write(
        { game: after, unit },
        { mr_exemption: false, mr_ena: null },
        'Its first possible ENA since leaving Maneuver Reserve has ended: the exemption is over (13.1.3)',
      );
      lines.push(`${userText(unit.name)}: the Maneuver Reserve exemption ended with the ENA.`);
    }
  }
  return lines;
}
