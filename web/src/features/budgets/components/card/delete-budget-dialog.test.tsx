import { screen } from '@testing-library/react';
import { vi } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { mockApi } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { takeBudgetsRefreshFlag } from '../../model/refresh-flag';
import { DeleteBudgetDialog } from './delete-budget-dialog';
import { makeBudget } from '../../testing/make-budget';

function renderDialog() {
  const onClose = vi.fn();
  const onDeleted = vi.fn();
  const view = renderWithProviders(
    <DeleteBudgetDialog budget={makeBudget({ id: 7, name: 'Production AWS' })} open onClose={onClose} onDeleted={onDeleted} />,
  );
  return { ...view, onClose, onDeleted };
}

describe('DeleteBudgetDialog', () => {
  beforeEach(() => {
    signInAs(makeUser());
    sessionStorage.clear();
  });

  it('keeps Delete disabled until the exact name is typed', async () => {
    mockApi({});
    const { user } = renderDialog();
    const remove = screen.getByRole('button', { name: 'Delete' });
    expect(remove).toBeDisabled();
    await user.type(screen.getByLabelText('Budget name'), 'production aws');
    expect(remove).toBeDisabled();
    await user.clear(screen.getByLabelText('Budget name'));
    await user.type(screen.getByLabelText('Budget name'), 'Production AWS ');
    expect(remove).toBeDisabled();
    await user.type(screen.getByLabelText('Budget name'), '{Backspace}');
    expect(remove).toBeEnabled();
  });

  it('deletes, sets the refresh flag and reports it', async () => {
    const api = mockApi({ 'DELETE /v1/budgets/7': { status: 204 } });
    const { user, onDeleted } = renderDialog();
    await user.type(screen.getByLabelText('Budget name'), 'Production AWS');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await expect.poll(() => onDeleted.mock.calls.length).toBe(1);
    expect(api.callsTo('DELETE', '/v1/budgets/7')).toHaveLength(1);
    expect(takeBudgetsRefreshFlag()).toBe(true);
  });

  it('shows the error and stays open when the delete fails', async () => {
    mockApi({ 'DELETE /v1/budgets/7': { status: 500, body: { message: 'boom' } } });
    const { user, onDeleted, onClose } = renderDialog();
    await user.type(screen.getByLabelText('Budget name'), 'Production AWS');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Failed to delete budget. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Delete Budget' })).toBeInTheDocument();
    expect(onDeleted).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(takeBudgetsRefreshFlag()).toBe(false);
  });

  it('closes from Cancel', async () => {
    mockApi({});
    const { user, onClose } = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
