import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { ErrorBoundary, ErrorFallbackCard } from './error-boundary';

let shouldThrow = true;
function Fragile() {
  if (shouldThrow) throw new Error('chart exploded');
  return <p>Chart is fine</p>;
}

describe('error boundary card', () => {
  beforeEach(() => {
    shouldThrow = true;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows the fallback card naming the component', () => {
    render(
      <ErrorBoundary component="Cost Chart" supportEmail="help@example.com">
        <Fragile />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('The Cost Chart encountered an unexpected error.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Report Issue' })).toHaveAttribute('href', expect.stringContaining('mailto:help@example.com'));
  });

  it('renders the children again after Try Again', async () => {
    const user = userEvent.setup();
    render(
      <ErrorBoundary component="Cost Chart">
        <Fragile />
      </ErrorBoundary>,
    );
    shouldThrow = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('Chart is fine')).toBeInTheDocument();
  });

  it('leaves out Report Issue without a support address and reloads on Reload Page', async () => {
    const user = userEvent.setup();
    const onReload = vi.fn();
    function Card() {
      const [resets, setResets] = useState(0);
      return (
        <>
          <ErrorFallbackCard component="widget" onReset={() => setResets(resets + 1)} onReload={onReload} />
          <output>{resets}</output>
        </>
      );
    }
    render(<Card />);
    expect(screen.queryByRole('link', { name: 'Report Issue' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reload Page' }));
    expect(onReload).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByRole('status')).toHaveTextContent('1');
  });
});
