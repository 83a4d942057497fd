import { Alert, AlertTitle, Box } from '@mui/material';

export interface MessageListProps {
  messages: string[];
  title?: string;
  severity?: 'error' | 'warning';
}

/** The broken rules as a list; nothing when there are none. */
export function MessageList({ messages, title, severity = 'error' }: MessageListProps) {
  if (messages.length === 0) return null;
  return (
    <Alert severity={severity}>
      {title ? <AlertTitle>{title}</AlertTitle> : null}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </Box>
    </Alert>
  );
}
