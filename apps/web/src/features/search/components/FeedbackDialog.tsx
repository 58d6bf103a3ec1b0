import { useEffect, useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../../ui/zod-german';
import { z } from 'zod';
import { FeedbackComment, limits, messages, timings } from '@shk/contracts';
import { feedbackApi } from '../../../api/feedback';
import { toast } from '../../../ui/toast';

const FeedbackForm = z.object({
  answer: z.enum(['positive', 'negative'], { error: messages.required }),
  comment: FeedbackComment,
});
type FeedbackInput = z.input<typeof FeedbackForm>;
type FeedbackOutput = z.output<typeof FeedbackForm>;

/** The search feedback dialog (POST /v1/Feedbacks with isPositive, comment and the page's URL). */
export function FeedbackDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [sent, setSent] = useState(false);
  const form = useForm<FeedbackInput, unknown, FeedbackOutput>({
    resolver: zodResolver(FeedbackForm),
    mode: 'onChange',
    defaultValues: { answer: undefined, comment: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (opened) {
      setSent(false);
      form.reset({ answer: undefined, comment: '' });
    }
  }, [opened, form]);

  // The confirmation closes after 1 s (spec §4).
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(onClose, timings.feedbackCloseMs);
    return () => clearTimeout(timer);
  }, [sent, onClose]);

  const send = useMutation({
    mutationFn: (values: FeedbackOutput) =>
      feedbackApi.send({
        isPositive: values.answer === 'positive',
        comment: values.comment.trim() || null,
        url: window.location.href,
      }),
    onSuccess: () => setSent(true),
    onError: () => toast.error(messages.genericRetry),
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Feedback zur Suche"
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      {sent ? (
        <Text data-testid="feedback-thanks">Vielen Dank für Ihr Feedback!</Text>
      ) : (
        <form
          noValidate
          onSubmit={form.handleSubmit(async (values) => {
            await send.mutateAsync(values).catch(() => {});
          })}
        >
          <Stack gap="md">
            <Controller
              control={form.control}
              name="answer"
              render={({ field }) => (
                <Radio.Group
                  label="Haben Sie gefunden, was Sie gesucht haben?"
                  withAsterisk
                  value={field.value ?? null}
                  onChange={(value) => field.onChange(value)}
                  error={errors.answer?.message}
                >
                  <Group mt="xs">
                    <Radio value="positive" label="Ja" />
                    <Radio value="negative" label="Nein" />
                  </Group>
                </Radio.Group>
              )}
            />
            <Textarea
              label="Kommentar"
              autosize
              minRows={3}
              maxRows={8}
              error={errors.comment?.message}
              description={`Höchstens ${limits.feedbackComment} Zeichen`}
              {...form.register('comment')}
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                Abbrechen
              </Button>
              <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
                Feedback senden
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
