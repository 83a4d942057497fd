import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Button } from '@mui/material';
import { useState } from 'react';

/** Copies `text` to the clipboard; says "Copied" once it did. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy} aria-label={label} sx={{ flexShrink: 0 }}>
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
