/**
 * The status of a `status` query value: numeric values of the allowed list only; anything else
 * (text, unknown numbers) falls back to 'all', i.e. no status restriction (spec §4: a status filter accepts
 * only numeric values and otherwise falls back to the defaults).
 */
export function parseStatusParam(raw: string | null | undefined, allowed: readonly number[]): number | null {
  if (!raw || !/^\d+$/.test(raw.trim())) return null;
  const value = Number(raw.trim());
  return allowed.includes(value) ? value : null;
}
