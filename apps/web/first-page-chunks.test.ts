import path from 'node:path';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import { firstPageGroups, firstPageReach, MIN_COMBINATION_BYTES } from './first-page-chunks.ts';

const root = '/app';
const pages = { h: 'src/Home.tsx', s: 'src/Search.tsx' };
const id = (file: string) => path.resolve(root, file);

/** A chunk of a build's output with the fields the analysis reads (each module 20 kB unless said otherwise). */
function chunk(
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  extra: Partial<Rolldown.OutputChunk> = {},
) {
  return {
    type: 'chunk',
    fileName,
    moduleIds: moduleIds.map(id),
    modules: Object.fromEntries(moduleIds.map((m) => [id(m), { renderedLength: 20_000 }])),
    imports,
    isEntry: false,
    facadeModuleId: null,
    ...extra,
  } as unknown as Rolldown.OutputChunk;
}

// entry → (dynamic) Home, Search; Home and Search share `shared`, which imports `react` from the entry's chunk; only
// Search imports `filters`; a dialog chunk, loaded later by both, is not imported statically by either; Home alone
// imports a small `badge`.
const build = [
  chunk('index.js', ['src/main.tsx', 'node_modules/react/index.js'], [], { isEntry: true }),
  chunk('Home.js', ['src/Home.tsx', 'src/home-only.ts'], ['shared.js', 'index.js', 'badge.js'], {
    facadeModuleId: id('src/Home.tsx'),
    modules: { [id('src/Home.tsx')]: { renderedLength: 20_000 }, [id('src/home-only.ts')]: { renderedLength: 1 } },
  } as unknown as Partial<Rolldown.OutputChunk>),
  chunk('Search.js', ['src/Search.tsx'], ['shared.js', 'filters.js'], { facadeModuleId: id('src/Search.tsx') }),
  chunk('shared.js', ['src/ui/card.ts', 'src/ui/price.ts'], ['index.js']),
  chunk('filters.js', ['src/ui/filters.ts']),
  chunk('badge.js', ['src/ui/badge.ts'], [], {
    modules: { [id('src/ui/badge.ts')]: { renderedLength: MIN_COMBINATION_BYTES - 2 } },
  } as unknown as Partial<Rolldown.OutputChunk>),
  chunk('Dialog.js', ['src/ui/dialog.ts'], ['index.js'], { facadeModuleId: id('src/ui/dialog.ts') }),
];

describe('firstPageReach', () => {
  const reach = firstPageReach(build, root, pages);

  it('gives each module the letters of the first pages that load it statically', () => {
    expect(reach.get(id('src/ui/card.ts'))).toBe('hs');
    expect(reach.get(id('src/ui/price.ts'))).toBe('hs');
    expect(reach.get(id('src/ui/filters.ts'))).toBe('s');
    expect(reach.get(id('src/ui/filters.ts'))).toBe('s');
  });

  it('puts a combination too small for a chunk of its own into the chunk all first pages load', () => {
    // Home's own modules together stay below the minimum (the page module itself does not count).
    expect(reach.get(id('src/ui/badge.ts'))).toBe('hs');
    expect(reach.get(id('src/home-only.ts'))).toBe('hs');
  });

  it('leaves out the entry, the pages themselves and what is loaded later', () => {
    expect(reach.has(id('node_modules/react/index.js'))).toBe(false);
    expect(reach.has(id('src/main.tsx'))).toBe(false);
    expect(reach.has(id('src/Home.tsx'))).toBe(false);
    expect(reach.has(id('src/ui/dialog.ts'))).toBe(false);
  });

  it('fails loudly when a first page is not a chunk of the build (renamed or moved)', () => {
    expect(() => firstPageReach(build, root, { ...pages, p: 'src/Product.tsx' })).toThrow(/src\/Product\.tsx/);
  });
});

describe('firstPageGroups', () => {
  const reach = firstPageReach(build, root, pages);
  const groups = firstPageGroups(reach, /src[\\/]ui[\\/]/);

  it('has one group per combination of pages, the most shared with the highest priority', () => {
    expect(groups.map((g) => g.name)).toEqual(['pages-hs', 'pages-s']);
    expect(groups[0]!.priority).toBeGreaterThan(groups[1]!.priority);
  });

  it('captures only modules of its combination that the shared-code pattern matches', () => {
    const [hs, s] = groups;
    expect(hs!.test(id('src/ui/card.ts'))).toBe(true);
    expect(hs!.test(id('src/ui/badge.ts'))).toBe(true);
    expect(hs!.test(id('src/ui/filters.ts'))).toBe(false);
    expect(s!.test(id('src/ui/filters.ts'))).toBe(true);
    // home-only.ts is Home's own code: it stays in Home's route chunk.
    expect(hs!.test(id('src/home-only.ts'))).toBe(false);
    expect(hs!.test(id('src/ui/dialog.ts'))).toBe(false);
  });
});
