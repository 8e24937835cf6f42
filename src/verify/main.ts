import fs from 'node:fs';
import { verifyExport } from './verify-export.js';

/** npm run verify -- <export.jsonl>: exit 0 when every chain and every revealed game's dice hold. */
const file = process.argv[2];
if (!file || process.argv.length > 3) {
  process.stderr.write('usage: npm run verify -- <export.jsonl>\n');
  process.exit(2);
}
let text: string;
try {
  text = fs.readFileSync(file, 'utf8');
} catch (err) {
  process.stderr.write(`cannot read ${file}: ${(err as Error).message}\n`);
  process.exit(2);
}
const report = verifyExport(text);
for (const line of report.lines) process.stdout.write(`${line}\n`);
process.stdout.write(report.ok ? 'verified: all holds\n' : 'NOT verified: see above\n');
process.exit(report.ok ? 0 : 1);
