import { useEffect, useRef } from 'react';
import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { cartMessages, ID_SEPARATOR, messages, Role, timings } from '@shk/contracts';
import { cartsApi, invalidateCarts } from '../../api/carts';
import { configuratorApi } from '../../api/configurator';
import { problemTitle } from '../../api/problem';
import { useUserProfile } from '../../api/session';
import { trackEcommerce } from '../../lib/analytics';
import { Page } from '../../ui/Page';
import { toast } from '../../ui/toast';

/** One request per opened URL, even when React runs the effect twice (StrictMode) or the page re-renders. */
const handled = new Set<string>();

/**
 * /add-to-cart?articleNumber=…&supplierId=…&partner=…&expires=…&signature=… (spec §4, docs/configurator.md):
 * the kitchen configurator's return. The API first verifies the configurator's signature; an unsigned,
 * tampered, expired or foreign return is refused with the API's German reason and nothing is added.
 * Then one piece of the supplier's article with the fixed configurator comment goes into the default cart
 * and that cart opens; any other failure shows the generic error toast and goes home. A seller gets
 * 'Diese Aktion ist für Verkäufer nicht verfügbar.' (routes.tsx).
 */
export default function AddToCartRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useUserProfile();
  const started = useRef(false);
  const articleNumber = params.get('articleNumber')?.trim() ?? '';
  const supplierId = params.get('supplierId')?.trim() ?? '';
  const partner = params.get('partner')?.trim() || undefined;
  const expires = params.get('expires')?.trim() || undefined;
  const signature = params.get('signature')?.trim() || undefined;
  const role = profile.data?.role;
  const withoutArticle = !articleNumber || !supplierId;

  useEffect(() => {
    if (role === undefined || started.current || withoutArticle) return;
    started.current = true;
    // Other roles never get here: the route guard redirects them (a seller with the spec's toast).
    if (role !== Role.Buyer) {
      navigate('/', { replace: true });
      return;
    }
    const fail = () => {
      toast.error(messages.genericRetry);
      navigate('/', { replace: true });
    };
    const key = `${window.history.state?.key ?? ''}|${supplierId}|${articleNumber}`;
    if (handled.has(key)) return;
    handled.add(key);
    const productInstanceId = `${supplierId}${ID_SEPARATOR}${articleNumber}`;
    const add = () =>
      cartsApi
        .addItem({
          productInstanceId,
          articleNumber,
          supplierBusinessPartnerNo: supplierId,
          quantity: 1,
          comment: cartMessages.configuratorComment,
        })
        .then(async (created) => {
          trackEcommerce('add_to_cart', {
            items: [
              { item_id: created.productInstanceId, item_name: articleNumber, affiliation: supplierId, quantity: 1 },
            ],
          });
          toast.success(cartMessages.addToCartSuccess, { durationMs: timings.toastCartAddedMs });
          await invalidateCarts(queryClient);
          navigate(`/warenkorb/${created.cartId}`, { replace: true });
        })
        .catch(fail);
    // Refused returns show the API's reason ('… nicht signiert …', '… abgelaufen …'); nothing is added.
    configuratorApi.verifyReturn({ articleNumber, supplierId, partner, expires, signature }).then(add, (error) => {
      toast.error(problemTitle(error, messages.genericRetry));
      navigate('/', { replace: true });
    });
  }, [role, withoutArticle, articleNumber, supplierId, partner, expires, signature, navigate, queryClient]);

  // Opened by hand or from a bookmark: say what the address is for instead of a bare error.
  if (withoutArticle) {
    return (
      <Page title="Artikel hinzufügen">
        <Alert color="blue" title="Kein Artikel übergeben" data-testid="add-to-cart-empty">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">{messages.addToCartWithoutArticle}</Text>
            <Button component={Link} to="/" variant="light">
              Zur Startseite
            </Button>
          </Stack>
        </Alert>
      </Page>
    );
  }

  return (
    <Page title="Artikel hinzufügen">
      <Center py="xl">
        <Stack align="center" gap="sm">
          <Loader aria-label="Artikel wird hinzugefügt" />
          <Text c="dimmed">Der Artikel wird in den Warenkorb gelegt …</Text>
        </Stack>
      </Center>
    </Page>
  );
}
