import { profileApi } from '../../api/profile';
import { usePartnerQuery } from '../../api/session';
import type { BusinessPartner } from '../../api/types';

/** Company data of the current business partner (cached per partner). */
export function useCurrentBusinessPartner(enabled: boolean) {
  return usePartnerQuery<BusinessPartner>(['businessPartners', 'current'], profileApi.currentBusinessPartner, {
    enabled,
  });
}
