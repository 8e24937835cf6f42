import type { BeaconBinding, LedgerRow, NewEntry, SealedRecord } from './rows.js';
import type { RecountRow, StoredTally, TallyFilter, TallyGroup, TallySum } from './tally.js';
import type { Game, RosterUnit } from './roster.js';
import type { GuildSettings } from './settings.js';

/**
 * The ledger's methods, declared once: the rows' here, the roster's in roster.ts, the settings'
 * in settings.ts and retention's in retention.ts, beside the data they read. SQLite's classes
 * implement them as written (SQLite answers at once); the store and a transaction offer them as
 * promises (`Async<…>`, see transaction.ts and store.ts), which PostgreSQL implements. Adding a
 * method means adding it to its interface and to each backend: the compiler checks both.
 */

/** Reads of the chained rows. */
export interface RowReads {
  get(guildId: string, id: string): LedgerRow | undefined;
  children(guildId: string, parentId: string): LedgerRow[];
  /** A guild's rule pack rows (installs and removals), in chain order: a small partial index answers. */
  packRows(guildId: string): LedgerRow[];
  gameRollCount(guildId: string, gameId: string): number;
  sealedPayloads(guildId: string, rollIds: string[]): Map<string, SealedRecord>;
}

/** Reads a game roll and a game's end decide from, inside their transaction. */
export interface GameRowReads {
  /** How many game rolls this player has made in the game (their next roll is this plus one). */
  playerRollCount(gameId: string, userId: string): number;
  /** The game's sealed rolls not yet revealed, voided ones included, in chain order. */
  unrevealedSealed(guildId: string, gameId: string): LedgerRow[];
}

/** Writes that go with a row, in its transaction (on PostgreSQL, in the row's own statement). */
export type AppendAlso = {
  /** The interaction's signed request, kept once (EvidenceWrites.keepEvidence), before the row. */
  evidence?: KeptEvidence | undefined;
  /** A result shown in a game: its channel's status card is due at the row's time, unless sooner (touchChannelCard). */
  touchCard?: boolean;
};

/** The writes of rows, inside a transaction. */
export interface RowWrites {
  append(entry: NewEntry, also?: AppendAlso): LedgerRow;
  /** The number the next dice roll of a game takes (from 1). */
  nextGameSeq(gameId: string): number;
  /** A person's key in a server: the id of their salt (people.ts), drawn now if they have none; their rows will commit under it. */
  personKey(guildId: string, userId: string): string;
}

/** The unit a command names, as the channel's game has it: on its roster, else the first of that name to leave it. */
export type NamedUnit = { name: string; unit: RosterUnit | undefined; gone: RosterUnit | undefined };

/** What a unit of work asks for at its start, in its channel. */
export type ChannelQuery = {
  guildId: string;
  channelId: string;
  /** A roster unit's name as the command was given it, looked up in the channel's game. */
  unit?: string | undefined;
  /** The player about to roll: the game's next roll number and their game rolls so far come with it. */
  roller?: string | undefined;
};

/** The answer, read at once: PostgreSQL in one statement, SQLite with its several. */
export type ChannelState = {
  /** The game running in the channel, whatever its system (RosterReads.activeGame). */
  game: Game | undefined;
  settings: GuildSettings;
  /** With `unit`, in a game: RosterReads.unitByName's answer, and the unit that left under that name when there is none. */
  named?: NamedUnit;
  /** With `roller`, in a game: what nextGameSeq and playerRollCount answer now. */
  numbers?: { nextGameSeq: number; playerRollCount: number };
};

/** The reads a unit of work starts with, asked for once instead of one call each. */
export interface ChannelReads {
  channelState(q: ChannelQuery): ChannelState;
}

/** The dice report's aggregates (tally.ts), and the rows /verify recounts them from. */
export interface TallyReads {
  tallySums(f: TallyFilter, by: TallyGroup | undefined): TallySum[];
  /** Every stored tally of a guild with a count. */
  guildTallies(guildId: string): StoredTally[];
  /** A guild's rolls after `afterSeq`, oldest first, with their void and reveal. */
  recountRows(guildId: string, afterSeq: number, limit: number): RecountRow[];
}

