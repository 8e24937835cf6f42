import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { verifyExport } from './verify-export.js';

/**
 * npm run verify -- <export.jsonl> [--head <hash>]: exit 0 when every chain, every reveal and every
 * game holds (and the export extends the pinned head, when given); 1 when something fails; 2 for a
 * usage or read error.
 */
let parsed: ReturnType<typeof parse>;
function parse() {
  return parseArgs({ options: { head: { type: 'string' } }, allowPositionals: true, strict: true });
}
try {
  parsed = parse();
} catch (err) {
  process.stderr.write(`${(err as Error).message}\nusage: npm run verify -- <export.jsonl> [--head <64-hex head hash>]\n`);
  process.exit(2);
}
const [file, ...extra] = parsed.positionals;
const head = parsed.values.head;
if (!file || extra.length || (head !== undefined && !/^[0-9a-f]{64}$/i.test(head.trim()))) {
  process.stderr.write('usage: npm run verify -- <export.jsonl> [--head <64-hex head hash>]\n');
  process.exit(2);
}
let text: string;
try {
  text = fs.readFileSync(file, 'utf8');
} catch (err) {
  process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
  process.exit(2);
}
const report = verifyExport(text, head ? { head } : {});
for (const line of report.lines) process.stdout.write(`${line}\n`);
process.stdout.write(report.ok ? 'verified: all holds\n' : 'NOT verified: see above\n');
process.exit(report.ok ? 0 : 1);
