import { createHmac, createHash } from 'node:crypto';
import { roundTime, snowflakeAt, type BeaconChain } from '../../src/beacon/chain.js';
import { relaySource, type BeaconSource } from '../../src/beacon/relay.js';
import type { BeaconRound } from '../../src/beacon/verify-round.js';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request, Router } from '../../src/core/router.js';
import type { Roller } from '../../src/dice/roller.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { parseRow, type LedgerRow, type RawRow } from '../../src/ledger/rows.js';
import { createLogger, type Logger } from '../../src/log.js';
import type { FakeDiscordKey } from './beacon-game.js';
import { FakeRelay } from './beacon-relay.js';

/**
 * A beacon table on a clock the test moves by hand: one relay (the host's: `relay.down` withholds
 * what he likes), a ledger file that outlives a process, and processes started and stopped on it.
 * The bot's local dice are a roller that counts every die and refuses it: in a beacon game none may
 * be drawn. Nothing waits on the real clock but the relay's short polls.
 */
export class BeaconTable {
  clock: number;
  /** Dice asked of the bot's own roller (outside the beacon): each one is a failure in a beacon game. */
  readonly local: { sides: number; where: string }[] = [];
  private serial = 0;

  private constructor(
    readonly chain: BeaconChain,
    readonly sign: (round: number) => BeaconRound,
    readonly relay: FakeRelay,
    readonly file: string,
    startMs: number,
    readonly discord: FakeDiscordKey | undefined,
  ) {
    this.clock = startMs;
  }

  static async open(file: string, chain: BeaconChain, sign: (round: number) => BeaconRound, o: { startMs?: number; discord?: FakeDiscordKey } = {}) {
    let table: BeaconTable | undefined;
    const relay = await new FakeRelay(chain, sign, () => table!.clock).start();
    table = new BeaconTable(chain, sign, relay, file, o.startMs ?? (chain.genesis_time + 1_000_000) * 1000, o.discord);
    return table;
  }

  /** A local roller that records what asked it and refuses: no die of a beacon game may come from it. */
  localRoller(where: string): Roller {
    return {
      roll: (sides) => {
        this.local.push({ sides, where });
        throw new Error(`a die (d${sides}) was asked of the bot's own dice: ${where}`);
      },
    };
  }

  /** A bot process on the table's ledger: its relays, its own dice refused; `stop` ends it (nothing it had pending writes again). */
  start(o: { source?: (s: BeaconSource) => BeaconSource } = {}): BeaconProcess {
    let alive = true;
    const ledger = Ledger.open(this.file, { now: () => new Date(this.clock) });
    const logs: string[] = [];
    const log = createLogger({ level: 'debug', write: (l) => logs.push(l) });
    // A stopped process's clock runs out: its pending asks give up (and find its ledger closed).
    const relays = relaySource(this.chain, { urls: [this.relay.url], retryMs: 10, now: () => (alive ? this.clock : Number.POSITIVE_INFINITY) });
    const beacon = o.source ? o.source(relays) : relays;
    const router = createRouter({
      ledger,
      log,
      beacon,
      roller: this.localRoller('the roller outside games'),
      gameRoller: () => this.localRoller('the game roller'),
    });
    return {
      ledger,
      router,
      logs,
      log,
      stop: () => {
        ledger.close();
        alive = false;
      },
    };
  }

  /** A request as a player makes it now: its interaction id is of this moment; in a tournament table, signed as Discord signs it. */
  request(req: Request): Request {
    const interactionId = snowflakeAt(this.clock, this.serial++);
    if (req.type !== 'command' || !this.discord) return { ...req, interactionId };
    const { subcommand, ...rest } = req;
    const evidence = this.discord.sign({ ...rest, ...(subcommand ? { subcommand } : {}), interactionId }, this.clock);
    return { ...req, interactionId, evidence };
  }

  /** A command as `actor` asks it now. */
  ask(p: BeaconProcess, actor: Actor, name: string, options: Record<string, unknown> = {}, subcommand?: string): Promise<Reply> {
    return p.router.handle(this.request({ type: 'command', name, ...(subcommand ? { subcommand } : {}), options, actor }));
  }

  /** A button press as `actor` makes it now. */
  press(p: BeaconProcess, actor: Actor, customId: string): Promise<Reply> {
    return p.router.handle(this.request({ type: 'button', customId, actor }));
  }

  /** The round a bound reply waits for (its title says it). */
  static roundOf(bound: Reply): number {
    if (bound.type !== 'bound') throw new Error(`expected a bound roll, got ${JSON.stringify(bound)}`);
    return Number(/(\d+)\D*$/.exec(bound.embed.title ?? '')![1]);
  }

  /** The clock moved past the bound roll's round (its relay answering), and its result. */
  async settle(bound: Reply): Promise<Reply> {
    if (bound.type !== 'bound') throw new Error(`expected a bound roll, got ${JSON.stringify(bound)}`);
    this.clock = Math.max(this.clock, roundTime(this.chain, BeaconTable.roundOf(bound))) + 200;
    return bound.result;
  }

  /** The clock moved on by `ms` while whatever is pending waits. */
  pass(ms: number): void {
    this.clock += ms;
  }

  /** The die a bound roll's round gives its first die (d6), as the host who knows the seed works it out when the round is out. */
  firstDie(seed: string, gameId: string, interactionId: string, round: number): number {
    const randomness = createHash('sha256')
      .update(Buffer.from(this.sign(round).signature, 'hex'))
      .digest('hex');
    for (let attempt = 0; ; attempt++) {
      const v = createHmac('sha256', seed)
        .update(JSON.stringify(['beacon-v1', gameId, interactionId, round, randomness, 0, attempt]))
        .digest()
        .readUInt32BE(0);
      if (v < 2 ** 32 - (2 ** 32 % 6)) return (v % 6) + 1;
    }
  }

  stop(): Promise<void> {
    return this.relay.stop();
  }
}

export type BeaconProcess = { ledger: Ledger; router: Router; logs: string[]; log: Logger; stop(): void };

/** Every row of a ledger, in chain order. */
export const rowsIn = (ledger: Ledger): LedgerRow[] => (ledger.db.prepare('SELECT * FROM rolls ORDER BY seq').all() as RawRow[]).map(parseRow);
