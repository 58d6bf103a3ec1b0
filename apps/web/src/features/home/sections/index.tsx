import type { ReactNode } from 'react';
import { Role } from '@shk/contracts';
import type { UserProfile } from '../../../api/types';
import { BuyerHomeSuppliers } from '../../../ui/home-sections';
import { RecentlyViewed } from '../../../ui/product/RecentlyViewed';
import { CategoryTreeSection } from './CategoryTreeSection';
import { NoRoleNotice } from './NoRoleNotice';
import { PromotionSlideshow } from './PromotionSlideshow';
import { SearchStage } from './SearchStage';
import { buyerShortcuts, sellerShortcuts, Shortcuts } from './Shortcuts';

/**
 * One block of the home page. The page renders every section whose `roles` contain the user's role,
 * in this order – a new block (e.g. supplier cards for buyers) is one more entry.
 */
export interface HomeSection {
  key: string;
  roles: readonly Role[];
  render: (profile: UserProfile) => ReactNode;
}

const ALL_WITH_FUNCTION = [Role.Buyer, Role.Seller, Role.Administrator, Role.Support, Role.PlatformOperator] as const;
const SEARCHERS = [Role.Buyer, Role.Administrator, Role.Support, Role.PlatformOperator] as const;

export const homeSections: readonly HomeSection[] = [
  { key: 'no-role', roles: [Role.None], render: () => <NoRoleNotice /> },
  { key: 'search', roles: SEARCHERS, render: () => <SearchStage /> },
  { key: 'slideshow', roles: ALL_WITH_FUNCTION, render: (profile) => <PromotionSlideshow role={profile.role} /> },
  // Supplier–customer relations (issue 4): supplier cards of active relations and further suppliers to add.
  { key: 'suppliers-buyer', roles: [Role.Buyer], render: () => <BuyerHomeSuppliers /> },
  { key: 'shortcuts-seller', roles: [Role.Seller], render: () => <Shortcuts items={sellerShortcuts} /> },
  { key: 'categories', roles: ALL_WITH_FUNCTION, render: () => <CategoryTreeSection /> },
  { key: 'recently-viewed', roles: ALL_WITH_FUNCTION, render: () => <RecentlyViewed /> },
  { key: 'shortcuts-buyer', roles: [Role.Buyer], render: () => <Shortcuts items={buyerShortcuts} /> },
];
