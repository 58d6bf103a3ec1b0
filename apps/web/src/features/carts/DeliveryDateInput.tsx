import { DatePickerInput, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
// German month and day names for the picker; loaded with the only page that has a date picker, not the shell.
import 'dayjs/locale/de';
import { earliestDeliveryDate } from '@shk/contracts';
import { formatDate } from '../../ui/format';

const ariaLabels = {
  monthLevelControl: 'Monat wählen',
  yearLevelControl: 'Jahr wählen',
  nextMonth: 'Nächster Monat',
  previousMonth: 'Vorheriger Monat',
  nextYear: 'Nächstes Jahr',
  previousYear: 'Vorheriges Jahr',
  nextDecade: 'Nächstes Jahrzehnt',
  previousDecade: 'Vorheriges Jahrzehnt',
};

interface DeliveryDateInputProps {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  placeholder?: string;
}

/**
 * Delivery date (spec §5): a picker without keyboard entry, not before tomorrow, clearable (an empty date is
 * sent as null). Days carry their German date as accessible name.
 */
export function DeliveryDateInput({
  label,
  value,
  onChange,
  placeholder = 'Kein Wunschtermin',
}: DeliveryDateInputProps) {
  return (
    <DatesProvider settings={{ locale: 'de', firstDayOfWeek: 1 }}>
      <DatePickerInput
        label={label}
        placeholder={placeholder}
        value={value}
        onChange={(next) => onChange(next ? dayjs(next).format('YYYY-MM-DD') : null)}
        minDate={earliestDeliveryDate()}
        valueFormat="D.M.YYYY"
        clearable
        clearButtonProps={{ 'aria-label': `${label} entfernen` }}
        ariaLabels={ariaLabels}
        getDayProps={(date) => ({ 'aria-label': formatDate(`${date}T12:00:00Z`) })}
        popoverProps={{ withinPortal: true }}
      />
    </DatesProvider>
  );
}
