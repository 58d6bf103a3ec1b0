import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every module a module imports (relative imports, followed), and whether one of them imports zod. */
function importsZod(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = fs.readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
  return specifiers.some((s) =>
    s === 'zod' || s.startsWith('zod/')
      ? true
      : s.startsWith('.') && importsZod(path.resolve(path.dirname(file), s), seen),
  );
}

/**
 * Texts and constants the SPA's pages without forms show (home slide, header cart widget, relation states, search
 * sort): declared in modules that do not load zod, so those pages' code does not download and build the schemas
 * (the web build puts zod and `schemas/` into route-specific chunks).
 */
const zodFree: Record<string, string[]> = {
  'cart-texts.ts': ['cartMessages'],
  'configurator-texts.ts': ['configuratorMessages'],
  'statuses.ts': ['relationStatusLabels', 'workflowProtocols'],
  'search-columns.ts': ['SearchColumn', 'SortColumn'],
  'composite-ids.ts': ['ID_SEPARATOR'],
};

describe('texts the SPA shows without forms', () => {
  for (const [file, names] of Object.entries(zodFree)) {
    it(`${names.join(', ')}: declared in ${file}, which loads no zod`, () => {
      const full = path.join(here, file);
      const source = fs.readFileSync(full, 'utf8');
      for (const name of names) expect(source).toMatch(new RegExp(`^export const ${name}\\b`, 'm'));
      expect(importsZod(full)).toBe(false);
    });
  }

  it('the schema modules do import zod (the check can see it)', () => {
    expect(importsZod(path.join(here, 'schemas', 'carts.ts'))).toBe(true);
  });
});
