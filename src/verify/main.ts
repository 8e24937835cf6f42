import '../ops/supported-node.js';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { nodeEd25519 } from '../ops/signing-key.js';
import { verifyFile } from './read-file.js';
import { checkReceipt, receiptFields, type TrustedKey } from './receipt.js';
import type { ExportReport } from './verify-export.js';

/**
 * npm run verify -- <export.jsonl> [--head <hash>] [--receipt <file> [--key <public key>]]: exit 0
 * when every chain, reveal and game holds (and the export extends the pinned head, when given), and
 * the receipt, when given, is valid; 1 when something fails; 2 for a usage or read error. The file
 * is read in ranges, never whole (read-file.ts). A receipt is checked against a key you give out of
 * band (--key) and, with an export, against the keys that export's chain records for the receipt's
 * guild; a key line that merely sits in an export is never trusted.
 */
const USAGE = `usage: npm run verify -- <export.jsonl> [--head <64-hex head hash>]
       npm run verify -- [<export.jsonl>] --receipt <receipt file, or its text> [--key <public key from /verify key:true>]`;

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

async function exportOf(file: string, lookFor: Parameters<typeof verifyFile>[1]): Promise<ExportReport> {
  try {
    return await verifyFile(file, lookFor);
  } catch (err) {
    process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
    process.exit(2);
  }
}

/** --key: a public key as /verify key:true shows it (an export file there is the export to check against, as before). */
function outOfBand(key: string | undefined, files: string[]): TrustedKey[] {
  if (key === undefined) return [];
  if (/^[A-Za-z0-9_-]{43}$/.test(key.trim())) return [{ public_key: key.trim() }];
  if (!fs.existsSync(key)) usage(`--key ${key}: neither a public key (43 base64url characters) nor an export file`);
  files.push(key);
  return [];
}

async function main() {
  const { values, positionals } = parse();
  const files = [...positionals];
  const trusted = outOfBand(values.key, files);
  const head = values.head;
  if (files.length > 1 || (!files.length && values.receipt === undefined) || (head !== undefined && (!files.length || !/^[0-9a-f]{64}$/i.test(head.trim()))))
    usage();
  const receipt = values.receipt === undefined ? undefined : fs.existsSync(values.receipt) ? fs.readFileSync(values.receipt, 'utf8') : values.receipt;
  const fields = receipt === undefined ? undefined : receiptFields(receipt);
  const report = files[0] ? await exportOf(files[0], { head: head?.trim(), receiptRoll: typeof fields === 'object' ? fields.roll : undefined }) : undefined;
  let ok = true;
  if (report) {
    for (const line of report.lines) process.stdout.write(`${line}\n`);
    process.stdout.write(report.ok ? 'verified: all holds\n' : 'NOT verified: see above\n');
    ok = report.ok;
  }
  if (receipt !== undefined) {
    if (!trusted.length && !report)
      usage("--receipt needs --key or an export: a receipt is checked against a key you trust (/verify key:true shows the bot's)");
    const evidence = report ? { keys: report.keys.chained, roll: report.receiptRoll } : undefined;
    const verdict = await checkReceipt(receipt, trusted, nodeEd25519, evidence);
    for (const line of verdict.lines) process.stdout.write(`${line}\n`);
    ok &&= verdict.ok;
  }
  process.exit(ok ? 0 : 1);
}

void main();
