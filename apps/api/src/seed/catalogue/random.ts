/** Small deterministic random helpers: product i is the same on every machine and for every N. */

/** 32-bit mix of a seed and an index (splitmix-style), used to seed one generator per product. */
export function hash32(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 0x9e3779b9, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** Log-uniform in [min, max] (prices: many cheap, few expensive). */
  logUniform(min: number, max: number): number {
    return Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min)));
  }
  weighted<T>(items: readonly T[], weightOf: (t: T) => number, total?: number): T {
    const sum = total ?? items.reduce((s, i) => s + weightOf(i), 0);
    let r = this.next() * sum;
    for (const item of items) {
      r -= weightOf(item);
      if (r < 0) return item;
    }
    return items[items.length - 1];
  }
}

/** A bijection on [0, 10^8): distinct products get distinct article numbers without a lookup. */
export function scramble(index: number, multiplier: number, offset: number): number {
  // index < 10^8 and multiplier < 10^7 keep the product below 2^53: exact in doubles.
  return (index * multiplier + offset) % 100_000_000;
}

export const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** GTIN-13 check digit (weights 1,3 from the left over 12 digits). */
export function gtinCheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export function isValidGtin13(gtin: string): boolean {
  return /^\d{13}$/.test(gtin) && gtinCheckDigit(gtin.slice(0, 12)) === Number(gtin[12]);
}
