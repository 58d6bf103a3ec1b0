import type pg from 'pg';

/**
 * Runs a change on the database and waits until every counter moved — each process's cache counts the notifications
 * it received — so the change has reached every listener before the test reads again.
 */
export async function changeAndAwaitNotifications(
  pool: pg.Pool,
  counters: (() => number)[],
  sql: string,
  params: unknown[],
): Promise<void> {
  const seen = counters.map((count) => count());
  await pool.query(sql, params);
  // Generous: on a loaded machine (a whole test run beside benches) delivery took longer than 2 s; polling every
  // 5 ms leaves the CPU to the listeners meanwhile.
  const deadline = Date.now() + 10_000;
  while (counters.some((count, i) => count() === seen[i])) {
    if (Date.now() > deadline) throw new Error('notification not delivered');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The backends listening on a channel (db/listen.ts names each listening connection `listen <channel>`). */
export async function listenerPids(pool: pg.Pool, channel: string): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
    [`listen ${channel}`],
  );
  return rows.map((r) => r.pid);
}
