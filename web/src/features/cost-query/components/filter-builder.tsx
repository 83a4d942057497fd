import AddIcon from '@mui/icons-material/Add';
import { Alert, Button, FormControl, InputLabel, MenuItem, Select, Stack } from '@mui/material';
import { useEffect, useId, useState } from 'react';
import type { FilterLogic, FlatFilter } from '@/lib/cost-filters';
import type { QueryValueOptions } from '../hooks/use-query-options';
import type { QueryDraft, QueryFieldName } from '../types';
import {
  DRAFT_MESSAGES,
  EMPTY_DRAFT,
  MESSAGE_SEPARATOR,
  chooseField,
  chooseOperator,
  draftToFilter,
  setDraftTagKey,
  setDraftValue,
  validateDraft,
} from '../utils/draft';
import { QUERY_FIELDS, operatorLabel, operatorsForField } from '../utils/query-fields';
import { FilterValueInput } from './filter-value-input';

export interface FilterBuilderProps {
  /** The filters added so far (the row starts over once its filter is among them). */
  filters: FlatFilter[];
  logic: FilterLogic;
  options: QueryValueOptions;
  /** Adds the filter; the store may refuse it (its message comes back as `error`). */
  onAdd(filter: FlatFilter): void;
  /** The filter store's message (module limit, unsupported logic, no filters to save). */
  error: string | null;
}

/** Spec 2 §5 "Cost filter builder": Field, Operator, Value and Add Filter. */
export function FilterBuilder({ filters, logic, options, onAdd, error }: FilterBuilderProps) {
  const fieldLabelId = useId();
  const operatorLabelId = useId();
  const [draft, setDraft] = useState<QueryDraft>(EMPTY_DRAFT);
  const [message, setMessage] = useState<string | null>(null);
  const [pendingId, setPendingId] = useState<string | null>(null);

  // The row starts over once the store holds the filter it added.
  useEffect(() => {
    if (pendingId && filters.some((f) => f.id === pendingId)) {
      setDraft(EMPTY_DRAFT);
      setPendingId(null);
    }
  }, [filters, pendingId]);

  const edit = (change: (previous: QueryDraft) => QueryDraft) => {
    setDraft(change);
    setMessage(null);
  };

  const add = () => {
    const problems = validateDraft(draft);
    if (problems.length > 0) {
      setMessage(problems.join(MESSAGE_SEPARATOR));
      return;
    }
    try {
      const filter = draftToFilter(draft, logic);
      setMessage(null);
      setPendingId(filter.id);
      onAdd(filter);
    } catch (cause) {
      console.error('Adding a filter failed', cause);
      setMessage(DRAFT_MESSAGES.failed);
    }
  };

  const operators = operatorsForField(draft.field);
  const shown = message ?? error;
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1.5} useFlexGap flexWrap="wrap" alignItems="center" role="group" aria-label="New filter">
        <FormControl size="small" sx={{ minWidth: 170 }}>
          <InputLabel id={fieldLabelId}>Field</InputLabel>
          <Select<QueryFieldName | ''>
            labelId={fieldLabelId}
            label="Field"
            value={draft.field}
            onChange={(event) => edit((d) => chooseField(d, event.target.value as QueryFieldName | ''))}
          >
            {QUERY_FIELDS.map((field) => (
              <MenuItem key={field.value} value={field.value}>
                {field.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FormControl size="small" sx={{ minWidth: 170 }} disabled={!draft.field}>
          <InputLabel id={operatorLabelId}>Operator</InputLabel>
          <Select<string>
            labelId={operatorLabelId}
            label="Operator"
            value={draft.operator}
            onChange={(event) => edit((d) => chooseOperator(d, event.target.value))}
          >
            {operators.map((operator) => (
              <MenuItem key={operator} value={operator}>
                {operatorLabel(operator)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <FilterValueInput
          draft={draft}
          options={options}
          onValueChange={(value) => edit((d) => setDraftValue(d, value))}
          onTagKeyChange={(tagKey) => edit((d) => setDraftTagKey(d, tagKey))}
        />
        <Button variant="outlined" startIcon={<AddIcon />} onClick={add}>
          Add Filter
        </Button>
      </Stack>
      {shown ? <Alert severity="error">{shown}</Alert> : null}
    </Stack>
  );
}
