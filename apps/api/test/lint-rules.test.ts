// House rules of eslint.config.js checked on sample files (docs/conventions.md, "Checks" and "DTO types in the
// web"): each must fail where the rule says and stay quiet on what the rule allows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function findings(file: string, code: string, rules: string[]) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((m) => rules.includes(m.ruleId ?? '')).map((m) => m.line);
}

describe('SQL lives in repositories', () => {
  const rules = ['no-restricted-syntax', '@typescript-eslint/no-restricted-imports'];
  const statements = `import { from } from 'pg-copy-streams';
import type { Db } from '../../db/pool.ts';
export async function work(db: Db, tx: Db) {
  await db.$client.query('SELECT 1');
  const client = await db.$client.connect();
  await tx.$client.query('SELECT 1');
  client.release();
  return from;
}
`;

  it('fails on statements, own connections and pg-copy-streams in a service', async () => {
    expect(await findings('apps/api/src/modules/example/example.service.ts', statements, rules)).toEqual([1, 4, 5, 6]);
  });

  it('allows them in a repository, and a service that hands the client to one', async () => {
    expect(await findings('apps/api/src/modules/example/example.repo.ts', statements, rules)).toEqual([]);
    const service = `import type { Db } from '../../db/pool.ts';
import { findThing } from './example.repo.ts';
export const thing = (db: Db) => findThing(db.$client, 1);
`;
    expect(await findings('apps/api/src/modules/example/example.service.ts', service, rules)).toEqual([]);
  });
});

describe('response types in the web come from src/api', () => {
  const rules = ['@typescript-eslint/no-restricted-imports'];
  const feature = 'apps/web/src/features/example/Example.tsx';

  it('fails on a response schema from @shk/contracts, also under an export name unlike its id', async () => {
    const code = `import type { SupplierSettings, CartOverview } from '@shk/contracts';
import { type Favourite } from '@shk/contracts';
export type X = [SupplierSettings, CartOverview, Favourite];
`;
    expect(await findings(feature, code, rules)).toEqual([1, 1, 2]);
  });

  it('allows request schemas, schemas of both directions, enums, limits and texts', async () => {
    const code = `import { limits, cartMessages, Role, DeliveryAddressInput, type SearchFilter } from '@shk/contracts';
export const x = [limits, cartMessages, Role, DeliveryAddressInput];
export type F = SearchFilter;
`;
    expect(await findings(feature, code, rules)).toEqual([]);
  });
});

describe('environment variables are read in src/config.ts only', () => {
  const rules = ['no-restricted-properties'];
  const code = `export const port = Number(process.env.PORT ?? 3000);
export const { env } = process;
`;

  it('fails on process.env in a module, a library file and an entry point', async () => {
    expect(await findings('apps/api/src/modules/example/example.service.ts', code, rules)).toEqual([1, 2]);
    expect(await findings('apps/api/src/lib/example.ts', code, rules)).toEqual([1, 2]);
    expect(await findings('apps/api/src/worker.ts', code, rules)).toEqual([1, 2]);
  });

  it('allows it in the config module and in tests, which set up the environment of what they start', async () => {
    expect(await findings('apps/api/src/config.ts', code, rules)).toEqual([]);
    expect(await findings('apps/api/src/modules/example/example.test.ts', code, rules)).toEqual([]);
    expect(await findings('apps/api/test/support/example.ts', code, rules)).toEqual([]);
  });
});

describe('no import loops in the API (scripts/check-cycles.mjs)', () => {
  type Check = { importLoops: (dir: string, tsConfig?: string) => Promise<string[][]> };
  const check = () => import(path.join(root, 'scripts/check-cycles.mjs')) as Promise<Check>;

  it('finds a loop that hangs on a type, and none once the type moved to the repository', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-loops-'));
    fs.writeFileSync(
      path.join(dir, 'mail.service.ts'),
      `import * as repo from './mail.repo.ts';\nexport const send = repo.insert;\nexport interface Mail { to: string }\n`,
    );
    fs.writeFileSync(
      path.join(dir, 'mail.repo.ts'),
      `import type { Mail } from './mail.service.ts';\nexport const insert = (m: Mail) => m;\n`,
    );
    const { importLoops } = await check();
    expect(await importLoops(dir)).toEqual([['mail.repo.ts', 'mail.service.ts']]);

    fs.writeFileSync(
      path.join(dir, 'mail.service.ts'),
      `import * as repo from './mail.repo.ts';\nexport const send = repo.insert;\nexport type { Mail } from './mail.repo.ts';\n`,
    );
    fs.writeFileSync(
      path.join(dir, 'mail.repo.ts'),
      `export interface Mail { to: string }\nexport const insert = (m: Mail) => m;\n`,
    );
    expect(await importLoops(dir)).toEqual([]);
  });

  it('finds none in apps/api/src', async () => {
    const { importLoops } = await check();
    expect(await importLoops(path.join(root, 'apps/api/src'), path.join(root, 'apps/api/tsconfig.json'))).toEqual([]);
  }, 120_000);
});

describe('modules have faces: another module is imported through its index.ts', () => {
  const rules = ['boundaries/element-types'];
  const modulesDir = path.join(root, 'apps/api/src/modules');

  it('every module has an index.ts', () => {
    const modules = fs.readdirSync(modulesDir, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(modules.filter((d) => !fs.existsSync(path.join(modulesDir, d.name, 'index.ts'))).map((d) => d.name)).toEqual(
      [],
    );
  });

  it("fails on another module's internal file, from a service, a repository, a face and the registry", async () => {
    const code = `import { CartsService } from '../carts/carts.service.ts';
import type { OfferCatalog } from '../carts/offer-catalog.ts';
export type X = [CartsService, OfferCatalog];
`;
    expect(await findings('apps/api/src/modules/orders/example.service.ts', code, rules)).toEqual([1, 2]);
    expect(await findings('apps/api/src/modules/orders/example.repo.ts', code, rules)).toEqual([1, 2]);
    expect(await findings('apps/api/src/modules/orders/index.ts', code, rules)).toEqual([1, 2]);
    const registry = `export { cartRoutes } from './carts/carts.routes.ts';\n`;
    expect(await findings('apps/api/src/modules/index.ts', registry, rules)).toEqual([1]);
  });

  it("allows the other module's index.ts, the module's own files, and tests", async () => {
    const face = `import { CartsService, type OfferCatalog } from '../carts/index.ts';
import { OrdersService } from './orders.service.ts';
export type X = [CartsService, OfferCatalog, OrdersService];
`;
    expect(await findings('apps/api/src/modules/orders/example.service.ts', face, rules)).toEqual([]);
    const internal = `import { CartsService } from '../carts/carts.service.ts';\nexport type X = CartsService;\n`;
    expect(await findings('apps/api/src/modules/orders/example.test.ts', internal, rules)).toEqual([]);
  });
});
