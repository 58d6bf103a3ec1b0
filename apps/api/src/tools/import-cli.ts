/**
 * npm run import -- --supplier 200001 path/to/catalogue.xml
 * Imports a supplier catalogue (BMEcat 2005, DATANORM 4/5, or a zip) into DATABASE_URL or the
 * embedded PostgreSQL under DATA_DIR, in this process, with the same pipeline and result model as
 * the upload (the import appears in the supplier's import list).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/bootstrap.ts';
import { createPool } from '../db/pool.ts';
import { migrate } from '../db/migrate.ts';
import { insertImport, importDetails } from '../modules/catalogue-import/catalogue-import.repo.ts';
import { pipelineOptionsOf, runImport } from '../modules/catalogue-import/import-pipeline.ts';

const { values, positionals } = parseArgs({ options: { supplier: { type: 'string' } }, allowPositionals: true });
const file = positionals[0];
if (!values.supplier || !file || !fs.existsSync(file)) {
  console.error('Aufruf: npm run import -- --supplier <Geschäftspartnernummer> <Katalogdatei>');
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase(config);
const pool = createPool(database.url, 5);
let exitCode = 0;
try {
  await migrate(pool);
  const { rows } = await pool.query('SELECT 1 FROM suppliers WHERE bp_number = $1', [values.supplier]);
  if (!rows[0]) throw new Error(`Lieferant ${values.supplier} nicht gefunden`);
  const id = await insertImport(pool, {
    supplier: values.supplier,
    fileName: path.basename(file),
    filePath: path.resolve(file),
    userId: null,
  });
  const started = Date.now();
  await runImport(pool, id, { log: (m) => console.log(m), ...pipelineOptionsOf(config, pool) });
  const result = (await importDetails(pool, values.supplier, id))!;
  const seconds = (Date.now() - started) / 1000;
  console.log(
    JSON.stringify(
      {
        ...result,
        rejections: result.rejections.slice(0, 20),
        seconds,
        perSecond: Math.round(result.counts.read / seconds),
      },
      null,
      2,
    ),
  );
  if (result.status !== 'Completed') exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await pool.end();
  await database.stop();
}
process.exit(exitCode);
