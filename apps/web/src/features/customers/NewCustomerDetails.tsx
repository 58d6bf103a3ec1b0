import { Badge, Button, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import {
  newCustomerCountryNames,
  newCustomerMessages,
  newCustomerPartnerLabels,
  RelationStatus,
  timings,
  type NewCustomerPartner,
} from '@shk/contracts';
import type { Relation } from '../../api/relations';
import { FieldList } from '../../ui/FieldList';

/** A request without customer number that the seller still has to set up as a customer. */
export const isPendingNewCustomer = (relation: Relation) =>
  relation.newCustomerPartner !== null && relation.relationStatusId === RelationStatus.CustomerIdRequested;

/** 'Neukunde' beside the customer's name in 'Meine Kunden'. */
export function NewCustomerBadge() {
  return (
    <Badge variant="light" color="orange" radius="sm" tt="none" data-testid="new-customer-badge">
      {newCustomerMessages.badge}
    </Badge>
  );
}

type PartnerKey = keyof typeof newCustomerPartnerLabels;

/** The value of a company-data field as the clerk reads it (the country by its German name). */
function shownValue(partner: NewCustomerPartner, key: PartnerKey): string | null {
  const value = partner[key] ?? null;
  if (key === 'country' && value) return newCustomerCountryNames[value] ?? value;
  return value;
}

/** The company data as text lines ('Label: Wert'), for pasting into the wholesaler's own system. */
function partnerText(partner: NewCustomerPartner): string {
  return (Object.keys(newCustomerPartnerLabels) as PartnerKey[])
    .map((key) => `${newCustomerPartnerLabels[key]}: ${shownValue(partner, key) ?? '–'}`)
    .join('\n');
}

/**
 * What the buyer entered with a request without customer number: its company data (as confirmed in the add-supplier
 * dialog) and its contact person, so the clerk can create the customer in the ERP and then enter the customer number.
 * Renders nothing for a relation without such data.
 */
export function NewCustomerDetails({ relation }: { relation: Relation }) {
  const partner = relation.newCustomerPartner;
  if (!partner) return null;
  const contact = relation.newCustomerContact;
  const { contactLabels } = newCustomerMessages;
  return (
    <Paper withBorder p="sm" radius="sm" data-testid="new-customer-details">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600}>{newCustomerMessages.partnerTitle}</Text>
          <CopyButton value={partnerText(partner)} timeout={timings.copyConfirmationMs}>
            {({ copied, copy }) => (
              <Button variant="subtle" size="compact-xs" color={copied ? 'teal' : 'gray'} onClick={copy}>
                {copied ? 'Kopiert' : 'Firmendaten kopieren'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="xs" c="dimmed">
          {newCustomerMessages.partnerHint}
        </Text>
        <FieldList
          labelWidth={170}
          fields={(Object.keys(newCustomerPartnerLabels) as PartnerKey[]).map((key) => ({
            label: newCustomerPartnerLabels[key],
            value: shownValue(partner, key),
          }))}
        />
        {contact && (
          <>
            <Text fw={600} mt="xs">
              {newCustomerMessages.contactTitle}
            </Text>
            <FieldList
              labelWidth={170}
              fields={(Object.keys(contactLabels) as (keyof typeof contactLabels)[]).map((key) => ({
                label: contactLabels[key],
                value: contact[key],
              }))}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
