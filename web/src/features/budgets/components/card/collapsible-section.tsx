import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, Button, Collapse } from '@mui/material';
import { useId, useState, type ReactNode } from 'react';

/** A titled section of the card, closed by default. */
export function CollapsibleSection({ title, children }: { title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const contentId = useId();
  return (
    <Box>
      <Button
        size="small"
        color="inherit"
        aria-expanded={open}
        aria-controls={contentId}
        endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
        onClick={() => setOpen((value) => !value)}
        sx={{ px: 0.5 }}
      >
        {title}
      </Button>
      <Collapse in={open} unmountOnExit>
        <Box id={contentId} sx={{ pt: 0.5, pb: 1 }}>
          {children}
        </Box>
      </Collapse>
    </Box>
  );
}
