import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { nodeEd25519 } from '../ops/signing-key.js';
import { checkReceipt, type TrustedKey } from './receipt.js';
import { ExportReader } from './verify-export.js';

/**
 * npm run verify -- <export.jsonl> [--head <hash>]: exit 0 when every chain, every reveal and every
 * game holds (and the export extends the pinned head, when given); 1 when something fails; 2 for a
 * usage or read error. The file is read a line at a time, never whole.
 * npm run verify -- --receipt <file or text> --key <public key, or an export listing the keys>:
 * checks a signed receipt without the ledger (issue 27), against a key you trust.
 */
const USAGE = `usage: npm run verify -- <export.jsonl> [--head <64-hex head hash>]
       npm run verify -- --receipt <receipt file, or its text> --key <public key from /verify key:true, or an export>`;

function usage(problem?: string): never {
  process.stderr.write(`${problem ? `${problem}\n` : ''}${USAGE}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({ options: { head: { type: 'string' }, receipt: { type: 'string' }, key: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (err) {
    usage((err as Error).message);
  }
}

/** Every line of a file through the reader, or exit 2 when it cannot be read. */
async function readExport(file: string): Promise<ExportReader> {
  const reader = new ExportReader();
  try {
    const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) reader.push(line);
  } catch (err) {
    process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
    process.exit(2);
  }
  return reader;
}

/** --key: a public key as /verify key:true shows it, or an export whose key lines list them. */
async function trustedKeys(key: string): Promise<TrustedKey[]> {
  if (/^[A-Za-z0-9_-]{43}$/.test(key.trim())) return [{ public_key: key.trim() }];
  if (!fs.existsSync(key)) usage(`--key ${key}: neither a public key (43 base64url characters) nor a file`);
  const keys = (await readExport(key)).keys;
  if (!keys.length) usage(`--key ${key}: that export lists no receipt key`);
  return keys;
}

async function main() {
  const { values, positionals } = parse();
  if (values.receipt !== undefined) {
    if (positionals.length || values.head) usage();
    if (!values.key) usage("--receipt needs --key: a receipt is checked against a key you trust (/verify key:true shows the bot's)");
    const text = fs.existsSync(values.receipt) ? fs.readFileSync(values.receipt, 'utf8') : values.receipt;
    const verdict = await checkReceipt(text, await trustedKeys(values.key), nodeEd25519);
    for (const line of verdict.lines) process.stdout.write(`${line}\n`);
    process.exit(verdict.ok ? 0 : 1);
  }
  const [file, ...extra] = positionals;
  const head = values.head;
  if (!file || extra.length || values.key || (head !== undefined && !/^[0-9a-f]{64}$/i.test(head.trim()))) usage();
  const report = (await readExport(file)).finish(head ? { head } : {});
  for (const line of report.lines) process.stdout.write(`${line}\n`);
  process.stdout.write(report.ok ? 'verified: all holds\n' : 'NOT verified: see above\n');
  process.exit(report.ok ? 0 : 1);
}

void main();
