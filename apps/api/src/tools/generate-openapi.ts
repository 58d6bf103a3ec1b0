/** Writes the OpenAPI document to apps/web/src/api/openapi.json without a database or server (openapi-document.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../config.ts';
import { openApiDocument } from './openapi-document.ts';

const out = path.join(repoRoot, 'apps/web/src/api/openapi.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(await openApiDocument(), null, 2) + '\n');
console.log(`OpenAPI document written to ${path.relative(process.cwd(), out)}`);
