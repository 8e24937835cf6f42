import fs from 'node:fs';
import { packJsonSchema } from '../rules/packs/json-schema.js';

// Writes docs/pack.schema.json from the zod schema (npm run pack-schema); a test fails when it drifts.
fs.writeFileSync('docs/pack.schema.json', packJsonSchema());
