/**
 * A drand beacon chain as a game commits to it: the trust root a round is checked against. It is
 * pinned in the bot's configuration (quicknet, or a chain-info file), never learnt from a relay.
 */
export type BeaconChain = {
  /** The chain hash, hex: relays serve rounds under it. */
  hash: string;
  /** The group public key, hex (a compressed G2 point for the unchained G1 scheme). */
  public_key: string;
  /** Seconds between rounds. */
  period: number;
  /** Unix seconds of round 1. */
  genesis_time: number;
  /** drand's scheme id; only signatures on G1 over SHA-256 of the round number are supported. */
  scheme: string;
};

/** The one scheme supported: BLS signatures on G1 (RFC 9380 hashing), each round signed alone. */
export const SUPPORTED_SCHEME = 'bls-unchained-g1-rfc9380';

/** drand's quicknet, run by the League of Entropy: a round every 3 s since August 2023. */
export const QUICKNET: BeaconChain = {
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  public_key:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesis_time: 1692803367,
  scheme: SUPPORTED_SCHEME,
};

/**
 * The public chains a verifier names: a game's chain is one of them only when every field it commits
 * is that chain's. Only quicknet: drand's other public chains use schemes this code does not check.
 */
export const PUBLIC_CHAINS: readonly { name: string; chain: BeaconChain }[] = [{ name: 'drand quicknet', chain: QUICKNET }];

const FIELDS = { hash: 'chain hash', public_key: 'public key', period: 'period', genesis_time: 'genesis time', scheme: 'scheme' } as const;

/**
 * The public chain a committed chain is, field for field (`differs` empty); or the one whose hash or
 * public key it borrows while another field differs (then its rounds or its bindings are not that
 * chain's); undefined for a chain that borrows from none.
 */
export function publicChainOf(chain: BeaconChain): { name: string; same: string[]; differs: string[] } | undefined {
  const fields = Object.keys(FIELDS) as (keyof typeof FIELDS)[];
  for (const known of PUBLIC_CHAINS) {
    if (chain.hash !== known.chain.hash && chain.public_key !== known.chain.public_key) continue;
    return {
      name: known.name,
      same: fields.filter((k) => chain[k] === known.chain[k]).map((k) => FIELDS[k]),
      differs: fields.filter((k) => chain[k] !== known.chain[k]).map((k) => FIELDS[k]),
    };
  }
  return undefined;
}

/** The public chain's name when a chain is that chain in every field, else undefined (a private chain). */
export function publicChainName(chain: BeaconChain): string | undefined {
  const known = publicChainOf(chain);
  return known && known.differs.length === 0 ? known.name : undefined;
}

/**
 * drand's public HTTP relays, run by three operators who answer to nobody here (Protocol Labs'
 * drand.sh, Cloudflare, and StorSwift's secureweb3): a round one of them withholds, another serves.
 * A game's first row commits the list it was played with, so players see whose relays they were.
 */
export const DEFAULT_RELAYS = [
  'https://api.drand.sh',
  'https://api2.drand.sh',
  'https://api3.drand.sh',
  'https://drand.cloudflare.com',
  'https://api.drand.secureweb3.com:6875',
];

/**
 * How long a club game's binding waits for its round: past it, the roll expires on the record and
 * is never rolled late (every verifier holds a roll to it). A tournament game's binding never expires.
 */
export const BINDING_WINDOW_MS = 10 * 60 * 1000;

/** The round current at a moment (Unix ms): round 1 at genesis, one more each period. */
export const roundAt = (chain: Pick<BeaconChain, 'period' | 'genesis_time'>, unixMs: number): number =>
  Math.max(1, Math.floor((unixMs / 1000 - chain.genesis_time) / chain.period) + 1);

/** When a round is published (Unix ms). */
export const roundTime = (chain: Pick<BeaconChain, 'period' | 'genesis_time'>, round: number): number =>
  (chain.genesis_time + (round - 1) * chain.period) * 1000;

/** Discord's epoch: a snowflake's top bits count milliseconds from it. */
const DISCORD_EPOCH = 1420070400000n;

/** The moment Discord made an id (Unix ms). */
export const snowflakeTime = (id: string): number => Number((BigInt(id) >> 22n) + DISCORD_EPOCH);

/** A snowflake for a moment, as the console makes interaction ids (the low bits from `serial`). */
export const snowflakeAt = (unixMs: number, serial: number): string => String(((BigInt(unixMs) - DISCORD_EPOCH) << 22n) | BigInt(serial & 0x3fffff));

/**
 * The round a roll binds to: two after the round current when Discord made the interaction, so it
 * is published 3–6 s (on quicknet) after the request, when nobody could have known it.
 */
export const BIND_AHEAD = 2;
export const boundRound = (chain: Pick<BeaconChain, 'period' | 'genesis_time'>, interactionId: string): number =>
  roundAt(chain, snowflakeTime(interactionId)) + BIND_AHEAD;
