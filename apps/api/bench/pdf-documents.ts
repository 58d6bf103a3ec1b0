/**
 * Micro-benchmark of the order PDF (transmission data format 1): renders BENCH_DOCUMENTS (default 200) supplier
 * order documents one after another in this process, as the transmission worker does, and prints the CPU and wall
 * time per document. The orders differ (numbers, names, 1–4 lines) like those of bench:load's checkouts.
 *
 *   npx tsx apps/api/bench/pdf-documents.ts
 *   node --cpu-prof --cpu-prof-dir=/tmp/pdf-prof --import tsx apps/api/bench/pdf-documents.ts   (CPU profile)
 *
 * The first BENCH_WARMUP (default 20) documents are rendered before the measurement (module load, JIT, the fonts
 * parsed on the first document); the first document's own time is printed apart.
 */
import { performance } from 'node:perf_hooks';
import { orderPdf } from '../src/modules/transmission/formats/pdf-order.ts';
import type { SupplierOrderForTransmission } from '../src/modules/transmission/transmission.types.ts';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);

const products = [
  'Heizkörperventil DN 15 Eckform',
  'Thermostatkopf mit Nullstellung',
  'Waschtischarmatur Einhebel, verchromt',
  'Pressfitting Bogen 90° 22 mm',
  'Duschrinne Edelstahl 800 mm',
  'Ausdehnungsgefäß 25 l',
  'Kugelhahn ½" mit Flügelgriff',
  'Umwälzpumpe Hocheffizienz 25-60',
];
const cities = ['Köln', 'Düsseldorf', 'München', 'Göttingen', 'Würzburg', 'Lübeck'];

function order(n: number): SupplierOrderForTransmission {
  const address = (name: string) => ({
    name,
    street: `Straße ${n % 97}`,
    houseNumber: String((n % 40) + 1),
    postalCode: String(10000 + ((n * 7919) % 89999)),
    city: cities[n % cities.length],
    countryCode: 'DE',
  });
  return {
    id: n,
    supplierOrderNumber: `LB-${100000 + n}`,
    customerOrderNumber: `KB-2026-${50000 + n}`,
    placedAt: new Date(Date.UTC(2026, 10, 1 + (n % 28), 8, n % 60)),
    isTest: n % 50 === 0,
    supplier: {
      bpNumber: '200001',
      name: 'Nordbad',
      gln: null,
      headquarterGln: '4012345000016',
      address: address('Nordbad GmbH'),
    },
    buyer: {
      bpNumber: String(100000 + (n % 300)),
      name: `Installateur ${n % 300}`,
      supplierCustomerNumber: `K-${10000 + (n % 300)}`,
      address: address(`Sanitär Installateur ${n % 300} GmbH`),
      contactName: `Einkauf ${n % 300}`,
      contactEmail: `einkauf${n % 300}@example.com`,
    },
    dispatchTo: null,
    netValue: 100 + (n % 1000) * 1.37,
    deliveryCost: n % 3 === 0 ? 0 : 9.9,
    lines: Array.from({ length: 1 + (n % 4) }, (_, i) => ({
      lineNo: i + 1,
      articleNumber: `ART-${(n * 31 + i) % 10000}`,
      gtin: `40000000${String((n * 13 + i) % 100000).padStart(5, '0')}`,
      manufacturerName: 'Benchwerk',
      manufacturerNumber: `BW-${(n + i) % 500}`,
      name: products[(n + i) % products.length],
      quantity: 1 + ((n + i) % 12),
      unitCode: 'C62',
      unitPrice: 5 + ((n * 17 + i) % 300) * 0.85,
      priceBasis: 1,
      quantityPrice: (1 + ((n + i) % 12)) * (5 + ((n * 17 + i) % 300) * 0.85),
      deliveryDate: null,
      projectCode: null,
      projectDescription: null,
      comment: i === 0 && n % 5 === 0 ? `Bitte Tor ${n % 4} anliefern` : null,
      deliveryAddress: null,
      attachments: [],
    })),
  };
}

let bytes = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
bytes += orderPdf(order(0)).length;
const first = {
  wall: performance.now() - t0,
  cpu: (process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1000,
};
for (let n = 1; n < WARMUP; n++) bytes += orderPdf(order(n)).length;

const cpu1 = process.cpuUsage();
const t1 = performance.now();
for (let n = WARMUP; n < WARMUP + DOCUMENTS; n++) bytes += orderPdf(order(n)).length;
const wall = performance.now() - t1;
const used = process.cpuUsage(cpu1);
const cpu = (used.user + used.system) / 1000;

console.log(
  JSON.stringify(
    {
      documents: DOCUMENTS,
      warmup: WARMUP,
      firstDocument: { wallMs: +first.wall.toFixed(1), cpuMs: +first.cpu.toFixed(1) },
      perDocument: { wallMs: +(wall / DOCUMENTS).toFixed(3), cpuMs: +(cpu / DOCUMENTS).toFixed(3) },
      meanBytes: Math.round(bytes / (DOCUMENTS + WARMUP)),
      rssMb: Math.round(process.memoryUsage().rss / 1048576),
    },
    null,
    2,
  ),
);
