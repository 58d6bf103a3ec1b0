/**
 * A transmission worker as its own process (for the kill test and the benchmark): the production entry
 * `src/worker.ts` (`npm run worker`), on DATABASE_URL with the app's DATA_DIR.
 */
import '../../src/worker.ts';
