import { describe, expect, it } from 'vitest';
import * as badge from './relation-status-badge';
import * as status from './relation-status';
import badgeSource from './relation-status-badge.tsx?raw';
import cardsSource from '../features/suppliers/SupplierCards.tsx?raw';

describe('the relation status badge apart from the status filter', () => {
  it('needs no Select (Combobox, floating-ui): the home page’s supplier cards show statuses without them', () => {
    expect(badgeSource).not.toMatch(/import \{[^}]*\bSelect\b[^}]*\} from '@mantine\/core'/);
    expect(badgeSource).toMatch(/import \{ Badge, type BadgeProps \} from '@mantine\/core'/);
    expect(cardsSource).toMatch(/from '\.\.\/\.\.\/ui\/relation-status-badge'/);
  });

  it('is the same badge and label the lists import from relation-status', () => {
    expect(status.RelationStatusBadge).toBe(badge.RelationStatusBadge);
    expect(status.relationStatusLabel).toBe(badge.relationStatusLabel);
    expect(badge.relationStatusLabel(1)).not.toBe('1');
    expect(badge.relationStatusLabel(999)).toBe('999');
  });
});
