import { Box, Paper, Stack, Typography } from '@mui/material';
import { CopyButton } from './copy-button';

/** A command or value to copy: monospace, wrapped, with its copy button. */
export function CodeBlock({ title, text, copyLabel }: { title: string; text: string; copyLabel: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5, bgcolor: 'action.hover' }}>
      <Stack direction="row" spacing={1} alignItems="flex-start" justifyContent="space-between">
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary">
            {title}
          </Typography>
          <Typography component="pre" variant="body2" sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text}
          </Typography>
        </Box>
        <CopyButton text={text} label={copyLabel} />
      </Stack>
    </Paper>
  );
}
