// `npm run lint` step: the API has no import loops (madge over apps/api/src, type imports included: a loop that
// hangs on a type is still a loop — the type moves to the file that owns it, e.g. a row type to its repository).
// Exit code 1 and every loop printed when one exists.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The import loops among the .ts files under `dir` (paths relative to it). */
export async function importLoops(dir, tsConfig) {
  const graph = await madge(dir, {
    fileExtensions: ['ts', 'tsx'],
    tsConfig,
    excludeRegExp: [/\.test\.ts$/],
  });
  return graph.circular();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const loops = await importLoops(path.join(root, 'apps/api/src'), path.join(root, 'apps/api/tsconfig.json'));
  if (loops.length) {
    console.error(`Importschleifen in apps/api/src (${loops.length}):`);
    for (const loop of loops) console.error(`  ${[...loop, loop[0]].join(' → ')}`);
    console.error(
      'Einen Typ in die Datei verschieben, der er gehört (Zeilentypen ins Repository), statt zurück zu importieren.',
    );
    process.exit(1);
  }
  console.log('Keine Importschleifen in apps/api/src.');
}
