import pg from 'pg';

/**
 * LISTEN on a channel over a connection of its own (not one of the pool's, which would be handed to other
 * queries); returns a stop function. The notification's payload goes to onNotify. A lost connection (server
 * restart, pg_terminate_backend, network) is reported once through onLost; the caller decides whether to
 * connect again. Used by the catalogue meta cache (catalogue_state, migration 0190), the search index
 * (search_changes, 0150), the caller cache (auth_changes, 0195) and the read-model cache (read_model_changes, 0215).
 *
 * The stop function also carries sync(): a round trip on the listening connection. Postgres sends a listener the
 * notifications of every transaction that committed before a statement of its own before that statement's answer,
 * so once sync() resolves, onNotify has seen every change committed before it was called.
 */
export async function listenChannel(
  pool: pg.Pool,
  channel: string,
  onNotify: (payload: string) => void,
  onLost: (e: Error) => void,
): Promise<ChannelListener> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
  const options = (pool as unknown as { options: pg.ClientConfig }).options;
  // Named after its channel in pg_stat_activity (its last statement may be a sync's SELECT 1, not the LISTEN).
  const client = new pg.Client({ connectionString: options.connectionString, application_name: `listen ${channel}` });
  let stopped = false;
  let lost = false;
  const reportLost = (e: Error) => {
    if (stopped || lost) return;
    lost = true;
    onLost(e);
  };
  client.on('notification', (message) => {
    if (message.channel === channel) onNotify(message.payload ?? '');
  });
  client.on('error', reportLost);
  client.on('end', () => reportLost(new Error(`LISTEN ${channel}: connection ended`)));
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
  } catch (e) {
    stopped = true;
    await client.end().catch(() => {});
    throw e;
  }
  const stop = async () => {
    stopped = true;
    await client.end().catch(() => {});
  };
  return Object.assign(stop, {
    sync: async () => {
      await client.query('SELECT 1');
    },
  });
}

/** Ends the listening connection; sync() waits until every change committed before the call has been notified. */
export type ChannelListener = (() => Promise<void>) & { sync: () => Promise<void> };
