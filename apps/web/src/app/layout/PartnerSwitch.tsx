import { Button, Loader, Menu, Stack, Text } from '@mantine/core';
import { messages, roleLabels } from '@shk/contracts';
import { useSwitchPartner } from '../../api/session';
import type { UserProfile } from '../../api/types';
import { toast } from '../../ui/toast';
import { CheckIcon, ChevronDownIcon } from '../../ui/icons';
import classes from './PartnerSwitch.module.css';

/**
 * The current business partner's name with a dropdown to switch (options 'number name'). Disabled with
 * fewer than two partners and inside a procurement system (IDS). Without a partner: e-mail and role.
 */
export function PartnerSwitch({ profile, align = 'right' }: { profile: UserProfile; align?: 'left' | 'right' }) {
  const stackAlign = align === 'right' ? 'flex-end' : 'flex-start';
  const switchPartner = useSwitchPartner();
  const partners = profile.availableBusinessPartners;

  if (!profile.currentBpNumber) {
    return (
      <Stack gap={0} data-testid="current-user" align={stackAlign}>
        <Text size="sm" fw={600}>
          {profile.email}
        </Text>
        <Text size="xs" c="dimmed">
          {roleLabels[profile.role]}
        </Text>
      </Stack>
    );
  }

  const canSwitch = partners.length >= 2 && !profile.idsContextId;
  const currentName = profile.currentBpName ?? profile.currentBpNumber;
  const choose = (bpNumber: string) => {
    if (bpNumber === profile.currentBpNumber) return;
    switchPartner.mutate(bpNumber, { onError: () => toast.error(messages.genericRetry) });
  };

  return (
    <Menu position={align === 'right' ? 'bottom-end' : 'bottom-start'} shadow="md" width={340} disabled={!canSwitch}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          disabled={!canSwitch}
          rightSection={
            switchPartner.isPending ? <Loader size="xs" /> : canSwitch ? <ChevronDownIcon size={16} /> : null
          }
          data-testid="partner-switch"
          classNames={{ root: classes.trigger, label: classes.label }}
          data-align={align}
        >
          <Stack gap={0} align={stackAlign}>
            <Text size="xs" c="dimmed" component="span">
              Geschäftspartner
            </Text>
            {/* The accessible name is the visible text, the two lines separated by a space (no aria-label that would
                differ from it: axe's label-content-name-mismatch). */}{' '}
            <Text size="sm" fw={600} c="var(--mantine-color-text)" component="span" data-testid="current-partner">
              {currentName}
            </Text>
          </Stack>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Geschäftspartner wechseln</Menu.Label>
        {partners.map((partner) => (
          <Menu.Item
            key={partner.number}
            onClick={() => choose(partner.number)}
            rightSection={partner.number === profile.currentBpNumber ? <CheckIcon size={16} /> : null}
            aria-current={partner.number === profile.currentBpNumber || undefined}
          >
            {partner.number} {partner.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
