import { screen, waitFor, within } from '@testing-library/react';
import { STORAGE_KEYS } from '@/lib/cost';
import { NOW, currentUrl as search, setup } from '../testing/render-cost-analysis';

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});

describe('Cost Report page', () => {
  it('says there are no saved reports and how to save one', async () => {
    setup('/cost/report');
    expect(screen.getByRole('heading', { level: 1, name: 'Cost Report' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('No saved reports yet');
    expect(screen.getByRole('status')).toHaveTextContent('then click Save Report');
  });

  it('lists the saved reports and opens one in Advanced Cost', async () => {
    localStorage.setItem(
      STORAGE_KEYS.savedReports,
      JSON.stringify([
        {
          id: 'r1',
          name: 'EC2 in October',
          description: 'Compute only',
          timeRange: { preset: 'custom', startDate: '2026-10-01', endDate: '2026-10-31' },
          filters: [],
          groupBy: ['service', 'region'],
          viewType: 'weekly',
          displayType: 'currency',
          costInclusions: { Usage: true },
          savedAt: '2026-11-20T08:15:00.000Z',
        },
      ]),
    );
    const { user, aggrBodies } = setup('/cost/report');
    const table = screen.getByRole('table', { name: 'Saved reports' });
    const row = within(table).getByRole('row', { name: /EC2 in October/ });
    expect(row).toHaveTextContent('Compute only');
    expect(row).toHaveTextContent('Nov 20, 2026');
    expect(row).toHaveTextContent('Oct 1, 2026 – Oct 31, 2026');
    expect(row).toHaveTextContent('Service, Region · Weekly');

    await user.click(within(row).getByRole('button', { name: 'Open EC2 in October' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Advanced Cost' })).toBeInTheDocument();
    await screen.findByTestId('total-cost');
    expect(aggrBodies()[0]).toMatchObject({ start_time: '2026-10-01T00:00:00.000Z', view_type: 'weekly', cost_type: { inclusions: ['Usage'] } });
    expect(search()).toBe('/cost/advanced?period=custom&from=2026-10-01&to=2026-10-31&view=weekly&group=service,region&include=Usage');
    expect(screen.getByText('Showing the saved report “EC2 in October”.')).toBeInTheDocument();
  });

  it('deletes a report', async () => {
    localStorage.setItem(
      STORAGE_KEYS.savedReports,
      JSON.stringify([{ id: 'r1', name: 'Old', description: '', timeRange: { preset: 'thisMonth' }, filters: [], groupBy: [], viewType: 'daily', displayType: 'currency', costInclusions: {}, savedAt: '2026-11-20T08:15:00.000Z' }]),
    );
    const { user } = setup('/cost/report');
    await user.click(screen.getByRole('button', { name: 'Delete Old' }));
    expect(screen.getByRole('status')).toHaveTextContent('No saved reports yet');
  });

  it('says "Report not found" for a link to a report that is gone', async () => {
    setup('/cost/advanced?report=missing');
    expect(await screen.findByText('Report not found')).toBeInTheDocument();
    await waitFor(() => expect(search()).toBe('/cost/advanced?period=thisMonth&view=daily&include=Usage,regular'));
  });
});
