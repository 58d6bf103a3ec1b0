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

/** The packages a module and every module it imports statically (relative imports, followed) load at run time. */
function staticPackages(file: string, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  if (seen.has(file)) return found;
  seen.add(file);
  const source = sources[file];
  if (source === undefined) throw new Error(`no source ${file}`);
  // `import type` / `export type` are erased by the compiler; a dynamic `import()` starts a chunk of its own.
  const specifiers = [
    ...[...source.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]),
    ...[...source.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]),
  ];
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) {
      found.add(specifier);
      continue;
    }
    const base = normalize([...file.split('/').slice(0, -1), ...specifier.split('/')]);
    const resolved = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((end) => base + end).find((c) => c in sources);
    // Stylesheets and files outside src (the contracts package) carry no OIDC code.
    if (resolved) staticPackages(resolved, seen, found);
  }
  return found;
}

const OIDC = ['oidc-client-ts', 'react-oidc-context', 'jwt-decode'];

describe('the entry script (main.tsx and what it imports statically)', () => {
  it('does not contain the OIDC library: a page with a stored, valid token renders without it', () => {
    const packages = staticPackages('./main.tsx');
    expect(packages.has('react')).toBe(true);
    expect(OIDC.filter((name) => packages.has(name))).toEqual([]);
  });

  it('loads it with a dynamic import (its own chunk)', () => {
    expect(sources['./main.tsx']).toMatch(/import\('\.\/app\/auth\/user-manager'\)/);
  });

  it('the check can see it: the lazily loaded module does import oidc-client-ts', () => {
    expect(staticPackages('./app/auth/user-manager.ts').has('oidc-client-ts')).toBe(true);
    expect(staticPackages('./features/ids/IdsLandingPage.tsx').has('oidc-client-ts')).toBe(true);
  });
});
