import AddIcon from '@mui/icons-material/Add';
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useFilterParameters } from '../../api';
import { FILTER_TYPE_LABEL } from '../../model/filters';
import type { BudgetFilterType } from '../../model/types';
import { addFilterError, changeFilterTypeError, WIZARD_MESSAGES, type WizardFilter } from '../../model/wizard';
import { FilterRow } from './filter-row';
import { filterValueOptions } from './filter-value-options';
import { MessageList } from './message-list';
import type { WizardCommands } from './use-wizard-form';

export interface FiltersStepProps {
  filters: WizardFilter[];
  errors: string[];
  commands: Pick<WizardCommands, 'addFilter' | 'removeFilter' | 'changeFilterType' | 'setFilterValues'>;
  onCancel(): void;
  onNext(): void;
}

/** Step 1 'Select Filters': which spend the budget tracks (filters combine with AND). */
export function FiltersStep({ filters, errors, commands, onCancel, onNext }: FiltersStepProps) {
  const parameters = useFilterParameters();
  // The refusal of the last type change ('A filter for … already exists'), until the next change.
  const [typeError, setTypeError] = useState<string | null>(null);
  const addBlocked = addFilterError(filters);

  const changeType = (id: string, type: BudgetFilterType) => {
    const refusal = changeFilterTypeError(filters, id, type, FILTER_TYPE_LABEL[type]);
    setTypeError(refusal);
    if (!refusal) commands.changeFilterType(id, type);
  };

  return (
    <Stack spacing={2.5}>
      <Typography color="text.secondary">
        Choose which spend this budget tracks. A budget counts spend that matches all of its filters.
      </Typography>
      {parameters.isError ? <Alert severity="error">{WIZARD_MESSAGES.loadFilterOptionsFailed}</Alert> : null}
      {filters.map((filter, index) => (
        <FilterRow
          key={filter.id}
          position={index + 1}
          filter={filter}
          options={filterValueOptions(parameters.data, filter.filterType)}
          loading={parameters.isPending}
          onTypeChange={(type) => changeType(filter.id, type)}
          onValuesChange={(values) => commands.setFilterValues(filter.id, values)}
          onRemove={() => {
            setTypeError(null);
            commands.removeFilter(filter.id);
          }}
        />
      ))}
      {typeError ? <Alert severity="warning">{typeError}</Alert> : null}
      <Stack direction="row" spacing={2} alignItems="center">
        <Button startIcon={<AddIcon />} disabled={addBlocked !== null} onClick={commands.addFilter}>
          Add Filter
        </Button>
        {addBlocked ? (
          <Typography variant="body2" color="text.secondary">
            {addBlocked}
          </Typography>
        ) : null}
      </Stack>
      <MessageList messages={errors} />
      <Stack direction="row" spacing={2} justifyContent="flex-end">
        <Button onClick={onCancel}>Cancel</Button>
        <Button variant="contained" disabled={errors.length > 0} onClick={onNext}>
          Next
        </Button>
      </Stack>
    </Stack>
  );
}
