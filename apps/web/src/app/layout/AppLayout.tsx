import { lazy, Suspense, useEffect, useState } from 'react';
import { AppShell, Burger, Container, Group, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link, Outlet } from 'react-router';
import { useAuth } from '../../api/auth';
import { breakpoints, PRODUCT_NAME, Role } from '@shk/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { prefetchCarts } from '../../api/carts';
import { useSignOut, useUserProfile } from '../../api/session';
import type { UserProfile } from '../../api/types';
import { CookieConsentDialog } from '../../ui/consent/CookieConsentDialog';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { LogoMark } from '../../ui/icons';
import { marketingVideoFlag } from '../../ui/marketing-video';
import { Toaster } from '../../ui/toast';
import { menuFor } from '../menu';
import { Footer } from './Footer';
import { MainMenu } from './MainMenu';
import { ScrollToTop } from './ScrollToTop';
import classes from './AppLayout.module.css';

/*
 * Parts of the shell not every page view needs are loaded on demand, so the first page loads only the header,
 * footer and router (the initial JS stays ≤ 150 kB compressed): the IDS context rules (only in a procurement system),
 * the partner switch (Menu), the cart widget (Popover) and the mobile drawer (opened by the burger). The cookie notice
 * is not among them: a first visitor's page paints with it (loaded on demand, its text was the late LCP element).
 */
const IdsContextRules = lazy(() => import('../IdsContextRules').then((m) => ({ default: m.IdsContextRules })));
const PartnerSwitch = lazy(() => import('./PartnerSwitch').then((m) => ({ default: m.PartnerSwitch })));
const loadCartWidget = () => import('./CartWidget').then((m) => ({ default: m.CartWidget }));
const CartWidget = lazy(loadCartWidget);
const MobileMenu = lazy(() => import('./MobileMenu').then((m) => ({ default: m.MobileMenu })));

const DESKTOP_QUERY = `(min-width: ${breakpoints.mobilePx}px)`;

/**
 * Starts loading the header parts this user sees (the buyer's cart widget and its cart list) as soon as the profile is
 * known (main.tsx), so their code and data arrive with the page's instead of being requested after the first render.
 */
export function preloadHeaderOf(profile: UserProfile, queryClient: QueryClient): void {
  if (profile.role !== Role.Buyer) return;
  void loadCartWidget().catch(() => undefined);
  void prefetchCarts(queryClient, profile);
}

/**
 * The shell: header (brand, partner switch, cart widget, role menu), page, footer. Below 1200 px the
 * menu moves into a drawer behind a burger button.
 */
export function AppLayout() {
  const auth = useAuth();
  const profile = useUserProfile();
  const signOut = useSignOut();
  const isDesktop = useMediaQuery(DESKTOP_QUERY, true, { getInitialValueInEffect: false });
  const [drawerOpened, drawer] = useDisclosure(false);
  // The drawer's code is fetched when the burger is first pressed and stays mounted (closing animates).
  const [drawerUsed, setDrawerUsed] = useState(false);
  useEffect(() => {
    if (drawerOpened) setDrawerUsed(true);
  }, [drawerOpened]);
  // The marketing-video-shown flag lives in the session and is cleared when not authenticated (spec).
  const signedOut = !auth.isLoading && !auth.isAuthenticated;
  useEffect(() => {
    if (signedOut) marketingVideoFlag.clear();
  }, [signedOut]);

  const user = auth.isAuthenticated && profile.isSuccess ? profile.data : null;
  const menu = user ? menuFor({ role: user.role, inIdsContext: Boolean(user.idsContextId) }) : [];
  // Every signed-in user gets a menu, if only 'Abmelden' (role None).
  const withMenu = user !== null;
  const headerHeight = withMenu && isDesktop ? 112 : 64;

  return (
    <AppShell header={{ height: headerHeight }} padding={0}>
      <AppShell.Header className={classes.header}>
        <Container size="xl" h={64} className={classes.topRow}>
          <Group gap="sm" wrap="nowrap">
            {withMenu && !isDesktop && (
              <Burger opened={drawerOpened} onClick={drawer.toggle} aria-label="Menü öffnen" size="sm" />
            )}
            <UnstyledButton
              component={Link}
              to="/"
              className={classes.brand}
              aria-label={`${PRODUCT_NAME} – Startseite`}
            >
              <LogoMark />
              <Text fw={700} size="lg" visibleFrom="xs">
                {PRODUCT_NAME}
              </Text>
            </UnstyledButton>
          </Group>
          {user && (
            <Suspense fallback={null}>
              <Group gap="md" wrap="nowrap">
                {isDesktop && <PartnerSwitch profile={user} />}
                {user.role === Role.Buyer && <CartWidget />}
              </Group>
            </Suspense>
          )}
        </Container>
        {withMenu && isDesktop && (
          <div className={classes.menuRow}>
            <Container size="xl" h="100%">
              <MainMenu items={menu} orientation="horizontal" onSignOut={() => void signOut()} />
            </Container>
          </div>
        )}
      </AppShell.Header>

      {withMenu && !isDesktop && user && drawerUsed && (
        <Suspense fallback={null}>
          <MobileMenu
            opened={drawerOpened}
            onClose={drawer.close}
            profile={user}
            items={menu}
            onSignOut={() => void signOut()}
          />
        </Suspense>
      )}

      <AppShell.Main className={classes.main}>
        <Container size="xl" py="xl" className={classes.content}>
          <Suspense fallback={<FullPageLoader />}>
            {user?.idsContextId && <IdsContextRules />}
            <Outlet />
          </Suspense>
        </Container>
        <Footer />
      </AppShell.Main>

      <ScrollToTop />
      <Toaster />
      <CookieConsentDialog />
    </AppShell>
  );
}
