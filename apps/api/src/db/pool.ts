import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

// Return NUMERIC as JS numbers and DATE as plain 'yyyy-mm-dd' strings (no timezone shifts).
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => (v === null ? null : Number(v)));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/**
 * The database handle services carry: the pool as `$client`. Repositories take the pool or a transaction's client
 * and run SQL with parameters (docs/conventions.md); there is no query builder. (`$client` keeps the name the
 * handle had under Drizzle, so call sites did not change when it went.)
 */
export interface Db {
  $client: pg.Pool;
}

/** Session limits of a pool's connections (the API's come from config: DATABASE_STATEMENT_TIMEOUT_MS …). */
export interface PoolLimits {
  /** A statement running longer is cancelled by the server (57014); 0: no limit. */
  statementTimeoutMs?: number;
  /** A transaction left idle this long is ended by the server (25P03), releasing its locks; 0: no limit. */
  idleInTransactionTimeoutMs?: number;
  /**
   * Code that holds one of the pool's connections (inTransaction) and asks the pool for another one throws at once
   * (tests); otherwise it is logged once per place. Such code can exhaust the pool: every holder waits for a
   * connection only the others could give back.
   */
  strictConnectionUse?: boolean;
}

/** The pool whose connection the current async context holds inside inTransaction or inClientTransaction. */
const heldConnection = new AsyncLocalStorage<pg.Pool>();
/** The pool each connection belongs to: a transaction on a held pool connection marks that pool as held, too. */
const poolOfClient = new WeakMap<pg.ClientBase, pg.Pool>();
const reportedNesting = new Set<string>();

/** Refuses (strict) or reports a request for a second connection while the context holds one of the same pool. */
function guardNestedAcquire(pool: pg.Pool, strict: boolean) {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    if (heldConnection.getStore() === pool) {
      const error = new Error(
        'A connection of the pool is already held (inTransaction) while another one is requested: use the transaction client.',
      );
      if (strict) throw error;
      const where = error.stack?.split('\n').slice(2, 5).join(' | ') ?? '';
      if (!reportedNesting.has(where)) {
        reportedNesting.add(where);
        console.warn(`[db] ${error.message} ${where}`);
      }
    }
    return connect(...args);
  };
}

/** A wait for a connection that only the connect timeout ended: where it was asked for, and who held the pool. */
export interface HiddenWait {
  waiter: string;
  holders: string[];
}

const hiddenWaits = new WeakMap<pg.Pool, HiddenWait[]>();

/** The hidden waits a strict pool has seen so far (empty for other pools). */
export function hiddenWaitsOf(pool: pg.Pool): readonly HiddenWait[] {
  return hiddenWaits.get(pool) ?? [];
}

const callerStack = () => (new Error().stack ?? '').split('\n').slice(3, 13).join('\n');

/**
 * Strict pools (tests) note where each checked-out connection was asked for, and record every acquire the connect
 * timeout ends together with those holders. The nesting guard only sees a second acquire inside inTransaction; this
 * also catches a holder outside it (a lock connection taken from the pool while its work queried through the pool)
 * and background work that keeps the connection too long. A stack per acquire is a cost only tests pay.
 */
function recordHiddenWaits(pool: pg.Pool) {
  const waits: HiddenWait[] = [];
  hiddenWaits.set(pool, waits);
  const holders = new Map<pg.PoolClient, string>();
  pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => holders.delete(client));
  pool.on('remove', (client: pg.PoolClient) => holders.delete(client));
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  const noteOutcome = (waiter: string, error: Error | undefined, client: pg.PoolClient | undefined) => {
    if (client) holders.set(client, waiter);
    else if (error && /timeout exceeded when trying to connect/.test(error.message)) {
      waits.push({ waiter, holders: [...holders.values()] });
    }
  };
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    const waiter = callerStack();
    const callback = args[0];
    if (typeof callback === 'function') {
      // pool.query's own acquire
      return connect((error: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => {
        noteOutcome(waiter, error, client);
        callback(error, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).then(
      (client) => {
        noteOutcome(waiter, undefined, client);
        return client;
      },
      (error: Error) => {
        noteOutcome(waiter, error, undefined);
        throw error;
      },
    );
  };
}

/** Every pool of the process comes from here, so that none can end the process on a lost connection. */
export function createPool(
  url: string,
  max = 20,
  extra: Omit<pg.PoolConfig, 'connectionString' | 'max'> = {},
  limits: PoolLimits = {},
): pg.Pool {
  // A bounded connect timeout turns a black-holed database into a 503 instead of a hanging request.
  // It also bounds the wait for a free connection under load, so it must be far above that wait
  // (bench:load at 50 users saw 5 s waits on a busy machine); a refused connection fails at once anyway.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    // Strict (tests): a wait for a connection that only this timeout ends is a hidden wait (someone holds the
    // connection while waiting for another); it is recorded with the holders' stacks (hiddenWaitsOf). 15 s: on a
    // loaded machine (load 40) a request's own work holds the one connection for a second or two, far below it,
    // while a hidden wait never ends by itself. (5 s once failed a request that waited behind the mail sweeper's
    // then hidden wait; 15 s with that wait left made the one-connection test run for minutes.)
    connectionTimeoutMillis: limits.strictConnectionUse ? 15_000 : 30_000,
    // Sent as session parameters when each connection starts: a runaway statement or an abandoned transaction
    // cannot keep a connection (and its locks) from the other requests.
    ...(limits.statementTimeoutMs ? { statement_timeout: limits.statementTimeoutMs } : {}),
    ...(limits.idleInTransactionTimeoutMs
      ? { idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs }
      : {}),
    ...extra,
  });
  guardNestedAcquire(pool, limits.strictConnectionUse ?? false);
  if (limits.strictConnectionUse) recordHiddenWaits(pool);
  // The server may end any connection (restart, failover, pg_terminate_backend, a proxy's idle timeout).
  // Idle clients report it on the pool, checked-out ones on themselves: both must only be logged,
  // because an 'error' event without a listener ends the process. The broken client is discarded on
  // release and the next query opens a fresh connection.
  pool.on('error', (error: Error & { code?: string }) => logConnectionLoss(error));
  pool.on('connect', (client) => {
    poolOfClient.set(client, pool);
    client.on('error', (error: Error & { code?: string }) => logConnectionLoss(error));
  });
  return pool;
}

