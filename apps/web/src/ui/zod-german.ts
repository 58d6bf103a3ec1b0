import { z } from 'zod';

// Forms validate with the contracts' zod schemas; zod's own messages ('Invalid input: expected number') reach the
// field errors where a schema sets none. German, as in the API (apps/api/src/http/zod-locale.ts). Imported by the
// form modules, not the entry chunk, so the locale loads with the first form.
z.config(z.locales.de());
