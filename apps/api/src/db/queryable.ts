import type pg from 'pg';

/** Anything a repository can run a statement on: the pool, or the client of a running transaction. */
export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;
