import { Box } from '@mui/material';
import type { BudgetPeriod } from '../../model/types';
import { RIBBON_COLOR, ribbonTone } from './card-rules';

/** The '{period} Budget' ribbon across the card's top corner. */
export function PeriodRibbon({ period }: { period: BudgetPeriod }) {
  const tone = ribbonTone(period);
  return (
    <Box
      data-tone={tone}
      sx={{
        alignSelf: 'flex-start',
        px: 1.5,
        py: 0.25,
        borderRadius: '0 0 8px 0',
        bgcolor: RIBBON_COLOR[tone],
        color: '#fff',
        fontSize: '0.75rem',
        fontWeight: 600,
        letterSpacing: '0.02em',
      }}
    >
      {period} Budget
    </Box>
  );
}
