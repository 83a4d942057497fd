import AddIcon from '@mui/icons-material/Add';
import { Box, Chip, IconButton, Link, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import { useState } from 'react';
import { TAG_OPERATORS } from './constants';
import { tagFilterOf, takesValues, type TagFilter } from './filters';
import type { TagOperator } from './types';

export interface TagFiltersProps {
  filters: readonly TagFilter[];
  onChange(filters: TagFilter[]): void;
  onResetAll(): void;
}

export function operatorLabel(operator: TagOperator): string {
  return TAG_OPERATORS.find((option) => option.value === operator)?.label ?? operator;
}

export function tagFilterLabel(filter: TagFilter): string {
  const operator = operatorLabel(filter.operator);
  return takesValues(filter.operator) ? `${filter.key} ${operator} ${filter.values.join(', ')}` : `${filter.key} ${operator}`;
}

/**
 * The tag filter row (spec 1 §2.7): key, operator, value; the value input is disabled for
 * Exists, Not Exists, Empty and Not Empty; the add button is disabled while the key is empty.
 * Added filters show as chips (AND-ed); Reset All restores every filter's default.
 */
export function TagFilters({ filters, onChange, onResetAll }: TagFiltersProps) {
  const [key, setKey] = useState('');
  const [operator, setOperator] = useState<TagOperator>('Equal');
  const [value, setValue] = useState('');
  const valueless = !takesValues(operator);

  const add = () => {
    const trimmed = key.trim();
    if (!trimmed) return;
    onChange([...filters, tagFilterOf(trimmed, operator, value)]);
    setKey('');
    setValue('');
    setOperator('Equal');
  };

  return (
    <Box role="group" aria-label="Tag filters" sx={{ mt: 1.5 }}>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <TextField size="small" label="Tag Key" value={key} onChange={(event) => setKey(event.target.value)} />
        <TextField
          select
          size="small"
          label="Operator"
          value={operator}
          onChange={(event) => setOperator(event.target.value as TagOperator)}
          sx={{ minWidth: 150 }}
        >
          {TAG_OPERATORS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label="Tag Value"
          placeholder={valueless ? '' : 'Comma-separated'}
          value={valueless ? '' : value}
          disabled={valueless}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') add();
          }}
        />
        <Tooltip title="Add tag filter">
          <span>
            <IconButton aria-label="Add tag filter" color="primary" disabled={key.trim() === ''} onClick={add}>
              <AddIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Link
          component="button"
          type="button"
          variant="body2"
          onClick={() => {
            setKey('');
            setValue('');
            setOperator('Equal');
            onResetAll();
          }}
        >
          Reset All
        </Link>
      </Stack>
      {filters.length ? (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
          {filters.map((filter, index) => (
            <Chip
              key={`${filter.key}-${index}`}
              size="small"
              label={tagFilterLabel(filter)}
              onDelete={() => onChange(filters.filter((_, i) => i !== index))}
            />
          ))}
        </Stack>
      ) : null}
    </Box>
  );
}
