import { useEffect, useState } from 'react';
import { ActionIcon, Button, Group, Modal, Select, Stack, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import '../../ui/zod-german';
import type { z } from 'zod';
import { ProjectInput, timings } from '@shk/contracts';
import { cartKeys, cartsApi, useProjects, type Project } from '../../api/carts';
import { problemTitle } from '../../api/problem';
import { queryKeys } from '../../api/query-keys';
import { useUserProfile } from '../../api/session';
import { PlusIcon } from './icons';

type FormInput = z.input<typeof ProjectInput>;
type FormOutput = z.output<typeof ProjectInput>;

/**
 * 'Neues Projekt' (spec §5): project name required, max 35; additional info max 200; a server error on
 * creation (e.g. an existing name) is shown on the name field.
 */
function CreateProjectModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (project: Project) => void;
}) {
  const queryClient = useQueryClient();
  const bpNumber = useUserProfile().data?.currentBpNumber ?? null;
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(ProjectInput),
    mode: 'onChange',
    defaultValues: { code: '', description: '' },
  });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (opened) form.reset({ code: '', description: '' });
  }, [opened, form]);

  const create = useMutation({
    mutationFn: (values: FormOutput) =>
      cartsApi.createProject({ code: values.code, description: values.description || null }),
    onSuccess: async (project) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.partnerScoped(bpNumber, ...cartKeys.projects) });
      onCreated(project);
      onClose();
    },
    onError: (error) =>
      form.setError('code', { message: problemTitle(error, 'Das Projekt konnte nicht angelegt werden.') }),
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Neues Projekt"
      centered
      transitionProps={{ duration: timings.modalFadeMs }}
    >
      <form
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          await create.mutateAsync(values).catch(() => {});
        })}
      >
        <Stack gap="sm">
          <TextInput
            label="Projektname"
            withAsterisk
            data-autofocus
            error={errors.code?.message}
            {...form.register('code')}
          />
          <Textarea
            label="Zusatzinformation"
            autosize
            minRows={2}
            error={errors.description?.message}
            {...form.register('description')}
          />
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose}>
              Abbrechen
            </Button>
            <Button type="submit" loading={isSubmitting} disabled={isSubmitting}>
              Projekt anlegen
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

interface ProjectSelectProps {
  value: number | null;
  onChange: (projectId: number | null) => void;
  label?: string;
  placeholder?: string;
  disabled?: boolean;
}

/** Project of a cart or an item, with a button that creates a new project and selects it. */
export function ProjectSelect({
  value,
  onChange,
  label = 'Projekt',
  placeholder = 'Kein Projekt',
  disabled,
}: ProjectSelectProps) {
  const projects = useProjects();
  const [creating, setCreating] = useState(false);
  const data = (projects.data ?? []).map((p) => ({
    value: String(p.id),
    label: p.description ? `${p.code} – ${p.description}` : p.code,
  }));
  return (
    <>
      <Group gap={6} align="flex-end" wrap="nowrap">
        <Select
          label={label}
          placeholder={placeholder}
          data={data}
          value={value ? String(value) : null}
          onChange={(next) => onChange(next ? Number(next) : null)}
          clearable
          searchable
          nothingFoundMessage="Kein Projekt gefunden"
          disabled={disabled}
          style={{ flex: 1, minWidth: 0 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Tooltip label="Neues Projekt anlegen">
          <ActionIcon
            variant="light"
            size={36}
            aria-label="Neues Projekt anlegen"
            onClick={() => setCreating(true)}
            disabled={disabled}
          >
            <PlusIcon />
          </ActionIcon>
        </Tooltip>
      </Group>
      <CreateProjectModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(project) => onChange(project.id)}
      />
    </>
  );
}
