import { screen, waitFor } from '@testing-library/react';
import { CHARGE_TYPES } from '@/lib/cost';
import { NOW, currentUrl, setup } from '../testing/render-cost-analysis';

const chipLabels = (include: HTMLElement) => Array.from(include.querySelectorAll('.MuiChip-label')).map((chip) => chip.textContent);

describe('Include presets on the Advanced Cost page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });

  it('offers the charge types the API reported, and a preset keeps the selection in the link and the request', async () => {
    const { user, aggrBodies, callsTo } = setup('/cost/advanced', {
      'POST /v2/cost/filters': { body: { cloud_providers: ['aws'], cost_type: ['Usage', 'EdpDiscount'], warnings: [] } },
    });
    await screen.findByTestId('total-cost');
    // Loading the page asks nothing more: the reported types are asked once the menu opens.
    expect(callsTo('POST', '/v2/cost/filters')).toHaveLength(0);
    const include = screen.getByRole('combobox', { name: 'Include' });
    await user.click(include);
    await screen.findByRole('option', { name: 'EdpDiscount' }, { timeout: 4_000 });
    expect(callsTo('POST', '/v2/cost/filters').map((call) => call.body)).toEqual([
      { start_date: '2026-11-01', end_date: '2026-11-23', filters: [] },
    ]);
    await user.click(screen.getByRole('option', { name: 'Exclude tax' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(chipLabels(include)).toEqual(['Exclude tax']);
    const expected = [...CHARGE_TYPES.map((t) => t.value), 'EdpDiscount'].filter((name) => name !== 'Tax' && name !== 'tax');
    expect(currentUrl()).toBe(`/cost/advanced?period=thisMonth&view=daily&include=${expected.join(',')}`);
    await waitFor(() => expect(aggrBodies().at(-1)).toMatchObject({ cost_type: { inclusions: expected } }), { timeout: 4_000 });

    await user.click(include);
    await user.click(screen.getByRole('option', { name: 'All charges' }));
    await waitFor(() => expect(aggrBodies().at(-1)?.cost_type).toBeUndefined(), { timeout: 4_000 });
    expect(chipLabels(include)).toEqual(['All charges']);
  }, 30_000);
});
