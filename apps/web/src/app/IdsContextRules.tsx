import { useEffect, useState } from 'react';
import { Affix, Button, Group, NumberInput, Paper, Text } from '@mantine/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../api/auth';
import { useQuery } from '@tanstack/react-query';
import { idsMessages } from '@shk/contracts';
import { catalogueApi } from '../api/catalogue';
import { idsReturnPage, openIdsReturnPage, useIdsContext } from '../api/ids';
import { toast } from '../ui/toast';

/** Spec §4: the 'adl' action (article deep link) disables the product search for the IDS session. */
const IDS_SEARCH_DISABLED = 'Die Produktsuche ist bei einem Artikel-Deeplink (IDS) nicht verfügbar.';

/** Rules of the IDS context that belong to the shell rather than to one page. */
export function IdsContextRules() {
  const { action, contextId } = useIdsContext();
  const location = useLocation();
  const navigate = useNavigate();
  const blocked = action === 'adl' && (location.pathname === '/suche' || location.pathname === '/aktion');
  useEffect(() => {
    if (!blocked) return;
    toast.info(IDS_SEARCH_DISABLED);
    navigate('/', { replace: true });
  }, [blocked, navigate]);
  if (action === 'as' && contextId && location.pathname === '/produkt') return <IdsSendPanel contextId={contextId} />;
  return null;
}

/** Action 'as': the product on screen goes back to the craftsman program (POST /v1/Ids/Send). */
function IdsSendPanel({ contextId }: { contextId: string }) {
  const auth = useAuth();
  const [params] = useSearchParams();
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  const [manufacturerId, manufacturerPid] = (params.get('id') ?? '').split('~');
  const articleNumber = params.get('articleNumber');
  const product = useQuery({
    queryKey: ['ids', 'send-product', manufacturerId, manufacturerPid, articleNumber],
    queryFn: () =>
      catalogueApi.productByManufacturerData(
        manufacturerId,
        manufacturerPid,
        articleNumber?.includes('~') ? articleNumber : null,
      ),
    enabled: Boolean(manufacturerId && manufacturerPid),
  });
  if (!product.data) return null;
  const send = async () => {
    setBusy(true);
    try {
      const page = await idsReturnPage(contextId, {
        productInstanceId: product.data.productInstanceId,
        quantity,
        manufacturerId: product.data.manufacturerId,
        manufacturerPid: product.data.manufacturerPid,
      });
      toast.success(idsMessages.success);
      await auth.removeUser();
      openIdsReturnPage(page);
    } catch {
      toast.error(idsMessages.sendFailed);
      setBusy(false);
    }
  };
  return (
    <Affix position={{ bottom: 24, right: 24 }}>
      <Paper withBorder shadow="md" p="md" radius="md" data-testid="ids-send">
        <Text size="sm" mb="xs">
          {product.data.productName} an Ihre Handwerkersoftware senden
        </Text>
        <Group align="flex-end" gap="sm">
          <NumberInput
            label="Menge"
            min={0}
            decimalScale={3}
            value={quantity}
            onChange={(v) => setQuantity(typeof v === 'number' ? v : Number(v) || 0)}
            w={120}
          />
          <Button onClick={() => void send()} loading={busy} disabled={!(quantity > 0)}>
            An Software senden
          </Button>
        </Group>
      </Paper>
    </Affix>
  );
}
