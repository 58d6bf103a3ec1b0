// The SPA's layers (docs/architecture.md, "The SPA's layers"): app shell → features → shared (ui → api → lib), held
// by eslint-plugin-boundaries, and no import loops in apps/web/src (scripts/check-cycles.mjs).
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const src = path.join(root, 'apps/web/src');
const eslint = new ESLint({ cwd: root });

/** The lines on which the layer rule fails for `code` placed at `file` (relative to apps/web/src). */
async function refusedLines(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(src, file) });
  return result.messages.filter((m) => m.ruleId === 'boundaries/element-types').map((m) => m.line);
}

describe('imports point down the layers', () => {
  it('refuses a feature importing the app shell or another feature', async () => {
    const code = `import { appRoutes } from '../../app/routes';
import { prefetchSearch } from '../search/use-search';
import { toast } from '../../lib/toast';
import { Page } from '../../ui/Page';
import { useUserProfile } from '../../api/session';
export const x = [appRoutes, prefetchSearch, toast, Page, useUserProfile];
`;
    expect(await refusedLines('features/example/Example.tsx', code)).toEqual([1, 2]);
  });

  it('refuses src/api importing src/ui, and shared code importing features or the shell', async () => {
    const code = `import { toast } from '../ui/toast';
import { appRoutes } from '../app/routes';
import { prefetchSearch } from '../features/search/use-search';
import { trackEcommerce } from '../lib/analytics';
export const x = [toast, appRoutes, prefetchSearch, trackEcommerce];
`;
    expect(await refusedLines('api/example.ts', code)).toEqual([1, 2, 3]);
  });

  it('keeps src/lib at the bottom, and lets src/ui use src/api and src/lib', async () => {
    const lib = `import { Page } from '../ui/Page';
import { useUserProfile } from '../api/session';
export const x = [Page, useUserProfile];
`;
    expect(await refusedLines('lib/example.ts', lib)).toEqual([1, 2]);
    const ui = `import { useUserProfile } from '../api/session';
import { toast } from '../lib/toast';
export const x = [useUserProfile, toast];
`;
    expect(await refusedLines('ui/Example.tsx', ui)).toEqual([]);
  });
});

describe('no import loops in apps/web/src', () => {
  it('finds none', async () => {
    const { importLoops } = (await import(path.join(root, 'scripts/check-cycles.mjs'))) as {
      importLoops: (dir: string, tsConfig?: string) => Promise<string[][]>;
    };
    expect(await importLoops(src, path.join(root, 'apps/web/tsconfig.json'))).toEqual([]);
  });
});
