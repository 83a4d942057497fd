import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { renderWithProviders } from '@/test/render';
import { MultiSelect, summarise } from './multi-select';

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-south-1'];

function Harness({ onChange }: { onChange(value: string[]): void }) {
  const [value, setValue] = useState<string[]>([]);
  return (
    <MultiSelect
      label="Region"
      options={REGIONS}
      value={value}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    />
  );
}

function renderSelect() {
  const onChange = vi.fn<(value: string[]) => void>();
  const rendered = renderWithProviders(<Harness onChange={onChange} />);
  return { ...rendered, onChange, region: screen.getByRole('combobox', { name: 'Region' }) };
}

/** The options' names and whether each is chosen (its aria-selected), in menu order. */
const optionStates = () =>
  screen.getAllByRole('option').map((option) => [option.textContent, option.getAttribute('aria-selected')]);

describe('Inventory multi-select', () => {
  it('shows All chosen first; an option is one control whose aria-selected carries the tick', async () => {
    const { user, region } = renderSelect();
    expect(region).toHaveTextContent('All');
    await user.click(region);
    expect(optionStates()).toEqual([
      ['All', 'true'],
      ['us-east-1', 'false'],
      ['eu-west-1', 'false'],
      ['ap-south-1', 'false'],
    ]);
    // The tick box inside an option is a picture: no nested checkbox for axe's nested-interactive.
    expect(within(screen.getByRole('listbox')).queryAllByRole('checkbox')).toEqual([]);
  });

  it('chooses options with the arrows and Enter and All clears them', async () => {
    const { user, region, onChange } = renderSelect();
    region.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('listbox');
    expect(document.activeElement).toHaveTextContent('All');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['us-east-1']);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['us-east-1', 'ap-south-1']);
    expect(optionStates().map(([, selected]) => selected)).toEqual(['false', 'true', 'false', 'true']);
    await user.keyboard('{Escape}');
    expect(region).toHaveTextContent('us-east-1, ap-south-1');

    await user.click(region);
    await user.click(screen.getByRole('option', { name: 'All' }));
    expect(onChange).toHaveBeenLastCalledWith([]);
    expect(optionStates()[0]).toEqual(['All', 'true']);
  });
});

describe('summarise', () => {
  it('shows All, up to two labels, then +N', () => {
    expect(summarise([])).toBe('All');
    expect(summarise(['a', 'b'])).toBe('a, b');
    expect(summarise(['a', 'b', 'c', 'd'])).toBe('a, b +2');
  });
});
