import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import type { z } from 'zod';
import {
  communicationProtocolLabels,
  CommunicationProtocol,
  problemToast,
  WorkflowInput,
  workflowMessages,
} from '@shk/contracts';
import { ApiError } from '../../api/problem';
import { useWorkflowMutations, useWorkflows, type WorkflowTestResult, type WorkflowView } from '../../api/suppliers';
import { toast } from '../../ui/toast';

type FormInput = z.input<typeof WorkflowInput>;
type FormOutput = z.output<typeof WorkflowInput>;
const protocols = [
  CommunicationProtocol.Sftp,
  CommunicationProtocol.Ftp,
  CommunicationProtocol.Http,
  CommunicationProtocol.Api,
];

const failed = (e: unknown) =>
  toast.error(e instanceof ApiError && e.problem ? problemToast(e.problem) : workflowMessages.failure);

/** 'Workflows': the connection profiles supplier settings select (SFTP, FTP, HTTP, API). */
export function WorkflowsSection() {
  const list = useWorkflows();
  const mutations = useWorkflowMutations();
  const [editing, setEditing] = useState<WorkflowView | 'new' | null>(null);
  const [results, setResults] = useState<Record<number, WorkflowTestResult>>({});

  const runTest = async (w: WorkflowView) => {
    try {
      const result = await mutations.test.mutateAsync(w.id);
      setResults((r) => ({ ...r, [w.id]: result }));
    } catch (e) {
      failed(e);
    }
  };
  const confirmHostKey = async (w: WorkflowView, fingerprint: string) => {
    try {
      await mutations.confirmHostKey.mutateAsync({ id: w.id, fingerprint });
      toast.success(workflowMessages.hostKeyConfirmed);
      // The shown result was about the key before the confirmation: test again to show the state now.
      setResults((r) => {
        const next = { ...r };
        delete next[w.id];
        return next;
      });
    } catch (e) {
      failed(e);
    }
  };
  const remove = async (w: WorkflowView) => {
    try {
      await mutations.remove.mutateAsync(w.id);
      toast.success(workflowMessages.deleted);
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Stack component="section" aria-labelledby="workflows-title" mt="xl">
      <Group justify="space-between">
        <Title order={2} id="workflows-title">
          Workflows
        </Title>
        <Button variant="light" onClick={() => setEditing('new')}>
          Workflow hinzufügen
        </Button>
      </Group>
      {list.isError && <Alert color="red">Die Workflows konnten nicht geladen werden.</Alert>}
      <Table.ScrollContainer minWidth={820}>
        <Table striped aria-label="Workflows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Protokoll</Table.Th>
              <Table.Th>Ziel</Table.Th>
              <Table.Th>Benutzer</Table.Th>
              <Table.Th>Zugangsdaten</Table.Th>
              <Table.Th>Aktionen</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td>{w.name}</Table.Td>
                <Table.Td>{communicationProtocolLabels[w.communicationProtocol]}</Table.Td>
                <Table.Td>{w.baseUrl ?? [w.host, w.port].filter(Boolean).join(':')}</Table.Td>
                <Table.Td>{w.userName ?? '–'}</Table.Td>
                <Table.Td>
                  {w.hasSecret ? (w.secretKind === 'privateKey' ? 'Schlüssel hinterlegt' : 'Passwort hinterlegt') : '–'}
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => void runTest(w)}
                        loading={mutations.test.isPending && mutations.test.variables === w.id}
                      >
                        Verbindung testen
                      </Button>
                      <Button size="xs" variant="subtle" onClick={() => setEditing(w)}>
                        Bearbeiten
                      </Button>
                      <Button size="xs" variant="subtle" color="red" onClick={() => void remove(w)}>
                        Löschen
                      </Button>
                    </Group>
                    {results[w.id] && (
                      <Text size="xs" c={results[w.id].ok ? 'green' : 'red'} role="status">
                        {results[w.id].message}
                      </Text>
                    )}
                    <HostKeyLine
                      workflow={w}
                      result={results[w.id]}
                      busy={mutations.confirmHostKey.isPending}
                      onConfirm={(fingerprint) => void confirmHostKey(w, fingerprint)}
                    />
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <WorkflowModal
        workflow={editing === 'new' ? null : editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        onSave={async (body) => {
          try {
            await mutations.save.mutateAsync({ id: editing === 'new' || !editing ? null : editing.id, body });
            toast.success(workflowMessages.saved);
            setEditing(null);
          } catch (e) {
            failed(e);
          }
        }}
      />
    </Stack>
  );
}

/**
 * SFTP host key: the pinned fingerprint (confirmed or not), and after 'Verbindung testen' the fingerprint the
 * server showed with 'Fingerabdruck bestätigen' (new or unconfirmed) or 'Neuen Schlüssel annehmen' (changed).
 */
function HostKeyLine({
  workflow,
  result,
  busy,
  onConfirm,
}: {
  workflow: WorkflowView;
  result: WorkflowTestResult | undefined;
  busy: boolean;
  onConfirm: (fingerprint: string) => void;
}) {
  if (workflow.communicationProtocol !== CommunicationProtocol.Sftp) return null;
  const shown = result?.hostKey;
  const pinned = workflow.hostKey;
  return (
    <Stack gap={2} data-testid={`host-key-${workflow.id}`}>
      <Text size="xs" c="dimmed">
        Hostschlüssel:{' '}
        {pinned ? (
          <>
            <Code>{pinned.fingerprint}</Code> {pinned.confirmedAt ? '(bestätigt)' : '(noch nicht bestätigt)'}
          </>
        ) : (
          'noch keiner gespeichert'
        )}
      </Text>
      {shown && shown.status !== 'match' && (
        <Group gap="xs" wrap="nowrap">
          <Text size="xs">
            Server zeigt <Code>{shown.fingerprint}</Code>
          </Text>
          <Button
            size="compact-xs"
            color={shown.status === 'changed' ? 'orange' : undefined}
            loading={busy}
            onClick={() => onConfirm(shown.fingerprint)}
          >
            {shown.status === 'changed' ? workflowMessages.hostKeyAccept : workflowMessages.hostKeyConfirm}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function WorkflowModal({
  workflow,
  opened,
  onClose,
  onSave,
}: {
  workflow: WorkflowView | null;
  opened: boolean;
  onClose: () => void;
  onSave: (body: FormOutput) => Promise<void>;
}) {
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(WorkflowInput),
    values: {
      name: workflow?.name ?? '',
      communicationProtocol: (workflow?.communicationProtocol ?? CommunicationProtocol.Sftp) as 2 | 4 | 5 | 6,
      host: workflow?.host ?? '',
      port: workflow?.port ?? null,
      userName: workflow?.userName ?? '',
      baseUrl: workflow?.baseUrl ?? '',
      password: undefined,
      privateKey: undefined,
    },
  });
  const protocol = form.watch('communicationProtocol');
  const isFileProtocol = protocol === CommunicationProtocol.Sftp || protocol === CommunicationProtocol.Ftp;
  const errors = form.formState.errors;
  // Empty secret fields keep what is stored: the API never sends a secret back to fill them.
  const submit = form.handleSubmit((values) =>
    onSave({ ...values, password: values.password || undefined, privateKey: values.privateKey || undefined }),
  );
  return (
    <Modal opened={opened} onClose={onClose} title={workflow ? 'Workflow bearbeiten' : 'Workflow hinzufügen'} centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput label="Name" withAsterisk {...form.register('name')} error={errors.name?.message} />
          <Select
            label="Protokoll"
            data={protocols.map((id) => ({ value: String(id), label: communicationProtocolLabels[id] }))}
            value={String(protocol)}
            onChange={(v) => form.setValue('communicationProtocol', Number(v) as 2 | 4 | 5 | 6)}
            allowDeselect={false}
          />
          {isFileProtocol ? (
            <Group grow>
              <TextInput label="Host" withAsterisk {...form.register('host')} error={errors.host?.message} />
              <NumberInput
                label="Port"
                value={form.watch('port') ?? ''}
                onChange={(v) => form.setValue('port', typeof v === 'number' ? v : null)}
                allowDecimal={false}
                min={1}
                max={65535}
                error={errors.port?.message}
              />
            </Group>
          ) : (
            <TextInput label="Basis-URL" withAsterisk {...form.register('baseUrl')} error={errors.baseUrl?.message} />
          )}
          <TextInput label="Benutzer" {...form.register('userName')} />
          <TextInput
            label="Passwort"
            type="password"
            autoComplete="new-password"
            placeholder={workflow?.hasSecret ? 'Unverändert lassen' : undefined}
            {...form.register('password')}
          />
          {protocol === CommunicationProtocol.Sftp && (
            <Textarea
              label="Privater Schlüssel (statt Passwort)"
              placeholder={workflow?.secretKind === 'privateKey' ? 'Unverändert lassen' : undefined}
              autosize
              minRows={2}
              {...form.register('privateKey')}
              error={errors.privateKey?.message}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Speichern
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
