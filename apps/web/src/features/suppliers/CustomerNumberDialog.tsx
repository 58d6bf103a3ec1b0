import { TextInput } from '@mantine/core';
import { z } from 'zod';
import { relationMessages, relationRequestFields } from '@shk/contracts';
import { useSetCustomerNumber, type Relation } from '../../api/relations';
import { FormDialog, useSubmitForm } from '../../ui/form-dialog';

const CustomerNumberForm = z.object({ supplierCustomerNumber: relationRequestFields.supplierCustomerNumber });

/** Buyer: the supplier asked for the customer number ('Kundennummer angefragt'); entering it sends the request. */
export function CustomerNumberDialog({ relation, onClose }: { relation: Relation | null; onClose: () => void }) {
  const save = useSetCustomerNumber();
  const submitForm = useSubmitForm({
    schema: CustomerNumberForm,
    defaultValues: { supplierCustomerNumber: relation?.supplierCustomerNumber ?? '' },
    resetWhen: relation !== null,
    submit: async ({ supplierCustomerNumber }) => {
      if (relation) await save.mutateAsync({ id: relation.id, customerNumber: supplierCustomerNumber });
    },
    success: relationMessages.customerNumberSuccess,
    onSuccess: onClose,
    failure: { always: relationMessages.customerNumberFailure },
  });
  return (
    <FormDialog
      opened={relation !== null}
      onClose={onClose}
      title="Kundennummer eingeben"
      form={submitForm}
      submitLabel="Kundennummer senden"
      intro={
        relation &&
        `${relation.supplier.name} hat Ihre Kundennummer angefragt. Bitte geben Sie Ihre Kundennummer bei diesem Lieferanten ein.`
      }
    >
      <TextInput
        label="Kundennummer"
        withAsterisk
        data-autofocus
        error={submitForm.form.formState.errors.supplierCustomerNumber?.message}
        {...submitForm.form.register('supplierCustomerNumber')}
      />
    </FormDialog>
  );
}
