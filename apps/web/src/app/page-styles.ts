/*
 * All Mantine component styles (and the carousel's, used by the home and product pages), loaded together with the
 * first route chunk (`routes.tsx`) instead of blocking the first paint; cached afterwards like every hashed asset.
 * The date picker's and the dropzone's styles (3.9 kB brotli) come with the components that use them
 * (DeliveryDateInput, FileDropzone, ItemAttachments), not with every page.
 */
import '@mantine/core/styles.layer.css';
import '@mantine/carousel/styles.layer.css';
