import { PORTAL_FONT_FAMILY, PRODUCT_NAME } from '@shk/contracts';

export const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The portal's look without its scripts: the SPA's typeface (PORTAL_FONT_FAMILY, the system UI font: nothing is
 * downloaded, so the CSP's font-src needs nothing new), its blue, Mantine's base size and line height. Inline styles
 * are allowed by the CSP (style-src 'unsafe-inline', http/security-headers.ts); scripts are not.
 */
const style = `
  *{box-sizing:border-box}body{margin:0;font-family:${PORTAL_FONT_FAMILY};font-size:16px;line-height:1.55;background:#f1f4f8;color:#1c2733}
  main{max-width:420px;margin:8vh auto 0;background:#fff;border-radius:10px;box-shadow:0 6px 24px rgba(20,40,70,.12);padding:32px}
  h1{font-size:1.5rem;line-height:1.3;font-weight:700;margin:0 0 4px}p.sub{margin:0 0 24px;color:#56667a}
  label{display:block;font-weight:600;margin:16px 0 6px}input{width:100%;padding:10px 12px;border:1px solid #b9c4d0;border-radius:6px;font:inherit}
  input:focus{outline:2px solid #0b5cad;border-color:#0b5cad}button{margin-top:24px;width:100%;padding:12px;border:0;border-radius:6px;background:#0b5cad;color:#fff;font:inherit;font-weight:600;cursor:pointer}
  button:hover{background:#094a8b}.error{background:#fdecec;color:#9b1c1c;border:1px solid #f3b4b4;border-radius:6px;padding:10px 12px;margin-bottom:8px}
  .ok{background:#e9f6ec;color:#1e6b2f;border:1px solid #a9d8b4;border-radius:6px;padding:10px 12px;margin-bottom:8px}
  .hint{color:#56667a;font-size:.875rem;margin:6px 0 0}.links{margin-top:16px;text-align:center}
  a{color:#0b5cad}.brand{font-weight:700;color:#0b5cad;letter-spacing:.02em;margin-bottom:20px}
  footer{text-align:center;color:#56667a;font-size:.875rem;margin:16px auto 24px;padding:0 16px}footer nav{margin-top:6px}
  footer nav a{margin:0 8px;color:#45566a}
  @media (max-width:480px){main{margin:0;border-radius:0;box-shadow:none;padding:24px 16px}}`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(PRODUCT_NAME)} | ${escape(title)}</title><style>${style}</style></head><body><main>
<div class="brand">${escape(PRODUCT_NAME)}</div>${body}</main>
<footer>Das digitale Bestellportal für das SHK-Handwerk
<nav aria-label="Rechtliches"><a href="/impressum">Impressum</a><a href="/datenschutz">Datenschutz</a></nav></footer></body></html>`;
}

export function loginPage(options: { action: string; login?: string; error?: string; forgot?: string }): string {
  return page(
    'Anmelden',
    `
<h1>Anmelden</h1><p class="sub">Bitte melden Sie sich mit Ihrer E-Mail-Adresse und Ihrem Passwort an.</p>
${options.error ? `<div class="error" role="alert">${escape(options.error)}</div>` : ''}
<form method="post" action="${escape(options.action)}" autocomplete="on">
  <label for="login">E-Mail-Adresse</label>
  <input id="login" name="login" type="email" autocomplete="username" required autofocus value="${escape(options.login ?? '')}">
  <label for="password">Passwort</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Anmelden</button>
</form>
${options.forgot ? `<p class="links"><a href="${escape(options.forgot)}">Passwort vergessen?</a></p>` : ''}`,
  );
}

/** The only inline script of the provider's pages; the Content-Security-Policy allows it by hash. */
export const LOGOUT_SCRIPT = 'document.forms[0].submit()';

export function logoutPage(form: string): string {
  // Submits the provider's form with logout=yes at once: signing out in the portal ends the provider session too.
  const withLogout = form.replace(
    '</form>',
    '<input type="hidden" name="logout" value="yes"/><noscript><button type="submit">Abmelden</button></noscript></form>',
  );
  return page(
    'Abmelden',
    `<h1>Abmelden</h1><p class="sub">Sie werden abgemeldet …</p>${withLogout}
<script>${LOGOUT_SCRIPT}</script>`,
  );
}

export function loggedOutPage(): string {
  return page(
    'Abgemeldet',
    '<h1>Abgemeldet</h1><p class="sub">Sie wurden erfolgreich abgemeldet.</p><a href="/">Zur Startseite</a>',
  );
}

export function errorPage(error: string, description?: string): string {
  return page(
    'Fehler',
    `<h1>Anmeldung nicht möglich</h1><div class="error" role="alert">${escape(description ?? error)}</div>
<p><a href="/">Zur Startseite</a></p>`,
  );
}
