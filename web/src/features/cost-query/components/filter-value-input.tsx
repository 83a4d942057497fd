import { Autocomplete, Box, TextField } from '@mui/material';
import { TagKeyInput, ValuesInput } from '@/components/cost-filters';
import { DROPDOWN_MAX_HEIGHT, MAX_FILTER_VALUE_LENGTH, providerLabel } from '@/lib/cost-filters';
import type { QueryValueOptions } from '../hooks/use-query-options';
import type { QueryDraft } from '../types';
import { isMultiValue, queryField } from '../utils/query-fields';

export interface FilterValueInputProps {
  draft: QueryDraft;
  options: QueryValueOptions;
  onValueChange(value: string[]): void;
  onTagKeyChange(tagKey: string): void;
}

/** Names shown beside option values: account names, the clouds' usual names. */
function optionNames(draft: QueryDraft, options: QueryValueOptions): Record<string, string> {
  if (draft.field === 'account_id') return options.accountNames;
  if (draft.field === 'cloud_provider') {
    return Object.fromEntries((options.values.cloud_provider ?? []).map((code) => [code, providerLabel(code)]));
  }
  return {};
}

function SingleValueInput({ value, choices, names, onChange }: { value: string; choices: string[]; names: Record<string, string>; onChange(value: string[]): void }) {
  return (
    <Autocomplete
      freeSolo
      size="small"
      options={choices}
      value={value || null}
      inputValue={value}
      onInputChange={(_event, text, reason) => {
        if (reason !== 'reset') onChange([text]);
      }}
      onChange={(_event, next) => onChange([next ?? ''])}
      slotProps={{ listbox: { style: { maxHeight: DROPDOWN_MAX_HEIGHT } } }}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props}>
          {names[option] && names[option] !== option ? `${names[option]} (${option})` : option}
        </Box>
      )}
      renderInput={(params) => (
        <TextField {...params} label="Value" slotProps={{ htmlInput: { ...params.inputProps, maxLength: MAX_FILTER_VALUE_LENGTH } }} />
      )}
      sx={{ minWidth: 220 }}
    />
  );
}

function AmountInput({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return (
    <TextField
      size="small"
      type="number"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ htmlInput: { step: 'any', inputMode: 'decimal' } }}
      sx={{ width: 140 }}
    />
  );
}

/**
 * The Value part of the builder row, by the field's type and the operator: one of the tenant's
 * values (or typed), several for in / not in, a tag key then its values, an amount, or from and
 * to amounts for between. Disabled until an operator is chosen.
 */
export function FilterValueInput({ draft, options, onValueChange, onTagKeyChange }: FilterValueInputProps) {
  const type = draft.field ? queryField(draft.field)?.type : undefined;
  const tagKey =
    type === 'tag' ? <TagKeyInput value={draft.tagKey} options={Object.keys(options.tags).sort()} onChange={onTagKeyChange} /> : null;
  if (!type || !draft.operator) {
    return (
      <>
        {tagKey}
        <TextField size="small" label="Value" disabled value="" sx={{ minWidth: 220 }} />
      </>
    );
  }
  if (type === 'number') {
    if (draft.operator === 'between') {
      const [from = '', to = ''] = draft.value;
      return (
        <>
          <AmountInput label="From" value={from} onChange={(next) => onValueChange([next, to])} />
          <AmountInput label="To" value={to} onChange={(next) => onValueChange([from, next])} />
        </>
      );
    }
    return <AmountInput label="Value" value={draft.value[0] ?? ''} onChange={(next) => onValueChange([next])} />;
  }
  const choices = type === 'tag' ? (options.tags[draft.tagKey] ?? []) : (options.values[draft.field as keyof typeof options.values] ?? []);
  const names = optionNames(draft, options);
  return (
    <>
      {tagKey}
      {isMultiValue(draft.operator) ? (
        <ValuesInput label="Values" value={draft.value} options={choices} optionNames={names} onChange={onValueChange} />
      ) : (
        <SingleValueInput value={draft.value[0] ?? ''} choices={choices} names={names} onChange={onValueChange} />
      )}
    </>
  );
}
