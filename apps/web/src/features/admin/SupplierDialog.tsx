import { Alert, Anchor, Divider, Loader, Modal, Stack, Tabs } from '@mantine/core';
import { Link } from 'react-router';
import { problemToast, supplierMessages } from '@shk/contracts';
import { ApiError } from '../../api/problem';
import { toast } from '../../ui/toast';
import { useSaveSupplier, useSupplier } from '../../api/suppliers';
import { SupplierForm } from './SupplierForm';
import { SupplierFiles } from './SupplierFiles';
import { SupplierChanges } from './SupplierChanges';
import { InboundCredentialsSection } from './InboundCredentialsSection';

export interface SupplierDialogTarget {
  bp: string;
  name: string;
  isNew: boolean;
}

/** Edit (Administrator) or read-only details (Support, PlatformOperator) of one supplier. */
export function SupplierDialog({
  target,
  readOnly,
  onClose,
  onCreated,
}: {
  target: SupplierDialogTarget | null;
  readOnly: boolean;
  onClose: () => void;
  onCreated: (target: SupplierDialogTarget) => void;
}) {
  const isNew = Boolean(target?.isNew);
  const supplier = useSupplier(target && !isNew ? target.bp : null);
  const save = useSaveSupplier(isNew);
  const data = isNew ? null : (supplier.data ?? null);
  const state = {
    currentStatusId: data?.supplierStatusId ?? 2,
    hasLogo: Boolean(data?.logoUrl),
    hasTemplate: Boolean(data?.onboardingFormTemplateFileName),
    integrationComplete: data?.integrationComplete ?? true,
  };

  const submit = async (values: Parameters<typeof save.mutateAsync>[0]) => {
    try {
      await save.mutateAsync(values);
      toast.success(isNew ? supplierMessages.addSuccess : supplierMessages.updateSuccess);
      if (isNew && target) onCreated({ ...target, isNew: false });
    } catch (e) {
      // 400: the title and the detail titles (§8); otherwise a generic failure.
      if (e instanceof ApiError && e.status === 400 && e.problem)
        toast.error(problemToast(e.problem), { title: e.problem.title });
      else if (e instanceof ApiError && e.problem && (e.status === 404 || e.status === 409))
        toast.error(e.problem.detail ?? '', { title: e.problem.title });
      else toast.error(isNew ? supplierMessages.addFailure : supplierMessages.updateFailure);
      throw e;
    }
  };

  return (
    <Modal
      opened={Boolean(target)}
      onClose={onClose}
      size="xl"
      title={target ? `${target.name} (${target.bp})${readOnly ? ' – Details' : ''}` : ''}
    >
      {target && (
        <Tabs defaultValue="settings" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="settings">Einstellungen</Tabs.Tab>
            {!isNew && <Tabs.Tab value="changes">Änderungsprotokoll</Tabs.Tab>}
          </Tabs.List>
          <Tabs.Panel value="settings">
            {!isNew && supplier.isPending ? (
              <Loader />
            ) : !isNew && supplier.isError ? (
              <Alert color="red">{supplierMessages.reloadAndRetry}</Alert>
            ) : (
              <Stack>
                {!isNew && !readOnly && (
                  <Anchor component={Link} to={`/admin/katalogimport?bp=${encodeURIComponent(target.bp)}`}>
                    Katalogimport (BMEcat, DATANORM)
                  </Anchor>
                )}
                {data && <SupplierFiles supplier={data} readOnly={readOnly} />}
                {data && <Divider />}
                {data && <InboundCredentialsSection bp={target.bp} readOnly={readOnly} />}
                {data && <Divider />}
                <SupplierForm
                  bp={target.bp}
                  supplier={data}
                  state={state}
                  readOnly={readOnly}
                  saving={save.isPending}
                  onSubmit={submit}
                />
              </Stack>
            )}
          </Tabs.Panel>
          {!isNew && (
            <Tabs.Panel value="changes">
              <SupplierChanges bp={target.bp} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
    </Modal>
  );
}
