import { Suspense, useEffect } from 'react';
import { AppShell, Burger, Container, Drawer, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Link, Outlet } from 'react-router';
import { useAuth } from 'react-oidc-context';
import { breakpoints, PRODUCT_NAME, Role } from '@shk/contracts';
import { useSignOut, useUserProfile } from '../../api/session';
import { CookieConsentDialog } from '../../ui/consent';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { LogoMark } from '../../ui/icons';
import { marketingVideoFlag } from '../../ui/marketing-video';
import { Toaster } from '../../ui/toast';
import { menuFor } from '../menu';
import { IdsContextRules } from '../IdsContextRules';
import { CartWidget } from './CartWidget';
import { Footer } from './Footer';
import { MainMenu } from './MainMenu';
import { PartnerSwitch } from './PartnerSwitch';
import { ScrollToTop } from './ScrollToTop';
import classes from './AppLayout.module.css';

const DESKTOP_QUERY = `(min-width: ${breakpoints.mobilePx}px)`;

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
            <Group gap="md" wrap="nowrap">
              {isDesktop && <PartnerSwitch profile={user} />}
              {user.role === Role.Buyer && <CartWidget />}
            </Group>
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

      {withMenu && !isDesktop && user && (
        <Drawer opened={drawerOpened} onClose={drawer.close} title={PRODUCT_NAME} size="xs" padding="md">
          <Stack gap="lg">
            <PartnerSwitch profile={user} align="left" />
            <MainMenu items={menu} orientation="vertical" onNavigate={drawer.close} onSignOut={() => void signOut()} />
          </Stack>
        </Drawer>
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
