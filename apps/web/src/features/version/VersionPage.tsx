import { useQuery } from '@tanstack/react-query';
import { Card, Loader, Text } from '@mantine/core';
import { APP_VERSION } from '@shk/contracts';
import { queryKeys } from '../../api/query-keys';
import { systemApi } from '../../api/system';
import { FieldList } from '../../ui/FieldList';
import { Page } from '../../ui/Page';

/** /version: the UI version of this build and the version the API reports. */
export default function VersionPage() {
  const apiVersion = useQuery({
    queryKey: queryKeys.apiVersion,
    queryFn: systemApi.version,
  });
  const apiValue = apiVersion.isPending ? (
    <Loader size="xs" />
  ) : apiVersion.isError ? (
    <Text c="red" size="sm">
      nicht verfügbar
    </Text>
  ) : (
    apiVersion.data
  );

  return (
    <Page title="Version">
      <Card withBorder radius="md" maw={560}>
        <FieldList
          fields={[
            { label: 'UI-Version', value: <span data-testid="ui-version">{APP_VERSION}</span> },
            { label: 'API-Version', value: <span data-testid="api-version">{apiValue}</span> },
          ]}
        />
      </Card>
    </Page>
  );
}
