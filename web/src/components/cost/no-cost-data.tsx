import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Box, Button, Stack, Typography } from '@mui/material';

export const NO_COST_DATA_MESSAGE = 'No cost data available';

const SUGGESTIONS = [
  'Choose a longer time range',
  'Clear or loosen the filters',
  'Include more charge types',
  'Newly connected accounts can take up to 24 hours to show cost data',
];

export interface NoCostDataProps {
  onRefresh?(): void;
  onClearFilters?(): void;
}

/** The empty state of a cost widget (§8): the message, what to try, Refresh Data and Clear Filters. */
export function NoCostData({ onRefresh, onClearFilters }: NoCostDataProps) {
  return (
    <Stack role="status" spacing={1.5} alignItems="center" sx={{ py: 4, px: 2, textAlign: 'center' }}>
      <InsightsOutlinedIcon color="disabled" sx={{ fontSize: 40 }} />
      <Typography variant="h6" component="p">
        {NO_COST_DATA_MESSAGE}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', color: 'text.secondary' }} aria-label="Suggestions">
        {SUGGESTIONS.map((text) => (
          <Typography key={text} component="li" variant="body2">
            {text}
          </Typography>
        ))}
      </Box>
      {onRefresh || onClearFilters ? (
        <Stack direction="row" spacing={1}>
          {onRefresh ? (
            <Button variant="contained" startIcon={<RefreshIcon />} onClick={onRefresh}>
              Refresh Data
            </Button>
          ) : null}
          {onClearFilters ? (
            <Button variant="outlined" onClick={onClearFilters}>
              Clear Filters
            </Button>
          ) : null}
        </Stack>
      ) : null}
    </Stack>
  );
}
