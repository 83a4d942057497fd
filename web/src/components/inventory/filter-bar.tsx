import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Button, Checkbox, Collapse, FormControlLabel, MenuItem, Paper, Stack, TextField } from '@mui/material';
import { DurationPicker } from './duration-picker';
import { STATE_OPTIONS, type InventoryFilters, type StateFilter } from './filters';
import { typeLabel, type FilterOptions } from './format';
import { MultiSelect } from './multi-select';
import { SearchBox } from './search-box';
import { TagFilters } from './tag-filters';

export interface FilterBarProps {
  filters: InventoryFilters;
  onChange(filters: InventoryFilters): void;
  onResetAll(): void;
  options: FilterOptions;
  tagsOpen: boolean;
  onTagsOpenChange(open: boolean): void;
  /** Tags Search: the Show Untagged checkbox. */
  showUntaggedOption?: boolean;
  now?: Date;
}

/** Spec 1 §2.7 filter bar; every change reloads (§4). */
export function FilterBar({ filters, onChange, onResetAll, options, tagsOpen, onTagsOpenChange, showUntaggedOption, now }: FilterBarProps) {
  const set = (patch: Partial<InventoryFilters>) => onChange({ ...filters, ...patch });
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ flexWrap: 'wrap', rowGap: 1.5 }}>
        <MultiSelect label="AWS Account" options={options.accounts} value={filters.accounts} onChange={(accounts) => set({ accounts })} />
        <MultiSelect label="Region" options={options.regions} value={filters.regions} onChange={(regions) => set({ regions })} />
        <MultiSelect
          label="Resource Types"
          options={options.types}
          value={filters.types}
          optionLabel={typeLabel}
          onChange={(types) => set({ types })}
          minWidth={200}
        />
        <TextField
          select
          size="small"
          label="Resource State"
          value={filters.state}
          onChange={(event) => set({ state: event.target.value as StateFilter })}
          sx={{ minWidth: 150 }}
        >
          {STATE_OPTIONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
        <DurationPicker value={filters.window} onChange={(window) => set({ window })} now={now} />
      </Stack>
      <Stack direction="row" spacing={1.5} alignItems="center" sx={{ mt: 1.5, flexWrap: 'wrap', rowGap: 1 }}>
        <SearchBox
          applied={filters.search}
          onSearch={(search) => set({ search })}
          types={filters.types.length ? filters.types : options.types}
        />
        <Button
          variant="text"
          aria-expanded={tagsOpen}
          endIcon={tagsOpen ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          onClick={() => {
            // §4: toggling the tags expander clears the tag filters.
            if (filters.tags.length) set({ tags: [] });
            onTagsOpenChange(!tagsOpen);
          }}
        >
          Tags
        </Button>
        {showUntaggedOption ? (
          <FormControlLabel
            control={
              <Checkbox
                checked={filters.notTagged}
                // §4: Show Untagged checked clears the tag filters.
                onChange={(event) => set(event.target.checked ? { notTagged: true, tags: [] } : { notTagged: false })}
              />
            }
            label="Show Untagged"
          />
        ) : null}
      </Stack>
      <Collapse in={tagsOpen} unmountOnExit>
        <TagFilters filters={filters.tags} onChange={(tags) => set({ tags })} onResetAll={onResetAll} />
      </Collapse>
    </Paper>
  );
}