/**
 * A client to the pool's database that is not one of the pool's connections: for the few statements that must not
 * wait behind the pool — a lock session's locks (cluster lock), a cancel of a statement that holds a pool connection.
 * The caller connects and ends it; its 'error' events are logged (an unlistened one would end the process).
 */
export function clientOutsidePool(pool: pg.Pool, applicationName: string): pg.Client {
  const options = (pool as unknown as { options: pg.PoolConfig }).options;
  const client = new pg.Client({
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectionTimeoutMillis,
    // Named in pg_stat_activity, so it is not taken for a leaked pool connection.
    application_name: applicationName.slice(0, 63),
  });
  client.on('error', (error) => logConnectionLoss(error));
  return client;
}

let lastWarning = 0;
function logConnectionLoss(error: Error & { code?: string }) {
  // 57P01 is the normal notice of a server shutting down; one line per second is enough in a storm.
  if (error.code === '57P01' || Date.now() - lastWarning < 1000) return;
  lastWarning = Date.now();
  console.warn(`[db] connection lost: ${error.message}`);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown (also pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
]);

/** True when an error means "the database cannot be reached right now" rather than a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (CONNECTION_CODES.has(e.code) || e.code.startsWith('08'))) return true;
  if (
    typeof e.message === 'string' &&
    /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed|not queryable|Cannot use a pool after calling end/i.test(
      e.message,
    )
  ) {
    return true;
  }
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

export function createDb(pool: pg.Pool): Db {
  return { $client: pool };
}

/** Registers an action to run once the transaction has committed (never after a rollback). */
export type AfterCommit = (action: () => Promise<unknown>) => void;

/**
 * One transaction's handle (a unit of work): `$client` is the connection the transaction runs on; `afterCommit`
 * registers what happens once its writes are durable — handing the mails it queued to the job queue, waking a worker.
 */
export interface TxDb {
  $client: pg.PoolClient;
  afterCommit: AfterCommit;
}

/**
 * Runs `work` in one transaction on a dedicated connection; every multi-step write goes through here.
 * `tx.$client` is that connection, handed to the repositories' functions. The actions registered with
 * `tx.afterCommit` run in order after COMMIT (the connection is back in the pool by then); a rollback drops them.
 * A failing action fails the call, as a dispatch written after the commit by hand did: what it hands on is in the
 * database already, and the sweepers pick it up (outbox).
 */
export async function inTransaction<T>(db: Db, work: (tx: TxDb) => Promise<T>): Promise<T> {
  const actions: (() => Promise<unknown>)[] = [];
  const afterCommit: AfterCommit = (action) => void actions.push(action);
  const client = await db.$client.connect();
  let result: T;
  try {
    result = await heldConnection.run(db.$client, () =>
      inClientTransaction(client, () => work({ $client: client, afterCommit })),
    );
  } finally {
    client.release();
  }
  for (const action of actions) await action();
  return result;
}

/**
 * Runs `work` as one transaction of a connection the caller holds (its session state — temporary tables, settings —
 * stays with it): committed when `work` resolves, rolled back when it throws.
 */
export async function inClientTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  // A session taken from a pool by hand (an import's, a decision's) is held like inTransaction's: asking its pool for
  // another connection inside is refused (strict) or logged.
  const pool = poolOfClient.get(client);
  const held = pool && heldConnection.getStore() !== pool ? () => heldConnection.run(pool, work) : work;
  await client.query('BEGIN');
  try {
    const result = await held();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
