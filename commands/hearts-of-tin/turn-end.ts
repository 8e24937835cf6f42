import type { Context } from '../../src/core/command.js';
import { writeBack } from '../../src/core/roster-unit.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import type { Game } from '../../src/ledger/roster.js';
import { userText } from '../../src/render/embed.js';
import { brigadeMorale } from '../../src/rules/hearts-of-tin/disorder.js';
import { allBrigades, lossesOf, markedShaken } from './brigades.js';
import { shakenBrigadeChange } from '../../src/rules/hearts-of-tin/roster.js';
import { lapseAllRouts } from './pending-rout.js';
import { say } from '../../src/i18n/reader.js';

/**
 * Hearts of Tin at /game turn: a commander re-roll not taken lapses (the rout stands), and when the
 * turn number moves on, each unit of a shaken brigade gains one disorder marker; one line per change.
 */
export async function heartsOfTinTurnEnd(tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string): Promise<string[]> {
  const lines = await lapseAllRouts(tx, ctx, after, `End of turn ${before.turn ?? '–'}`);
  if (before.turn === null || after.turn === null || after.turn <= before.turn) return lines;
  for (const [name, units] of allBrigades(await tx.roster.everyUnit(after.id))) {
    const { original, lost } = lossesOf(units);
    if (brigadeMorale({ original, lost, alreadyShaken: markedShaken(units) }).result !== 'shaken') continue;
    for (const unit of units.filter((u) => !u.removed_at && Number(u.fields.strength) > 0)) {
      const why = `End of turn ${before.turn}: ${userText(name)} is shaken (lost ${lost} of ${original}), one disorder marker`;
      const change = shakenBrigadeChange(Number(unit.fields.disorder ?? 0), why);
      await writeBack(tx, ctx, { game: after, unit }, change, turnRowId, 'game', { asGame: true });
      lines.push(say('hot.shakenMarker', { unit: userText(unit.name), brigade: userText(name), disorder: String(change.fields!.disorder) }));
    }
  }
  return lines;
}
