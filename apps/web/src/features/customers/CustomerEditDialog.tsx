import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import { z } from 'zod';
import { limits, messages, RelationComments, RelationStatus, relationMessages } from '@shk/contracts';
import { useUpdateRelation, type Relation } from '../../api/relations';
import { problemTitle } from '../../api/problem';
import { FieldList } from '../../ui/FieldList';
import { RelationStatusBadge, relationStatusLabel } from '../../ui/relation-status';
import { toast } from '../../ui/toast';
import { isPendingNewCustomer, NewCustomerBadge, NewCustomerDetails } from './NewCustomerDetails';

/** Status choices of the seller per current status (spec §2 'My customers', §4). */
function statusChoices(current: number): number[] {
  switch (current) {
    case RelationStatus.AwaitingConfirmation:
    case RelationStatus.CustomerIdRequested:
      return [current, RelationStatus.Approved, RelationStatus.Rejected];
    case RelationStatus.Rejected:
      return [RelationStatus.Rejected, RelationStatus.Approved];
    default:
      // Approved: removal goes through 'Kunden entfernen'; blocked and invalid are staff matters.
      return [current];
  }
}

const EditForm = z
  .object({
    relationStatusId: z.number().int(),
    comments: RelationComments,
    supplierCustomerNumber: z.string(),
    /** Whether the reason is required (rejecting a request). */
    reasonRequired: z.boolean(),
    /** A stored customer number can be changed, not removed. */
    hadNumber: z.boolean(),
  })
  .superRefine((value, ctx) => {
    const number = value.supplierCustomerNumber.trim();
    const needsNumber = value.relationStatusId === RelationStatus.Approved || value.hadNumber;
    if (needsNumber && !number)
      ctx.addIssue({ code: 'custom', path: ['supplierCustomerNumber'], message: messages.required });
    if (number.length > limits.supplierCustomerNumber) {
      ctx.addIssue({
        code: 'custom',
        path: ['supplierCustomerNumber'],
        message: messages.maxChars(limits.supplierCustomerNumber),
      });
    }
    if (value.reasonRequired && !value.comments.trim())
      ctx.addIssue({ code: 'custom', path: ['comments'], message: messages.required });
  });
type EditForm = z.infer<typeof EditForm>;

type Confirmation = { kind: 'save'; values: EditForm; reasons: string[] } | { kind: 'remove' };

interface CustomerEditDialogProps {
  relation: Relation | null;
  onClose: () => void;
}

/** The buyer's master data and the relationship's current status. */
function CustomerFacts({ relation }: { relation: Relation }) {
  return (
    <FieldList
      labelWidth={190}
      fields={[
        { label: 'Kundenname', value: relation.buyer.name },
        { label: 'Offizieller Firmenname', value: relation.buyer.officialCompanyName },
        { label: 'Geschäftspartnernummer', value: relation.buyer.bpNumber },
        { label: 'USt-IdNr.', value: relation.buyer.vatId },
        { label: 'E-Mail', value: relation.buyer.email },
        { label: 'Telefon', value: relation.buyer.phoneNumber },
        {
          label: 'Aktueller Status',
          value: (
            <Group gap={6} wrap="wrap">
              <RelationStatusBadge statusId={relation.relationStatusId} />
              {isPendingNewCustomer(relation) && <NewCustomerBadge />}
            </Group>
          ),
        },
      ]}
    />
  );
}

/** The status to set: a choice where the relationship allows more than one, otherwise the current one, read-only. */
function StatusField({
  relation,
  choices,
  value,
  onChange,
}: {
  relation: Relation;
  choices: number[];
  value: number;
  onChange: (statusId: number) => void;
}) {
  if (choices.length > 1)
    return (
      <Select
        label="Status"
        data={choices.map((id) => ({ value: String(id), label: relationStatusLabel(id) }))}
        value={String(value)}
        onChange={(chosen) => chosen && onChange(Number(chosen))}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
    );
  return <TextInput label="Status" value={relationStatusLabel(relation.relationStatusId)} readOnly variant="filled" />;
}

