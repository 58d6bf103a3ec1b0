// `npm run lint` step: the API and the SPA have no import loops (madge over apps/api/src and apps/web/src, type
// imports included: a loop that hangs on a type is still a loop — the type moves to the file that owns it, e.g. a row
// type to its repository, a shared web type to src/api or src/lib). Exit code 1 and every loop printed when one exists.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The import loops among the .ts files under `dir` (paths relative to it). */
export async function importLoops(dir, tsConfig) {
  const graph = await madge(dir, {
    fileExtensions: ['ts', 'tsx'],
    tsConfig,
    excludeRegExp: [/\.test\.tsx?$/],
  });
  return graph.circular();
}

/** The source folders checked, each with the tsconfig madge resolves its imports with. */
const CHECKED = [
  { dir: 'apps/api/src', tsConfig: 'apps/api/tsconfig.json' },
  { dir: 'apps/web/src', tsConfig: 'apps/web/tsconfig.json' },
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let failed = false;
  for (const { dir, tsConfig } of CHECKED) {
    const loops = await importLoops(path.join(root, dir), path.join(root, tsConfig));
    if (!loops.length) {
      console.log(`Keine Importschleifen in ${dir}.`);
      continue;
    }
    failed = true;
    console.error(`Importschleifen in ${dir} (${loops.length}):`);
    for (const loop of loops) console.error(`  ${[...loop, loop[0]].join(' → ')}`);
  }
  if (failed) {
    console.error(
      'Einen Typ in die Datei verschieben, der er gehört (Zeilentypen ins Repository), statt zurück zu importieren.',
    );
    process.exit(1);
  }
}
