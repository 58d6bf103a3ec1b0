/** Where the IDS entry leads after the code exchange (buyer-side.md 'IDS entry'). */
export function idsLandingTarget(params: URLSearchParams): string {
  const action = (params.get('action') ?? '').toLowerCase();
  if (action === 'as') {
    const term = params.get('searchterm') ?? params.get('searchTerm') ?? '';
    return term ? `/suche?${new URLSearchParams({ term })}` : '/suche';
  }
  if (action === 'adl') {
    const id = params.get('productId');
    // The product page selects the offer when articleNumber is a product instance id.
    const articleNumber = params.get('productInstanceId') ?? params.get('articleNumber');
    if (id) return `/produkt?${new URLSearchParams({ id, ...(articleNumber ? { articleNumber } : {}) })}`;
    return '/';
  }
  if (action === 'wks') return '/ids-warenkorb';
  if (action === 'oci' || action === 'cxml') {
    // Punchout (docs/punchout.md): OCI DETAIL opens the product, cXML edit/inspect the cart, otherwise the search.
    const id = params.get('productId');
    const articleNumber = params.get('productInstanceId');
    if (id) return `/produkt?${new URLSearchParams({ id, ...(articleNumber ? { articleNumber } : {}) })}`;
    if (params.get('open') === 'cart') return '/warenkorb';
    const term = params.get('searchterm') ?? '';
    return term ? `/suche?${new URLSearchParams({ term })}` : '/suche';
  }
  return '/';
}

/** The claims of a JWT payload (the tokens were just issued by our own API; no verification here). */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  const json = atob(
    payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '='),
  );
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(json, (c) => c.charCodeAt(0)))) as Record<string, unknown>;
}
