/** Amounts in euros are kept to the cent: 12.345 → 12.35 (half away from zero for positive amounts). */
export const round2 = (amount: number) => Math.round(amount * 100) / 100;
