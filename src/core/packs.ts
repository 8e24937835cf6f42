import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Pack } from '../rules/packs/load.js';
import { loadPackInWorker } from './pack-check.js';
import { checkedPack } from '../rules/packs/checked.js';
import { packFileOf, storedPack, type StoredPack } from '../rules/packs/stored.js';
import { changeOutcome } from './roster-unit.js';
import { record } from './record.js';
import type { Context } from './command.js';
import type { LedgerStore } from '../ledger/store.js';
import { refuse } from './user-error.js';
import { userText } from '../render/embed.js';
import { memo } from '../rules/odds.js';
import { command, type ListOf, list, said } from '../i18n/said.js';
import { nameIn, TRANSLATED } from '../i18n/i18n.js';

/**
 * The rule packs installed in a server, as its chain records them: each install is a `pack` row
 * holding the pack's canonical JSON and its SHA-256; a removal is a `pack` row naming the id. The
 * ledger is the only record, so every process serving the server sees the same packs.
 */

export const PACK_COMMAND = 'pack';

/** An installed pack: the pack, and the row (and hash) its rolls name. */
export type InstalledPack = { pack: Pack; rowId: string; sha256: string };

/** What a `pack` row's input holds. */
export type PackRowInput = { action: 'install'; pack: unknown; sha256: string } | { action: 'remove'; pack_id: string };

/** The canonical JSON (RFC 8785) of a pack's stored form, the bytes its hash covers. */
export const canonicalPack = (pack: Pack) => canonicalize(storedPack(pack))!;
export const packHash = (canonical: string) => createHash('sha256').update(canonical).digest('hex');

/** Packs as their canonical JSON parsed and checked once per hash (a pack row is read on every roll of it). */
const parsedPacks = memo<Pack | undefined>(256);

/**
 * The pack a `pack` row holds, checked again (undefined if it no longer passes): its form and names,
 * on this thread; the walks over its options' values were done in the install's worker, within the
 * work limit, and are not repeated where every server's commands are answered.
 */
export function packOfRow(input: PackRowInput & { action: 'install' }, commands: readonly string[]): Pack | undefined {
  return parsedPacks(input.sha256, () => {
    const loaded = checkedPack(packFileOf(input.pack as StoredPack), commands, { walk: false });
    return loaded.ok ? loaded.pack : undefined;
  });
}

/** A server's installed packs by id, from its `pack` rows in chain order; `builtIn` are the names a pack may not take. */
export async function packsOf(ledger: Pick<LedgerStore, 'packRows'>, guildId: string, builtIn: readonly string[]): Promise<Map<string, InstalledPack>> {
  // Each pack id's last row decides: earlier versions are never parsed (a server may hold hundreds).
  const last = new Map<string, { id: string; input: PackRowInput }>();
  for (const row of await ledger.packRows(guildId)) {
    const input = row.input as PackRowInput;
    const id = input.action === 'remove' ? input.pack_id : (input.pack as { pack?: unknown } | null)?.pack;
    if (typeof id === 'string') last.set(id, { id: row.id, input });
  }
  const packs = new Map<string, InstalledPack>();
  for (const { id, input } of last.values()) {
    if (input.action !== 'install') continue;
    const pack = packOfRow(input, builtIn);
    if (pack) packs.set(pack.pack, { pack, rowId: id, sha256: input.sha256 });
  }
  return packs;
}

/** The names a pack may not take: the bot's own commands. */
const builtInNames = (ctx: Context) => ctx.commands.map((c) => c.name);

// Made when first asked (a pack's install), not at start-up: ICU's display names load megabytes of its data.
let languageNames: Intl.DisplayNames | undefined;
function languageName(lang: string): string | undefined {
  languageNames ??= new Intl.DisplayNames('en', { type: 'language' });
  return languageNames.of(lang);
}

/**
 * The names a new pack may not take, each with what it is: every built-in command's name in every
 * language the bot speaks (a pack called `sammeln` would stand beside /rally in a German player's
 * list under the same name). Packs installed before this rule are still read (`builtInNames`).
 */
