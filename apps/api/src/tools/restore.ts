/**
 * npm run restore -- <dir>   (docs/operations.md, "Backup and restore"; what a backup holds: backup-restore.ts)
 */
import { loadConfig } from '../config.ts';
import { restore } from './backup-restore.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('Aufruf: npm run restore -- <Verzeichnis>');
  process.exit(2);
}
try {
  const manifest = await restore(loadConfig(), dir, (m) => console.log(m));
  console.log(JSON.stringify(manifest));
  process.exit(0);
} catch (error) {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  console.error(error instanceof Error ? error.message : error, stderr ? `\n${stderr}` : '');
  process.exit(1);
}
