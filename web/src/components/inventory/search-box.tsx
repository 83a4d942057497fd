import SearchIcon from '@mui/icons-material/Search';
import { Autocomplete, IconButton, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import { useEffect, useState } from 'react';
import { useResourceParams } from './api';
import type { AppliedSearch, SearchMode } from './filters';

export interface SearchBoxProps {
  applied: AppliedSearch | null;
  onSearch(search: AppliedSearch | null): void;
  /** The chosen resource types, or every known type (the attributes offered). */
  types: readonly string[];
}

/**
 * "Resource ID / Resource Attributes" (spec 1 §2.7, §4): the search button is disabled while
 * the value is empty; clearing the value reloads without it. In attribute mode the value is
 * compared with one property (a FlatPath of `GET /v1/resource/params`).
 */
export function SearchBox({ applied, onSearch, types }: SearchBoxProps) {
  const [mode, setMode] = useState<SearchMode>(applied?.mode ?? 'id');
  const [text, setText] = useState(applied?.text ?? '');
  const [param, setParam] = useState<string | null>(applied?.param ?? null);
  const params = useResourceParams(types, mode === 'attribute' && types.length > 0);

  // Reset All: the applied search is gone, so is the text.
  useEffect(() => {
    if (applied === null) setText('');
  }, [applied]);

  const options = params.data ?? [];
  const canSearch = text.trim() !== '' && (mode === 'id' || param !== null);
  const search = () => {
    if (!canSearch) return;
    onSearch(mode === 'id' ? { mode, text: text.trim() } : { mode, text: text.trim(), param: param ?? undefined });
  };

  return (
    <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap', rowGap: 1 }}>
      <TextField
        select
        size="small"
        label="Search by"
        value={mode}
        onChange={(event) => {
          setMode(event.target.value as SearchMode);
          setParam(null);
          if (applied) onSearch(null);
        }}
        sx={{ minWidth: 170 }}
      >
        <MenuItem value="id">Resource ID</MenuItem>
        <MenuItem value="attribute">Resource Attributes</MenuItem>
      </TextField>
      {mode === 'attribute' ? (
        <Autocomplete
          size="small"
          options={options.map((option) => option.FlatPath)}
          getOptionLabel={(flatPath) => {
            const option = options.find((o) => o.FlatPath === flatPath);
            return option ? `${option.DisplayName} (${option.resourceType.split('::').slice(1).join(' ')})` : flatPath;
          }}
          value={param}
          onChange={(_, value) => setParam(value)}
          loading={params.isFetching}
          noOptionsText={types.length ? 'No attributes found' : 'No resource types found'}
          renderInput={(props) => <TextField {...props} label="Attribute" />}
          sx={{ minWidth: 220 }}
        />
      ) : null}
      <TextField
        size="small"
        label={mode === 'id' ? 'Resource ID' : 'Attribute value'}
        placeholder={mode === 'id' ? 'Search by resource ID, ARN or tag value' : 'Value'}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (event.target.value === '' && applied) onSearch(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') search();
        }}
        sx={{ minWidth: 240 }}
      />
      <Tooltip title="Search">
        <span>
          <IconButton aria-label="Search" disabled={!canSearch} onClick={search}>
            <SearchIcon />
          </IconButton>
        </span>
      </Tooltip>
    </Stack>
  );
}