export function takenNames(commands: readonly { name: string }[]): Map<string, string> {
  const taken = new Map(commands.map((c) => [c.name, '']));
  for (const c of commands)
    for (const lang of TRANSLATED) {
      const shown = nameIn(lang, c.name);
      if (!taken.has(shown)) taken.set(shown, `/${c.name}, as ${languageName(lang)} players see it`);
    }
  return taken;
}

/** The installed packs of the server a request comes from. */
export const installedPacks = (ctx: Context) => packsOf(ctx.services.ledger, ctx.actor.guildId, builtInNames(ctx));

/** The pack a roll names by its pack row (the version it was rolled with, installed still or not): a re-roll rolls under it. */
export async function installedPackOfRow(ctx: Context, rowId: string): Promise<InstalledPack | undefined> {
  const row = await ctx.services.ledger.get(ctx.actor.guildId, rowId);
  const input = row?.kind === 'pack' ? (row.input as PackRowInput) : undefined;
  const pack = input?.action === 'install' ? packOfRow(input, builtInNames(ctx)) : undefined;
  return pack && input?.action === 'install' ? { pack, rowId, sha256: input.sha256 } : undefined;
}

/**
 * Validates a pack file and records it on the chain; refuses with every problem, each naming its
 * path. The same pack again (the same hash) records nothing and is returned as installed, so a
 * registration Discord missed can be retried.
 */
export async function installPack(ctx: Context, text: string): Promise<InstalledPack & { again: boolean }> {
  // Parsed and checked in a worker: the bot goes on answering every server meanwhile.
  const loaded = await loadPackInWorker(text, takenNames(ctx.commands));
  if (!loaded.ok) refuse('packNotInstalled', { problems: problemLines(loaded.problems) });
  const pack = loaded.pack as Pack;
  const canonical = canonicalPack(pack);
  const sha256 = packHash(canonical);
  // Its row, read back for every roll, is not checked again on this thread: the worker's check was
  // of these same bytes (taken as the row gives them back, its records' keys in canonical order).
  parsedPacks(sha256, () => packFileOf(JSON.parse(canonical) as StoredPack) as Pack);
  return ctx.services.ledger.transaction(async (tx) => {
    // Read in the install's own transaction: two installs at once cannot both pass the version check.
    const before = (await packsOf(tx, ctx.actor.guildId, builtInNames(ctx))).get(pack.pack);
    if (before?.sha256 === sha256) return { ...before, again: true };
    if (before && before.pack.version >= pack.version)
      refuse('packNeedsHigherVersion', { pack: pack.pack, installed: String(before.pack.version), given: String(pack.version) });
    const input: PackRowInput = { action: 'install', pack: JSON.parse(canonical), sha256 };
    const row = await record(
      tx,
      ctx,
      { command: PACK_COMMAND, kind: 'pack', input },
      changeOutcome('unknown', 'pack_installed', 'Pack installed', `${pack.pack} version ${pack.version}`),
    );
    return { pack, rowId: row.id, sha256, again: false };
  }, ctx.actor.guildId);
}

/** A pack's problems as lines, the first 15 (the validator's own words: a pack's author reads them beside the file). */
function problemLines(problems: string[]): ListOf {
  const lines = problems.slice(0, 15).map((p) => `• ${userText(p)}`);
  const more = problems.length > 15 ? [said('packMoreProblems', { n: problems.length - 15 })] : [];
  return list([...lines, ...more], 'lines');
}

/** Records a pack's removal: its command goes; its rolls stay on record, still verifiable. */
export async function removePack(ctx: Context, id: string): Promise<InstalledPack> {
  return ctx.services.ledger.transaction(async (tx) => {
    const installed = (await packsOf(tx, ctx.actor.guildId, builtInNames(ctx))).get(id);
    if (!installed) refuse('noSuchPack', { pack: userText(id), list: command('pack list') });
    const input: PackRowInput = { action: 'remove', pack_id: id };
    await record(tx, ctx, { command: PACK_COMMAND, kind: 'pack', input }, changeOutcome('unknown', 'pack_removed', 'Pack removed', id));
    return installed;
  }, ctx.actor.guildId);
}
