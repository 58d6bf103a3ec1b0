import { describe, expect, it } from 'vitest';
import { allRelationStatuses, defaultRelationStatuses } from '@shk/contracts';
import { parseStatusParam } from './status-param';

describe('relation status filter from the URL', () => {
  it('accepts numeric statuses of the list', () => {
    expect(parseStatusParam('1', defaultRelationStatuses)).toBe(1);
    expect(parseStatusParam(' 4 ', defaultRelationStatuses)).toBe(4);
    expect(parseStatusParam('6', allRelationStatuses)).toBe(6);
  });

  it('falls back to all for text, unknown numbers and statuses outside the list', () => {
    for (const raw of [null, '', 'abc', '1,2', '-1', '1.0', '5', '99', '6']) {
      expect(parseStatusParam(raw, defaultRelationStatuses)).toBeNull();
    }
  });
});
