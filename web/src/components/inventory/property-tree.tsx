import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Box, ButtonBase, Typography } from '@mui/material';
import { useState } from 'react';

function isBranch(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null && (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0);
}

function leafText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return '[]';
  if (typeof value === 'object') return '{}';
  return String(value);
}

function Node({ name, value, depth, defaultOpen }: { name: string; value: unknown; depth: number; defaultOpen: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  if (!isBranch(value)) {
    return (
      <Box role="treeitem" sx={{ pl: depth * 2 + 3, py: 0.25, fontFamily: 'monospace', fontSize: 13, overflowWrap: 'anywhere' }}>
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {name}:
        </Box>{' '}
        {leafText(value)}
      </Box>
    );
  }
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [`[${index}]`, item]) : Object.entries(value);
  return (
    <Box role="treeitem" aria-expanded={open}>
      <ButtonBase
        onClick={() => setOpen(!open)}
        aria-label={`${open ? 'Collapse' : 'Expand'} ${name}`}
        sx={{ pl: depth * 2, py: 0.25, fontFamily: 'monospace', fontSize: 13, justifyContent: 'flex-start', width: '100%' }}
      >
        {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
        <Box component="span" sx={{ ml: 0.5 }}>
          {name}
          <Box component="span" sx={{ color: 'text.secondary' }}>
            {Array.isArray(value) ? ` [${value.length}]` : ` {${entries.length}}`}
          </Box>
        </Box>
      </ButtonBase>
      {open ? (
        <Box role="group">
          {entries.map(([key, child]) => (
            <Node key={key} name={key} value={child} depth={depth + 1} defaultOpen={false} />
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

/** The collapsible property tree of the side panel (spec 1 §2.7): the top-level keys listed, every branch closed. */
export function PropertyTree({ properties }: { properties: Record<string, unknown> }) {
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No properties found
      </Typography>
    );
  }
  return (
    <Box role="tree" aria-label="Properties">
      {entries.map(([key, value]) => (
        <Node key={key} name={key} value={value} depth={0} defaultOpen={false} />
      ))}
    </Box>
  );
}
