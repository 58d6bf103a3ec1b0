import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { messages } from '@shk/contracts';
import { ApiError } from '../../api/problem';
import { checkCandidate } from '../../api/suppliers';

interface Candidate {
  businessPartnerNo: string;
  name: string;
}

/** Add flow step 1: a partner number checked against the business-partner master data (§2, §8). */
export function AddSupplierDialog({
  opened,
  onClose,
  onFound,
}: {
  opened: boolean;
  onClose: () => void;
  onFound: (candidate: Candidate) => void;
}) {
  const [bp, setBp] = useState('');
  const [error, setError] = useState<{ title: string; detail?: string } | null>(null);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setBp('');
    setError(null);
    setTouched(false);
    onClose();
  };

  const submit = async () => {
    setTouched(true);
    if (!bp.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const candidate = await checkCandidate(bp.trim());
      setBp('');
      setTouched(false);
      onFound(candidate);
    } catch (e) {
      const problem = e instanceof ApiError ? e.problem : null;
      setError(
        problem
          ? { title: problem.title, detail: problem.detail }
          : { title: 'Die Prüfung ist fehlgeschlagen. Bitte versuchen Sie es später erneut.' },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Lieferant hinzufügen" centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <TextInput
            label="Geschäftspartnernummer"
            required
            value={bp}
            onChange={(e) => setBp(e.currentTarget.value)}
            error={touched && !bp.trim() ? messages.required : undefined}
            data-autofocus
          />
          {error && (
            <Alert color="red" variant="light" role="alert" title={error.title}>
              <Text size="sm">{error.detail ?? messages.checkInput}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Abbrechen
            </Button>
            <Button type="submit" loading={busy}>
              Weiter
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
