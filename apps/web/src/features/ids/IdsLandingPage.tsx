import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { User } from 'oidc-client-ts';
import { idsMessages } from '@shk/contracts';
import { exchangeIdsCode } from '../../api/ids';
import { loadClientConfig } from '../../api/auth-session';
import { createUserManager } from '../../api/user-manager';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { idsLandingTarget, jwtClaims } from './ids-landing';

/**
 * /ids?code=…: the craftsman program's entry lands here. The one-time code becomes an IDS session
 * (ADR 0002): the token response is stored where the SPA's OIDC client keeps its user, then the page
 * reloads at the action's target so the whole app starts inside the IDS context.
 */
export default function IdsLandingPage() {
  const [params] = useSearchParams();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    const code = params.get('code');
    if (started.current || !code) return;
    started.current = true;
    void (async () => {
      try {
        const tokens = await exchangeIdsCode(code);
        const userManager = createUserManager(await loadClientConfig());
        const claims = jwtClaims(tokens.identityToken);
        await userManager.storeUser(
          new User({
            access_token: tokens.accessToken,
            id_token: tokens.identityToken,
            token_type: tokens.tokenType,
            scope: tokens.scope,
            session_state: tokens.sessionState,
            expires_at: Math.floor(Date.now() / 1000) + tokens.expiresIn,
            profile: claims as unknown as User['profile'],
          }),
        );
        window.location.replace(idsLandingTarget(params));
      } catch {
        setFailed(true);
      }
    })();
  }, [params]);

  if (!params.get('code') || failed) {
    return (
      <Page title="IDS-Anmeldung">
        <Stack maw={640}>
          <Alert color="red" variant="light" title="Anmeldung nicht möglich" data-testid="ids-code-error">
            {idsMessages.codeInvalid} Bitte starten Sie den Vorgang erneut aus Ihrer Handwerkersoftware.
          </Alert>
          <Button component="a" href="/" variant="light" w="fit-content">
            Zur Startseite
          </Button>
        </Stack>
      </Page>
    );
  }
  return <FullPageLoader />;
}
