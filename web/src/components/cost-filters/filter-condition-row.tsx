import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { IconButton, MenuItem, Stack, TextField } from '@mui/material';
import {
  CONDITION_FIELDS,
  DROPDOWN_MAX_HEIGHT,
  EMPTY_PROVIDER_OPTIONS,
  TAG_VALUE_OPERATORS,
  VALUE_OPERATORS,
  conditionFieldLabel,
  isValuelessTagOperator,
  type FilterCondition,
  type Provider,
  type ProviderOptions,
  type TagValueOperator,
} from '@/lib/cost-filters';
import { TagKeyInput } from './tag-key-input';
import { ValuesInput } from './values-input';

export interface FilterConditionRowProps {
  condition: FilterCondition;
  provider: Provider | '';
  /** The rule's provider's options (empty while loading or after a failure). */
  options?: ProviderOptions;
  onFieldChange(field: FilterCondition['field']): void;
  /** equals / not equals; a tag also "is missing" (is_empty) and "is present" (is_not_empty). */
  onOperatorChange(operator: TagValueOperator): void;
  onValueChange(value: string[]): void;
  onTagKeyChange(tagKey: string): void;
  onRemove(): void;
}

const MENU_PROPS = { slotProps: { paper: { sx: { maxHeight: DROPDOWN_MAX_HEIGHT } } } };

function valueOptions(condition: FilterCondition, options: ProviderOptions): string[] {
  switch (condition.field) {
    case 'service':
      return options.services;
    case 'region':
      return options.regions;
    case 'account':
      return options.accounts;
    case 'tag':
      return options.tags[condition.tagKey ?? ''] ?? [];
    default:
      return [];
  }
}

/** One condition: field, operator, values (a tag adds its key; values optional, none for is missing / is present). */
export function FilterConditionRow({ condition, provider, options = EMPTY_PROVIDER_OPTIONS, onFieldChange, onOperatorChange, onValueChange, onTagKeyChange, onRemove }: FilterConditionRowProps) {
  const isTag = condition.field === 'tag';
  const operator = isTag ? (condition.tagValueOperator ?? 'equals') : condition.operator;
  const operators = isTag ? TAG_VALUE_OPERATORS : VALUE_OPERATORS;
  const fieldLabel = condition.field ? conditionFieldLabel(condition.field, provider) : '';
  return (
    <Stack direction="row" spacing={1} alignItems="flex-start" role="group" aria-label={fieldLabel ? `${fieldLabel} condition` : 'New condition'}>
      <TextField
        select
        size="small"
        label="Field"
        value={condition.field}
        onChange={(e) => onFieldChange(e.target.value as FilterCondition['field'])}
        slotProps={{ select: { MenuProps: MENU_PROPS } }}
        sx={{ minWidth: 120 }}
      >
        {CONDITION_FIELDS.map((f) => (
          <MenuItem key={f.value} value={f.value}>
            {conditionFieldLabel(f.value, provider)}
          </MenuItem>
        ))}
      </TextField>
      {isTag ? <TagKeyInput value={condition.tagKey ?? ''} options={Object.keys(options.tags)} onChange={onTagKeyChange} /> : null}
      <TextField
        select
        size="small"
        label="Operator"
        value={operator}
        onChange={(e) => onOperatorChange(e.target.value as TagValueOperator)}
        slotProps={{ select: { MenuProps: MENU_PROPS } }}
        sx={{ minWidth: 120 }}
      >
        {operators.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
      {isTag && isValuelessTagOperator(operator) ? null : (
        <ValuesInput
          label="Values"
          value={condition.value}
          options={valueOptions(condition, options)}
          optionNames={condition.field === 'account' ? options.accountNames : undefined}
          onChange={onValueChange}
        />
      )}
      <IconButton aria-label="Remove condition" onClick={onRemove} size="small" sx={{ mt: 0.5 }}>
        <DeleteOutlineIcon fontSize="small" />
      </IconButton>
    </Stack>
  );
}
