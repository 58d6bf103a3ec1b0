import { useId, type ReactNode } from 'react';
import { Collapse, Group, Paper, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { timings } from '@shk/contracts';
import { ChevronDownIcon } from './icons';
import classes from './ExpandableSection.module.css';

interface ExpandableSectionProps {
  title: ReactNode;
  /** Shown right of the title, e.g. a count. */
  aside?: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}

/** A titled section that folds open and closed (500 ms, spec). */
export function ExpandableSection({ title, aside, defaultOpen = false, children }: ExpandableSectionProps) {
  const [opened, { toggle }] = useDisclosure(defaultOpen);
  const contentId = useId();
  return (
    <Paper withBorder radius="md" component="section">
      <UnstyledButton className={classes.header} onClick={toggle} aria-expanded={opened} aria-controls={contentId}>
        <Group justify="space-between" wrap="nowrap" w="100%">
          <Text fw={600}>{title}</Text>
          <Group gap="sm" wrap="nowrap">
            {aside}
            <ChevronDownIcon className={classes.chevron} data-opened={opened || undefined} />
          </Group>
        </Group>
      </UnstyledButton>
      <Collapse expanded={opened} transitionDuration={timings.collapseMs} id={contentId}>
        <div className={classes.content}>{children}</div>
      </Collapse>
    </Paper>
  );
}
