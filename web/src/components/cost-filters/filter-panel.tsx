import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  Stack,
  Typography,
} from '@mui/material';
import { Fragment, useEffect, useMemo, useReducer, useState } from 'react';
import type { TimeRange } from '@/lib/cost';
import {
  APPLY_MESSAGES,
  flatFiltersToRules,
  getModuleConfig,
  ruleEditorReducer,
  rulesToFlatFilters,
  useFilterProviders,
  useProviderOptions,
  validateRulesForApply,
  type FilterRule,
  type FlatFilter,
  type Provider,
} from '@/lib/cost-filters';
import { FilterRuleCard } from './filter-rule-card';
import { addEntryToRules, buildSearchIndex, type SearchEntry } from './utils/value-search';
import { ValueSearch } from './value-search';

export interface FilterPanelProps {
  open: boolean;
  onClose(): void;
  /** The filters in force; the pending rules are copied from them whenever they change. */
  applied: FlatFilter[];
  onApply(filters: FlatFilter[]): void;
  /** The period whose options the dropdowns offer. */
  timeRange: TimeRange;
  /** The filter module whose limit applies (spec 1 §9); default at most 10 filters. */
  module?: string;
  /**
   * Adds a charge type to the page's Include (a charge type chosen in Search all values); pages
   * without an Include leave it out and the search offers no charge types.
   */
  onIncludeChargeType?(chargeType: string): void;
}

/** The filter panel overlay (spec 1 §2.12): rules ORed, each a provider and ANDed conditions. */
export function FilterPanel({ open, onClose, applied, onApply, timeRange, module = '', onIncludeChargeType }: FilterPanelProps) {
  const [rules, edit] = useReducer(ruleEditorReducer, applied, flatFiltersToRules);
  const [alert, setAlert] = useState<string | null>(null);

  // Pending rules follow the applied filters (by content, so a new but equal list keeps the
  // edits), and start from them each time the panel opens.
  const appliedKey = JSON.stringify(applied);
  useEffect(() => {
    if (open) {
      edit({ type: 'reset', rules: flatFiltersToRules(JSON.parse(appliedKey) as FlatFilter[]) });
      setAlert(null);
    }
  }, [appliedKey, open]);

  const listed = useFilterProviders(timeRange, open);
  const wanted = useMemo(() => {
    const chosen = rules.map((r) => r.provider).filter((p): p is Provider => p !== '');
    return [...new Set<Provider>([...listed.providers, ...chosen])];
  }, [listed.providers, rules]);
  const providerOptions = useProviderOptions(wanted, timeRange, open);
  const loading = open && (listed.isLoading || providerOptions.isLoading);
  const includeChargeTypes = Boolean(onIncludeChargeType);
  const searchIndex = useMemo(
    () => buildSearchIndex(listed.providers, providerOptions.options, { chargeTypes: includeChargeTypes }),
    [listed.providers, providerOptions.options, includeChargeTypes],
  );

  const cancel = () => {
    edit({ type: 'reset', rules: flatFiltersToRules(applied) });
    setAlert(null);
    onClose();
  };

  const apply = (pending: FilterRule[] = rules) => {
    const problem = validateRulesForApply(pending);
    if (problem) {
      setAlert(problem);
      return;
    }
    const filters = rulesToFlatFilters(pending);
    const { maxFilters } = getModuleConfig(module);
    if (filters.length > maxFilters) {
      setAlert(`Maximum ${maxFilters} filters allowed`);
      return;
    }
    setAlert(null);
    onApply(filters);
    onClose();
  };

  const changeRules = (action: Parameters<typeof edit>[0]) => {
    setAlert(null);
    edit(action);
  };

  // Search all values: a charge type goes to Include; any other value joins the pending rules,
  // which are then applied as Apply does (its alerts included).
  const choose = (entry: SearchEntry) => {
    if (entry.dimension === 'charge_type') {
      onIncludeChargeType?.(entry.value);
      onClose();
      return;
    }
    const next = addEntryToRules(rules, entry);
    edit({ type: 'reset', rules: next });
    apply(next);
  };

  return (
    <Dialog
      open={open}
      onClose={cancel}
      maxWidth={false}
      aria-labelledby="filter-panel-title"
      slotProps={{ paper: { sx: { width: 720, maxWidth: '90vw', maxHeight: 600 } } }}
    >
      <DialogTitle id="filter-panel-title" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, pr: 6 }}>
        Filters
        {loading ? <CircularProgress size={18} aria-label="Loading filter options" /> : null}
      </DialogTitle>
      <IconButton aria-label="Close" onClick={cancel} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent dividers>
        <Stack spacing={2}>
          <ValueSearch
            index={searchIndex}
            showProviders={listed.providers.length > 1}
            loading={loading}
            onChoose={choose}
          />
          {alert ? (
            <Alert severity="error" role="alert" onClose={() => setAlert(null)}>
              {alert}
            </Alert>
          ) : null}
          {providerOptions.errorMessage ? (
            <Alert severity="warning" role="status">
              {providerOptions.errorMessage}
            </Alert>
          ) : null}
          {rules.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
              Click "New Rule" to create your first filtering rule
            </Typography>
          ) : (
            rules.map((rule, index) => (
              <Fragment key={rule.id}>
                {index > 0 ? (
                  <Divider>
                    <Typography variant="caption" fontWeight={600}>
                      OR
                    </Typography>
                  </Divider>
                ) : null}
                <FilterRuleCard
                  rule={rule}
                  index={index}
                  options={rule.provider ? providerOptions.options[rule.provider] : undefined}
                  providers={listed.providers}
                  onEdit={changeRules}
                  onConditionWithoutProvider={() => setAlert(APPLY_MESSAGES.conditionWithoutProvider)}
                />
              </Fragment>
            ))
          )}
          <Box>
            <Button startIcon={<AddIcon />} onClick={() => changeRules({ type: 'addRule' })}>
              New Rule
            </Button>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button color="inherit" onClick={() => changeRules({ type: 'clearAll' })} disabled={rules.length === 0} sx={{ mr: 'auto' }}>
          Clear All
        </Button>
        <Button onClick={cancel}>Cancel</Button>
        <Button variant="contained" onClick={() => apply()}>
          Apply
        </Button>
      </DialogActions>
    </Dialog>
  );
}
