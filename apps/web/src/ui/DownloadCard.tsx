import { Anchor, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { formatFileSize } from './format';
import { DownloadIcon } from './icons';

interface DownloadCardProps {
  /** Public file URL (opened with the browser's download) … */
  href?: string;
  /** … or a click handler for files that need the bearer token. */
  onDownload?: () => void;
  title: string;
  fileName?: string;
  /** Kind of document, e.g. 'Datenblatt', '2D', '3D'. */
  kind?: string;
  sizeBytes?: number | null;
}

/** A download card (spec 'Shared UI'): kind, title, file name and size with a download link. */
export function DownloadCard({ href, onDownload, title, fileName, kind, sizeBytes }: DownloadCardProps) {
  const meta = [kind, fileName, sizeBytes ? formatFileSize(sizeBytes) : null].filter(Boolean).join(' · ');
  return (
    <Paper withBorder radius="md" p="sm" data-testid="download-card">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon variant="light" size="lg" radius="md">
          <DownloadIcon size={18} />
        </ThemeIcon>
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Anchor
            href={href ?? '#'}
            download={href ? (fileName ?? true) : undefined}
            target={href ? '_blank' : undefined}
            rel="noopener"
            fw={600}
            size="sm"
            onClick={(event) => {
              if (onDownload) {
                event.preventDefault();
                onDownload();
              }
            }}
            style={{ overflowWrap: 'anywhere' }}
          >
            {title}
          </Anchor>
          {meta && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {meta}
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
