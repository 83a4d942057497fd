import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Chip, IconButton, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { FilterLogic, FlatFilter } from '@/lib/cost-filters';
import { describeQueryFilter } from '../utils/query-fields';

export const NO_FILTERS_TEXT = 'No filters: the query covers every cost of the period.';

export interface QueryFilterListProps {
  filters: FlatFilter[];
  logic: FilterLogic;
  accountNames: Record<string, string>;
  onLogicChange(logic: FilterLogic): void;
  onRemove(id: string): void;
  onClear(): void;
}

/** The added filters, each removable, the AND / OR logic that joins them, and Clear all. */
export function QueryFilterList({ filters, logic, accountNames, onLogicChange, onRemove, onClear }: QueryFilterListProps) {
  return (
    <Stack direction="row" spacing={1.5} useFlexGap flexWrap="wrap" alignItems="center">
      <ToggleButtonGroup
        exclusive
        size="small"
        value={logic}
        aria-label="Logic"
        onChange={(_event, next: FilterLogic | null) => {
          if (next) onLogicChange(next);
        }}
      >
        <ToggleButton value="and">AND</ToggleButton>
        <ToggleButton value="or">OR</ToggleButton>
      </ToggleButtonGroup>
      {filters.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {NO_FILTERS_TEXT}
        </Typography>
      ) : (
        <Box component="ul" aria-label="Added filters" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0 }}>
          {filters.map((filter) => {
            const label = describeQueryFilter(filter, accountNames);
            return (
              <Box component="li" key={filter.id} sx={{ display: 'inline-flex', alignItems: 'center' }}>
                <Chip label={label} size="small" variant="outlined" />
                <IconButton size="small" aria-label={`Remove filter ${label}`} onClick={() => onRemove(filter.id)}>
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Box>
            );
          })}
        </Box>
      )}
      <Button size="small" onClick={onClear} disabled={filters.length === 0}>
        Clear all
      </Button>
    </Stack>
  );
}
