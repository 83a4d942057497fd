import { ButtonBase, Paper, Stack, Typography } from '@mui/material';
import type { StatusFilter } from '../../model/dashboard';
import type { BudgetSummary } from '../../model/types';

interface Tile {
  label: string;
  count: keyof BudgetSummary;
  /** null: TOTAL BUDGETS, which shows all budgets again. */
  filter: StatusFilter | null;
  color: string;
}

const TILES: Tile[] = [
  { label: 'TOTAL BUDGETS', count: 'totalBudgets', filter: null, color: 'text.primary' },
  { label: 'HEALTHY', count: 'healthyBudgets', filter: 'healthy', color: 'success.main' },
  { label: 'WARNING', count: 'warningBudgets', filter: 'warning', color: 'warning.main' },
  { label: 'CRITICAL', count: 'criticalBudgets', filter: 'critical', color: 'error.main' },
  { label: 'ALERTS', count: 'alertsBudgets', filter: 'alerts', color: 'secondary.main' },
];

export interface SummaryStripProps {
  /** null while the summary loads. */
  summary: BudgetSummary | null;
  active: StatusFilter | null;
  onSelect: (filter: StatusFilter | null) => void;
}

/** The five clickable counts of GET /v1/budgets/summary; a status tile toggles its filter. */
export function SummaryStrip({ summary, active, onSelect }: SummaryStripProps) {
  return (
    <Stack component="ul" direction="row" useFlexGap flexWrap="wrap" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0, mb: 3 }}>
      {TILES.map((tile) => {
        const pressed = tile.filter === active;
        return (
          <Paper
            key={tile.label}
            component="li"
            variant="outlined"
            sx={{ flex: '1 1 150px', borderColor: pressed ? tile.color : undefined, borderWidth: pressed ? 2 : 1 }}
          >
            <ButtonBase
              aria-pressed={pressed}
              onClick={() => onSelect(tile.filter)}
              sx={{ width: '100%', p: 2, flexDirection: 'column', alignItems: 'flex-start', borderRadius: 'inherit' }}
            >
              <Typography variant="caption" color="text.secondary" fontWeight={600} letterSpacing="0.05em">
                {tile.label}
              </Typography>
              <Typography variant="h5" component="span" color={tile.color} fontWeight={700}>
                {summary ? summary[tile.count] : '–'}
              </Typography>
            </ButtonBase>
          </Paper>
        );
      })}
    </Stack>
  );
}
