import type { LedgerRow } from '../../src/ledger/rows.js';
import type { LedgerStore } from '../../src/ledger/store.js';

/** A unit as both the roster and the ledger can tell it. */
export type UnitState = { name: string; owner_id: string; owner_name: string; side: string | null; fields: Record<string, unknown>; removed: boolean };

type UnitRowInput = {
  action?: 'add' | 'edit' | 'remove';
  unit?: string;
  side?: string | null;
  fields?: Record<string, unknown>;
  removed?: boolean;
  patch?: { name?: string; owner_id?: string; owner_name?: string; side?: string | null; fields?: Record<string, unknown> };
};

const key = (name: string) => name.trim().toLowerCase();

/** One unit row applied to the units the ledger has told so far (live ones by name, removed ones aside). */
function apply(live: Map<string, UnitState>, gone: UnitState[], row: LedgerRow): void {
  const i = row.input as UnitRowInput;
  if (row.command === 'unit' && i.action === 'add') {
    live.set(key(row.unit!), {
      name: row.unit!,
      owner_id: row.user_id,
      owner_name: row.user_name,
      side: i.side ?? null,
      fields: { ...i.fields },
      removed: false,
    });
    return;
  }
  const name = i.unit ?? row.unit!;
  const u = live.get(key(name));
  if (!u) throw new Error(`the ledger changes ${name}, which it never added (row ${row.id})`);
  if (i.action === 'remove' || i.removed) {
    live.delete(key(name));
    gone.push({ ...u, removed: true });
  } else if (i.action === 'edit') {
    const p = i.patch ?? {};
    live.delete(key(name));
    const next = { ...u, ...p, fields: { ...u.fields, ...p.fields } };
    live.set(key(next.name), next);
  } else if (i.fields) {
    u.fields = { ...u.fields, ...i.fields };
  }
}

/** The game's units as its ledger rows tell them: every add, edit, write-back and removal, in order. */
export async function unitsFromLedger(store: LedgerStore, guildId: string, gameId: string): Promise<UnitState[]> {
  const live = new Map<string, UnitState>();
  const gone: UnitState[] = [];
  for await (const chunk of store.history.chunks({ guildId, gameId, kinds: ['unit'] })) for (const row of chunk) apply(live, gone, row);
  return sortUnits([...live.values(), ...gone]);
}

/** The game's units as the roster holds them. */
export async function unitsFromRoster(store: LedgerStore, gameId: string): Promise<UnitState[]> {
  const units = await store.roster.everyUnit(gameId);
  return sortUnits(
    units.map((u) => ({ name: u.name, owner_id: u.owner_id, owner_name: u.owner_name, side: u.side, fields: u.fields, removed: u.removed_at !== null })),
  );
}

const sortUnits = (units: UnitState[]) => units.sort((a, b) => `${a.name}|${a.removed}`.localeCompare(`${b.name}|${b.removed}`));
