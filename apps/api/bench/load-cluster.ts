/**
 * `BENCH_CLUSTER=1,2 npm run bench:load`: the mixed buyer load (search, product page, cart, checkout) through haproxy
 * in front of one and then two API nodes on Debian's PostgreSQL server (the cluster harness of `npm run
 * test:cluster`, apps/api/test/cluster/support). Prints requests/s for each, the scaling ratio and each node's
 * resident memory. BENCH_USERS (20), BENCH_SECONDS (20), BENCH_PRODUCTS (demo catalogue, 2 000).
 */
import { clusterUnavailable, startCluster } from '../test/cluster/support/cluster.ts';
import { runLoad } from '../test/cluster/support/cluster-load.ts';

export async function benchCluster(): Promise<void> {
  const unavailable = clusterUnavailable();
  if (unavailable) {
    console.error(unavailable);
    process.exitCode = 1;
    return;
  }
  const sizes = (process.env.BENCH_CLUSTER ?? '1,2').split(',').map(Number);
  const users = Number(process.env.BENCH_USERS ?? 20);
  const seconds = Number(process.env.BENCH_SECONDS ?? 20);
  const rates: Record<number, number> = {};
  for (const nodes of sizes) {
    const cluster = await startCluster({ nodes, products: Number(process.env.BENCH_PRODUCTS ?? 2_000) });
    try {
      let peak: Record<string, number> = {};
      const result = await runLoad(
        cluster,
        seconds * 1000,
        async () => {
          const now = cluster.memory();
          peak = Object.fromEntries(Object.entries(now).map(([k, v]) => [k, Math.max(v, peak[k] ?? 0)]));
        },
        users,
      );
      rates[nodes] = result.requests / seconds;
      const kinds = [...new Set(result.failures.map((f) => f.what.slice(0, 100)))].slice(0, 3);
      if (kinds.length) console.log(`  Fehlerarten: ${kinds.join(' | ')}`);
      console.log(
        `${nodes} Knoten: ${result.requests} Anfragen in ${seconds} s = ${rates[nodes].toFixed(1)}/s, ` +
          `${result.failures.length} Fehler, ${result.ordersSeen.length} Bestellungen; ` +
          `Speicher (RSS, Spitze) ${Object.entries(peak)
            .map(([k, v]) => `Knoten ${k}: ${v} MiB`)
            .join(', ')}`,
      );
    } finally {
      await cluster.close();
    }
  }
  if (rates[1] && rates[2]) console.log(`Skalierung 2 Knoten / 1 Knoten: ${(rates[2] / rates[1]).toFixed(2)}`);
}
