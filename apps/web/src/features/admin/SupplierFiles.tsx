import { Anchor, Button, FileButton, Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { supplierFileLimits, supplierMessages } from '@shk/contracts';
import { ApiError } from '../../api/problem';
import { downloadApiFile } from '../../api/download';
import { toast } from '../../ui/toast';
import { useSupplierFiles, type SupplierSettings } from '../../api/suppliers';

const extensionOf = (name: string) => name.toLowerCase().split('.').pop() ?? '';

/** §5 in the browser too (the server decides by content): format, size, one file. */
function precheck(file: File, limit: { maxBytes: number; maxMb: number; extensions: readonly string[] }) {
  if (!limit.extensions.includes(extensionOf(file.name))) return supplierMessages.fileFormat;
  if (file.size > limit.maxBytes) return supplierMessages.maxFileSize(limit.maxMb);
  return null;
}

function failure(e: unknown, fallback: string) {
  if (e instanceof ApiError && e.status === 403) toast.error(supplierMessages.notAuthorised);
  else if (e instanceof ApiError && e.problem && e.status < 500) toast.error(e.problem.title);
  else toast.error(fallback);
}

/** Logo and onboarding template: upload, download with the original name, delete. */
export function SupplierFiles({ supplier, readOnly }: { supplier: SupplierSettings; readOnly: boolean }) {
  const bp = supplier.supplierBusinessPartnerNo;
  const files = useSupplierFiles(bp);

  const upload = async (
    file: File | null,
    limit: (typeof supplierFileLimits)[keyof typeof supplierFileLimits],
    run: (f: File) => Promise<unknown>,
    success: string,
    fallback: string,
  ) => {
    if (!file) return;
    const problem = precheck(file, limit);
    if (problem) return void toast.error(problem);
    try {
      await run(file);
      toast.success(success);
    } catch (e) {
      failure(e, fallback);
    }
  };
  const remove = async (run: () => Promise<unknown>, success: string, fallback: string) => {
    try {
      await run();
      toast.success(success);
    } catch (e) {
      failure(e, fallback);
    }
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Paper withBorder p="sm" radius="md" aria-label="Logo">
        <Stack gap="xs">
          <Text fw={600}>Logo</Text>
          {supplier.logoUrl ? (
            <Group>
              <Image src={supplier.logoUrl} alt={`Logo ${supplier.name}`} h={64} w="auto" fit="contain" />
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() =>
                  void downloadApiFile(`/v1/Suppliers/${bp}/logo?original=true`, supplier.logoFileName ?? 'logo')
                }
              >
                {supplier.logoFileName}
              </Anchor>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              Kein Logo
            </Text>
          )}
          {!readOnly && (
            <Group gap="xs">
              <FileButton
                accept=".svg,.png,.jpg,.jpeg,image/svg+xml,image/png,image/jpeg"
                onChange={(f) =>
                  void upload(
                    f,
                    supplierFileLimits.logo,
                    files.uploadLogo.mutateAsync,
                    supplierMessages.logoSuccess,
                    supplierMessages.logoFailure,
                  )
                }
              >
                {(props) => (
                  <Button size="xs" variant="light" loading={files.uploadLogo.isPending} {...props}>
                    Logo hochladen
                  </Button>
                )}
              </FileButton>
              {supplier.logoUrl && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    void remove(
                      files.deleteLogo.mutateAsync,
                      supplierMessages.logoRemoved,
                      supplierMessages.logoFailure,
                    )
                  }
                >
                  Logo entfernen
                </Button>
              )}
            </Group>
          )}
          <Text size="xs" c="dimmed">
            SVG, PNG, JPG oder JPEG, höchstens 1 MB
          </Text>
        </Stack>
      </Paper>
      <Paper withBorder p="sm" radius="md" aria-label="Neukundenformular">
        <Stack gap="xs">
          <Text fw={600}>Neukundenformular</Text>
          {supplier.onboardingFormTemplateFileName ? (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() =>
                void downloadApiFile(
                  `/v1/SupplierOnboardingFormTemplates/${bp}`,
                  supplier.onboardingFormTemplateFileName!,
                )
              }
            >
              {supplier.onboardingFormTemplateFileName}
            </Anchor>
          ) : (
            <Text size="sm" c="dimmed">
              Kein Formular
            </Text>
          )}
          {!readOnly && (
            <Group gap="xs">
              <FileButton
                accept=".pdf,application/pdf"
                onChange={(f) =>
                  void upload(
                    f,
                    supplierFileLimits.template,
                    files.uploadTemplate.mutateAsync,
                    supplierMessages.templateSuccess,
                    supplierMessages.templateFailure,
                  )
                }
              >
                {(props) => (
                  <Button size="xs" variant="light" loading={files.uploadTemplate.isPending} {...props}>
                    Formular hochladen
                  </Button>
                )}
              </FileButton>
              {supplier.onboardingFormTemplateFileName && (
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() =>
                    void remove(
                      files.deleteTemplate.mutateAsync,
                      supplierMessages.templateRemoved,
                      supplierMessages.templateFailure,
                    )
                  }
                >
                  Formular entfernen
                </Button>
              )}
            </Group>
          )}
          <Text size="xs" c="dimmed">
            PDF, höchstens 25 MB
          </Text>
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
