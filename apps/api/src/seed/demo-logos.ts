/**
 * Logos of the demo suppliers: a simple SVG per supplier (coloured mark with the initials, the short name beside
 * it), so the demo shows logos everywhere instead of empty boxes. Stored as an administrator's SVG upload is
 * (checkLogo: same checks, same content type), and served rasterised like any uploaded logo.
 */
const palette = ['#1c6ea4', '#2b8a3e', '#c2255c', '#e8590c', '#5f3dc4', '#0b7285', '#a61e4d', '#5c940d', '#364fc7'];

/** 'Nordbad Sanitärgroßhandel GmbH' → 'Nordbad'; the mark carries the first letters of the first two words. */
function shortName(name: string): string {
  return name.split(/\s+/)[0] ?? name;
}

function initials(name: string): string {
  const words = name.split(/[\s-]+/).filter((word) => /^\p{L}/u.test(word));
  return words
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[ch]!);

/** A 4:1 logo (the box the portal shows logos in) for a supplier's name; `index` picks its colour. */
export function demoLogoSvg(name: string, index: number): Buffer {
  const colour = palette[index % palette.length]!;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="80" viewBox="0 0 320 80">
  <rect x="4" y="4" width="72" height="72" rx="14" fill="${colour}"/>
  <text x="40" y="52" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" font-weight="bold" fill="#ffffff">${escapeXml(initials(name))}</text>
  <text x="90" y="52" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" font-weight="bold" fill="${colour}">${escapeXml(shortName(name))}</text>
</svg>
`;
  return Buffer.from(svg, 'utf8');
}
