import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Box, Link, Typography } from '@mui/material';

const ROLES = [
  { name: 'Owner', text: 'Full access to the account, its users, integrations and billing. The owner cannot be edited or deleted.' },
  { name: 'Admin', text: 'Manages users and integrations: invites people, changes roles, connects and removes cloud accounts.' },
  { name: 'User', text: 'View only: sees costs, budgets and resources, and can edit their own name.' },
];

export function RolesExplanation({ documentationUrl }: { documentationUrl?: string }) {
  return (
    <Accordion variant="outlined" disableGutters sx={{ mt: 3, '&:before': { display: 'none' } }}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="roles-explanation" id="roles-explanation-header">
        <Typography sx={{ fontWeight: 600 }}>About roles</Typography>
      </AccordionSummary>
      <AccordionDetails id="roles-explanation">
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { sm: '120px 1fr' }, rowGap: 1.5, columnGap: 2 }}>
          {ROLES.map((role) => (
            <Box key={role.name} sx={{ display: 'contents' }}>
              <Typography component="dt" sx={{ fontWeight: 600 }}>
                {role.name}
              </Typography>
              <Typography component="dd" sx={{ m: 0 }} color="text.secondary">
                {role.text}
              </Typography>
            </Box>
          ))}
        </Box>
        {documentationUrl ? (
          <Typography sx={{ mt: 2 }}>
            <Link href={documentationUrl} target="_blank" rel="noreferrer">
              Read more about roles in the documentation
            </Link>
          </Typography>
        ) : null}
      </AccordionDetails>
    </Accordion>
  );
}
