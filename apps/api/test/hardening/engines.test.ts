import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/config.ts';

const require = createRequire(import.meta.url);
const semver = require('semver') as {
  validRange: (range: string) => string | null;
  satisfies: (version: string, range: string, options?: { includePrerelease?: boolean }) => boolean;
};

/** Every package.json below node_modules (nested ones included), as npm would check them. */
function* installedPackages(dir: string): Generator<{ file: string; name: string; engines?: { node?: string } }> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      yield* installedPackages(full);
      continue;
    }
    const file = path.join(full, 'package.json');
    if (fs.existsSync(file)) {
      try {
        const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
        yield { file, name: pkg.name, engines: pkg.engines };
      } catch {
        /* not a package */
      }
    }
    yield* installedPackages(path.join(full, 'node_modules'));
  }
}

describe('installation on the Node version the README states', () => {
  it('every installed package accepts the running Node (no EBADENGINE)', () => {
    const running = process.versions.node;
    const roots = [repoRoot, path.join(repoRoot, 'apps/api'), path.join(repoRoot, 'apps/web')];
    const bad: string[] = [];
    for (const root of roots) {
      for (const pkg of installedPackages(path.join(root, 'node_modules'))) {
        const range = typeof pkg.engines?.node === 'string' ? pkg.engines.node : undefined;
        if (range && semver.validRange(range) && !semver.satisfies(running, range, { includePrerelease: true })) {
          bad.push(`${pkg.name} (${path.relative(repoRoot, pkg.file)}) needs node ${range}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('the identity provider library does not warn about the runtime', () => {
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('oidc-provider')"], {
      cwd: path.join(repoRoot, 'apps/api'),
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr + result.stdout).not.toMatch(/Unsupported runtime/i);
  });

  it('the root engines field matches what the packages accept', () => {
    const root = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    expect(semver.satisfies(process.versions.node, root.engines.node)).toBe(true);
  });
});
