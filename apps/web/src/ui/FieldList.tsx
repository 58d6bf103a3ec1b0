import type { ReactNode } from 'react';
import { DataList } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

export interface Field {
  label: string;
  value: ReactNode;
}

const isEmpty = (value: ReactNode) => value === null || value === undefined || value === '';

/** Narrow phones: the label stands above its value, which then has the card's full width (a mail address). */
const NARROW_QUERY = '(max-width: 30em)';

/** Label/value pairs as a description list; empty values show a dash. */
export function FieldList({ fields, labelWidth = 180 }: { fields: readonly Field[]; labelWidth?: number }) {
  const narrow = useMediaQuery(NARROW_QUERY, false, { getInitialValueInEffect: false });
  return (
    <DataList
      labelWidth={labelWidth}
      withDivider
      orientation={narrow ? 'vertical' : 'horizontal'}
      styles={{ itemValue: { minWidth: 0, overflowWrap: 'break-word' } }}
    >
      {fields.map((field) => (
        <DataList.Item key={field.label}>
          <DataList.ItemLabel>{field.label}</DataList.ItemLabel>
          <DataList.ItemValue>{isEmpty(field.value) ? '–' : field.value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}
