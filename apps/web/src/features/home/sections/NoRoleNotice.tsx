import { Alert, Anchor } from '@mantine/core';
import { supportContact } from '@shk/contracts';

/** Users without a role see why the portal is empty for them and whom to ask. */
export function NoRoleNotice() {
  return (
    <Alert color="yellow" variant="light" title="Noch keine Berechtigung">
      Ihrem Benutzerkonto ist noch keine Rolle zugewiesen. Bitte wenden Sie sich an den Support:{' '}
      <Anchor href={`mailto:${supportContact.email}`}>{supportContact.email}</Anchor>.
    </Alert>
  );
}
