import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { useConsent } from './use-consent';
import classes from './CookieConsentModal.module.css';

/**
 * The consent dialog: a native modal <dialog> (top layer, the page behind it inert) with plain checkboxes. It is part
 * of the first page's code and opened before the first paint, so a first visitor sees its text with the first render
 * (it is that page's largest text: a dialog in a chunk of its own made it arrive late, Lighthouse's LCP).
 */
export function CookieConsentModal({ opened }: { opened: boolean }) {
  const { decision, settingsOpen, decide } = useConsent();
  const [preferences, setPreferences] = useState(decision?.preferences ?? false);
  const [marketing, setMarketing] = useState(decision?.marketing ?? false);
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();

  // Show the stored choice whenever the dialog opens again.
  useEffect(() => {
    if (settingsOpen) {
      setPreferences(decision?.preferences ?? false);
      setMarketing(decision?.marketing ?? false);
    }
  }, [settingsOpen, decision]);

  // Before the browser paints: the dialog shows in the same frame as the page.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (opened && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!opened && dialog.open) dialog.close();
  }, [opened]);

  return (
    <dialog
      ref={ref}
      className={classes.dialog}
      aria-labelledby={`${id}-title`}
      data-testid="cookie-consent"
      // Escape does not close it: an answer is needed (as before, no close button).
      onCancel={(event) => event.preventDefault()}
    >
      <h2 id={`${id}-title`} className={classes.title}>
        Cookie-Einstellungen
      </h2>
      <p className={classes.text}>
        Wir verwenden Cookies und vergleichbare Technologien. Technisch notwendige Speicher sind für den Betrieb des
        Portals erforderlich. Mit Ihrer Einwilligung speichern wir außerdem Präferenzen (z. B. zuletzt angesehene
        Produkte) und binden Marketing-Dienste (z. B. die Video-Hilfe) ein. Sie können Ihre Einwilligung jederzeit mit
        Wirkung für die Zukunft widerrufen.
      </p>
      <p className={classes.text}>
        Mehr erfahren Sie in der{' '}
        <Anchor component={Link} to="/datenschutz" size="sm">
          Datenschutzerklärung
        </Anchor>{' '}
        und in der{' '}
        <Anchor component={Link} to="/cookie-declaration" size="sm">
          Cookie-Erklärung
        </Anchor>
        .
      </p>
      <div className={classes.choices}>
        <Choice id={`${id}-necessary`} label="Notwendig" description="Anmeldung, Warenkorbauswahl, diese Einstellung">
          <input id={`${id}-necessary`} type="checkbox" checked disabled readOnly />
        </Choice>
        <Choice
          id={`${id}-preferences`}
          label="Präferenzen"
          description="Zuletzt angesehene Produkte für die Dauer der Sitzung"
        >
          <input
            id={`${id}-preferences`}
            type="checkbox"
            checked={preferences}
            onChange={(event) => setPreferences(event.currentTarget.checked)}
            aria-describedby={`${id}-preferences-description`}
          />
        </Choice>
        <Choice
          id={`${id}-marketing`}
          label="Marketing"
          description="Video-Hilfe und Einführungsvideos von Herstellern"
        >
          <input
            id={`${id}-marketing`}
            type="checkbox"
            checked={marketing}
            onChange={(event) => setMarketing(event.currentTarget.checked)}
            aria-describedby={`${id}-marketing-description`}
          />
        </Choice>
      </div>
      <Group justify="flex-end" gap="sm" wrap="wrap">
        <Button variant="default" onClick={() => decide({ preferences: false, marketing: false })}>
          Nur notwendige
        </Button>
        <Button variant="light" onClick={() => decide({ preferences, marketing })}>
          Auswahl speichern
        </Button>
        <Button onClick={() => decide({ preferences: true, marketing: true })}>Alle akzeptieren</Button>
      </Group>
    </dialog>
  );
}

function Choice({
  id,
  label,
  description,
  children,
}: {
  id: string;
  label: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <div className={classes.choice}>
      {children}
      <div>
        <label htmlFor={id} className={classes.label}>
          {label}
        </label>
        <div id={`${id}-description`} className={classes.description}>
          {description}
        </div>
      </div>
    </div>
  );
}
