/** Amounts in euros are kept to the cent: 12.345 → 12.35 (half away from zero for positive amounts). */
export const round2 = (amount: number) => Math.round(amount * 100) / 100;

const euroFormat = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/** An amount as German text in euros ('1.234,50 €'); the one money format of the web pages, mails and documents. */
export const formatEuro = (amount: number) => euroFormat.format(amount);
