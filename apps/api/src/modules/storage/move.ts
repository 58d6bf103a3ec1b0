/**
 * `npm run storage:move`: copies every file of one backend into the other, streaming. Idempotent: a file the target
 * already has with the same size is skipped, so a move broken off is simply run again. The source is left as it is
 * (remove it once the portal runs on the target).
 */
import type { FileStorage } from './storage.ts';

export interface MoveSummary {
  copied: number;
  skipped: number;
  failed: number;
  bytes: number;
}

export async function copyAllFiles(
  from: FileStorage,
  to: FileStorage,
  log: (message: string) => void = () => {},
): Promise<MoveSummary> {
  const summary: MoveSummary = { copied: 0, skipped: 0, failed: 0, bytes: 0 };
  for await (const file of from.list()) {
    const present = await to.stat(file.key);
    if (present && present.size === file.size) {
      summary.skipped++;
      continue;
    }
    try {
      const stream = await from.get(file.key);
      if (!stream) continue; // removed since it was listed
      const { size } = await to.put(file.key, stream);
      summary.copied++;
      summary.bytes += size;
    } catch (error) {
      summary.failed++;
      log(`${file.key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return summary;
}
