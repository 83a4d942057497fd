import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { Autocomplete, Box, IconButton, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import { FILTER_TYPE_LABEL } from '../../model/filters';
import type { BudgetFilterType } from '../../model/types';
import { WIZARD_FILTER_TYPES, type WizardFilter } from '../../model/wizard';
import type { FilterValueOptions } from './filter-value-options';

export interface FilterRowProps {
  /** 1-based, names the row for assistive technology ('Filter 1'). */
  position: number;
  filter: WizardFilter;
  options: FilterValueOptions;
  loading: boolean;
  onTypeChange(type: BudgetFilterType): void;
  onValuesChange(values: string[]): void;
  onRemove(): void;
}

/** One filter of step 1: its type, the values it matches (any of them), and a remove button. */
export function FilterRow({ position, filter, options, loading, onTypeChange, onValuesChange, onRemove }: FilterRowProps) {
  // Values already chosen (an edited budget's) stay selectable even when no longer in the data.
  const choices = [...options.values, ...filter.values.filter((value) => !options.values.includes(value))];
  const name = `Filter ${position}`;
  return (
    <Stack role="group" aria-label={name} direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
      <TextField
        select
        size="small"
        label="Filter Type"
        value={filter.filterType}
        onChange={(event) => onTypeChange(event.target.value as BudgetFilterType)}
        sx={{ minWidth: 180 }}
      >
        {WIZARD_FILTER_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {FILTER_TYPE_LABEL[type]}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        multiple
        size="small"
        loading={loading}
        options={choices}
        value={filter.values}
        onChange={(_event, values) => onValuesChange(values)}
        getOptionLabel={(value) => options.labels[value] ?? value}
        renderOption={({ key, ...props }, value) => (
          <Box component="li" key={key} {...props}>
            {options.labels[value] ?? value}
          </Box>
        )}
        renderInput={(params) => <TextField {...params} label={`${FILTER_TYPE_LABEL[filter.filterType]} values`} />}
        sx={{ flex: 1, minWidth: 220 }}
      />
      <Tooltip title="Remove filter">
        <IconButton aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
          <DeleteOutlineIcon />
        </IconButton>
      </Tooltip>
    </Stack>
  );
}
