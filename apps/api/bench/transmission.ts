/**
 * npm run bench:transmission — supplier order transmission over Email (PDF), SFTP (EDIFACT D.96A),
 * HTTP (EDIFACT D.97A) and AS2 (EDIFACT D.96A, signed and AES-256 encrypted to the partner, signed
 * synchronous MDN) to real peers on loopback (smtp-server, the ssh2 SFTP server, a Node HTTP receiver,
 * the AS2 partner on OpenSSL's `cms` command in its own process), on a fresh embedded Postgres. BENCH_AS2_ENCRYPTION=none
 * / aes128 / aes256 (default) picks the AS2 encryption; BENCH_AS2=off runs without the AS2 supplier.
 *
 *   Phase 1 (throughput): BENCH_ORDERS (default 1,000) supplier orders are placed through the checkout
 *   API while no worker runs, then the worker starts; orders/s = orders / time until all are Sent.
 *   Phase 2 (latency): 8 buyers check out continuously with the worker running (BENCH_LIVE_ORDERS,
 *   default 300); p95 from checkout commit (the response) to Sent (the transmission's sent_at).
 *   Both phases check: nothing lost (all Sent), no duplicates (one mail / file / stored POST / AS2 message per order).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { hashPassword } from '../src/modules/identity/password.ts';
import { createTransmissionWorker } from '../src/modules/transmission/index.ts';
import { fork } from 'node:child_process';
import { startHttpPeer, startSftpPeer, startSmtpPeer } from '../test/support/transmission-peers.ts';
import { loadAs2Identity } from '../src/modules/transmission/channels/as2.ts';
import { startBenchApi } from './bench-support.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const LIVE_ORDERS = Number(process.env.BENCH_LIVE_ORDERS ?? 300);
const BUYERS = 8;
// Email, SFTP, HTTP, AS2; BENCH_AS2=off leaves AS2 out (the comparison run on the same machine).
const SUPPLIERS = ['200001', '200002', '200003', ...(process.env.BENCH_AS2 === 'off' ? [] : ['200004'])];
const AS2_ENCRYPTION = (process.env.BENCH_AS2_ENCRYPTION ?? 'aes256') as 'none' | 'aes128' | 'aes256';

/** The OpenSSL AS2 partner in its own process (bench/as2-partner-process.ts), driven over IPC. */
async function startAs2PartnerProcess(as2Id: string) {
  const child = fork(path.join(import.meta.dirname, 'as2-partner-process.ts'), [as2Id], {
    execArgv: ['--import', 'tsx'],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
    });
  const ready = await next<{ url: string; as2Id: string; certificatePem: string }>('ready');
  return {
    ...ready,
    trust: async (pem: string) => {
      const done = next('trusted');
      child.send({ type: 'trust', pem });
      await done;
    },
    stats: async () => {
      const answer = next<{ received: number; rejected: number; cpuSeconds: { self: number; openssl: number } }>(
        'stats',
      );
      child.send({ type: 'stats' });
      return answer;
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}
const [smtp, sftp, receiver, as2] = await Promise.all([
  startSmtpPeer(),
  startSftpPeer(['/inbox']),
  startHttpPeer(),
  startAs2PartnerProcess('BENCH-AS2'),
]);
const api = await startBenchApi('transmission', {
  processEnv: true,
  env: {
    TRANSMISSION_WORKER: 'off', // the bench starts its worker itself
    SMTP_URL: smtp.url,
    // The peers run on loopback, an internal address the operator allowlist must name.
    TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1',
  },
});
const { config, runtime, pool } = api;

// Interfaces: 200001 by e-mail (PDF), 200002 by SFTP (D.96A), 200003 by HTTP (D.97A), 200004 by AS2 (D.96A).
const { worker, workflows } = createTransmissionWorker(
  { db: runtime.db, mail: runtime.mail, config },
  {
    info() {},
    error: console.error,
  },
);
const sftpProfile = await workflows.create({
  name: 'Bench SFTP',
  communicationProtocol: 2,
  host: '127.0.0.1',
  port: sftp.port,
  userName: sftp.user,
  password: sftp.password,
});
const httpProfile = await workflows.create({ name: 'Bench HTTP', communicationProtocol: 4, baseUrl: receiver.url });
const as2Profile = await workflows.create({
  name: 'Bench AS2',
  communicationProtocol: 3,
  partnerCertificate: as2.certificatePem,
  as2Encryption: AS2_ENCRYPTION,
});
await as2.trust(loadAs2Identity(config.dataDir, config.as2).certPem);
await pool.query(
  `UPDATE suppliers SET supplier_status_id = 1, out_com_protocol_id = 1, out_data_formats = '{1}', out_email_address = 'bestellung@bench.example' WHERE bp_number = '200001';
   UPDATE suppliers SET supplier_status_id = 1, out_com_protocol_id = 2, out_data_formats = '{2}', out_ftp_folder = '/inbox', workflow_id = ${sftpProfile.id} WHERE bp_number = '200002';
   UPDATE suppliers SET supplier_status_id = 1, out_com_protocol_id = 4, out_data_formats = '{3}', workflow_id = ${httpProfile.id} WHERE bp_number = '200003';
   UPDATE suppliers SET supplier_status_id = 1, out_com_protocol_id = 3, out_data_formats = '{2}', workflow_id = ${as2Profile.id},
          out_as2_identifier = '${as2.as2Id}', out_as2_url = '${as2.url}' WHERE bp_number = '200004';`,
);

// Bench world: 8 buyers approved at the four suppliers, one offer per supplier (4 supplier orders per checkout).
const hash = await hashPassword('demo');
await pool.query(`INSERT INTO manufacturers (manufacturer_id, name) VALUES ('BENCHT', 'Benchwerk') ON CONFLICT DO NOTHING;
  INSERT INTO brands (brand_no, name, manufacturer_id) VALUES (991001, 'Benchmarke', 'BENCHT') ON CONFLICT DO NOTHING;
  INSERT INTO product_tree (node_no, element_id, parent_no, type, name) VALUES (991001, 'BENCHT_LEAF', NULL, 'leaf', 'Bench') ON CONFLICT DO NOTHING;`);
const offerIds: string[] = [];
for (const [i, supplier] of SUPPLIERS.entries()) {
  await pool.query(
    `INSERT INTO products (id, product_id, manufacturer_id, manufacturer_pid, manufacturer_pid_norm, gtin, brand_no, product_name, leaf_no)
     VALUES ($1, 'BENCHT~' || $2, 'BENCHT', $2, $2, $3, 991001, 'Heizkörperventil Größe ' || $2, 991001) ON CONFLICT DO NOTHING`,
    [991000 + i, String(991000 + i), `40000009910${i}5`],
  );
  const id = `${supplier}~BENCHT-${i}`;
  await pool.query(
    `INSERT INTO product_offers (product_instance_id, product_no, supplier_bp_number, supplier_pid, supplier_pid_norm, product_data_source, unit_code, net_price, price_basis, min_order_quantity)
     VALUES ($1, $2, $3, $4, $4, 1, 'C62', $5, 1, 1) ON CONFLICT DO NOTHING`,
    [id, 991000 + i, supplier, `BENCHT-${i}`, 12.5 + i],
  );
  offerIds.push(id);
}
const buyers: { email: string; bp: string; cartId: number; token: string }[] = [];
for (let b = 0; b < BUYERS; b++) {
  const bp = `19100${b}`;
  const email = `benchtx${b}@example.com`;
  await pool.query(
    `INSERT INTO business_partners (bp_number, name, street, house_number, postal_code, city, country) VALUES ($1, $2, 'Benchweg', '1', '10115', 'Berlin', 'DE') ON CONFLICT DO NOTHING`,
    [bp, `Bench Käufer ${b}`],
  );
  const user = `00000000-0000-4000-9100-00000000000${b}`;
  await pool.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number) VALUES ($1, $2, 'Bench', $3, 1, $4, $5) ON CONFLICT DO NOTHING`,
    [user, email, String(b), hash, bp],
  );
  await pool.query('INSERT INTO user_business_partners VALUES ($1, $2) ON CONFLICT DO NOTHING', [user, bp]);
  for (const s of SUPPLIERS)
    await pool.query(
      `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number) VALUES ($1, $2, 1, 'B-' || $2) ON CONFLICT DO NOTHING`,
      [s, bp],
    );
  const cart = await pool.query<{ id: number }>(
    `INSERT INTO carts (bp_number, name, is_default) VALUES ($1, 'Bench', true) RETURNING id`,
    [bp],
  );
  buyers.push({ email, bp, cartId: Number(cart.rows[0].id), token: '' });
}
await api.listen();
for (const buyer of buyers) buyer.token = await api.login(buyer.email);

/** Checkouts by all buyers in parallel until `orders` supplier orders exist; returns commit times per order number. */
async function placeOrders(orders: number): Promise<Map<string, number>> {
  const committed = new Map<string, number>();
  let remaining = Math.ceil(orders / SUPPLIERS.length);
  await Promise.all(
    buyers.map(async (b) => {
      while (remaining-- > 0) {
        await pool.query(
          `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
           SELECT $1, id, split_part(id, '~', 1), split_part(id, '~', 2), 2 FROM unnest($2::text[]) AS id`,
          [b.cartId, offerIds],
        );
        const checkout = () =>
          fetch(`${config.publicUrl}/v1/MultiCarts/${b.cartId}/checkout`, {
            method: 'POST',
            headers: { authorization: `Bearer ${b.token}` },
          });
        let res = await checkout();
        if (res.status === 401) {
          // Access tokens are short-lived; a long run signs in again.
          b.token = await api.login(b.email);
          res = await checkout();
        }
        const at = Date.now();
        if (res.status !== 200) throw new Error(`checkout ${res.status}: ${await res.text()}`);
        const { customerOrderNumber } = (await res.json()) as { customerOrderNumber: string };
        const { rows } = await pool.query(
          'SELECT so.supplier_order_number FROM supplier_orders so JOIN customer_orders co ON co.id = so.customer_order_id WHERE co.customer_order_number = $1',
          [customerOrderNumber],
        );
        for (const r of rows) committed.set(r.supplier_order_number, at);
      }
    }),
  );
  return committed;
}

async function waitAllSent(numbers: string[]) {
  for (;;) {
    const { rows } = await pool.query(
      `SELECT count(*) FILTER (WHERE status_id = 2)::int AS sent, count(*) FILTER (WHERE status_id = 3)::int AS failed
         FROM supplier_orders WHERE supplier_order_number = ANY($1)`,
      [numbers],
    );
    if (rows[0].failed) throw new Error(`${rows[0].failed} orders SendingFailed`);
    if (rows[0].sent === numbers.length) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function deliveries() {
  const as2Stats = await as2.stats();
  const mailIds = smtp.messages.map((m) => /Message-ID: (<[^>]+>)/i.exec(m.raw.toString())?.[1]);
  return {
    mails: smtp.messages.length,
    distinctMails: new Set(mailIds).size,
    sftpFiles: [...sftp.files.keys()].filter((k) => k.endsWith('.edi')).length,
    sftpWrites: sftp.events.filter((e) => e.startsWith('write')).length,
    httpPosts: receiver.requests.length,
    httpStored: receiver.stored.size,
    as2Messages: as2Stats.received,
    as2Rejected: as2Stats.rejected,
  };
}

// Phase 1: a backlog of ORDERS supplier orders, drained by the worker.
const backlog = await placeOrders(ORDERS);
const backlogNumbers = [...backlog.keys()];
const drainStart = performance.now();
worker.start();
await waitAllSent(backlogNumbers);
const drainSeconds = (performance.now() - drainStart) / 1000;
const afterBacklog = await deliveries();

// Phase 2: live checkouts with the worker running; latency commit → Sent.
const liveStart = performance.now();
const live = await placeOrders(LIVE_ORDERS);
const liveNumbers = [...live.keys()];
await waitAllSent(liveNumbers);
const liveSeconds = (performance.now() - liveStart) / 1000;
const { rows: sentRows } = await pool.query(
  `SELECT so.supplier_order_number, extract(epoch FROM t.sent_at) * 1000 AS sent_ms
     FROM supplier_order_transmissions t JOIN supplier_orders so ON so.id = t.supplier_order_id WHERE so.supplier_order_number = ANY($1)`,
  [liveNumbers],
);
const latencies = sentRows
  .map((r) => Math.max(0, Number(r.sent_ms) - live.get(r.supplier_order_number)!))
  .sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
const total = await deliveries();
const all = backlogNumbers.length + liveNumbers.length;
const { rows: perProtocol } = await pool.query(
  `SELECT protocol_id, count(*)::int AS n, round(avg(extract(epoch FROM finished_at - started_at)) * 1000) AS avg_ms,
          round(max(extract(epoch FROM finished_at - started_at)) * 1000) AS max_ms
     FROM supplier_order_transmission_attempts GROUP BY protocol_id ORDER BY protocol_id`,
);
const { rows: attempts } = await pool.query(
  `SELECT count(*)::int AS attempts, count(*) FILTER (WHERE outcome <> 'sent')::int AS unsuccessful FROM supplier_order_transmission_attempts`,
);
console.log(
  JSON.stringify(
    {
      backlog: {
        supplierOrders: backlogNumbers.length,
        drainSeconds: +drainSeconds.toFixed(2),
        ordersPerSecond: +(backlogNumbers.length / drainSeconds).toFixed(1),
        deliveries: afterBacklog,
      },
      live: {
        supplierOrders: liveNumbers.length,
        buyersCheckingOutConcurrently: BUYERS,
        wallSeconds: +liveSeconds.toFixed(2),
        commitToSentMedianMs: Math.round(pct(50)),
        commitToSentP95Ms: Math.round(pct(95)),
        commitToSentMaxMs: Math.round(latencies[latencies.length - 1]),
      },
      check: {
        ordersTotal: all,
        lost:
          all - Number((await pool.query('SELECT count(*) FROM supplier_orders WHERE status_id = 2')).rows[0].count),
        duplicateMails: total.mails - total.distinctMails,
        duplicateSftpFiles: total.sftpWrites - total.sftpFiles,
        duplicateHttpDeliveries: total.httpPosts - total.httpStored,
        as2MessagesReceived: total.as2Messages,
        as2Rejected: total.as2Rejected,
        attempts: attempts[0].attempts,
        unsuccessfulAttempts: attempts[0].unsuccessful,
      },
      workerConcurrency: Number(process.env.TRANSMISSION_CONCURRENCY ?? 16),
      as2Encryption: process.env.BENCH_AS2 === 'off' ? 'kein AS2' : AS2_ENCRYPTION,
      // Where the CPU went: this process (API, worker, the other peers) and the AS2 partner with its openssl runs.
      cpuSeconds: {
        benchProcess: +((process.cpuUsage().user + process.cpuUsage().system) / 1e6).toFixed(1),
        as2Partner: (await as2.stats()).cpuSeconds,
      },
      attemptMsPerProtocol: Object.fromEntries(
        perProtocol.map((r) => [r.protocol_id, { attempts: r.n, avgMs: Number(r.avg_ms), maxMs: Number(r.max_ms) }]),
      ),
    },
    null,
    2,
  ),
);
await worker.stop();
await api.stopApi();
await Promise.all([smtp.close(), sftp.close(), receiver.close(), as2.close()]);
await api.close();
process.exit(0);
