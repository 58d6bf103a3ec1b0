import { describe, expect, it } from 'vitest';

/** Every source of the SPA, by path relative to src ('./main.tsx'). */
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** './app/auth/../../api/client' → './api/client' */
function normalize(parts: string[]): string {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return './' + out.join('/');
}

/**
 * The packages a module and every module it imports statically (relative imports, followed) load at run time, with
 * the names imported from each (`@mantine/core` → Button, Modal …).
 */
function staticImports(file: string, seen = new Set<string>(), found = new Map<string, Set<string>>()) {
  if (seen.has(file)) return found;
  seen.add(file);
  const source = sources[file];
  if (source === undefined) throw new Error(`no source ${file}`);
  // `import type` / `export type` are erased by the compiler; a dynamic `import()` starts a chunk of its own.
  const statements = [
    ...[...source.matchAll(/^(?:import|export)\s+(?!type\s)([^;]*?)from\s+'([^']+)'/gm)].map((m) => [m[2], m[1]]),
    ...[...source.matchAll(/^import\s+'([^']+)'/gm)].map((m) => [m[1], '']),
  ];
  for (const [specifier, clause] of statements) {
    if (!specifier.startsWith('.')) {
      const names = found.get(specifier) ?? new Set<string>();
      for (const [, name] of (clause.match(/\{([^}]*)\}/)?.[1] ?? '').matchAll(/(?:^|,)\s*(?!type\s)(\w+)/g))
        names.add(name);
      found.set(specifier, names);
      continue;
    }
    const base = normalize([...file.split('/').slice(0, -1), ...specifier.split('/')]);
    const resolved = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => base + end).find((c) => c in sources);
    // Stylesheets and files outside src (the contracts package) carry no OIDC code.
    if (resolved) staticImports(resolved, seen, found);
  }
  return found;
}

const staticPackages = (file: string) => new Set(staticImports(file).keys());

const OIDC = ['oidc-client-ts', 'react-oidc-context', 'jwt-decode'];

describe('the entry script (main.tsx and what it imports statically)', () => {
  it('does not contain the OIDC library: a page with a stored, valid token renders without it', () => {
    const packages = staticPackages('./main.tsx');
    expect(packages.has('react')).toBe(true);
    expect(OIDC.filter((name) => packages.has(name))).toEqual([]);
  });

  it('loads it with a dynamic import (its own chunk)', () => {
    expect(sources['./main.tsx']).toMatch(/import\('\.\/api\/user-manager'\)/);
  });

  it('the check can see it: the lazily loaded module does import oidc-client-ts', () => {
    expect(staticPackages('./api/user-manager.ts').has('oidc-client-ts')).toBe(true);
    expect(staticPackages('./features/ids/IdsLandingPage.tsx').has('oidc-client-ts')).toBe(true);
  });
});

describe('the search field (home and search pages, before their first render)', () => {
  it('has the barcode button without its dialog: no Modal, Tooltip or barcode decoder until it is pressed', () => {
    const imports = staticImports('./ui/SearchBar.tsx');
    const mantine = imports.get('@mantine/core') ?? new Set();
    expect(mantine.has('TextInput')).toBe(true);
    expect(['Modal', 'Tooltip', 'Popover', 'Combobox'].filter((name) => mantine.has(name))).toEqual([]);
    expect([...imports.keys()].filter((name) => name.startsWith('zxing-wasm'))).toEqual([]);
    expect(staticImports('./ui/barcode/BarcodeScanDialog.tsx').get('@mantine/core')?.has('Modal')).toBe(true);
  });
});

describe('the cart page (before its first render)', () => {
  it('shows an empty cart without the lines’ date picker, dropzone, forms, schemas or dialogs', () => {
    const imports = staticImports('./features/carts/CartPage.tsx');
    const heavy = ['zod', '@mantine/dates', '@mantine/dropzone', 'react-hook-form', 'dayjs'];
    expect(heavy.filter((name) => imports.has(name))).toEqual([]);
    expect(imports.get('@mantine/core')?.has('Modal')).toBe(false);
    // The contracts' texts it shows come from modules without zod (the schema modules build zod schemas at load).
    expect(sources['./features/carts/CartPage.tsx']).not.toMatch(/idsMessages/);
    expect(staticImports('./features/carts/CartLines.tsx').has('@mantine/dates')).toBe(true);
  });
});