/** 'Kunden entfernen' asks for a reason; the buyer sees it as a tooltip. */
function RemoveReason({
  customerName,
  reason,
  error,
  onChange,
}: {
  customerName: string;
  reason: string;
  error: string | null;
  onChange: (reason: string) => void;
}) {
  return (
    <>
      <Text>{`Möchten Sie ${customerName} wirklich als Kunden entfernen? Der Kunde kann danach nicht mehr bei Ihnen bestellen.`}</Text>
      <Textarea
        label="Begründung"
        description="Die Begründung wird dem Kunden angezeigt."
        withAsterisk
        required
        autosize
        minRows={2}
        maxRows={6}
        maxLength={limits.relationComments}
        value={reason}
        error={error}
        onChange={(event) => onChange(event.currentTarget.value)}
        data-autofocus
      />
    </>
  );
}

/** 'Kunden entfernen' (approved customers only), 'Abbrechen' and 'Speichern'. */
function EditActions({
  onRemove,
  onCancel,
  saving,
}: {
  onRemove: (() => void) | null;
  onCancel: () => void;
  saving: boolean;
}) {
  return (
    <Group justify="space-between" gap="sm">
      {onRemove ? (
        <Button color="red" variant="light" onClick={onRemove}>
          Kunden entfernen
        </Button>
      ) : (
        <span />
      )}
      <Group gap="sm">
        <Button variant="default" onClick={onCancel}>
          Abbrechen
        </Button>
        <Button type="submit" loading={saving}>
          Speichern
        </Button>
      </Group>
    </Group>
  );
}

/**
 * The seller's edit modal: status, comments (rejection reason) and customer number. Rejecting asks for a
 * reason and a confirmation; a changed customer number asks for confirmation; an approved customer can be
 * removed ('Kunden entfernen' → rejected) after a confirmation with a required reason.
 */
