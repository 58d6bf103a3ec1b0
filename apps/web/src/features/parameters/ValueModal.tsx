import { useEffect, useState } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { CustomParameterType, isSecretParameter, secretParameterMessages, valueIssues } from '@shk/contracts';
import type { CustomParameterValue } from '../../api/parameters';
import { GermanDateInput } from '../../ui/GermanDateInput';

interface ValueModalProps {
  opened: boolean;
  parameterKey: string;
  typeId: number;
  value: CustomParameterValue | null;
  saving: boolean;
  onClose: () => void;
  onSave: (body: { value: string; validFrom: string | null; validTo: string | null }) => void;
}

/** Add or edit one value: 'Pflichtfeld' and the type rules shown at once, submit disabled while invalid. */
export function ValueModal({ opened, parameterKey, typeId, value, saving, onClose, onSave }: ValueModalProps) {
  const [text, setText] = useState('');
  const [validFrom, setValidFrom] = useState('');
  const [validTo, setValidTo] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!opened) return;
    // A secret's value is never sent (null): its field starts empty.
    setText(value?.value ?? '');
    setValidFrom(value?.validFrom ?? '');
    setValidTo(value?.validTo ?? '');
    setTouched(false);
  }, [opened, value]);

  const body = { value: text, validFrom: validFrom || null, validTo: validTo || null };
  const secret = isSecretParameter(typeId);
  // An existing secret saved without a new value keeps the stored one: then only the dates are checked.
  const keepsSecret = secret && value !== null && !text.trim();
  const issues = keepsSecret
    ? valueIssues('', CustomParameterType.Varchar, { ...body, value: '-' })
    : valueIssues(parameterKey, typeId, body);
  return (
    <Modal opened={opened} onClose={onClose} title={value ? 'Wert bearbeiten' : 'Wert hinzufügen'} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!issues.length) onSave(body);
        }}
      >
        <Stack>
          {secret ? (
            <PasswordInput
              label="Wert"
              withAsterisk={value === null}
              description={value === null ? undefined : secretParameterMessages.hint}
              placeholder={value === null ? undefined : secretParameterMessages.placeholder}
              autoComplete="new-password"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={touched || text ? issues.join('. ') || undefined : undefined}
              data-autofocus
            />
          ) : typeId === CustomParameterType.Date ? (
            <GermanDateInput
              label="Wert"
              withAsterisk
              value={text}
              onChange={setText}
              onBlur={() => setTouched(true)}
              error={touched || text ? issues.join('. ') || undefined : undefined}
              data-autofocus
            />
          ) : (
            <TextInput
              label="Wert"
              withAsterisk
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              onBlur={() => setTouched(true)}
              error={touched || text ? issues.join('. ') || undefined : undefined}
              data-autofocus
            />
          )}
          <Group grow>
            <GermanDateInput label="Startdatum" value={validFrom} onChange={setValidFrom} />
            <GermanDateInput label="Enddatum" value={validTo} onChange={setValidTo} />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" disabled={issues.length > 0} loading={saving}>
              Speichern
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
