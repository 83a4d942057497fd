import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { CHARGE_TYPES, DEFAULT_INCLUSIONS, includedChargeTypes, type CostInclusions } from '@/lib/cost';
import { renderWithProviders } from '@/test/render';
import { InclusionsSelect } from './inclusions-select';

const PRESETS = ['All charges', 'Usage only', 'Exclude credits and refunds', 'Exclude tax'];

function Harness({ initial, reported, onChange }: { initial: CostInclusions; reported?: string[]; onChange(next: CostInclusions): void }) {
  const [value, setValue] = useState(initial);
  return (
    <InclusionsSelect
      value={value}
      reported={reported}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    />
  );
}

function renderSelect(initial: CostInclusions = DEFAULT_INCLUSIONS, reported?: string[]) {
  const onChange = vi.fn<(next: CostInclusions) => void>();
  const rendered = renderWithProviders(<Harness initial={initial} reported={reported} onChange={onChange} />);
  const include = screen.getByRole('combobox', { name: 'Include' });
  const last = () => onChange.mock.calls.at(-1)![0];
  return { ...rendered, include, onChange, last };
}

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);
const chipLabels = (include: HTMLElement) => Array.from(include.querySelectorAll('.MuiChip-label')).map((chip) => chip.textContent);
/** Whether the option is ticked: its aria-selected (the tick box in it is a picture, not a control). */
const ticked = (name: string) => screen.getByRole('option', { name }).getAttribute('aria-selected') === 'true';

describe('Include select: actions and presets', () => {
  it('opens with Select all, Clear, the four presets, then every charge type and those the API reported', async () => {
    const { user, include } = renderSelect(DEFAULT_INCLUSIONS, ['EdpDiscount', 'Usage']);
    await user.click(include);
    expect(optionNames()).toEqual(['Select all', 'Clear', ...PRESETS, ...CHARGE_TYPES.map((t) => t.label), 'EdpDiscount']);
  });

  it('sets a preset in one click, closes the menu and shows the preset as one chip', async () => {
    const { user, include, onChange, last } = renderSelect(DEFAULT_INCLUSIONS, ['EdpDiscount']);
    expect(chipLabels(include)).toEqual(['Usage', 'Usage (GCP)']);
    await user.click(include);
    await user.click(screen.getByRole('option', { name: 'Exclude credits and refunds' }));
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(onChange).toHaveBeenCalledTimes(1);
    const included = includedChargeTypes(last());
    expect(included).toContain('EdpDiscount');
    expect(included).toContain('Tax');
    for (const left of ['Credit', 'Refund', 'Discount']) expect(included).not.toContain(left);
    expect(chipLabels(include)).toEqual(['Exclude credits and refunds']);

    // Ticking one more type leaves the preset: the types show again.
    await user.click(include);
    await user.click(screen.getByRole('option', { name: 'Refund' }));
    await user.keyboard('{Escape}');
    expect(last().Refund).toBe(true);
    expect(chipLabels(include)).toEqual(['Usage', 'Usage (GCP)', `+${included.length - 1}`]);
  });

  it('ticks every charge type with Select all (shown as All charges) and keeps the menu open', async () => {
    const { user, include, last } = renderSelect(DEFAULT_INCLUSIONS, ['EdpDiscount']);
    await user.click(include);
    await user.click(screen.getByRole('option', { name: 'Select all' }));
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    expect(includedChargeTypes(last())).toEqual([...CHARGE_TYPES.map((t) => t.value), 'EdpDiscount']);
    for (const name of ['Usage', 'Credit', 'Tax (GCP)', 'EdpDiscount']) expect(ticked(name)).toBe(true);
    // An option is one control: the tick box in it is a picture, not a nested checkbox.
    expect(within(screen.getByRole('listbox')).queryAllByRole('checkbox')).toEqual([]);
    await user.keyboard('{Escape}');
    expect(chipLabels(include)).toEqual(['All charges']);
  });

  it('unticks every charge type with Clear, which counts every type ("All charge types")', async () => {
    const { user, include, last } = renderSelect();
    await user.click(include);
    await user.click(screen.getByRole('option', { name: 'Clear' }));
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    expect(includedChargeTypes(last())).toEqual([]);
    expect(ticked('Usage')).toBe(false);
    await user.keyboard('{Escape}');
    expect(include).toHaveTextContent('All charge types');
    expect(chipLabels(include)).toEqual([]);
  });

  it('shows the preset a selection already equals when it opens closed', () => {
    const usageOnly = Object.fromEntries(
      CHARGE_TYPES.map(({ value }) => [value, ['Usage', 'regular', 'DiscountedUsage', 'SavingsPlanCoveredUsage'].includes(value)]),
    );
    const { include } = renderSelect(usageOnly);
    expect(chipLabels(include)).toEqual(['Usage only']);
  });

  it('is keyboard operable: a preset is chosen with the arrows and Enter', async () => {
    const { user, include, last } = renderSelect();
    include.focus();
    await user.keyboard('{Enter}');
    const listbox = await screen.findByRole('listbox');
    // The menu focuses the last ticked type (Usage (GCP), after Usage); two up is the last preset.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Usage (GCP)'));
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(document.activeElement?.textContent).toBe('Exclude tax');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(listbox).not.toBeInTheDocument());
    expect(includedChargeTypes(last())).not.toContain('Tax');
    expect(includedChargeTypes(last())).not.toContain('tax');
    expect(chipLabels(include)).toEqual(['Exclude tax']);
  });
});
