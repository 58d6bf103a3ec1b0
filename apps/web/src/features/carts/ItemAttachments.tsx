import { useState } from 'react';
import { ActionIcon, Anchor, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { cartMessages, messages } from '@shk/contracts';
import { cartsApi, invalidateCarts, type CartItem } from '../../api/carts';
import { useAttachmentLimits } from '../../api/configuration';
import { downloadApiFile } from '../../api/download';
import { ApiError } from '../../api/problem';
import { hasAllowedExtension } from '../../ui/file-selection';
import { formatFileSize } from '../../ui/format';
import { TrashIcon } from '../../ui/icons';
import { toast } from '../../ui/toast';
import { announceChangesSaved } from './use-cart-actions';
import { PaperclipIcon } from './icons';

/**
 * Attachments of a cart item (spec §5): formats, size and count from the feature settings. Files of a
 * wrong format or above the size are dropped with their message, too many are cut to the maximum; with
 * a maximum of 1 a new file replaces the old one (the server does the replacing).
 */
export function ItemAttachments({ item }: { item: CartItem }) {
  const queryClient = useQueryClient();
  const limits = useAttachmentLimits();
  const [errors, setErrors] = useState<string[]>([]);
  const allowed = limits.allowedExtensions.map((e) => e.replace(/^\./, '').toLowerCase());

  const upload = useMutation({
    mutationFn: (files: File[]) => cartsApi.uploadAttachments(item.id, files),
    onSuccess: () => {
      announceChangesSaved();
      void invalidateCarts(queryClient);
    },
    onError: (error) => {
      // A 400 carries the limit message of the spec; anything else the generic upload failure.
      if (error instanceof ApiError && error.status === 400 && error.problem?.title) setErrors([error.problem.title]);
      else toast.error(cartMessages.uploadFailure);
    },
  });

  const remove = useMutation({
    mutationFn: (attachmentId: number) => cartsApi.removeAttachment(item.id, attachmentId),
    onSuccess: () => void invalidateCarts(queryClient),
    onError: (error) =>
      toast.error(
        error instanceof ApiError
          ? (error.problem?.title ?? `${error.status} ${error.message}`)
          : cartMessages.uploadFailure,
      ),
  });

  const take = (dropped: File[]) => {
    const problems = new Set<string>();
    const maxBytes = limits.maxFileSizeMb * 1024 * 1024;
    let accepted = dropped.filter((file) => {
      if (!hasAllowedExtension(file.name, allowed)) {
        problems.add(cartMessages.fileFormat);
        return false;
      }
      if (file.size > maxBytes) {
        problems.add(cartMessages.maxFileSize(limits.maxFileSizeMb));
        return false;
      }
      return true;
    });
    if (limits.maxFileCount === 1) {
      if (accepted.length > 1) problems.add(cartMessages.maxFileCount(1));
      accepted = accepted.slice(-1);
    } else {
      const room = Math.max(0, limits.maxFileCount - item.attachments.length);
      if (accepted.length > room) {
        problems.add(cartMessages.maxFileCount(limits.maxFileCount));
        accepted = accepted.slice(0, room);
      }
    }
    setErrors([...problems]);
    if (accepted.length) upload.mutate(accepted);
  };

  const full = limits.maxFileCount > 1 && item.attachments.length >= limits.maxFileCount;

  return (
    <Stack gap={6} data-testid="item-attachments">
      <Text size="sm" fw={500}>
        Anhänge
      </Text>
      {item.attachments.map((attachment) => (
        <Group key={attachment.id} gap="xs" wrap="nowrap" data-testid="attachment">
          <PaperclipIcon size={14} />
          <Anchor
            component="button"
            type="button"
            size="sm"
            style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
            title="Herunterladen"
            onClick={() =>
              void downloadApiFile(`/v1/CartItems/${item.id}/attachments/${attachment.id}`, attachment.fileName).catch(
                () => toast.error(messages.genericRetry),
              )
            }
          >
            {attachment.fileName}
          </Anchor>
          {attachment.size !== undefined && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {formatFileSize(attachment.size)}
            </Text>
          )}
          <Tooltip label="Anhang löschen">
            <ActionIcon
              variant="subtle"
              color="red"
              size="sm"
              aria-label={`${attachment.fileName} löschen`}
              loading={remove.isPending && remove.variables === attachment.id}
              onClick={() => remove.mutate(attachment.id)}
            >
              <TrashIcon size={14} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {!full && (
        <Dropzone
          onDrop={take}
          onReject={(rejections) => take(rejections.map((r) => r.file))}
          multiple={limits.maxFileCount > 1}
          loading={upload.isPending}
          p="xs"
          inputProps={{ 'aria-label': 'Anhang hochladen' }}
          data-testid="attachment-dropzone"
        >
          <Group gap="xs" justify="center" wrap="nowrap" mih={36}>
            {upload.isPending ? <Loader size="xs" /> : <PaperclipIcon />}
            <Stack gap={0}>
              <Text size="sm">
                {item.attachments.length && limits.maxFileCount === 1
                  ? 'Datei ersetzen: hierher ziehen oder klicken'
                  : 'Datei hierher ziehen oder klicken'}
              </Text>
              <Text size="xs" c="dimmed">
                {allowed.join(', ')} · max. {limits.maxFileSizeMb} MB
              </Text>
            </Stack>
          </Group>
        </Dropzone>
      )}
      {errors.map((message) => (
        <Text key={message} size="xs" c="red" role="alert">
          {message}
        </Text>
      ))}
    </Stack>
  );
}
