import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text assets worth compressing; images, fonts and source maps are left alone. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 512;

/**
 * Writes `file.br` (brotli, quality 11) and `file.gz` (gzip, level 9) next to every compressible file of the
 * build, so the API serves them precompressed (`@fastify/static` `preCompressed`) instead of compressing per
 * request. A copy is kept only when it is smaller than the original.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shk-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // Also called when the build failed (with the error): then there is nothing to compress, and throwing here would
    // hide the build's own error behind an ENOENT.
    async closeBundle(error?: Error) {
      if (error) return;
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await fs.readFile(file);
          if (content.length < MIN_BYTES) return;
          const [br, gzipped] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gz(content, { level: 9 }),
          ]);
          if (br.length < content.length) await fs.writeFile(`${file}.br`, br);
          if (gzipped.length < content.length) await fs.writeFile(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}
