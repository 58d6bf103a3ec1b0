import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type pg from 'pg';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/pool.ts';
import type { Jobs } from '../modules/jobs/jobs.ts';
import type { MailService } from '../modules/mail/mail.service.ts';
import type { PriceStrategy } from '../modules/catalogue/pricing/price-strategy.ts';
import type { Lifecycle } from '../lifecycle.ts';

/** The Fastify instance every module registers its routes on (zod schemas typed end to end). */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What modules get from the composition root. */
export interface AppDeps {
  config: AppConfig;
  db: Db;
  pool: pg.Pool;
  jobs: Jobs;
  mail: MailService;
  /** The node's background work (modules provide their workers and sweepers) and whether it is stopping. */
  lifecycle: Lifecycle;
  /** Customer-specific prices; without it the catalogue's net list prices (see pricing/price-strategy.ts). */
  prices?: PriceStrategy;
}
