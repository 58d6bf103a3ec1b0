/** Frame names the norm and programs use for "the whole window"; other names are kept as sent. */
export function formTarget(target: string | null): string {
  const t = (target ?? '').trim();
  if (!t || /^_?top$/i.test(t)) return '_top';
  if (/^_?(self|parent|blank)$/i.test(t)) return `_${t.replace(/^_/, '').toLowerCase()}`;
  return t;
}

import { createHash } from 'node:crypto';

/** The page's only script; the page's Content-Security-Policy allows exactly this one by hash. */
export const RETURN_SCRIPT = "document.getElementById('ids-return').submit();";

/**
 * Headers of the return page: unlike the portal's own pages it may be framed by the craftsman program
 * and may post to the hook URL's origin (the portal's policy allows forms only to itself).
 */
export function returnPageSecurityPolicy(hookUrl: string | null): string {
  let origin = "'none'";
  try {
    if (hookUrl) origin = new URL(hookUrl).origin;
  } catch {
    /* an unparsable hook URL gets no form target */
  }
  const hash = createHash('sha256').update(RETURN_SCRIPT).digest('base64');
  return [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    `form-action ${origin}`,
    'frame-ancestors *',
    "base-uri 'none'",
  ].join('; ');
}

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page that hands the cart back: a form posting `warenkorb` to the hook URL exactly as received
 * (multipart/form-data as the norm asks), submitted at once by its one script.
 */
export function returnFormPage(p: { hookUrl: string; target: string | null; warenkorb: string }): string {
  return `<!doctype html>
<html lang="de">
<head><meta charset="utf-8"><title>Warenkorb wird übertragen</title></head>
<body>
<form id="ids-return" method="post" action="${escapeAttribute(p.hookUrl)}" target="${escapeAttribute(formTarget(p.target))}" enctype="multipart/form-data" accept-charset="UTF-8">
<input type="hidden" name="warenkorb" value="${escapeAttribute(p.warenkorb)}">
<noscript><button type="submit">Warenkorb übertragen</button></noscript>
</form>
<script>${RETURN_SCRIPT}</script>
</body>
</html>
`;
}
