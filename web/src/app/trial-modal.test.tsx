import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TrialModal } from './trial-modal';

const now = new Date('2026-11-22T12:00:00Z');
const endIn = (days: number) => Math.floor(now.getTime() / 1000) + days * 86_400;

describe('trial modal', () => {
  it('stays hidden with 8 days left', () => {
    render(<TrialModal customer={{ Tier: 0, EndTime: endIn(8) }} supportEmail="help@example.com" now={now} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows "Free trial ends soon!" with 7 days left, with the days and the support e-mail', () => {
    render(<TrialModal customer={{ Tier: 0, EndTime: endIn(7) }} supportEmail="help@example.com" now={now} />);
    const dialog = screen.getByRole('dialog', { name: 'Free trial ends soon!' });
    expect(dialog).toHaveTextContent('Your free trial ends in 7 days');
    expect(dialog).toHaveTextContent('help@example.com');
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', expect.stringContaining('mailto:help@example.com'));
  });

  it('shows with 0 days left, saying the trial has ended', () => {
    render(<TrialModal customer={{ Tier: 0, EndTime: endIn(0) }} now={now} />);
    expect(screen.getByRole('dialog', { name: 'Free trial ends soon!' })).toHaveTextContent('Your free trial has ended.');
  });

  it('is not shown to paying customers or without an end time', () => {
    const { rerender } = render(<TrialModal customer={{ Tier: 1, EndTime: endIn(2) }} now={now} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    rerender(<TrialModal customer={{ Tier: 0, EndTime: null }} now={now} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('hides for the rest of the session once closed', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<TrialModal customer={{ Tier: 0, EndTime: endIn(3) }} now={now} />);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    unmount();
    render(<TrialModal customer={{ Tier: 0, EndTime: endIn(3) }} now={now} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
