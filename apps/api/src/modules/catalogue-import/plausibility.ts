/**
 * Whether a full catalogue may withdraw what it does not contain. It may when it is plausible: at least one product
 * accepted, the share of the supplier's assortment it would withdraw and the share of its products rejected within
 * the supplier's limits. Otherwise it waits for approval with these figures (the preview).
 */
import {
  catalogueImportMessages as m,
  type CatalogueImportPreview,
  type CatalogueImportSettings,
} from '@shk/contracts';

export interface WithdrawalFigures {
  /** The supplier's offers before the import. */
  assortment: number;
  toWithdraw: number;
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0);
const german = (n: number) => n.toLocaleString('de-DE', { maximumFractionDigits: 2 });

/** The preview; its `reasons` are empty when the withdrawal is plausible. */
export function checkWithdrawal(f: WithdrawalFigures, limits: CatalogueImportSettings): CatalogueImportPreview {
  const accepted = f.created + f.updated + f.unchanged;
  const withdrawPercent = f.assortment > 0 ? percent(f.toWithdraw, f.assortment) : 100;
  const rejectedPercent = percent(f.rejected, f.read);
  const reasons: string[] = [];
  if (accepted < 1) reasons.push(m.noAcceptedProducts);
  if (withdrawPercent > limits.maxWithdrawPercent)
    reasons.push(m.tooManyWithdrawals(german(withdrawPercent), german(limits.maxWithdrawPercent)));
  if (rejectedPercent > limits.maxRejectPercent)
    reasons.push(m.tooManyRejections(german(rejectedPercent), german(limits.maxRejectPercent)));
  return {
    assortment: f.assortment,
    toWithdraw: f.toWithdraw,
    withdrawPercent,
    rejectedPercent,
    maxWithdrawPercent: limits.maxWithdrawPercent,
    maxRejectPercent: limits.maxRejectPercent,
    reasons,
  };
}
