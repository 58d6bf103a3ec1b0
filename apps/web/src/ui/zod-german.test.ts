import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import './zod-german';

describe('zod messages in forms', () => {
  it('are German where a schema sets no message of its own', () => {
    const result = z.object({ port: z.number().int(), mail: z.email() }).safeParse({ port: 'abc', mail: 'x' });
    const messages = result.error!.issues.map((issue) => issue.message);
    expect(messages.join(' | ')).not.toMatch(/Invalid|expected|received/);
    expect(messages[0]).toMatch(/Ungültige Eingabe|Zahl/);
  });
});
