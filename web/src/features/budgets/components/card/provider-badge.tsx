import { Chip, Stack } from '@mui/material';
import { providerBadge } from './card-rules';

/** The cloud providers the budget is scoped to (see providerBadge for the +N rule). */
export function ProviderBadge({ providers }: { providers: readonly string[] }) {
  const { shown, more } = providerBadge(providers);
  if (shown.length === 0) return null;
  return (
    <Stack direction="row" spacing={0.5} aria-label="Cloud providers">
      {shown.map((provider) => (
        <Chip key={provider} label={provider} size="small" variant="outlined" />
      ))}
      {more > 0 ? <Chip label={`+${more}`} size="small" variant="outlined" /> : null}
    </Stack>
  );
}
