import { lazy, Suspense } from 'react';
import { Role } from '@shk/contracts';
import type { UserProfile } from '../../../api/types';
import { useIdle } from '../../../ui/when-idle';
import { ALL_WITH_FUNCTION, SEARCHERS, type HomeSection, type HomeSlots } from './section-types';
import { NoRoleNotice } from './NoRoleNotice';
import { PromotionSlideshow } from './PromotionSlideshow';
import { SearchStage } from './SearchStage';

export type { HomeSection, HomeSlots } from './section-types';

/**
 * The sections below the first screen (suppliers, categories, recently viewed, shortcuts …): their code and data are
 * requested once the first screen (greeting, search, slideshow) has painted, so they neither delay its paint nor
 * render in the same long task.
 */
const MoreHomeSections = lazy(() => import('./more'));

/**
 * Until they are there, a screen's height is kept free for the roles that have them (categories at least): the
 * footer starts below the fold and is not pushed down when they arrive (layout shift).
 */
function BelowTheFold({ profile, slots }: { profile: UserProfile; slots: HomeSlots }) {
  const idle = useIdle();
  const reserved = (ALL_WITH_FUNCTION as readonly Role[]).includes(profile.role) ? (
    <div style={{ minHeight: '100dvh' }} data-testid="home-more-loading" />
  ) : null;
  if (!idle) return reserved;
  return (
    <Suspense fallback={reserved}>
      <MoreHomeSections profile={profile} slots={slots} />
    </Suspense>
  );
}

export const homeSections: readonly HomeSection[] = [
  { key: 'no-role', roles: [Role.None], render: () => <NoRoleNotice /> },
  { key: 'search', roles: SEARCHERS, render: () => <SearchStage /> },
  { key: 'slideshow', roles: ALL_WITH_FUNCTION, render: (profile) => <PromotionSlideshow role={profile.role} /> },
  {
    key: 'more',
    roles: [Role.None, ...ALL_WITH_FUNCTION],
    render: (profile, slots) => <BelowTheFold profile={profile} slots={slots} />,
  },
];
