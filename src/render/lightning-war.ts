import type { APIEmbed } from 'discord.js';
import { COMMANDER_RANGE_M } from '../rules/lightning-war/morale-table.js';
import type { MoraleInput, MoraleOutcome } from '../rules/lightning-war/morale.js';
import { labelOf, oddsField, resultEmbed, stepFields, userText } from './embed.js';
import { say } from '../i18n/reader.js';

/**
 * A check's title and every input its odds rest on: one header for the roll and for its odds, so
 * neither can leave out an input that changed them.
 */
export function moraleHeader(unit: string | undefined, i: MoraleInput): { title: string; situation: string } {
  const check = say(i.rally ? 'lw.r.rally' : 'lw.r.checkTitle');
  return { title: unit ? `${check} · ${userText(unit)}` : check, situation: situation(i) };
}

function situation(i: MoraleInput): string {
  return [
    i.rally ? say('lw.r.rallyAttempt', { state: i.state ?? 'none' }) : say('lw.r.check'),
    // A check never improves a retreating or routing unit: its state changes what the check can give.
    !i.rally && i.state ? say('lw.r.already', { state: i.state }) : undefined,
    say('lw.r.unitType', { type: i.unitType }),
    say('lw.r.morale', { level: i.morale }),
    i.casualties ? say('lw.r.lost', { lost: String(i.casualties.lost), original: String(i.casualties.original) }) : say('lw.r.noCasualties'),
    say('lw.r.cover', { cover: i.cover }),
    i.immobilized ? say('lw.r.immobilized') : undefined,
    i.nearKill ? say('lw.r.nearKill') : undefined,
    i.reserveMove ? say('lw.r.reserveMove') : undefined,
    i.commander ? say('lw.r.commander', { m: String(COMMANDER_RANGE_M[i.unitType]) }) : undefined,
    i.enemyWithin100m ? say('lw.r.enemy100') : undefined,
    i.reason ? say('lw.r.because', { reason: i.reason }) : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function moraleEmbed(a: {
  unit: string | undefined;
  userName: string;
  input: MoraleInput;
  outcome: MoraleOutcome;
  row: { id: string; hash: string };
}): APIEmbed {
  const step = a.outcome.steps[0]!;
  const notes = a.input.rally ? [say('lw.r.noOrders')] : [];
  const { title, situation } = moraleHeader(a.unit, a.input);
  return resultEmbed({
    title,
    headline: labelOf(step),
    userName: a.userName,
    tone: a.outcome.tone,
    description: situation,
    fields: [...stepFields(step, { notes }), ...(a.outcome.odds ? [oddsField(a.outcome.odds)] : [])],
    rollId: a.row.id,
    hash: a.row.hash,
  });
}