export function CustomerEditDialog({ relation, onClose }: CustomerEditDialogProps) {
  const update = useUpdateRelation();
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  // 'Kunden entfernen' asks for a reason in its confirmation dialog; the buyer sees it as a tooltip.
  const [removeReason, setRemoveReason] = useState('');
  const [removeReasonError, setRemoveReasonError] = useState<string | null>(null);
  const form = useForm<EditForm>({
    resolver: zodResolver(EditForm),
    mode: 'onTouched',
    defaultValues: {
      relationStatusId: 1,
      comments: '',
      supplierCustomerNumber: '',
      reasonRequired: false,
      hadNumber: false,
    },
  });
  const { errors } = form.formState;
  const statusId = form.watch('relationStatusId');

  useEffect(() => {
    if (!relation) return;
    setConfirmation(null);
    form.reset({
      relationStatusId: relation.relationStatusId,
      comments: relation.comments ?? '',
      supplierCustomerNumber: relation.supplierCustomerNumber ?? '',
      reasonRequired: false,
      hadNumber: Boolean(relation.supplierCustomerNumber),
    });
  }, [relation, form]);

  // Rejecting a request (not removing an approved customer) needs a reason.
  const rejecting =
    relation !== null && statusId === RelationStatus.Rejected && relation.relationStatusId !== RelationStatus.Rejected;
  useEffect(() => {
    form.setValue('reasonRequired', rejecting);
    if (!rejecting) form.clearErrors('comments');
  }, [rejecting, form]);

  if (!relation)
    return (
      <Modal opened={false} onClose={onClose} title="Kunde bearbeiten">
        {null}
      </Modal>
    );
  const customerName = relation.buyer.name;
  const choices = statusChoices(relation.relationStatusId);
  const isApproved = relation.relationStatusId === RelationStatus.Approved;

  const send = async (values: {
    relationStatusId: number;
    comments: string | null;
    supplierCustomerNumber: string | null;
  }) => {
    try {
      await update.mutateAsync({
        id: relation.id,
        body: {
          relationStatusId: values.relationStatusId as 1 | 2 | 3 | 4 | 6 | 7,
          comments: values.comments,
          supplierCustomerNumber: values.supplierCustomerNumber,
        },
      });
      toast.success(relationMessages.statusUpdateSuccess(customerName));
      setConfirmation(null);
      onClose();
    } catch (error) {
      toast.error(problemTitle(error, relationMessages.statusUpdateFailure));
      setConfirmation(null);
    }
  };

  const save = (values: EditForm) =>
    send({
      relationStatusId: values.relationStatusId,
      comments: values.comments.trim() || null,
      supplierCustomerNumber: values.supplierCustomerNumber.trim() || null,
    });

  const submit = form.handleSubmit((values) => {
    const reasons: string[] = [];
    if (values.relationStatusId === RelationStatus.Rejected && relation.relationStatusId !== RelationStatus.Rejected) {
      reasons.push(`Möchten Sie die Anfrage von ${customerName} wirklich ablehnen?`);
    }
    const before = relation.supplierCustomerNumber ?? '';
    const after = values.supplierCustomerNumber.trim();
    if (before && after !== before) reasons.push(`Möchten Sie die Kundennummer von „${before}“ in „${after}“ ändern?`);
    if (reasons.length) setConfirmation({ kind: 'save', values, reasons });
    else void save(values);
  });

  return (
    <>
      <Modal
        opened={confirmation === null}
        onClose={onClose}
        title={`Kunde bearbeiten – ${customerName}`}
        size="lg"
        centered
      >
        <form noValidate onSubmit={(event) => void submit(event)}>
          <Stack gap="md">
            <CustomerFacts relation={relation} />
            <NewCustomerDetails relation={relation} />
            <StatusField
              relation={relation}
              choices={choices}
              value={statusId}
              onChange={(value) => form.setValue('relationStatusId', value, { shouldDirty: true })}
            />
            <TextInput
              label="Kundennummer"
              withAsterisk={statusId === RelationStatus.Approved || Boolean(relation.supplierCustomerNumber)}
              error={errors.supplierCustomerNumber?.message}
              {...form.register('supplierCustomerNumber')}
            />
            <Textarea
              label={rejecting ? 'Begründung' : 'Kommentar'}
              description={rejecting ? 'Die Begründung wird dem Kunden angezeigt.' : undefined}
              withAsterisk={rejecting}
              autosize
              minRows={2}
              maxRows={6}
              error={errors.comments?.message}
              {...form.register('comments')}
            />
            {relation.relationStatusId === RelationStatus.CustomerIdRequested && (
              <Alert variant="light" color="blue">
                Der Kunde hat noch keine Kundennummer. Tragen Sie die Kundennummer ein, um ihn freizugeben.
              </Alert>
            )}
            <EditActions
              onRemove={
                isApproved
                  ? () => {
                      setRemoveReason('');
                      setRemoveReasonError(null);
                      setConfirmation({ kind: 'remove' });
                    }
                  : null
              }
              onCancel={onClose}
              saving={update.isPending}
            />
          </Stack>
        </form>
      </Modal>

      <Modal opened={confirmation !== null} onClose={() => setConfirmation(null)} title="Bitte bestätigen" centered>
        <Stack gap="md">
          {confirmation?.kind === 'remove' ? (
            <>
              <RemoveReason
                customerName={customerName}
                reason={removeReason}
                error={removeReasonError}
                onChange={(reason) => {
                  setRemoveReason(reason);
                  if (reason.trim()) setRemoveReasonError(null);
                }}
              />
            </>
          ) : (
            confirmation?.reasons.map((reason) => <Text key={reason}>{reason}</Text>)
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmation(null)}>
              Zurück
            </Button>
            <Button
              color={
                confirmation?.kind === 'remove' ||
                (confirmation?.kind === 'save' && confirmation.values.relationStatusId === RelationStatus.Rejected)
                  ? 'red'
                  : undefined
              }
              loading={update.isPending}
              onClick={() => {
                if (confirmation?.kind === 'remove') {
                  const reason = removeReason.trim();
                  if (!reason) {
                    setRemoveReasonError(messages.required);
                    return;
                  }
                  void send({
                    relationStatusId: RelationStatus.Rejected,
                    comments: reason,
                    supplierCustomerNumber: null,
                  });
                } else if (confirmation?.kind === 'save') {
                  void save(confirmation.values);
                }
              }}
            >
              Bestätigen
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
