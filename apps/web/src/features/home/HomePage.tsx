import { Fragment } from 'react';
import { Stack, Title } from '@mantine/core';
import { useUserProfile } from '../../api/session';
import type { UserProfile } from '../../api/types';
import { FullPageLoader } from '../../ui/FullPageLoader';
import { Page } from '../../ui/Page';
import { homeSections, type HomeSlots } from './sections';

function greeting(profile: UserProfile) {
  const name = `${profile.firstName} ${profile.lastName}`.trim();
  return name ? `Guten Tag, ${name}` : 'Guten Tag';
}

/** / – composed of the sections in ./sections for the user's role (search stage, slideshow, categories, recently viewed …). */
export default function HomePage({ slots = {} }: { slots?: HomeSlots }) {
  const profile = useUserProfile();
  if (!profile.data) return <FullPageLoader />;
  const user = profile.data;
  return (
    <Page title="Startseite">
      <Stack gap="xl">
        <Title order={2} size="h3" fw={600}>
          {greeting(user)}
        </Title>
        {homeSections
          .filter((section) => section.roles.includes(user.role))
          .map((section) => (
            <Fragment key={section.key}>{section.render(user, slots)}</Fragment>
          ))}
      </Stack>
    </Page>
  );
}
