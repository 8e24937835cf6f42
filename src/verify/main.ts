import '../ops/supported-node.js';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { nodeEd25519 } from '../ops/signing-key.js';
import { finished, readRanges } from './read-file.js';
import { checkReceipt, receiptFields, type TrustedKey } from './receipt.js';
import { applicationIds, parseDiscordKey, type ExportReport, type LookFor } from './verify-export.js';

/**
 * npm run verify -- <export.jsonl> [--head <hash>] [--discord-key <key>|fetch] [--receipt <file> [--key <public key>]]:
 * exit 0 when every chain, reveal and game holds (and the export extends the pinned head, when given),
 * and the receipt, when given, is valid; 1 when something fails; 2 for a usage or read error. The file
 * is read in ranges, never whole (read-file.ts). A receipt is checked against a key you give out of
 * band (--key) and, with an export, against the keys that export's chain records for the receipt's
 * guild; a key line that merely sits in an export is never trusted. --discord-key pins Discord's own
 * application key for the export's signed requests: given, or fetched from Discord (the only network
 * request a verifier makes, and only then); without it, the key the game committed is the host's word.
 */
const USAGE = `usage: npm run verify -- <export.jsonl> [--head <64-hex head hash>] [--discord-key <64-hex key> | --discord-key fetch]
       npm run verify -- [<export.jsonl>] --receipt <receipt file, or its text> [--key <public key from /verify key:true>]`;

function usage(problem?: string): never {
  process.stderr.write(`${problem ? `${problem}\n` : ''}${USAGE}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: { head: { type: 'string' }, receipt: { type: 'string' }, key: { type: 'string' }, 'discord-key': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    usage((err as Error).message);
  }
}

/** --discord-key: Discord's application key as given (64 hex), or `fetch`: asked of Discord once the export names its application. */
function discordPin(given: string | undefined, file: string | undefined): string | 'fetch' | undefined {
  if (given === undefined) return undefined;
  if (!file) usage('--discord-key needs an export: it pins the key the export’s Discord-signed requests are checked under');
  if (given.trim() === 'fetch') return 'fetch';
  return (
    parseDiscordKey(given) ??
    usage(
      `--discord-key ${given}: neither Discord's application public key (64 hex digits, "Public Key" on the Developer Portal's General Information page) nor fetch`,
    )
  );
}

/** Why Discord's key could not be pinned: said once, and nothing is verified (exit 2). */
function cannotPin(why: string): never {
  process.stderr.write(`--discord-key fetch: ${why}: give the key itself, --discord-key <64 hex digits>\n`);
  process.exit(2);
}

/**
 * --discord-key fetch: Discord serves an application's public key, unauthenticated, as `verify_key`
 * at /applications/{id}/rpc; the application is the one the export's signed requests name.
 * DISCORD_API_BASE, as the bot reads it, points this elsewhere (a test's fake Discord).
 */
async function fetchDiscordKey(ids: string[]): Promise<string> {
  if (!ids.length) cannotPin('the export names no Discord application (it holds no Discord-signed request)');
  if (ids.length > 1) cannotPin(`the export's signed requests name several Discord applications (${ids.join(', ')})`);
  const url = `${process.env.DISCORD_API_BASE || 'https://discord.com/api'}/v10/applications/${ids[0]}/rpc`;
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) }).catch((err: Error) => cannotPin(`could not reach ${url} (${err.message})`));
  if (!res.ok) cannotPin(`${url} answered ${res.status}: Discord knows no application ${ids[0]}, or could not say`);
  const body = (await res.json().catch(() => undefined)) as { verify_key?: unknown } | undefined;
  const key = typeof body?.verify_key === 'string' ? parseDiscordKey(body.verify_key) : undefined;
  if (!key) cannotPin(`${url} gave no verify_key of 64 hex digits`);
  process.stdout.write(`Discord's key for application ${ids[0]}, as ${url} serves it: ${key}\n`);
  return key;
}

async function exportOf(file: string, lookFor: LookFor, fetchKey: boolean): Promise<ExportReport> {
  try {
    const results = await readRanges(file, lookFor);
    const discordKey = fetchKey ? await fetchDiscordKey(applicationIds(results)) : lookFor.discordKey;
    return await finished(results, { ...lookFor, discordKey });
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
  const pin = discordPin(values['discord-key'], files[0]);
  const receipt = values.receipt === undefined ? undefined : fs.existsSync(values.receipt) ? fs.readFileSync(values.receipt, 'utf8') : values.receipt;
  const fields = receipt === undefined ? undefined : receiptFields(receipt);
  const lookFor: LookFor = {
    head: head?.trim(),
    receiptRoll: typeof fields === 'object' ? fields.roll : undefined,
    discordKey: pin === 'fetch' ? undefined : pin,
  };
  const report = files[0] ? await exportOf(files[0], lookFor, pin === 'fetch') : undefined;
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
