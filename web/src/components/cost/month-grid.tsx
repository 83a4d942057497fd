import { Box, ButtonBase, Typography } from '@mui/material';
import { WEEKDAYS, formatDayName, formatMonthTitle, monthWeeks, type CalendarMonth } from './calendar';

export interface MonthGridProps {
  month: CalendarMonth;
  /** YYYY-MM-DD; days after it cannot be chosen. */
  today: string;
  startDate?: string;
  endDate?: string;
  onSelectDay(day: string): void;
}

/** One month of the range picker: a grid of day buttons, the chosen range highlighted. */
export function MonthGrid({ month, today, startDate, endDate, onSelectDay }: MonthGridProps) {
  const title = formatMonthTitle(month);
  const weeks = monthWeeks(month);
  return (
    <Box role="group" aria-label={title} sx={{ minWidth: 252 }}>
      <Typography variant="subtitle2" component="h3" align="center" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, 36px)', gap: '2px', justifyContent: 'center' }}>
        {WEEKDAYS.map((weekday) => (
          <Typography key={weekday.short} variant="caption" color="text.secondary" align="center" title={weekday.long} aria-hidden>
            {weekday.short}
          </Typography>
        ))}
        {weeks.flat().map((day, index) => {
          if (day === null) return <Box key={`pad-${index}`} />;
          const future = day > today;
          const edge = day === startDate || day === endDate;
          const inside = Boolean(startDate && endDate && day > startDate && day < endDate);
          return (
            <ButtonBase
              key={day}
              disabled={future}
              aria-label={formatDayName(day)}
              aria-pressed={edge || inside}
              onClick={() => onSelectDay(day)}
              sx={{
                height: 36,
                borderRadius: edge ? '50%' : 1,
                fontSize: 14,
                color: future ? 'text.disabled' : edge ? 'primary.contrastText' : 'text.primary',
                bgcolor: edge ? 'primary.main' : inside ? 'action.selected' : 'transparent',
                outline: day === today && !edge ? '1px solid' : 'none',
                outlineColor: 'primary.main',
                '&:hover': { bgcolor: edge ? 'primary.dark' : 'action.hover' },
              }}
            >
              {Number(day.slice(8))}
            </ButtonBase>
          );
        })}
      </Box>
    </Box>
  );
}
