// The one configuration: every variable checked by configSchema, a bad value stops the start with a German message
// naming it, and README's configuration table lists exactly the schema's variables.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSchema, loadConfig, repoRoot } from './config.ts';

function problemOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('configuration', () => {
  it('takes the defaults when nothing is set, and an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', TRANSMISSION_WORKER: ' ' });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.transmission).toMatchObject({
      worker: true,
      concurrency: 16,
      maxAttempts: 6,
      platformGln: '4399902421007',
    });
    expect(config.reports).toEqual({ worker: true, leaseMs: 60_000, sweepEveryMs: 15_000, threadHeapMb: 48 });
    expect(config.ordrspPickup).toEqual({ enabled: true, folder: '/ordrsp', everyMs: 60_000 });
    expect(config.search).toEqual({ engine: 'index', cache: true, warmUp: true });
    expect(config.partnerStorageQuotaMb).toBe(500);
    expect(config.seedDemo).toBe(true);
  });

  it('reads every group of settings', () => {
    const config = loadConfig({
      PORT: '8080',
      TRANSMISSION_WORKER: 'off',
      TRANSMISSION_POLL_MS: '50',
      REPORT_WORKER: 'off',
      REPORT_WORKER_HEAP_MB: '96',
      ORDRSP_PICKUP: 'off',
      ORDRSP_PICKUP_FOLDER: '/inbox/',
      SEARCH_ENGINE: 'sql',
      SEARCH_CACHE: 'off',
      SEARCH_WARM_UP: 'off',
      PARTNER_STORAGE_QUOTA_MB: '20',
      EMBEDDED_PG_PORT: '55000',
      SEED_DEMO: 'false',
    });
    expect(config.port).toBe(8080);
    expect(config.transmission).toMatchObject({ worker: false, pollMs: 50 });
    expect(config.reports).toMatchObject({ worker: false, threadHeapMb: 96 });
    expect(config.ordrspPickup).toMatchObject({ enabled: false, folder: '/inbox' });
    expect(config.search).toEqual({ engine: 'sql', cache: false, warmUp: false });
    expect(config.partnerStorageQuotaMb).toBe(20);
    expect(config.embeddedPgPort).toBe(55000);
    expect(config.seedDemo).toBe(false);
  });

  it('refuses bad values with a German message naming each variable and its value', () => {
    const error = problemOf({
      PORT: 'abc',
      TRANSMISSION_WORKER: 'aus',
      PARTNER_STORAGE_QUOTA_MB: '0',
      PUBLIC_URL: 'portal.example',
      WORKFLOW_SECRET_KEY: 'zu-kurz',
    });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      'PARTNER_STORAGE_QUOTA_MB',
      'PORT',
      'PUBLIC_URL',
      'TRANSMISSION_WORKER',
      'WORKFLOW_SECRET_KEY',
    ]);
    expect(error.message).toContain('Ungültige Konfiguration – der Start wird abgebrochen');
    expect(error.message).toContain('PORT muss eine ganze Zahl von 0 bis 65535 sein (angegeben: „abc“).');
    expect(error.message).toContain('TRANSMISSION_WORKER muss „on“ oder „off“ sein (angegeben: „aus“).');
    expect(error.message).toContain('PARTNER_STORAGE_QUOTA_MB muss eine ganze Zahl ab 1 sein (angegeben: „0“).');
    expect(error.message).toContain('PUBLIC_URL muss eine URL sein (http, https)');
    expect(error.message).toContain('WORKFLOW_SECRET_KEY muss 64 Hex-Zeichen oder Base64 von 32 Bytes sein');
  });

  it('stops the API start and the worker start with that message', () => {
    for (const entry of ['apps/api/src/main.ts', 'apps/api/src/worker.ts']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH, TRANSMISSION_CONCURRENCY: 'viele', DATA_DIR: '/nonexistent' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, entry).toBe(1);
      expect(run.stderr).toContain('TRANSMISSION_CONCURRENCY muss eine ganze Zahl ab 1 sein (angegeben: „viele“).');
    }
  });
});

describe('README configuration table', () => {
  /** The first column of the table under "## Configuration", up to the next paragraph. */
  function documentedVariables(): string[] {
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'));
    const table = section.slice(section.indexOf('| Variable |')).split(/\n(?!\|)/)[0];
    return table
      .split('\n')
      .slice(2)
      .map((row) => /^\| `([A-Z0-9_]+)` \|/.exec(row)?.[1] ?? `unreadable row: ${row}`);
  }

  it('lists exactly the variables of the schema', () => {
    expect(documentedVariables().sort()).toEqual(Object.keys(configSchema.shape).sort());
  });
});
