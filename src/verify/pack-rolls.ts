import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { fixedRoller } from '../dice/roller.js';
import { packProblems } from '../rules/packs/check.js';
import type { Pack } from '../rules/packs/checked.js';
import { rollPack, type PackOutcome } from '../rules/packs/roll.js';
import { rerollOffer, rerollStarts } from '../rules/packs/reroll.js';
import { packFileOf, type StoredPack } from '../rules/packs/stored.js';
import type { ChainedRow } from '../ledger/chain.js';
import { blankCommitted } from '../ledger/people.js';

/** A row as the checks read it, and what a check finds (the shapes of checks.ts, which imports this). */
type Row = ChainedRow;
type Found = { ok: boolean; lines: string[] };

/**
 * Every pack roll re-adjudicated from its dice, its input and the pack row it names, as all three
 * verifiers do (/verify, npm run verify, verify.html): a roll whose recorded result, modifiers or
 * unit change differ from what the pack gives, or whose pack row is missing or altered, is named.
 */

/** What a pack row gives a verifier: the pack it holds, if its hash holds and it still checks. */
export type PackRowFacts = { id: string; guildId: string; sha256: string; pack?: Pack; problem?: string };

type PackInstall = { action: 'install'; pack: StoredPack; sha256: string };

const isSealed = (r: Row) => Boolean((r.outcome as { sealed?: boolean } | null)?.sealed);

export const isPackRow = (r: Row) => r.kind === 'pack' && (r.input as { action?: string } | null)?.action === 'install';
export const isPackRoll = (r: Row) => (r.kind === 'roll' || r.kind === 'reroll') && typeof r.system === 'string' && r.system.startsWith('pack:');

/**
 * The pack checks' findings by the pack's SHA-256 (checked against its bytes first): the same pack
 * installed in many servers, or verified again, is checked once.
 */
const checkedPacks = new Map<string, string[]>();
function checkedByHash(sha256: string, pack: Pack): string[] {
  let problems = checkedPacks.get(sha256);
  if (problems) return problems;
  try {
    problems = packProblems(pack, []);
  } catch (err) {
    problems = [(err as Error).message];
  }
  if (checkedPacks.size >= 256) checkedPacks.delete(checkedPacks.keys().next().value!);
  checkedPacks.set(sha256, problems);
  return problems;
}

/** A pack row's pack, checked: its stored JSON against the hash it records, then as a pack. */
export function packRowFacts(r: Row): PackRowFacts {
  const input = r.input as PackInstall;
  const facts = { id: r.id, guildId: r.guild_id, sha256: input.sha256 };
  const canonical = canonicalize(input.pack) ?? '';
  if (createHash('sha256').update(canonical).digest('hex') !== input.sha256)
    return { ...facts, problem: `pack row ${r.id}: its pack does not hash to the SHA-256 it records` };
  // The stored pack is zod's output at install (defaults filled in): the whole-pack checks are run
  // again here without zod, which the verifiers' page does not carry; a malformed pack throws.
  const pack = packFileOf(input.pack) as Pack;
  const problems = checkedByHash(input.sha256, pack);
  return problems.length ? { ...facts, problem: `pack row ${r.id}: its pack does not pass the pack checks (${problems[0]})` } : { ...facts, pack };
}

type PackRollInput = {
  pack?: { id?: string; version?: number; row?: string; sha256?: string };
  options?: Record<string, string | number | boolean>;
  /** The named unit's fields before the roll (its bounds fire on them), and a re-roll's test. */
  unit_values?: Record<string, number | string>;
  reroll?: { of?: string; test?: string };
};

/** What a recorded outcome and a re-adjudicated one must agree on (canonical: the ledger stores its JSON with sorted keys). */
const essence = (o: Pick<PackOutcome, 'result' | 'unit'> & { steps: PackOutcome['steps'] }) =>
  canonicalize({
    result: o.result,
    unit: o.unit ?? null,
    steps: (o.steps ?? []).map((s) => ({
      kind: s.kind,
      sides: s.sides,
      result: s.result,
      original: s.original,
      final: s.final,
      modifiers: s.modifiers,
      target: s.target ?? null,
      margin: s.margin ?? null,
      limits: s.limits ?? null,
    })),
  });

