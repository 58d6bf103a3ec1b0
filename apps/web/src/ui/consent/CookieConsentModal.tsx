import { useEffect, useState } from 'react';
import { Anchor, Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useConsent } from './use-consent';

/** The consent dialog itself (loaded by CookieConsentDialog the first time it opens). */
export function CookieConsentModal({ opened }: { opened: boolean }) {
  const { decision, settingsOpen, decide } = useConsent();
  const [preferences, setPreferences] = useState(decision?.preferences ?? false);
  const [marketing, setMarketing] = useState(decision?.marketing ?? false);

  // Show the stored choice whenever the dialog opens again.
  useEffect(() => {
    if (settingsOpen) {
      setPreferences(decision?.preferences ?? false);
      setMarketing(decision?.marketing ?? false);
    }
  }, [settingsOpen, decision]);

  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      size="lg"
      title="Cookie-Einstellungen"
      transitionProps={{ duration: 400 }}
      data-testid="cookie-consent"
    >
      <Stack gap="md">
        <Text size="sm">
          Wir verwenden Cookies und vergleichbare Technologien. Technisch notwendige Speicher sind für den Betrieb des
          Portals erforderlich. Mit Ihrer Einwilligung speichern wir außerdem Präferenzen (z. B. zuletzt angesehene
          Produkte) und binden Marketing-Dienste (z. B. die Video-Hilfe) ein. Sie können Ihre Einwilligung jederzeit mit
          Wirkung für die Zukunft widerrufen.
        </Text>
        <Text size="sm">
          Mehr erfahren Sie in der{' '}
          <Anchor component={Link} to="/datenschutz">
            Datenschutzerklärung
          </Anchor>{' '}
          und in der{' '}
          <Anchor component={Link} to="/cookie-declaration">
            Cookie-Erklärung
          </Anchor>
          .
        </Text>
        <Stack gap="xs">
          <Checkbox
            label="Notwendig"
            description="Anmeldung, Warenkorbauswahl, diese Einstellung"
            checked
            disabled
            readOnly
          />
          <Checkbox
            label="Präferenzen"
            description="Zuletzt angesehene Produkte für die Dauer der Sitzung"
            checked={preferences}
            onChange={(event) => setPreferences(event.currentTarget.checked)}
          />
          <Checkbox
            label="Marketing"
            description="Video-Hilfe und Einführungsvideos von Herstellern"
            checked={marketing}
            onChange={(event) => setMarketing(event.currentTarget.checked)}
          />
        </Stack>
        <Group justify="flex-end" gap="sm" wrap="wrap">
          <Button variant="default" onClick={() => decide({ preferences: false, marketing: false })}>
            Nur notwendige
          </Button>
          <Button variant="light" onClick={() => decide({ preferences, marketing })}>
            Auswahl speichern
          </Button>
          <Button onClick={() => decide({ preferences: true, marketing: true })}>Alle akzeptieren</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
