import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Stack, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { formatDayLabel, toDateString } from '@/lib/cost/time-range';
import { compareMonths, daysBetween, monthOf, shiftMonth, type CalendarMonth } from './calendar';
import { MonthGrid } from './month-grid';

export interface CustomRangeDialogProps {
  open: boolean;
  initial?: { startDate?: string; endDate?: string };
  onCancel(): void;
  onApply(range: { startDate: string; endDate: string }): void;
  /** The current time (tests); days after its UTC day cannot be chosen. */
  now?: Date;
}

interface Selection {
  startDate?: string;
  endDate?: string;
}

/** The month shown on the right: the end's month, else the start's, else today's. */
function rightMonth(selection: Selection, today: string): CalendarMonth {
  return monthOf(selection.endDate ?? selection.startDate ?? today);
}

/**
 * "Select Custom Date Range" (§2.5): two months side by side; the first click picks the start,
 * the second the end (a day before the start restarts the range). Future days are disabled;
 * Apply Range needs both dates with the start not after the end.
 */
export function CustomRangeDialog({ open, initial, onCancel, onApply, now }: CustomRangeDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onCancel} maxWidth="md" aria-labelledby={titleId}>
      {open ? <RangePicker titleId={titleId} initial={initial} onCancel={onCancel} onApply={onApply} now={now} /> : null}
    </Dialog>
  );
}

function RangePicker({ titleId, initial, onCancel, onApply, now }: Omit<CustomRangeDialogProps, 'open'> & { titleId: string }) {
  const today = toDateString(now ?? new Date());
  const [selection, setSelection] = useState<Selection>(() => ({ startDate: initial?.startDate, endDate: initial?.endDate }));
  const [right, setRight] = useState<CalendarMonth>(() => {
    const month = rightMonth(selection, today);
    return compareMonths(month, monthOf(today)) > 0 ? monthOf(today) : month;
  });
  const left = shiftMonth(right, -1);
  const atCurrentMonth = compareMonths(right, monthOf(today)) >= 0;

  const { startDate, endDate } = selection;
  const days = daysBetween(startDate, endDate);
  const canApply = Boolean(startDate && endDate && startDate <= endDate);

  const selectDay = (day: string) => {
    if (day > today) return;
    setSelection((current) => {
      if (!current.startDate || current.endDate || day < current.startDate) return { startDate: day };
      return { startDate: current.startDate, endDate: day };
    });
  };

  return (
    <>
      <DialogTitle id={titleId}>Select Custom Date Range</DialogTitle>
      <DialogContent>
        <Stack direction="row" alignItems="flex-start" spacing={1}>
          <IconButton aria-label="Previous month" onClick={() => setRight(shiftMonth(right, -1))} sx={{ mt: -0.5 }}>
            <ChevronLeftIcon />
          </IconButton>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3}>
            <MonthGrid month={left} today={today} startDate={startDate} endDate={endDate} onSelectDay={selectDay} />
            <MonthGrid month={right} today={today} startDate={startDate} endDate={endDate} onSelectDay={selectDay} />
          </Stack>
          <IconButton
            aria-label="Next month"
            disabled={atCurrentMonth}
            onClick={() => setRight(shiftMonth(right, 1))}
            sx={{ mt: -0.5 }}
          >
            <ChevronRightIcon />
          </IconButton>
        </Stack>
        <Stack spacing={0.5} sx={{ mt: 2 }} aria-live="polite">
          <Typography variant="body2">
            <strong>Start:</strong> {startDate ? formatDayLabel(startDate) : 'Select a start date'}
            {' · '}
            <strong>End:</strong> {endDate ? formatDayLabel(endDate) : startDate ? 'Select an end date' : '—'}
          </Typography>
          {days > 0 ? (
            <Typography variant="body2" color="text.secondary">
              Duration: {days} {days === 1 ? 'day' : 'days'}
            </Typography>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!canApply}
          onClick={() => startDate && endDate && onApply({ startDate, endDate })}
        >
          Apply Range
        </Button>
      </DialogActions>
    </>
  );
}
