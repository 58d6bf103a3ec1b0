import { useState } from 'react';
import {
  Alert,
  Button,
  Code,
  FileInput,
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
  as2EncryptionLabels,
  as2Encryptions,
  as2MdnModeLabels,
  as2MdnModes,
  communicationProtocolLabels,
  CommunicationProtocol,
  problemToast,
  WorkflowInput,
  workflowMessages,
  type As2Encryption,
  type As2MdnMode,
} from '@shk/contracts';
import { ApiError } from '../../api/problem';
import {
  useAs2Certificates,
  useWorkflowMutations,
  useWorkflows,
  type WorkflowTestResult,
  type WorkflowView,
  type CertificateInfo,
} from '../../api/suppliers';
import { formatDate } from '../../ui/format';
import { toast } from '../../ui/toast';

type FormInput = z.input<typeof WorkflowInput>;
type FormOutput = z.output<typeof WorkflowInput>;
const protocols = [
  CommunicationProtocol.Sftp,
  CommunicationProtocol.As2,
  CommunicationProtocol.Ftp,
  CommunicationProtocol.Http,
  CommunicationProtocol.Api,
];

const failed = (e: unknown) =>
  toast.error(e instanceof ApiError && e.problem ? problemToast(e.problem) : workflowMessages.failure);

type ProtocolId = 2 | 3 | 4 | 5 | 6;

