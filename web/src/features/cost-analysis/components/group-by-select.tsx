import { FormControl, InputLabel, ListItemText, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { MultiSelectValue } from '@/components/cost';
import { SelectTick } from '@/components/select-tick';
import { GROUP_BY_OPTIONS, MAX_GROUP_BY, applyGroupBySelection, type GroupKey } from '@/lib/cost';

export interface GroupBySelectProps {
  /** The chosen dimensions, the primary first; empty = Ungrouped. */
  value: Exclude<GroupKey, 'none'>[];
  onChange(dimensions: Exclude<GroupKey, 'none'>[]): void;
}

/** Group By (§2.5): Ungrouped or up to 4 dimensions, with the §4 Ungrouped rule. */
export function GroupBySelect({ value, onChange }: GroupBySelectProps) {
  const labelId = useId();
  const selected: GroupKey[] = value.length ? value : ['none'];
  const full = value.length >= MAX_GROUP_BY;
  return (
    <FormControl size="small" sx={{ minWidth: 220 }}>
      <InputLabel id={labelId}>Group By</InputLabel>
      <Select<GroupKey[]>
        multiple
        labelId={labelId}
        label="Group By"
        value={selected}
        onChange={(event) => {
          const next = typeof event.target.value === 'string' ? (event.target.value.split(',') as GroupKey[]) : event.target.value;
          onChange(applyGroupBySelection(selected, next).filter((key): key is Exclude<GroupKey, 'none'> => key !== 'none'));
        }}
        renderValue={(keys) => (
          <MultiSelectValue labels={keys.map((key) => GROUP_BY_OPTIONS.find((o) => o.value === key)?.label ?? key)} />
        )}
      >
        {GROUP_BY_OPTIONS.map((option) => {
          const checked = selected.includes(option.value);
          return (
            <MenuItem key={option.value} value={option.value} disabled={full && !checked && option.value !== 'none'}>
              <SelectTick checked={checked} />
              <ListItemText primary={option.label} />
            </MenuItem>
          );
        })}
      </Select>
    </FormControl>
  );
}
