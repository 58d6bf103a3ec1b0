import { z } from 'zod';

// Validation messages reach users (problem details list them per field): German, like every text.
z.config(z.locales.de());