/** A committed reveal's payload as its chain holds it (the form its sealed roll committed to), or undefined. */
function revealChainedPayload(reveal: Row): { outcome?: unknown } | undefined {
  if (typeof reveal.chained !== 'string') return undefined;
  try {
    return (JSON.parse(reveal.chained) as { input?: { payload?: { outcome?: unknown } } }).input?.payload;
  } catch {
    return undefined;
  }
}

/** A committed row's outcome as its chain holds it (people.ts), or undefined. */
function committedOutcomeOf(r: Row): unknown {
  if (typeof r.chained !== 'string') return undefined;
  try {
    return (JSON.parse(r.chained) as { outcome?: unknown }).outcome;
  } catch {
    return undefined;
  }
}

/** One pack roll against the pack row it names: undefined when it holds, else the sentence naming it. */
export function packRollProblem(r: Row, packRow: PackRowFacts | undefined): string | undefined {
  const input = r.input as PackRollInput;
  const named = input.pack;
  if (!named?.row || !packRow || packRow.guildId !== r.guild_id)
    return `pack roll ${r.id}: FAILED: the pack row it names (${named?.row ?? 'none'}) is not on its server's chain`;
  if (packRow.problem) return `pack roll ${r.id}: FAILED: ${packRow.problem}`;
  if (named.sha256 !== packRow.sha256)
    return `pack roll ${r.id}: FAILED: it names pack hash ${String(named.sha256).slice(0, 12)}…, but pack row ${packRow.id} holds ${packRow.sha256.slice(0, 12)}…`;
  const pack = packRow.pack!;
  if (`pack:${pack.pack}` !== r.system || named.version !== pack.version)
    return `pack roll ${r.id}: FAILED: it names ${r.system} version ${named.version}, but pack row ${packRow.id} holds ${pack.pack} version ${pack.version}`;
  let again: PackOutcome;
  try {
    // A re-roll starts at the test its pack names for it; the unit's fields before the roll decide which bounds fire.
    const start = r.kind === 'reroll' ? input.reroll?.test : undefined;
    if (r.kind === 'reroll' && (start === undefined || !rerollStarts(pack).includes(start)))
      return `pack roll ${r.id}: FAILED: it is recorded as a re-roll of test ${String(start)}, which pack ${pack.pack} version ${pack.version} offers no re-roll of`;
    again = rollPack(pack, input.options ?? {}, fixedRoller(r.dice), {
      ...(input.unit_values ? { unit: input.unit_values } : {}),
      ...(start !== undefined ? { start } : {}),
    });
  } catch (err) {
    return `pack roll ${r.id}: FAILED: its dice ${JSON.stringify(r.dice)} cannot be the pack's (${(err as Error).message})`;
  }
  const recorded = r.outcome as PackOutcome;
  // A committed row's person text (a unit's name in a step) may be erased: both sides are compared without it.
  const committed = committedOutcomeOf(r);
  if (committed !== undefined) again = blankCommitted(again, committed) as PackOutcome;
  if (essence(committed === undefined ? recorded : (blankCommitted(recorded, committed) as PackOutcome)) !== essence(again))
    return `pack roll ${r.id}: FAILED: recorded ${recorded.result}, but its dice and input give ${again.result} under pack ${pack.pack} version ${pack.version}${recorded.result === again.result ? ' (its modifiers, totals or unit change differ)' : ''}`;
  if (r.result !== again.result) return `pack roll ${r.id}: FAILED: its result column says ${r.result}, the pack gives ${again.result}`;
  return undefined;
}

/** Pack rolls checked as rows stream past in chain order (a pack row comes before the rolls that name it). */
export class PackRollChecker {
  private readonly packRows = new Map<string, PackRowFacts>();
  readonly problems: string[] = [];
  checked = 0;

  /** Sealed pack rolls not yet revealed: re-adjudicated from what their reveal publishes. */
  private readonly sealed = new Map<string, Row>();

  note(r: Row): void {
    if (isPackRow(r)) this.packRows.set(r.id, packRowFacts(r));
    else if (isPackRoll(r) && isSealed(r)) this.sealed.set(r.id, r);
    else if (isPackRoll(r)) this.check(r);
    else if (r.kind === 'reveal') this.revealed(r);
    else if (r.kind === 'void' && r.parent_id) this.voided.add(r.parent_id);
  }

