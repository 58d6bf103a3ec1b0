import { useEffect } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { z } from 'zod';
import { relationMessages, relationRequestFields } from '@shk/contracts';
import { useSetCustomerNumber, type Relation } from '../../api/relations';
import { toast } from '../../ui/toast';

const CustomerNumberForm = z.object({ supplierCustomerNumber: relationRequestFields.supplierCustomerNumber });
type CustomerNumberForm = z.infer<typeof CustomerNumberForm>;

/** Buyer: the supplier asked for the customer number ('Kundennummer angefragt'); entering it sends the request. */
export function CustomerNumberDialog({ relation, onClose }: { relation: Relation | null; onClose: () => void }) {
  const form = useForm<CustomerNumberForm>({
    resolver: zodResolver(CustomerNumberForm),
    mode: 'onTouched',
    defaultValues: { supplierCustomerNumber: '' },
  });
  const save = useSetCustomerNumber();
  const { errors } = form.formState;

  useEffect(() => {
    if (relation) form.reset({ supplierCustomerNumber: relation.supplierCustomerNumber ?? '' });
  }, [relation, form]);

  const submit = form.handleSubmit(async ({ supplierCustomerNumber }) => {
    if (!relation) return;
    try {
      await save.mutateAsync({ id: relation.id, customerNumber: supplierCustomerNumber });
      toast.success(relationMessages.customerNumberSuccess);
      onClose();
    } catch {
      toast.error(relationMessages.customerNumberFailure);
    }
  });

  return (
    <Modal opened={relation !== null} onClose={onClose} title="Kundennummer eingeben" centered>
      {relation && (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <Stack gap="md">
            <Text size="sm">
              {`${relation.supplier.name} hat Ihre Kundennummer angefragt. Bitte geben Sie Ihre Kundennummer bei diesem Lieferanten ein.`}
            </Text>
            <TextInput
              label="Kundennummer"
              withAsterisk
              data-autofocus
              error={errors.supplierCustomerNumber?.message}
              {...form.register('supplierCustomerNumber')}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Abbrechen
              </Button>
              <Button type="submit" loading={save.isPending}>
                Kundennummer senden
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
