import { screen } from '@testing-library/react';
import type { FilterRule } from '@/lib/cost-filters';
import { renderWithProviders } from '@/test/render';
import { FilterRuleCard } from './filter-rule-card';

function ruleWithConditions(count: number): FilterRule {
  return {
    id: 'r',
    provider: 'aws',
    conditions: Array.from({ length: count }, (_, i) => ({ id: `c${i}`, field: 'region' as const, operator: 'equals' as const, value: [`region-${i}`] })),
  };
}

describe('FilterRuleCard', () => {
  it('allows at most 20 conditions in a rule', () => {
    const { rerender } = renderWithProviders(<FilterRuleCard rule={ruleWithConditions(19)} index={0} onEdit={vi.fn()} onConditionWithoutProvider={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Condition' })).toBeEnabled();
    rerender(<FilterRuleCard rule={ruleWithConditions(20)} index={0} onEdit={vi.fn()} onConditionWithoutProvider={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Condition' })).toBeDisabled();
  });

  it('takes typed values of at most 100 characters', async () => {
    const onEdit = vi.fn();
    const rule: FilterRule = { id: 'r', provider: 'aws', conditions: [{ id: 'c', field: 'service', operator: 'equals', value: [] }] };
    const { user } = renderWithProviders(<FilterRuleCard rule={rule} index={0} onEdit={onEdit} onConditionWithoutProvider={vi.fn()} />);
    await user.type(screen.getByRole('combobox', { name: 'Values' }), `${'x'.repeat(120)}{Enter}`);
    expect(onEdit).toHaveBeenLastCalledWith({ type: 'setValue', ruleId: 'r', conditionId: 'c', value: ['x'.repeat(100)] });
  });

  it('removes the rule and its conditions', async () => {
    const onEdit = vi.fn();
    const { user } = renderWithProviders(<FilterRuleCard rule={ruleWithConditions(1)} index={0} onEdit={onEdit} onConditionWithoutProvider={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Remove condition' }));
    expect(onEdit).toHaveBeenLastCalledWith({ type: 'removeCondition', ruleId: 'r', conditionId: 'c0' });
    await user.click(screen.getByRole('button', { name: 'Remove rule' }));
    expect(onEdit).toHaveBeenLastCalledWith({ type: 'removeRule', ruleId: 'r' });
  });
});
