import { Alert, Box } from '@mui/material';
import { serverFieldMessages, WIZARD_MESSAGES } from '../../model/wizard';

/** 'Failed to save budget. Please try again.', with the server's field messages of a 422. */
export function SaveErrorAlert({ error }: { error: unknown }) {
  const messages = serverFieldMessages(error);
  return (
    <Alert severity="error">
      {WIZARD_MESSAGES.saveFailed}
      {messages.length > 0 ? (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </Box>
      ) : null}
    </Alert>
  );
}