/** An uploaded certificate as the API takes it: PEM text as is, DER bytes as base64. */
async function readCertificateFile(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder('latin1').decode(bytes);
  if (text.includes('-----BEGIN CERTIFICATE-----')) return text;
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Subject, issuer, SHA-256 fingerprint and expiry of a certificate, as staff compare them with the partner. */
function CertificateDetails({ certificate }: { certificate: CertificateInfo }) {
  const expiring = certificate.daysLeft <= 30;
  return (
    <Stack gap={0}>
      <Text size="xs">Inhaber: {certificate.subject}</Text>
      <Text size="xs">Aussteller: {certificate.issuer}</Text>
      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
        SHA-256: {certificate.fingerprintSha256}
      </Text>
      <Text size="xs" c={expiring ? 'red' : undefined} fw={expiring ? 600 : undefined}>
        Gültig bis {formatDate(certificate.validTo)}
        {certificate.daysLeft < 0 ? ' (abgelaufen)' : expiring ? ` (noch ${certificate.daysLeft} Tage)` : ''}
      </Text>
    </Stack>
  );
}

/** Our AS2 identity (partners need our certificate) and the certificates that expire within 30 days. */
function As2CertificatePanel({ showOwn }: { showOwn: boolean }) {
  const { own, warnings } = useAs2Certificates(true);
  const download = () => {
    if (!own.data) return;
    const url = URL.createObjectURL(new Blob([own.data.certificatePem], { type: 'application/x-pem-file' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${own.data.as2Identifier}.pem` });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <>
      {warnings.data && warnings.data.length > 0 && (
        <Alert color="orange" title="Zertifikate laufen ab" role="alert">
          <Stack gap={2}>
            {warnings.data.map((w) => (
              <Text size="sm" key={w.certificate.fingerprintSha256 + (w.workflowId ?? 'own')}>
                {w.message}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {showOwn && own.data && (
        <Alert color="gray" title={`Unser AS2-Zertifikat (AS2-Kennung ${own.data.as2Identifier})`}>
          <Stack gap={4}>
            <CertificateDetails certificate={own.data.certificate} />
            <Text size="xs">Adresse für asynchrone MDNs: {own.data.mdnUrl}</Text>
            <Group>
              <Button size="xs" variant="light" onClick={download}>
                Zertifikat herunterladen
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </>
  );
}

/** 'Workflows': the connection profiles supplier settings select (SFTP, AS2, FTP, HTTP, API). */
export function WorkflowsSection() {
  const list = useWorkflows();
  const usesAs2 = !!list.data?.some((w) => w.communicationProtocol === CommunicationProtocol.As2);
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
      <As2CertificatePanel showOwn={usesAs2} />
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
                <Table.Td>
                  {w.communicationProtocol === CommunicationProtocol.As2
                    ? `${as2EncryptionLabels[w.as2Encryption]}, MDN ${w.as2MdnMode === 'async' ? 'asynchron' : 'synchron'}`
                    : (w.baseUrl ?? [w.host, w.port].filter(Boolean).join(':'))}
                </Table.Td>
                <Table.Td>{w.userName ?? '–'}</Table.Td>
                <Table.Td>
                  {w.communicationProtocol === CommunicationProtocol.As2 ? (
                    w.partnerCertificate ? (
                      <CertificateDetails certificate={w.partnerCertificate} />
                    ) : (
                      <Text size="xs" c="red">
                        Kein Partnerzertifikat
                      </Text>
                    )
                  ) : w.hasSecret ? (
                    w.secretKind === 'privateKey' ? (
                      'Schlüssel hinterlegt'
                    ) : (
                      'Passwort hinterlegt'
                    )
                  ) : (
                    '–'
                  )}
                </Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    <Group gap="xs" wrap="nowrap">
                      {/* AS2 sends to the supplier's AS2 URL: each delivery and its signed MDN is the test. */}
                      {w.communicationProtocol !== CommunicationProtocol.As2 && (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => void runTest(w)}
                          loading={mutations.test.isPending && mutations.test.variables === w.id}
                        >
                          Verbindung testen
                        </Button>
                      )}
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
        key={editing === 'new' ? 'new' : (editing?.id ?? 'closed')}
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
      communicationProtocol: (workflow?.communicationProtocol ?? CommunicationProtocol.Sftp) as ProtocolId,
      host: workflow?.host ?? '',
      port: workflow?.port ?? null,
      userName: workflow?.userName ?? '',
      baseUrl: workflow?.baseUrl ?? '',
      password: undefined,
      privateKey: undefined,
      as2Encryption: workflow?.as2Encryption ?? 'aes256',
      as2MdnMode: workflow?.as2MdnMode ?? 'sync',
      partnerCertificate: undefined,
    },
  });
  const protocol = form.watch('communicationProtocol');
  const isFileProtocol = protocol === CommunicationProtocol.Sftp || protocol === CommunicationProtocol.Ftp;
  const isAs2 = protocol === CommunicationProtocol.As2;
  const [certificateFile, setCertificateFile] = useState<File | null>(null);
  const [certificateError, setCertificateError] = useState<string | null>(null);
  const pickCertificate = async (file: File | null) => {
    setCertificateFile(file);
    setCertificateError(null);
    form.setValue('partnerCertificate', file ? await readCertificateFile(file) : undefined);
  };
  const errors = form.formState.errors;
  // Empty secret fields keep what is stored: the API never sends a secret back to fill them.
  const submit = form.handleSubmit((values) => {
    if (values.communicationProtocol === CommunicationProtocol.As2) {
      // The API refuses an AS2 workflow without the partner's certificate; say so at the field.
      if (!values.partnerCertificate && !workflow?.partnerCertificate)
        return setCertificateError(workflowMessages.as2NeedsCertificate);
      return onSave({
        name: values.name,
        communicationProtocol: values.communicationProtocol,
        host: null,
        userName: null,
        baseUrl: null,
        as2Encryption: values.as2Encryption,
        as2MdnMode: values.as2MdnMode,
        partnerCertificate: values.partnerCertificate || undefined,
      });
    }
    const { as2Encryption: _e, as2MdnMode: _m, partnerCertificate: _c, ...rest } = values;
    return onSave({ ...rest, password: values.password || undefined, privateKey: values.privateKey || undefined });
  });
  return (
    <Modal opened={opened} onClose={onClose} title={workflow ? 'Workflow bearbeiten' : 'Workflow hinzufügen'} centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput label="Name" withAsterisk {...form.register('name')} error={errors.name?.message} />
          <Select
            label="Protokoll"
            data={protocols.map((id) => ({ value: String(id), label: communicationProtocolLabels[id] }))}
            value={String(protocol)}
            onChange={(v) => form.setValue('communicationProtocol', Number(v) as ProtocolId)}
            allowDeselect={false}
          />
          {isAs2 ? (
            <>
              <Text size="sm" c="dimmed">
                AS2-Kennung und AS2-URL des Partners stehen in den Lieferanteneinstellungen.
              </Text>
              {workflow?.partnerCertificate && !certificateFile && (
                <Stack gap={2}>
                  <Text size="sm" fw={500}>
                    Hinterlegtes Partnerzertifikat
                  </Text>
                  <CertificateDetails certificate={workflow.partnerCertificate} />
                </Stack>
              )}
              <FileInput
                label={
                  workflow?.partnerCertificate
                    ? 'Neues Partnerzertifikat (PEM oder DER)'
                    : 'Partnerzertifikat (PEM oder DER)'
                }
                withAsterisk={!workflow?.partnerCertificate}
                accept=".pem,.crt,.cer,.der"
                clearable
                value={certificateFile}
                onChange={(file) => void pickCertificate(file)}
                error={certificateError ?? errors.partnerCertificate?.message}
              />
              <Select
                label="Verschlüsselung"
                data={as2Encryptions.map((id) => ({ value: id, label: as2EncryptionLabels[id] }))}
                value={form.watch('as2Encryption') ?? 'aes256'}
                onChange={(v) => form.setValue('as2Encryption', (v ?? 'aes256') as As2Encryption)}
                allowDeselect={false}
              />
              <Select
                label="Empfangsbestätigung (signierte MDN)"
                data={as2MdnModes.map((id) => ({ value: id, label: as2MdnModeLabels[id] }))}
                value={form.watch('as2MdnMode') ?? 'sync'}
                onChange={(v) => form.setValue('as2MdnMode', (v ?? 'sync') as As2MdnMode)}
                allowDeselect={false}
              />
            </>
          ) : isFileProtocol ? (
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
          {!isAs2 && (
            <>
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
            </>
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