  /** A reveal of a sealed pack roll: the roll as the reveal shows it (its commitment is checked with the reveals). */
  private revealed(reveal: Row): void {
    const { roll, payload } = (reveal.input ?? {}) as { roll?: string; payload?: { dice: number[]; outcome: unknown; result: string | null } };
    const sealed = roll === undefined ? undefined : this.sealed.get(roll);
    if (!sealed || !payload || sealed.guild_id !== reveal.guild_id) return;
    this.sealed.delete(roll!);
    // The revealed outcome is compared without its committed parts as the reveal's chain holds them (not the sealed row's commitment).
    const chainedPayload = revealChainedPayload(reveal);
    this.check({
      ...sealed,
      dice: payload.dice,
      outcome: payload.outcome,
      result: payload.result,
      chained: chainedPayload === undefined ? null : JSON.stringify({ outcome: chainedPayload.outcome }),
    });
  }

  /** Pack rolls (not re-rolls) seen so far, by id: a re-roll is checked against the roll it replaces. */
  private readonly rolls = new Map<string, Row>();
  /** Rolls a GM voided: a voided roll offers no re-roll. */
  private readonly voided = new Set<string>();
  /** Rolls a re-roll has replaced: a pack offers one re-roll. */
  private readonly rerolled = new Set<string>();

  private check(r: Row): void {
    this.checked++;
    const packRow = this.packRows.get(String((r.input as PackRollInput).pack?.row));
    const problem = packRollProblem(r, packRow) ?? (r.kind === 'reroll' ? this.rerollProblem(r, packRow!.pack!) : undefined);
    if (problem) this.problems.push(problem);
    if (r.kind === 'roll') this.rolls.set(r.id, r);
  }

  /**
   * A re-roll as the bot allows one: of a pack roll before it on its server's chain, under the same
   * pack row, whose result offered a re-roll of the test it starts at; once; in the roll's own game
   * and turn (the offer lapses with the turn), by its owner unless the pack lets a GM; not of a
   * voided roll. A sealed roll offers it once revealed: before its reveal it is no roll seen yet.
   */
  private rerollProblem(r: Row, pack: Pack): string | undefined {
    const input = r.input as PackRollInput;
    const of = input.reroll?.of;
    const parent = of === undefined ? undefined : this.rolls.get(of);
    const failed = (why: string) => `pack roll ${r.id}: FAILED: it is recorded as a re-roll of ${of ?? 'no roll'}, ${why}`;
    if (!parent || parent.guild_id !== r.guild_id || r.parent_id !== of) return failed("which is no pack roll before it on its server's chain");
    if ((parent.input as PackRollInput).pack?.row !== input.pack?.row) return failed('made under another pack row');
    let offer: ReturnType<typeof rerollOffer>;
    try {
      offer = rerollOffer(pack, parent.outcome as PackOutcome, (parent.input as PackRollInput).options ?? {});
    } catch (err) {
      return failed(`whose recorded outcome cannot be read (${(err as Error).message})`);
    }
    if (!offer || offer.start !== input.reroll?.test)
      return failed(`whose result ${String(parent.result)} offers ${offer ? `a re-roll of test ${offer.start}` : 'no re-roll'}`);
    if (this.rerolled.has(of!)) return failed('which was re-rolled already: a pack offers one re-roll');
    if (this.voided.has(of!)) return failed('a voided roll, which offers no re-roll');
    if (offer.reroll.by !== 'owner_or_gm' && r.user_id !== parent.user_id) return failed("made by another than the roll's owner, who alone may take it");
    if (parent.game_id !== r.game_id || (parent.turn ?? null) !== (r.turn ?? null))
      return failed(`made in turn ${String(r.turn ?? '–')}, after the offer lapsed with turn ${String(parent.turn ?? '–')}`);
    this.rerolled.add(of!);
    return undefined;
  }

  /** The verdict: the line to report (none when there were no pack rolls), and whether all held. */
  found(): Found {
    if (!this.checked && !this.problems.length) return { ok: true, lines: [] };
    const held = `pack rolls: ${this.checked} re-adjudicated from their dice, input and pack row${this.problems.length ? `; ${this.problems.length} do not hold` : '; all hold'}`;
    return { ok: this.problems.length === 0, lines: [held, ...this.problems] };
  }
}

/** Pack rolls in chain order, each against the pack row it names in its own server (a row of another server is not found). */
export function checkPackRolls(rows: readonly Row[]): Found {
  const checker = new PackRollChecker();
  for (const r of rows) checker.note(r);
  return checker.found();
}
