import { MenuItem, Select, Stack, Typography } from '@mui/material';
import { RESOURCE_PAGE_SIZES } from '../../model/resources';

/** 'Show: n entries'. */
export function ResourcesPageSize({ value, onChange }: { value: number; onChange(size: number): void }) {
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Typography variant="body2">Show:</Typography>
      <Select<number>
        size="small"
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
        inputProps={{ 'aria-label': 'Entries per page' }}
      >
        {RESOURCE_PAGE_SIZES.map((size) => (
          <MenuItem key={size} value={size}>
            {size}
          </MenuItem>
        ))}
      </Select>
      <Typography variant="body2">entries</Typography>
    </Stack>
  );
}
