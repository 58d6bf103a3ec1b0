import type { ReactNode } from 'react';
import { DataList } from '@mantine/core';

export interface Field {
  label: string;
  value: ReactNode;
}

const isEmpty = (value: ReactNode) => value === null || value === undefined || value === '';

/** Label/value pairs as a description list; empty values show a dash. */
export function FieldList({ fields, labelWidth = 180 }: { fields: readonly Field[]; labelWidth?: number }) {
  return (
    <DataList labelWidth={labelWidth} withDivider>
      {fields.map((field) => (
        <DataList.Item key={field.label}>
          <DataList.ItemLabel>{field.label}</DataList.ItemLabel>
          <DataList.ItemValue>{isEmpty(field.value) ? '–' : field.value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}
