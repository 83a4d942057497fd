import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Divider,
  Drawer,
  IconButton,
  Skeleton,
  Slider,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';
import { errorMessage } from '@/api/api-error';
import { useResourceSnapshots } from './api';
import { formatTime } from './format';
import { PropertyTree } from './property-tree';
import type { PropertySnapshot, Resource } from './types';

export const SNAPSHOTS_FAILED_MESSAGE = 'Failed to load the history of this resource';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

export function TagsTable({ tags }: { tags: Record<string, string> }) {
  const entries = Object.entries(tags ?? {});
  if (entries.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No tags found
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label="Tags">
      <TableHead>
        <TableRow>
          <TableCell>Key</TableCell>
          <TableCell>Value</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {entries.map(([key, value]) => (
          <TableRow key={key}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{key}</TableCell>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{value}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/**
 * The history slider (spec 1 §2.7): up to 8 snapshots, oldest on the left, the newest chosen.
 * The server answers newest first.
 */
function History({ snapshots, index, onChange }: { snapshots: readonly PropertySnapshot[]; index: number; onChange(index: number): void }) {
  if (snapshots.length < 2) return null;
  return (
    <Box sx={{ px: 1 }}>
      <Typography variant="caption" color="text.secondary" id="history-slider-label">
        History ({snapshots.length} snapshots)
      </Typography>
      <Slider
        aria-labelledby="history-slider-label"
        min={0}
        max={snapshots.length - 1}
        step={1}
        marks
        value={index}
        onChange={(_, value) => onChange(value as number)}
        getAriaValueText={(value) => formatTime(snapshots[value]?.c_time)}
        valueLabelDisplay="auto"
        valueLabelFormat={(value) => formatTime(snapshots[value]?.c_time)}
      />
    </Box>
  );
}

export interface ResourcePanelProps {
  resource: Resource | null;
  onClose(): void;
}

/** The right side panel of a resource (spec 1 §2.7). */
export function ResourcePanel({ resource, onClose }: ResourcePanelProps) {
  const snapshots = useResourceSnapshots(resource);
  // Oldest first, so that the slider runs left (old) to right (new).
  const history = [...(snapshots.data ?? [])].reverse();
  const [index, setIndex] = useState(0);
  useEffect(() => setIndex(Math.max(0, history.length - 1)), [history.length, resource]);

  const chosen: PropertySnapshot | undefined = history[index];
  const tags = chosen?.tags ?? resource?.tags ?? {};
  const properties = chosen?.properties ?? resource?.property ?? {};
  const modified = chosen?.c_time ?? resource?.m_time;

  return (
    // Above the app bar (drawer + 1), which would otherwise cover the panel's title and Close.
    <Drawer
      anchor="right"
      open={resource !== null}
      onClose={onClose}
      sx={{ zIndex: (theme) => theme.zIndex.modal }}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 520 } } } }}
    >
      {resource ? (
        <Box role="region" aria-label="Resource details" sx={{ p: 3 }}>
          <Stack direction="row" alignItems="flex-start" justifyContent="space-between" sx={{ mb: 2 }}>
            <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
              {resource.resource_id}
            </Typography>
            <IconButton aria-label="Close" onClick={onClose}>
              <CloseIcon />
            </IconButton>
          </Stack>
          <Stack spacing={1.5}>
            <Field label="Resource Type">{resource.resource_type}</Field>
            <Field label="Resource ID">{resource.resource_id}</Field>
            <Field label="AWS Account">{resource.account_id}</Field>
            <Field label="Region">{resource.region}</Field>
            <Field label="State">{resource.d_time ? `Deleted on ${formatTime(resource.d_time)}` : 'Live'}</Field>
            {snapshots.isPending ? <Skeleton aria-label="Loading history" height={40} /> : null}
            {snapshots.isError ? <Alert severity="warning">{errorMessage(snapshots.error, SNAPSHOTS_FAILED_MESSAGE)}</Alert> : null}
            <History snapshots={history} index={index} onChange={setIndex} />
            <Field label="Modification Time">{formatTime(modified)}</Field>
          </Stack>
          <Divider sx={{ my: 2 }} />
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            Tags
          </Typography>
          <TagsTable tags={tags} />
          <Divider sx={{ my: 2 }} />
          <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
            Properties
          </Typography>
          <PropertyTree properties={properties} />
        </Box>
      ) : null}
    </Drawer>
  );
}
