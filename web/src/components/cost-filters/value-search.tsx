import SearchIcon from '@mui/icons-material/Search';
import { Autocomplete, Box, InputAdornment, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { DROPDOWN_MAX_HEIGHT, providerLabel } from '@/lib/cost-filters';
import { MIN_SEARCH_LENGTH, dimensionLabel, entryKey, entryLabel, entryValueLabel, searchValues, type SearchEntry } from './utils/value-search';

export interface ValueSearchProps {
  /** Every value the filter options hold (buildSearchIndex). */
  index: ReadonlyArray<SearchEntry>;
  /** Name the providers beside a value (more than one provider has data). */
  showProviders?: boolean;
  loading?: boolean;
  onChoose(entry: SearchEntry): void;
}

/**
 * "Search all values": one box over every dimension of the filter options, matches grouped by
 * dimension ("Service · AmazonEC2"); choosing one hands it to `onChoose` and empties the box.
 * The box takes the focus when it appears (the filter panel opens on it): typing needs no click.
 */
export function ValueSearch({ index, showProviders = false, loading = false, onChoose }: ValueSearchProps) {
  const [input, setInput] = useState('');
  const [open, setOpen] = useState(false);
  const matches = useMemo(() => searchValues(index, input), [index, input]);
  const typed = input.trim().length >= MIN_SEARCH_LENGTH;
  return (
    <Autocomplete<SearchEntry, false, false, false>
      size="small"
      options={matches}
      value={null}
      inputValue={input}
      onInputChange={(_event, next, reason) => {
        // Choosing an option would write its label into the box: the box empties instead.
        if (reason !== 'reset') setInput(next);
      }}
      onChange={(_event, entry) => {
        if (!entry) return;
        setInput('');
        onChoose(entry);
      }}
      // The matcher has already filtered; the list is shown as it is.
      filterOptions={(options) => options}
      groupBy={(entry) => dimensionLabel(entry.dimension)}
      getOptionLabel={entryLabel}
      getOptionKey={entryKey}
      isOptionEqualToValue={(a, b) => entryKey(a) === entryKey(b)}
      // Nothing is listed under 2 characters: the list stays shut.
      open={open && typed}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      noOptionsText={loading ? 'Loading values…' : 'No matching values'}
      loading={loading && matches.length === 0}
      loadingText="Loading values…"
      clearOnBlur={false}
      handleHomeEndKeys
      slotProps={{ listbox: { style: { maxHeight: DROPDOWN_MAX_HEIGHT } } }}
      renderOption={({ key, ...props }, entry) => (
        <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1 }}>
          <span>
            {dimensionLabel(entry.dimension)} · {entryValueLabel(entry)}
          </span>
          {showProviders ? (
            <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
              {entry.providers.map(providerLabel).join(', ')}
            </Typography>
          ) : null}
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Search all values"
          placeholder="Type at least 2 characters"
          autoFocus
          slotProps={{
            input: {
              ...params.InputProps,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