/** Reads the store makes outside any transaction (counts for /game status, autocomplete). */
export interface StoreReads extends RowReads, TallyReads {
  gameRulingCount(guildId: string, gameId: string): number;
  recentUnits(guildId: string, channelId: string, prefix: string, limit: number, system: string): string[];
  /** Rows in the whole ledger, every guild (for the metrics): read from an index or the chain heads, never counted. */
  rowTotal(): number;
}

/**
 * An interaction id a transaction claims as its first write (claimInteraction), before its work runs:
 * claimed before, and the transaction throws InteractionTakenError. The store marks `claimed` once its
 * claim is made: a caller that finds it unmarked after the commit (a wrapper dropped it) claims alone.
 */
export type InteractionClaim = { readonly id: string; readonly guildId: string; claimed: boolean };

/** Interaction ids, each used once whatever transport delivers it. */
export interface OnceKeys {
  /** Whether a row already holds this once-key (its unique index answers). */
  onceKeyTaken(key: string): boolean;
  /** True when this interaction is new (and now claimed); false when it was handled already. */
  claimInteraction(id: string, guildId: string, at: string): boolean;
}

/** Which message showed a roll: written as the reply goes out. */
export interface MessageLinks {
  linkMessage(rollId: string, messageId: string): void;
}

/** Rolls committed but never shown: the start-up finds them, posts them, or marks them. */
export interface LateDeliveryReads {
  /** Roll rows made in [since, before) that no message showed and no late delivery took, oldest first. */
  unshownRolls(since: string, before: string, limit: number): LedgerRow[];
  /** Of these rolls, those whose late delivery did not reach the channel, with why. */
  undelivered(rollIds: string[]): Map<string, string>;
}

export type { BeaconBinding };

/** How a binding ended: its roll recorded, nothing rolled (refused when run), or no round in time. */
export type BindingState = 'rolled' | 'not_rolled' | 'expired';

export interface BeaconBindingReads {
  /** Bindings still waiting for their round, oldest first. */
  pendingBindings(limit: number): BeaconBinding[];
  /** Whether this interaction's binding still waits (false once settled, or when there is none). */
  bindingPending(interactionId: string): boolean;
}

export interface BeaconBindingWrites {
  bindBeacon(b: BeaconBinding): void;
  /**
   * True when this settles a pending binding; false when it was settled already (by another
   * process), or, to be rolled, when a club game's binding is past its window at `at`: a roll is
   * recorded only inside it.
   */
  settleBinding(interactionId: string, state: BindingState, rollId: string | null, at: string): boolean;
  /** A game's bindings still waiting for their round (read where the game ends: it does not while one waits). */
  waitingBindings(gameId: string, guildId: string, channelId: string): BeaconBinding[];
}

/** A late delivery's claim (one process posts each roll) and how it went. */
export interface LateDeliveryWrites {
  /** True when this process now holds the roll's late delivery; false when another took it. */
  claimDelivery(rollId: string, at: string): boolean;
  /** 'posted', or why the roll could not be posted. */
  settleDelivery(rollId: string, outcome: string): void;
}

/** The request Discord signed for an interaction that wrote rows, kept beside the chain; `body` deflated. */
export type KeptEvidence = { interaction_id: string; guild_id: string; timestamp: string; signature: string; body: Buffer; created_at: string };

export interface EvidenceReads {
  /** The kept requests of these interactions (those kept). */
  evidenceOf(interactionIds: string[]): Map<string, KeptEvidence>;
  /** People's salts by id (those not erased): an export carries them with the rows committing under them. */
  saltsOf(saltIds: string[]): Map<string, string>;
}

export interface EvidenceWrites {
  /** Keeps an interaction's request, once: a second row of the same interaction keeps nothing more. */
  keepEvidence(e: KeptEvidence): void;
}
