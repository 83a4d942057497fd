import { Chip, Stack } from '@mui/material';

/** §9: a multi-select shows at most 2 chips, then "+N". */
export const MULTI_SELECT_VISIBLE_CHIPS = 2;

export function MultiSelectValue({ labels }: { labels: string[] }) {
  const shown = labels.slice(0, MULTI_SELECT_VISIBLE_CHIPS);
  const more = labels.length - shown.length;
  return (
    <Stack direction="row" spacing={0.5} sx={{ overflow: 'hidden' }}>
      {shown.map((label) => (
        <Chip key={label} label={label} size="small" />
      ))}
      {more > 0 ? <Chip label={`+${more}`} size="small" variant="outlined" /> : null}
    </Stack>
  );
}
