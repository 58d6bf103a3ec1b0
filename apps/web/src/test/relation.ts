import { RelationStatus } from '@shk/contracts';
import type { Relation } from '../api/relations';

/** A supplier–customer relation as the API answers it: Sanitär Müller (100001) asks Großhandel Nord (200001). */
export const testRelation = (changes: Partial<Relation> = {}): Relation => ({
  id: 17,
  supplier: {
    name: 'Großhandel Nord',
    bpNumber: '200001',
    officialCompanyName: null,
    address: { street: null, houseNumber: null, postalCode: null, city: null, country: null },
    website: null,
    supplierStatusId: 1,
    requiredOnboardingForm: false,
    organisationType: 1,
  },
  buyer: {
    name: 'Sanitär Müller',
    officialCompanyName: 'Sanitär Müller GmbH',
    bpNumber: '100001',
    email: 'einkauf@example.com',
    phoneNumber: null,
    faxNumber: null,
    website: null,
    taxNumber: null,
    vatId: 'DE123456789',
  },
  relationStatusId: RelationStatus.AwaitingConfirmation,
  supplierCustomerNumber: null,
  sharedCustomerId: null,
  comments: null,
  isActive: true,
  dateCreated: '2026-11-02T09:00:00Z',
  dateModified: '2026-11-02T09:00:00Z',
  supplierItekIntegrationInfo: null as unknown as Relation['supplierItekIntegrationInfo'],
  newCustomerPartner: null,
  newCustomerContact: null,
  ...changes,
});
