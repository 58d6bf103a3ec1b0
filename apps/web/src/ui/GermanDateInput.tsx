import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
// German month and day names in the calendar.
import 'dayjs/locale/de';

dayjs.extend(customParseFormat);

/** How German users read and type a date. */
const GERMAN_DATE_FORMAT = 'DD.MM.YYYY';

/** Day names and buttons of the calendar in German. */
const germanDateAriaLabels = {
  monthLevelControl: 'Monat wählen',
  yearLevelControl: 'Jahr wählen',
  nextMonth: 'Nächster Monat',
  previousMonth: 'Vorheriger Monat',
  nextYear: 'Nächstes Jahr',
  previousYear: 'Vorheriges Jahr',
  nextDecade: 'Nächstes Jahrzehnt',
  previousDecade: 'Vorheriges Jahrzehnt',
};

/** '1.2.2025', '01.02.2025' → '2025-02-01'; anything else is no date (the field keeps its last valid one). */
function parseGermanDate(text: string): string | null {
  const parsed = dayjs(text.trim(), ['D.M.YYYY', 'DD.MM.YYYY'], 'de', true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
}

type Props = Omit<DateInputProps, 'value' | 'onChange' | 'minDate' | 'maxDate' | 'valueFormat' | 'dateParser'> & {
  /** The date as the API takes it (YYYY-MM-DD), '' when empty. */
  value: string;
  onChange: (value: string) => void;
  /** YYYY-MM-DD */
  min?: string;
  /** YYYY-MM-DD */
  max?: string;
};

/**
 * A date field that reads DD.MM.YYYY whatever the browser's language (a native date input follows the browser's
 * locale: mm/dd/yyyy in an English browser), typed or picked from a German calendar. Value and bounds are the
 * API's YYYY-MM-DD strings.
 */
export function GermanDateInput({ value, onChange, min, max, ...rest }: Props) {
  return (
    <DatesProvider settings={{ locale: 'de', firstDayOfWeek: 1 }}>
      <DateInput
        {...rest}
        value={value || null}
        onChange={(next) => onChange(next ? dayjs(next).format('YYYY-MM-DD') : '')}
        minDate={min || undefined}
        maxDate={max || undefined}
        valueFormat={GERMAN_DATE_FORMAT}
        dateParser={(text) => parseGermanDate(text)}
        placeholder={rest.placeholder ?? 'TT.MM.JJJJ'}
        ariaLabels={germanDateAriaLabels}
        popoverProps={{ withinPortal: true }}
      />
    </DatesProvider>
  );
}
