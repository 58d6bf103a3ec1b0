import { useState } from 'react';
import { ActionIcon, Group, List, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { formatFileSize } from './format';
import { addFiles, fileErrorText, type FileErrorKind, type FileLimits } from './file-selection';

interface FileDropzoneProps {
  files: readonly File[];
  onChange: (files: File[]) => void;
  limits: FileLimits;
  disabled?: boolean;
  label?: string;
}

/** Drop or pick files within the configured limits; shows the chosen files and why others were refused. */
export function FileDropzone({
  files,
  onChange,
  limits,
  disabled,
  label = 'Dateien hierher ziehen oder klicken, um sie auszuwählen',
}: FileDropzoneProps) {
  const [errors, setErrors] = useState<FileErrorKind[]>([]);
  const take = (added: File[]) => {
    const result = addFiles(files, added, limits);
    setErrors(result.errors);
    onChange(result.files);
  };

  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={take}
        // Our own rules decide (and explain) what is refused, so the dropzone accepts everything.
        onReject={(rejections) => take(rejections.map((rejection) => rejection.file))}
        multiple={limits.maxFileCount > 1}
        disabled={disabled}
      >
        <Stack gap={4} align="center" py="md">
          <Text>{label}</Text>
          <Text size="xs" c="dimmed">
            {limits.allowedExtensions.length > 0 && `Formate: ${limits.allowedExtensions.join(', ')} · `}
            bis {limits.maxFileSizeMb} MB je Datei · höchstens {limits.maxFileCount}{' '}
            {limits.maxFileCount === 1 ? 'Datei' : 'Dateien'}
          </Text>
        </Stack>
      </Dropzone>
      {errors.map((kind) => (
        <Text key={kind} size="sm" c="red" role="alert">
          {fileErrorText(kind, limits)}
        </Text>
      ))}
      {files.length > 0 && (
        <List spacing={4} size="sm">
          {files.map((file, index) => (
            <List.Item key={`${file.name}-${index}`}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm">{file.name}</Text>
                <Text size="xs" c="dimmed">
                  {formatFileSize(file.size)}
                </Text>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  aria-label={`${file.name} entfernen`}
                  onClick={() => onChange(files.filter((_, i) => i !== index))}
                >
                  ×
                </ActionIcon>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
