import type { ReactNode } from 'react';
import { Role } from '@shk/contracts';
import type { UserProfile } from '../../../api/types';
import { RecentlyViewed } from '../../../ui/product/RecentlyViewed';
import { CategoryTreeSection } from './CategoryTreeSection';
import { NoRoleNotice } from './NoRoleNotice';
import { PromotionSlideshow } from './PromotionSlideshow';
import { SearchStage } from './SearchStage';
import { buyerShortcuts, sellerShortcuts, Shortcuts } from './Shortcuts';
import { VideoHelpWidget } from './VideoHelpWidget';

/**
 * One block of the home page. The page renders every section whose `roles` contain the user's role,
 * in this order – a new block (e.g. supplier cards for buyers) is one more entry.
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

const ALL_WITH_FUNCTION = [Role.Buyer, Role.Seller, Role.Administrator, Role.Support, Role.PlatformOperator] as const;
const SEARCHERS = [Role.Buyer, Role.Administrator, Role.Support, Role.PlatformOperator] as const;

export const homeSections: readonly HomeSection[] = [
  { key: 'no-role', roles: [Role.None], render: () => <NoRoleNotice /> },
  { key: 'search', roles: SEARCHERS, render: () => <SearchStage /> },
  { key: 'slideshow', roles: ALL_WITH_FUNCTION, render: (profile) => <PromotionSlideshow role={profile.role} /> },
  // Supplier–customer relations: supplier cards of active relations and further suppliers to add.
  { key: 'suppliers-buyer', roles: [Role.Buyer], render: (_profile, slots) => slots.buyerSuppliers },
  { key: 'shortcuts-seller', roles: [Role.Seller], render: () => <Shortcuts items={sellerShortcuts} /> },
  { key: 'categories', roles: ALL_WITH_FUNCTION, render: () => <CategoryTreeSection /> },
  { key: 'recently-viewed', roles: ALL_WITH_FUNCTION, render: () => <RecentlyViewed /> },
  { key: 'shortcuts-buyer', roles: [Role.Buyer], render: () => <Shortcuts items={buyerShortcuts} /> },
  // Loaded only after marketing consent (renders nothing itself; the widget floats at the bottom right).
  { key: 'video-help', roles: [Role.None, ...ALL_WITH_FUNCTION], render: () => <VideoHelpWidget /> },
];
