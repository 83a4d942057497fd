import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CustomRangeDialog } from './custom-range-dialog';

const NOW = new Date('2026-11-23T15:30:00.000Z');

function renderDialog(initial?: { startDate?: string; endDate?: string }) {
  const onApply = vi.fn();
  const onCancel = vi.fn();
  const view = renderWithProviders(<CustomRangeDialog open initial={initial} onApply={onApply} onCancel={onCancel} now={NOW} />);
  return { ...view, onApply, onCancel, dialog: screen.getByRole('dialog', { name: 'Select Custom Date Range' }) };
}

describe('CustomRangeDialog', () => {
  it('shows the current month and the one before, side by side', () => {
    const { dialog } = renderDialog();
    expect(within(dialog).getByRole('group', { name: 'October 2026' })).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'November 2026' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Next month' })).toBeDisabled();
  });

  it('does not let a future day be chosen', () => {
    const { dialog } = renderDialog();
    expect(within(dialog).getByRole('button', { name: 'Monday, November 23, 2026' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Tuesday, November 24, 2026' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Monday, November 30, 2026' })).toBeDisabled();
  });

  it('keeps Apply Range disabled until both dates are chosen', async () => {
    const { dialog, user, onApply } = renderDialog();
    const apply = within(dialog).getByRole('button', { name: 'Apply Range' });
    expect(apply).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Tuesday, November 3, 2026' }));
    expect(apply).toBeDisabled();
    expect(dialog).toHaveTextContent('Start: Nov 3, 2026');
    expect(dialog).toHaveTextContent('Select an end date');
    await user.click(within(dialog).getByRole('button', { name: 'Tuesday, November 10, 2026' }));
    expect(apply).toBeEnabled();
    expect(dialog).toHaveTextContent('End: Nov 10, 2026');
    expect(dialog).toHaveTextContent('Duration: 8 days');
    await user.click(apply);
    expect(onApply).toHaveBeenCalledWith({ startDate: '2026-11-03', endDate: '2026-11-10' });
  });

  it('starts again when the second click is before the start', async () => {
    const { dialog, user } = renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Tuesday, November 10, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Tuesday, November 3, 2026' }));
    expect(dialog).toHaveTextContent('Start: Nov 3, 2026');
    expect(within(dialog).getByRole('button', { name: 'Apply Range' })).toBeDisabled();
  });

  it('counts a one-day range as 1 day and ranges across months', async () => {
    const { dialog, user } = renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Saturday, October 31, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Saturday, October 31, 2026' }));
    expect(dialog).toHaveTextContent('Duration: 1 day');
    await user.click(within(dialog).getByRole('button', { name: 'Thursday, October 1, 2026' }));
    await user.click(within(dialog).getByRole('button', { name: 'Monday, November 23, 2026' }));
    expect(dialog).toHaveTextContent('Duration: 54 days');
  });

  it('disables Apply Range for an initial range whose start is after its end', () => {
    const { dialog } = renderDialog({ startDate: '2026-11-10', endDate: '2026-11-01' });
    expect(within(dialog).getByRole('button', { name: 'Apply Range' })).toBeDisabled();
  });

  it('opens on the months of the initial range and pages back and forth', async () => {
    const { dialog, user } = renderDialog({ startDate: '2024-02-20', endDate: '2024-03-05' });
    expect(within(dialog).getByRole('group', { name: 'February 2024' })).toBeInTheDocument();
    expect(within(dialog).getByRole('group', { name: 'March 2024' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Thursday, February 29, 2024' })).toHaveAttribute('aria-pressed', 'true');
    expect(dialog).toHaveTextContent('Duration: 15 days');
    await user.click(within(dialog).getByRole('button', { name: 'Previous month' }));
    expect(within(dialog).getByRole('group', { name: 'January 2024' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next month' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next month' }));
    expect(within(dialog).getByRole('group', { name: 'April 2024' })).toBeInTheDocument();
  });

  it('calls onCancel from Cancel', async () => {
    const { dialog, user, onCancel, onApply } = renderDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onApply).not.toHaveBeenCalled();
  });
});
