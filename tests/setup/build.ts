import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The scripts a user runs (npm start, npm run console, npm run verify) run the built code, as on a
// production install: build it once from these sources before any test spawns one. With
// MORALE_APP_DIR (a production install made by .ci/run) the process tests run that copy instead.
export default function setup() {
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: path.resolve(import.meta.dirname, '../..'), stdio: 'inherit' });
}
