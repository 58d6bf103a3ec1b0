import path from 'node:path';
import type { Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/** The pages most visits open first (Lighthouse on /, /suche, /produkt, /warenkorb), by the letter used in chunk names. */
export const FIRST_PAGES: Readonly<Record<string, string>> = {
  h: 'src/app/HomeRoute.tsx',
  s: 'src/features/search/SearchPage.tsx',
  p: 'src/features/product/ProductPage.tsx',
  c: 'src/features/carts/CartPage.tsx',
};

/** Which first pages (their letters, e.g. "hp") load each module statically, by module id. */
export type FirstPageReach = ReadonlyMap<string, string>;

/**
 * What the first pages load before their first render, read from a build's chunk graph. Rolldown's default chunking
 * splits modules by the set of entries that reach them after tree shaking, so a chunk's static imports are exactly
 * what its code needs (a module graph walked by hand would follow barrels like `@mantine/core`'s index into every
 * component). A page's letter goes to every module in its route chunk's static closure, except the entry's.
 */
export function firstPageReach(chunks: readonly OutputChunk[], root: string, pages = FIRST_PAGES): FirstPageReach {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const closure = (start: OutputChunk) => {
    const seen = new Set<OutputChunk>();
    const stack = [start];
    while (stack.length > 0) {
      const chunk = stack.pop()!;
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      for (const file of chunk.imports) {
        const imported = byFile.get(file);
        if (imported) stack.push(imported);
      }
    }
    return seen;
  };
  const entry = chunks.find((chunk) => chunk.isEntry);
  const initial = entry ? closure(entry) : new Set<OutputChunk>();
  const reach = new Map<string, string>();
  for (const [letter, file] of Object.entries(pages)) {
    const pageId = path.resolve(root, file);
    const page = chunks.find((chunk) => chunk.facadeModuleId === pageId);
    if (!page) throw new Error(`first-page-chunks: no chunk for ${file}`);
    for (const chunk of closure(page)) {
      if (initial.has(chunk)) continue;
      for (const id of chunk.moduleIds) if (id !== pageId) reach.set(id, (reach.get(id) ?? '') + letter);
    }
  }
  return mergeSmallCombinations(reach, chunks, Object.keys(pages).join(''));
}

/**
 * Below this (rendered bytes before minification; ~2–3 kB brotli), a combination's chunk costs more than it saves:
 * over HTTP/1.1 every request of the page's second wave waits for one of six connections, the profile and the page's
 * data requests too. Such modules go to the chunk all first pages load.
 */
export const MIN_COMBINATION_BYTES = 12_000;

function mergeSmallCombinations(reach: Map<string, string>, chunks: readonly OutputChunk[], all: string) {
  const length = new Map<string, number>();
  for (const chunk of chunks)
    for (const [id, module] of Object.entries(chunk.modules)) length.set(id, module.renderedLength);
  const bytes = new Map<string, number>();
  for (const [id, letters] of reach) bytes.set(letters, (bytes.get(letters) ?? 0) + (length.get(id) ?? 0));
  for (const [id, letters] of reach) if ((bytes.get(letters) ?? 0) < MIN_COMBINATION_BYTES) reach.set(id, all);
  return reach;
}

/**
 * Code-splitting groups for what the first pages load before their first render: each shared module goes to the chunk
 * of exactly the pages that load it (`pages-hsp`, `pages-sp`, `pages-p`, …); any other module (dialogs, drawers,
 * suggestions, other routes) is left to the groups after these. Before, one `common` chunk held everything two chunks
 * share: 70 % of its 81 kB (brotli) was unused on the first screen of these pages, and it set their LCP.
 * The more pages share a chunk, the higher its priority: a group also takes its modules' dependencies, which the same
 * pages (or more) load, so the most shared chunks are formed first and a page never imports another page's chunk.
 */
export function firstPageGroups(reach: FirstPageReach, test: RegExp) {
  const combinations = [...new Set(reach.values())].sort((a, b) => b.length - a.length || a.localeCompare(b));
  return combinations.map((letters) => ({
    name: `pages-${letters}`,
    test: (moduleId: string) => reach.get(moduleId) === letters && test.test(moduleId),
    priority: 100 + letters.length,
  }));
}

/**
 * The analysis build: the same sources with rolldown's default chunking, nothing written. Only the JS module graph
 * matters here, so no CSS plugins, minification or source maps (a few seconds).
 */
export async function analyseFirstPages(root: string, treeshake: object): Promise<FirstPageReach> {
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  const result = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [react()],
    build: { write: false, minify: false, sourcemap: false, rolldownOptions: { treeshake } },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
  const chunks = outputs.filter((o): o is OutputChunk => o.type === 'chunk');
  return firstPageReach(chunks, root);
}
