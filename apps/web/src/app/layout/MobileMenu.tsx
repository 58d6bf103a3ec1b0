import { Drawer, Stack } from '@mantine/core';
import { PRODUCT_NAME } from '@shk/contracts';
import type { UserProfile } from '../../api/types';
import type { MenuItem } from '../menu';
import { MainMenu } from './MainMenu';
import { PartnerSwitch } from './PartnerSwitch';

interface MobileMenuProps {
  opened: boolean;
  onClose: () => void;
  profile: UserProfile;
  items: readonly MenuItem[];
  onSignOut: () => void;
}

/** Below 1200 px: partner switch and the role's menu in a drawer behind the burger button. */
export function MobileMenu({ opened, onClose, profile, items, onSignOut }: MobileMenuProps) {
  return (
    <Drawer opened={opened} onClose={onClose} title={PRODUCT_NAME} size="xs" padding="md">
      <Stack gap="lg">
        <PartnerSwitch profile={profile} align="left" />
        <MainMenu items={items} orientation="vertical" onNavigate={onClose} onSignOut={onSignOut} />
      </Stack>
    </Drawer>
  );
}
