import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { roundAt, SUPPORTED_SCHEME, type BeaconChain } from '../../src/beacon/chain.js';
import { roundMessage, type BeaconRound } from '../../src/beacon/verify-round.js';

const short = bls12_381.shortSignatures;

/** A test beacon chain: a key of our own, signing rounds as drand's quicknet does. */
export function testChain(secretByte = 7, period = 3, genesisTime = 1_700_000_000) {
  const secretKey = new Uint8Array(32).fill(secretByte);
  const chain: BeaconChain = {
    hash: bytesToHex(new Uint8Array(32).fill(secretByte + 1)),
    public_key: bytesToHex(short.getPublicKey(secretKey).toBytes()),
    period,
    genesis_time: genesisTime,
    scheme: SUPPORTED_SCHEME,
  };
  const sign = (round: number): BeaconRound => ({ round, signature: bytesToHex(short.sign(short.hash(roundMessage(round)), secretKey).toBytes()) });
  return { chain, sign };
}

/** drand's /info body for a chain, as a chain-info file holds it. */
export const chainInfoJson = (c: BeaconChain) =>
  JSON.stringify({ public_key: c.public_key, period: c.period, genesis_time: c.genesis_time, hash: c.hash, schemeID: c.scheme });

/**
 * A drand relay on a local port serving a test chain: a round only once the clock says it is
 * published (404 before, as drand answers a future round); `down` makes it refuse everything and
 * `lie` serve wrong signatures. Counts the requests it got, and lists the rounds it served.
 */
export class FakeRelay {
  down = false;
  lie = false;
  requests = 0;
  /** Every round answered with its signature, in order: what anyone could have known, and when. */
  readonly served: number[] = [];
  private server?: http.Server;
  url = '';

  constructor(
    readonly chain: BeaconChain,
    private readonly sign: (round: number) => BeaconRound,
    private readonly now: () => number = Date.now,
    /** Only the v1 paths (a relay before drand's v2 API). */
    private readonly v1Only = false,
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.answer(req.url ?? '', res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(url: string, res: http.ServerResponse): void {
    this.requests += 1;
    const v2 = url.match(/^\/v2\/chains\/([0-9a-f]{64})\/rounds\/(\d+)$/);
    const v1 = url.match(/^\/([0-9a-f]{64})\/public\/(\d+)$/);
    const m = this.v1Only ? v1 : (v2 ?? v1);
    if (this.down) return void res.writeHead(503).end('down');
    if (!m || m[1] !== this.chain.hash) return void res.writeHead(404).end('no such chain');
    const round = Number(m[2]);
    if (round > roundAt(this.chain, this.now())) return void res.writeHead(404).end('round not yet published');
    const r = this.sign(round);
    const signature = this.lie ? this.sign(round + 1).signature : r.signature;
    this.served.push(round);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ round, signature }));
  }
}
