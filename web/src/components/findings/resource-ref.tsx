import { Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { resourceHref, typeLabel } from '@/components/inventory';
import type { ResourceRef } from './types';

/** A resource's id as a link that opens its side panel in the inventory. */
export function ResourceLink({ resource }: { resource: ResourceRef }) {
  return (
    <Link
      component={RouterLink}
      to={resourceHref(resource)}
      title={`Open ${resource.resource_id} in the Resource Inventory`}
      sx={{ overflowWrap: 'anywhere' }}
    >
      {resource.resource_id}
    </Link>
  );
}

/** The resource (type, id as a link) and where it is (account, region), in one cell. */
export function ResourceRefCell({ resource }: { resource: ResourceRef }) {
  return (
    <Stack spacing={0.25}>
      <Typography variant="caption" color="text.secondary" title={resource.resource_type}>
        {typeLabel(resource.resource_type)}
      </Typography>
      <ResourceLink resource={resource} />
      <Typography variant="caption" color="text.secondary">
        Account {resource.account_id} · {resource.region}
      </Typography>
    </Stack>
  );
}
