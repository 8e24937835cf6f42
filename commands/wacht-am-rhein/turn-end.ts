import type { Context } from '../../src/core/command.js';
import { writeBack } from '../../src/core/roster-unit.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import type { Game } from '../../src/ledger/roster.js';
import { userText } from '../../src/render/embed.js';
import { isEnaPhase, positionKey } from '../../src/rules/wacht-am-rhein/fatigue.js';
import { say } from '../../src/i18n/reader.js';

/** Wacht am Rhein at /game turn: an MR exemption ends with the ENA it belonged to (13.1.3); one line per change. */
export async function wachtAmRheinTurnEnd(tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string): Promise<string[]> {
  if (!isEnaPhase(before.phase) || positionKey(before) === positionKey(after)) return [];
  const ena = positionKey(before);
  const lines: string[] = [];
  for (const unit of await tx.roster.units(after.id, 10_000, 0)) {
    const f = unit.fields;
    // Armed before this ENA: this was its first possible ENA, and it is over.
    if (!f.mr_exemption || f.mr_armed === ena) continue;
    const why = 'Its first possible ENA since leaving Maneuver Reserve has ended: the exemption is over (13.1.3)';
    await writeBack(tx, ctx, { game: after, unit }, { fields: { mr_exemption: false, mr_ena: null }, why }, turnRowId, 'game', { asGame: true });
    lines.push(say('war.mrEnded', { unit: userText(unit.name) }));
  }
  return lines;
}
