import { Paper, Step, StepLabel, Stepper } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateBudget, useUpdateBudget } from '../../api';
import { markBudgetsForRefresh } from '../../model/refresh-flag';
import { buildBudgetRequest, type MakeId, WIZARD_STEPS, type WizardForm } from '../../model/wizard';
import { ConfigurationStep } from './configuration-step';
import { FiltersStep } from './filters-step';
import { SaveErrorAlert } from './save-error-alert';
import { useWizardForm } from './use-wizard-form';

export interface BudgetWizardProps {
  /** The budget being edited; a new budget is created without it. */
  budgetId?: number;
  initForm(makeId: MakeId): WizardForm;
}

const BUDGETS_PATH = '/budgets';

/** The two steps (filters, then configuration) and the save (spec 2 §2 "Budget wizard"). */
export function BudgetWizard({ budgetId, initForm }: BudgetWizardProps) {
  const navigate = useNavigate();
  const { form, errors, commands } = useWizardForm(initForm);
  const [step, setStep] = useState(0);
  const create = useCreateBudget();
  const update = useUpdateBudget();
  const save = budgetId === undefined ? create : update;

  const leave = () => navigate(BUDGETS_PATH);
  const onSaved = () => {
    markBudgetsForRefresh();
    leave();
  };
  const submit = () => {
    const body = buildBudgetRequest(form);
    if (budgetId === undefined) create.mutate(body, { onSuccess: onSaved });
    else update.mutate({ id: budgetId, body }, { onSuccess: onSaved });
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stepper activeStep={step} sx={{ mb: 3 }}>
        {WIZARD_STEPS.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {step === 0 ? (
        <FiltersStep
          filters={form.filters}
          errors={errors.filters}
          commands={commands}
          onCancel={leave}
          onNext={() => setStep(1)}
        />
      ) : (
        <ConfigurationStep
          form={form}
          errors={errors}
          commands={commands}
          submitLabel={budgetId === undefined ? 'Create Budget' : 'Update Budget'}
          saving={save.isPending}
          saveError={save.isError ? <SaveErrorAlert error={save.error} /> : null}
          onBack={() => setStep(0)}
          onSubmit={submit}
        />
      )}
    </Paper>
  );
}
