import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/render';
import type { AnomalySeriesPoint } from '../types';
import { AnomalyChart } from './anomaly-chart';

const point = (day: string, actual: number, anomalous = false): AnomalySeriesPoint => ({
  day,
  actual,
  expected: 100,
  low: 90,
  high: 110,
  anomalous,
});

describe('AnomalyChart text alternative', () => {
  it('is an image named by its caller, described by its days and anomalous days, next to a table of every day', () => {
    const points = [point('2026-11-01', 100), point('2026-11-02', 180, true), point('2026-11-03', 105)];
    renderWithProviders(<AnomalyChart points={points} currency="USD" ariaLabel="Daily cost of Amazon EC2" />);
    expect(screen.getByRole('img', { name: 'Daily cost of Amazon EC2' })).toHaveAccessibleDescription(
      'Line chart of the actual cost per day over 3 days, Nov 1, 2026 – Nov 3, 2026, with the expected cost and its low–high band; ' +
        '1 anomalous day is marked: Nov 2, 2026. The figures of each day are in the table “Daily cost of Amazon EC2 data”.',
    );
    const rows = within(screen.getByRole('table', { name: 'Daily cost of Amazon EC2 data' })).getAllByRole('row');
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['Day', 'Actual', 'Expected', 'Low', 'High', 'Anomalous'],
      ['Nov 1, 2026', '$100.00', '$100.00', '$90.00', '$110.00', 'No'],
      ['Nov 2, 2026', '$180.00', '$100.00', '$90.00', '$110.00', 'Yes'],
      ['Nov 3, 2026', '$105.00', '$100.00', '$90.00', '$110.00', 'No'],
    ]);
  });

  it('names at most five anomalous days and counts the rest', () => {
    const days = Array.from({ length: 7 }, (_, index) => point(`2026-11-0${index + 1}`, 500, true));
    renderWithProviders(<AnomalyChart points={days} currency="USD" ariaLabel="Daily cost" />);
    expect(screen.getByRole('img', { name: 'Daily cost' })).toHaveAccessibleDescription(
      'Line chart of the actual cost per day over 7 days, Nov 1, 2026 – Nov 7, 2026, with the expected cost and its low–high band; ' +
        '7 anomalous days are marked: Nov 1, 2026, Nov 2, 2026, Nov 3, 2026, Nov 4, 2026, Nov 5, 2026 and 2 more. The figures of each day are in the table “Daily cost data”.',
    );
  });
});
