/*
 * All Mantine component styles (and dates, dropzone, carousel), loaded together with the first route chunk
 * (`routes.tsx`) instead of blocking the first paint; cached afterwards like every hashed asset.
 */
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.layer.css';
import '@mantine/dropzone/styles.layer.css';
import '@mantine/carousel/styles.layer.css';
