import { passwordRules, passwordTexts } from '@shk/contracts';
import { escape, page } from './pages.ts';

/** The identity provider's German password pages: "Passwort vergessen?" and setting a password through a link. */

const notice = (kind: 'error' | 'ok', text?: string) =>
  text ? `<div class="${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${escape(text)}</div>` : '';

export function forgotPasswordPage(options: {
  action: string;
  back: string;
  /** The running sign-in, kept through the form for the way back. */
  interaction?: string;
  email?: string;
  error?: string;
  sent?: boolean;
}): string {
  const form = `
<form method="post" action="${escape(options.action)}">
  ${options.interaction ? `<input type="hidden" name="anmeldung" value="${escape(options.interaction)}">` : ''}
  <label for="email">E-Mail-Adresse</label>
  <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" autofocus value="${escape(options.email ?? '')}">
  <button type="submit">Link anfordern</button>
</form>`;
  return page(
    passwordTexts.forgotTitle,
    `<h1>${escape(passwordTexts.forgotTitle)}</h1><p class="sub">${escape(passwordTexts.forgotIntro)}</p>
${notice('error', options.error)}${options.sent ? notice('ok', passwordTexts.forgotSent) : form}
<p class="links"><a href="${escape(options.back)}">Zurück zur Anmeldung</a></p>`,
  );
}

export function setPasswordPage(options: {
  action: string;
  purpose: 'reset' | 'invitation';
  email: string;
  error?: string;
}): string {
  const title = options.purpose === 'invitation' ? passwordTexts.invitationTitle : passwordTexts.resetTitle;
  return page(
    title,
    `<h1>${escape(title)}</h1><p class="sub">Für das Konto ${escape(options.email)}.</p>
${notice('error', options.error)}
<form method="post" action="${escape(options.action)}">
  <input type="email" name="username" autocomplete="username" value="${escape(options.email)}" hidden readonly>
  <label for="password">Neues Passwort</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required minlength="${passwordRules.minLength}" maxlength="${passwordRules.maxLength}" aria-describedby="password-hint" autofocus>
  <p class="hint" id="password-hint">${escape(passwordTexts.hint)}</p>
  <label for="passwordRepeat">Neues Passwort wiederholen</label>
  <input id="passwordRepeat" name="passwordRepeat" type="password" autocomplete="new-password" required maxlength="${passwordRules.maxLength}">
  <button type="submit">Passwort speichern</button>
</form>`,
  );
}

export function passwordSetPage(): string {
  return page(
    'Passwort festgelegt',
    `<h1>Passwort festgelegt</h1>${notice('ok', passwordTexts.passwordSet)}
<p class="links"><a href="/">Zur Anmeldung</a></p>`,
  );
}

export function linkInvalidPage(forgot: string): string {
  return page(
    'Link ungültig',
    `<h1>Link ungültig</h1>${notice('error', passwordTexts.linkInvalid)}
<p class="links"><a href="${escape(forgot)}">Neuen Link anfordern</a></p><p class="links"><a href="/">Zur Startseite</a></p>`,
  );
}
