import { api } from '../../api/client';
import { unwrap } from '../../api/problem';
import { usePartnerQuery } from '../../api/session';
import type { BusinessPartner } from '../../api/types';

/** Company data of the current business partner (cached per partner). */
export function useCurrentBusinessPartner(enabled: boolean) {
  return usePartnerQuery<BusinessPartner>(
    ['businessPartners', 'current'],
    async () => unwrap(await api.GET('/v1/BusinessPartners/Current')),
    { enabled },
  );
}
