import { useEffect } from 'react';
import { PRODUCT_NAME } from '@shk/contracts';

/** 'SHK-Bestellportal | Mein Profil' */
export const documentTitle = (pageTitle?: string) => (pageTitle ? `${PRODUCT_NAME} | ${pageTitle}` : PRODUCT_NAME);

/** Sets the browser tab title while the calling page is shown. */
export function usePageTitle(pageTitle: string | undefined) {
  useEffect(() => {
    document.title = documentTitle(pageTitle);
  }, [pageTitle]);
}
