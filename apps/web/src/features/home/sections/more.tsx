import { Fragment } from 'react';
import { Role } from '@shk/contracts';
import type { UserProfile } from '../../../api/types';
import { RecentlyViewed } from '../../../ui/product/RecentlyViewed';
import { CategoryTreeSection } from './CategoryTreeSection';
import { ALL_WITH_FUNCTION, type HomeSection, type HomeSlots } from './section-types';
import { buyerShortcuts, sellerShortcuts, Shortcuts } from './Shortcuts';
import { VideoHelpWidget } from './VideoHelpWidget';

/** The home page's sections below the first screen, in this order (see `homeSections` for the first ones). */
const moreSections: readonly HomeSection[] = [
  // Supplier–customer relations: supplier cards of active relations and further suppliers to add.
  { key: 'suppliers-buyer', roles: [Role.Buyer], render: (_profile, slots) => slots.buyerSuppliers },
  { key: 'shortcuts-seller', roles: [Role.Seller], render: () => <Shortcuts items={sellerShortcuts} /> },
  { key: 'categories', roles: ALL_WITH_FUNCTION, render: () => <CategoryTreeSection /> },
  { key: 'recently-viewed', roles: ALL_WITH_FUNCTION, render: () => <RecentlyViewed /> },
  { key: 'shortcuts-buyer', roles: [Role.Buyer], render: () => <Shortcuts items={buyerShortcuts} /> },
  // Loaded only after marketing consent (renders nothing itself; the widget floats at the bottom right).
  { key: 'video-help', roles: [Role.None, ...ALL_WITH_FUNCTION], render: () => <VideoHelpWidget /> },
];

/** The sections below the first screen for the user's role (a chunk of its own, loaded after the first paint). */
export default function MoreHomeSections({ profile, slots }: { profile: UserProfile; slots: HomeSlots }) {
  return moreSections
    .filter((section) => section.roles.includes(profile.role))
    .map((section) => <Fragment key={section.key}>{section.render(profile, slots)}</Fragment>);
}
