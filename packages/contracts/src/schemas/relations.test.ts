import { describe, expect, it } from 'vitest';
import { limits } from '../limits.ts';
import { CreateRelationRequest, relationRequestFields } from './relations.ts';

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : result.error!.issues[0].message;

describe('relationship request fields (one rule for the API and the web forms)', () => {
  it('requires the customer number and limits it', () => {
    expect(message(relationRequestFields.supplierCustomerNumber.safeParse('  '))).toBe('Pflichtfeld');
    expect(
      message(relationRequestFields.supplierCustomerNumber.safeParse('x'.repeat(limits.supplierCustomerNumber + 1))),
    ).toBe(`Maximal ${limits.supplierCustomerNumber} Zeichen`);
  });

  it('checks name, e-mail, phone and message with the same limits as the API', () => {
    expect(message(relationRequestFields.contactEmail.safeParse('kein-mail'))).toBe(
      'Bitte überprüfen Sie Ihre Eingabe.',
    );
    expect(relationRequestFields.contactName.safeParse('x'.repeat(limits.relationContactName + 1)).success).toBe(false);
    const tooLong = {
      supplierBpNumber: '200001',
      supplierCustomerNumber: 'K-1',
      message: 'x'.repeat(limits.relationMessage + 1),
    };
    expect(CreateRelationRequest.safeParse(tooLong).success).toBe(false);
    expect(relationRequestFields.message.safeParse('x'.repeat(limits.relationMessage + 1)).success).toBe(false);
  });
});
