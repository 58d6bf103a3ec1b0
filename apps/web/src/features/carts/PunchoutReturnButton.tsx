import { useState } from 'react';
import { Button } from '@mantine/core';
import { punchoutTexts } from '@shk/contracts';
import { useAuth } from '../../api/auth';
import { cartMemory } from '../../api/cart-memory';
import { openIdsReturnPage, punchoutReturnPage } from '../../api/ids';
import { ApiError, problemTitle } from '../../api/problem';
import { toast } from '../../ui/toast';

/**
 * In a punchout session the cart is not ordered here: it goes into the procurement system's requisition. The
 * session ends (the API refuses its token from now on) and the browser opens the return page, which posts the form.
 */
export function PunchoutReturnButton({ empty }: { empty: boolean }) {
  const auth = useAuth();
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      const page = await punchoutReturnPage();
      toast.success(punchoutTexts.returned);
      cartMemory.clear();
      await auth.removeUser();
      openIdsReturnPage(page);
    } catch (error) {
      // A refusal with a reason (already returned, inspect only) says so; anything else may be tried again.
      toast.error(
        error instanceof ApiError && error.status === 409
          ? problemTitle(error, punchoutTexts.returnFailed)
          : punchoutTexts.returnFailed,
      );
      setBusy(false);
    }
  };
  return (
    <Button
      size="md"
      fullWidth
      onClick={() => void send()}
      loading={busy}
      disabled={busy || empty}
      data-testid="punchout-return"
    >
      {punchoutTexts.returnButton}
    </Button>
  );
}
