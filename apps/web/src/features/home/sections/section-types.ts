import type { ReactNode } from 'react';
import { Role } from '@shk/contracts';
import type { UserProfile } from '../../../api/types';

/**
 * One block of the home page. The page renders every section whose `roles` contain the user's role,
 * in this order – a new block (e.g. supplier cards for buyers) is one more entry (below the first screen: in
 * `more.tsx`).
 */
export interface HomeSection {
  key: string;
  roles: readonly Role[];
  render: (profile: UserProfile, slots: HomeSlots) => ReactNode;
}

/**
 * Blocks other features contribute. Features do not import each other, so the app shell
 * (`app/HomeRoute.tsx`) fills these slots and passes them to the home page.
 */
export interface HomeSlots {
  buyerSuppliers?: ReactNode;
}

export const ALL_WITH_FUNCTION = [
  Role.Buyer,
  Role.Seller,
  Role.Administrator,
  Role.Support,
  Role.PlatformOperator,
] as const;
export const SEARCHERS = [Role.Buyer, Role.Administrator, Role.Support, Role.PlatformOperator] as const;
