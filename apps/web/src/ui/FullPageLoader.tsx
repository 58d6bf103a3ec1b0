import { Center, Loader } from '@mantine/core';

export function FullPageLoader() {
  return (
    <Center mih="40vh" aria-busy="true" aria-label="Wird geladen">
      <Loader />
    </Center>
  );
}
