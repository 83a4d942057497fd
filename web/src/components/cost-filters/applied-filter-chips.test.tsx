import { screen, within } from '@testing-library/react';
import { rulesToFlatFilters } from '@/lib/cost-filters';
import { renderWithProviders } from '@/test/render';
import { AppliedFilterChips } from './applied-filter-chips';

const filters = rulesToFlatFilters([
  {
    id: 'r',
    provider: 'aws',
    conditions: ['AmazonEC2', 'AmazonS3', 'AWSLambda', 'AmazonRDS', 'AmazonVPC', 'AmazonSNS'].map((service, i) => ({
      id: `c${i}`,
      field: i % 2 === 0 ? 'service' : 'region',
      operator: 'equals',
      value: [service],
    })),
  },
]);

describe('AppliedFilterChips', () => {
  it('shows at most 5 chips, then how many more', async () => {
    const onClick = vi.fn();
    const { user } = renderWithProviders(<AppliedFilterChips filters={filters} onClick={onClick} />);
    const list = screen.getByRole('list', { name: 'Applied filters' });
    const chips = within(list).getAllByRole('listitem').map((li) => li.textContent);
    expect(chips).toEqual(['AWS', 'Service equals AmazonEC2', 'Region equals AmazonS3', 'Service equals AWSLambda', 'Region equals AmazonRDS', '+2 more']);
    await user.click(screen.getByText('+2 more'));
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('shows nothing without filters', () => {
    renderWithProviders(<AppliedFilterChips filters={[]} />);
    expect(screen.queryByRole('list', { name: 'Applied filters' })).not.toBeInTheDocument();
  });
});
