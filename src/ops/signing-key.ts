import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify as verifySignature } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { KeyRecord } from '../ledger/signing-keys.js';
import type { LedgerStore } from '../ledger/store.js';
import { type Ed25519Verify, fingerprintOf, type Signer, toBase64url } from '../verify/receipt.js';

/**
 * The bot's Ed25519 receipt keys, in one owner-only JSON file beside the data (SIGNING_KEY_FILE,
 * default `signing-key.json` in the data directory), on both backends. Decision: the private key is
 * never put in the database, PostgreSQL included: whoever can read the database or one of its
 * backups could then forge receipts. The database holds the public halves (signing_keys), so every
 * export lists every key with when it was in use; with several machines on one PostgreSQL ledger,
 * copy the file to each (or let each make its own: both are listed, and both verify).
 */
/** A key of the file: the one in use with its private half; a retired one with its public half only. */
type KeyFileEntry = KeyRecord & { private_key?: string };
type KeyFile = { keys: KeyFileEntry[] };

export const keyFileFor = (dataDir: string, explicit?: string) => explicit ?? path.join(dataDir, 'signing-key.json');

function newEntry(at: string): KeyFileEntry {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
  return {
    fingerprint: fingerprintOf(raw),
    public_key: raw,
    valid_from: at,
    valid_until: null,
    private_key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

function write(file: string, content: KeyFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(`${file}.tmp`, 0o600);
  fs.renameSync(`${file}.tmp`, file);
}

function read(file: string): KeyFile | undefined {
  if (!fs.existsSync(file)) return undefined;
  const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as KeyFile;
  if (!Array.isArray(parsed.keys) || !parsed.keys.some((k) => k.valid_until === null && k.private_key)) throw new Error(`${file} holds no key in use`);
  return parsed;
}

const publicRecord = ({ private_key: _, ...rec }: KeyFileEntry): KeyRecord => rec;

/** The signer of the key in use, and every key's public record. */
function open(content: KeyFile): { signer: Signer; records: KeyRecord[] } {
  const current = content.keys.find((k) => k.valid_until === null)!;
  const key = createPrivateKey(current.private_key!);
  return {
    signer: { fingerprint: current.fingerprint, publicKey: current.public_key, sign: (data) => new Uint8Array(sign(null, data, key)) },
    records: content.keys.map(publicRecord),
  };
}

/**
 * The key file's keys, the file made (owner-only) with a new key on first start. Several processes
 * starting together on one data directory (shards) make one key: the file is created exclusively
 * (a hard link of a finished file, which fails when another process linked first), then read.
 */
export function loadOrCreateKeys(file: string, at = new Date().toISOString()) {
  const found = read(file);
  // A file from before retired keys lost their private halves: they go now (see rotateKeys).
  if (found?.keys.some((k) => k.valid_until !== null && k.private_key)) write(file, publicOnlyRetired(found));
  if (found) return open(found);
  const tmp = `${file}.${process.pid}.new`;
  write(tmp, { keys: [newEntry(at)] });
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return open(read(file)!);
}

/**
 * A new key in use from `at`; the old one retired then, its public half kept so that the file still
 * lists it and its private half dropped: a copy of the file (a backup) made later cannot sign with
 * it, and one made earlier can sign only receipts no loaded export backs (docs/ledger-and-fairness.md).
 */
export function rotateKeys(file: string, at = new Date().toISOString()) {
  const content = read(file) ?? { keys: [] };
  for (const k of content.keys) if (k.valid_until === null) k.valid_until = at;
  content.keys.push(newEntry(at));
  const kept = publicOnlyRetired(content);
  write(file, kept);
  return open(kept);
}

/** The file with every retired key's private half left out. */
function publicOnlyRetired(content: KeyFile): KeyFile {
  return { keys: content.keys.map((k) => (k.valid_until === null ? k : publicRecord(k))) };
}

/** The database learns every key of the file: new ones registered, retired ones marked. */
export async function registerKeys(store: Pick<LedgerStore, 'transaction'>, records: KeyRecord[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const r of records) await tx.keys.register({ ...r, valid_until: null });
    for (const r of records) if (r.valid_until) await tx.keys.retire(r.fingerprint, r.valid_until);
  });
}

/** Loads (or makes) the key file and registers its keys: what every process that answers does at start. */
export async function signerFor(store: Pick<LedgerStore, 'transaction'>, file: string): Promise<Signer> {
  const { signer, records } = loadOrCreateKeys(file);
  await registerKeys(store, records);
  return signer;
}

/** Ed25519 signatures checked with node:crypto. */
export const nodeEd25519: Ed25519Verify = async (publicKey, message, signature) =>
  verifySignature(null, message, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: toBase64url(publicKey) }, format: 'jwk' }), signature);
