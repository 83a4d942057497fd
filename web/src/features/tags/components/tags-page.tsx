import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Dialog, DialogContent, DialogTitle, IconButton, Tab, Tabs } from '@mui/material';
import { useId, useState } from 'react';
import { InventoryExplorer } from '@/components/inventory';
import { PageHeader } from '@/components/page-header';
import { StandardTagsManager } from './standard-tags-manager';
import { TagsOverview } from './tags-overview';

type TagsTab = 'overview' | 'search';

/** `/tags` (spec 1 §2.8): tabs Overview and Tags Search; Standard Tags opens the manager. */
export function TagsPage({ now }: { now?: Date }) {
  const [tab, setTab] = useState<TagsTab>('overview');
  const [managerOpen, setManagerOpen] = useState(false);
  const titleId = useId();
  return (
    <>
      <PageHeader
        title="Tags"
        subtitle="Search resources by tag and manage your standard tags."
        actions={
          <Button variant="outlined" startIcon={<LocalOfferIcon />} onClick={() => setManagerOpen(true)}>
            Standard Tags
          </Button>
        }
      />
      <Tabs value={tab} onChange={(_, value: TagsTab) => setTab(value)} aria-label="Tags tabs" sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
        <Tab value="overview" label="Overview" id="tags-tab-overview" aria-controls="tags-tabpanel-overview" />
        <Tab value="search" label="Tags Search" id="tags-tab-search" aria-controls="tags-tabpanel-search" />
      </Tabs>
      <Box role="tabpanel" id={`tags-tabpanel-${tab}`} aria-labelledby={`tags-tab-${tab}`}>
        {tab === 'overview' ? <TagsOverview now={now} /> : <InventoryExplorer variant="tags" now={now} />}
      </Box>
      <Dialog open={managerOpen} onClose={() => setManagerOpen(false)} maxWidth="lg" fullWidth aria-labelledby={titleId}>
        <DialogTitle id={titleId} sx={{ pr: 7 }}>
          Standard Tags Manager
          <IconButton aria-label="Close" onClick={() => setManagerOpen(false)} sx={{ position: 'absolute', right: 12, top: 12 }}>
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent dividers>
          <StandardTagsManager />
        </DialogContent>
      </Dialog>
    </>
  );
}
