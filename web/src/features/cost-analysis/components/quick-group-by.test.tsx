import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NOW, currentUrl, setup } from '../testing/render-cost-analysis';
import { QuickGroupBy } from './quick-group-by';

const quick = () => screen.getByRole('group', { name: 'Quick group by' });
const button = (name: string) => within(quick()).getByRole('button', { name });
const pressed = () =>
  within(quick())
    .getAllByRole('button')
    .filter((b) => b.getAttribute('aria-pressed') === 'true')
    .map((b) => b.textContent);

describe('QuickGroupBy', () => {
  it('offers Service, Account, Region and Cloud Provider; the single current grouping is pressed', () => {
    const { rerender } = render(<QuickGroupBy value={['region']} onChoose={() => {}} />);
    expect(within(quick()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Service', 'Account', 'Region', 'Cloud Provider']);
    expect(pressed()).toEqual(['Region']);
    // Two levels, or a dimension without a button, or none: nothing is pressed.
    rerender(<QuickGroupBy value={['region', 'service']} onChoose={() => {}} />);
    expect(pressed()).toEqual([]);
    rerender(<QuickGroupBy value={['usage_type']} onChoose={() => {}} />);
    expect(pressed()).toEqual([]);
    rerender(<QuickGroupBy value={[]} onChoose={() => {}} />);
    expect(pressed()).toEqual([]);
  });

  it('hands over the clicked dimension; the pressed one again changes nothing', async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<QuickGroupBy value={['service']} onChoose={onChoose} />);
    await user.click(button('Account'));
    expect(onChoose).toHaveBeenCalledWith('account');
    await user.click(button('Service'));
    expect(onChoose).toHaveBeenCalledTimes(1);
  });

  it('is operated with the keyboard: Tab to a button, Enter or Space', async () => {
    const user = userEvent.setup();
    const onChoose = vi.fn();
    render(<QuickGroupBy value={[]} onChoose={onChoose} />);
    await user.tab();
    expect(button('Service')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onChoose).toHaveBeenLastCalledWith('service');
    await user.tab();
    await user.tab();
    expect(button('Region')).toHaveFocus();
    await user.keyboard(' ');
    expect(onChoose).toHaveBeenLastCalledWith('region');
  });
});

describe('Quick group by on Advanced Cost', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });

  it('replaces a two-level Group By with the one dimension, and the link and request follow', async () => {
    const { user, aggrBodies } = setup('/cost/advanced?period=thisMonth&group=service,region');
    await screen.findByRole('table', { name: 'Cost by group' });
    expect(pressed()).toEqual([]);

    await user.click(button('Account'));

    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Account');
    expect(pressed()).toEqual(['Account']);
    expect(currentUrl()).toBe('/cost/advanced?period=thisMonth&view=daily&group=account&include=Usage,regular');
    await waitFor(() => expect(aggrBodies().at(-1)).toMatchObject({ group_by_dimensions: ['account'] }), { timeout: 4000 });
  });

  it('after a drill keeps the drill’s filter and breadcrumb; a crumb still steps back', async () => {
    const { user } = setup('/cost/advanced?period=thisMonth&group=usage_type&filters=*(service=AmazonEC2)&drill=service:AmazonEC2');
    await screen.findByRole('table', { name: 'Cost by group' });

    await user.click(button('Region'));

    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Region');
    expect(within(screen.getByRole('list', { name: 'Applied filters' })).getByText('Service equals AmazonEC2')).toBeInTheDocument();
    const path = screen.getByRole('navigation', { name: 'Drill-down path' });
    expect(within(path).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['All costs', 'Service: AmazonEC2']);
    expect(currentUrl()).toBe(
      '/cost/advanced?period=thisMonth&view=daily&group=region&include=Usage,regular&filters=*(service=AmazonEC2)&drill=service:AmazonEC2',
    );

    // All costs: the drill's condition goes and the grouping is the one the drill was clicked in.
    await user.click(within(path).getByRole('button', { name: 'All costs' }));
    expect(screen.queryByRole('list', { name: 'Applied filters' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Group By' })).toHaveTextContent('Service');
    expect(pressed()).toEqual(['Service']);
  });
});
