/*
 * Mantine's global styles: baseline, default CSS variables and global classes, the first stylesheet of every page.
 * The components' styles come with the components' code (`mantine-css-per-component.ts` in apps/web adds them to the
 * chunk that carries each component), each in its own sublayer of `mantine`, whose order `baseline` declares first:
 * the app's own (unlayered) styles win regardless of load order, and the cascade is that of Mantine's full file.
 */
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
