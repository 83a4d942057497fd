import { Grid } from '@mui/material';
import { WidgetBoundary } from '@/components/cost';
import { CreditsCard } from './credits-card';
import { ProvidersCard } from './providers-card';
import { RefundsCard } from './refunds-card';
import type { SpendState } from './spend-card-content';
import { TotalSpendCard } from './total-spend-card';

/** The four cards of POST /v2/cost/spend (§2.10), each behind its own error boundary. */
export function SpendCards({ spend }: { spend: SpendState }) {
  const cards = [
    { name: 'Total Spend card', card: <TotalSpendCard spend={spend} /> },
    { name: 'Credits Consumption card', card: <CreditsCard spend={spend} /> },
    { name: 'Refunds Received card', card: <RefundsCard spend={spend} /> },
    { name: 'Cloud Providers card', card: <ProvidersCard spend={spend} /> },
  ];
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      {cards.map(({ name, card }) => (
        <Grid key={name} size={{ xs: 12, sm: 6, lg: 3 }}>
          <WidgetBoundary component={name} resetKey={spend.data}>
            {card}
          </WidgetBoundary>
        </Grid>
      ))}
    </Grid>
  );
}
