/**
 * npm run backup -- <dir>: a consistent backup of the database and the stored files (docs/operations.md,
 * "Backup and restore"; what a backup holds: backup-restore.ts).
 */
import { loadConfig } from '../config.ts';
import { backup } from './backup-restore.ts';

const dir = process.argv[2];
if (!dir) {
  console.error('Aufruf: npm run backup -- <Verzeichnis>');
  process.exit(2);
}
try {
  const manifest = await backup(loadConfig(), dir, (m) => console.log(m));
  console.log(JSON.stringify(manifest));
  process.exit(0);
} catch (error) {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  console.error(error instanceof Error ? error.message : error, stderr ? `\n${stderr}` : '');
  process.exit(1);
}
