import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Chip, IconButton, Paper, Stack, Typography } from '@mui/material';
import { Fragment } from 'react';
import { MAX_FILTERS_PER_GROUP, providerLabel, type FilterRule, type Provider, type ProviderOptions, type RuleEditorAction } from '@/lib/cost-filters';
import { FilterConditionRow } from './filter-condition-row';
import { ProviderSelect } from './provider-select';

export interface FilterRuleCardProps {
  rule: FilterRule;
  index: number;
  options?: ProviderOptions;
  /** Providers with data in the range, offered besides the three clouds. */
  providers?: ReadonlyArray<Provider>;
  onEdit(action: RuleEditorAction): void;
  /** Asked to add a condition while the rule has no provider. */
  onConditionWithoutProvider(): void;
}

/** One rule: "from" + provider, its conditions joined by AND, and the Condition button. */
export function FilterRuleCard({ rule, index, options, providers, onEdit, onConditionWithoutProvider }: FilterRuleCardProps) {
  const ruleId = rule.id;
  // Shown once a provider is chosen; still shown if the provider is cleared later, so that the
  // panel can say a provider is needed first (spec 1 §5).
  const showAddCondition = Boolean(rule.provider) || rule.conditions.length > 0;
  const canAddMore = rule.conditions.length < MAX_FILTERS_PER_GROUP;
  const addCondition = () => {
    if (!rule.provider) onConditionWithoutProvider();
    else onEdit({ type: 'addCondition', ruleId });
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} role="group" aria-label={`Rule ${index + 1}${rule.provider ? ` (${providerLabel(rule.provider)})` : ''}`}>
      <Stack direction="row" spacing={1.5} alignItems="center">
        <Typography color="text.secondary">from</Typography>
        <ProviderSelect value={rule.provider} providers={providers} onChange={(provider) => onEdit({ type: 'setProvider', ruleId, provider })} />
        <Box sx={{ flex: 1 }} />
        <IconButton aria-label="Remove rule" onClick={() => onEdit({ type: 'removeRule', ruleId })} size="small">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      {rule.conditions.length > 0 ? (
        <Stack spacing={1} sx={{ mt: 2 }}>
          {rule.conditions.map((condition, i) => (
            <Fragment key={condition.id}>
              {i > 0 ? <Chip label="AND" size="small" sx={{ alignSelf: 'flex-start' }} /> : null}
              <FilterConditionRow
                condition={condition}
                provider={rule.provider}
                options={options}
                onFieldChange={(field) => onEdit({ type: 'setField', ruleId, conditionId: condition.id, field })}
                onOperatorChange={(operator) => onEdit({ type: 'setOperator', ruleId, conditionId: condition.id, operator })}
                onValueChange={(value) => onEdit({ type: 'setValue', ruleId, conditionId: condition.id, value })}
                onTagKeyChange={(tagKey) => onEdit({ type: 'setTagKey', ruleId, conditionId: condition.id, tagKey })}
                onRemove={() => onEdit({ type: 'removeCondition', ruleId, conditionId: condition.id })}
              />
            </Fragment>
          ))}
        </Stack>
      ) : null}
      {showAddCondition ? (
        <Button startIcon={<AddIcon />} size="small" onClick={addCondition} disabled={!canAddMore} sx={{ mt: 1.5 }}>
          Condition
        </Button>
      ) : null}
    </Paper>
  );
}
