import { screen, waitFor, within } from '@testing-library/react';
import { vi } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { jsonResponse } from '@/test/mock-api';
import { renderWithProviders, signInAs } from '@/test/render';
import { exportFileName } from '../api/export-focus';
import { FocusExportButton, FocusExportDialog, previousMonth } from './focus-export-dialog';

/** Answers GET /v1/export/focus with `reply` and records the URLs asked for. */
function stubExport(reply: (url: URL) => Response) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string) => {
      const request = typeof input === 'string' ? new Request(new URL(input, 'http://localhost:3000')) : input;
      const url = new URL(request.url);
      urls.push(url);
      return reply(url);
    }),
  );
  return urls;
}

const NOW = new Date('2026-11-23T10:00:00Z');

describe('FOCUS export dialog', () => {
  beforeEach(() => {
    signInAs(makeUser({ role: 'user' }));
    // jsdom has no object URLs.
    URL.createObjectURL = vi.fn(() => 'blob:focus');
    URL.revokeObjectURL = vi.fn();
  });

  afterEach(() => {
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('proposes last month and downloads the file under the name the server gives it', async () => {
    const urls = stubExport(
      () =>
        new Response('BilledCost\n1.0000000000\n', {
          status: 200,
          headers: {
            'Content-Type': 'application/vnd.apache.parquet',
            'Content-Disposition': 'attachment; filename="focus-1.3-2026-10-01-2026-10-31.parquet"',
          },
        }),
    );
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const onClose = vi.fn();
    const { user } = renderWithProviders(<FocusExportDialog onClose={onClose} now={NOW} />);

    const dialog = screen.getByRole('dialog', { name: 'Export FOCUS' });
    expect(within(dialog).getByLabelText('From')).toHaveValue('2026-10-01');
    expect(within(dialog).getByLabelText('To')).toHaveValue('2026-10-31');
    await user.click(within(dialog).getByRole('combobox', { name: 'File format' }));
    await user.click(screen.getByRole('option', { name: 'Parquet' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'FOCUS version' }));
    await user.click(screen.getByRole('option', { name: 'FOCUS 1.3' }));
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(urls).toHaveLength(1);
    expect(urls[0].pathname).toBe('/v1/export/focus');
    expect(Object.fromEntries(urls[0].searchParams)).toEqual({
      start: '2026-10-01',
      end: '2026-10-31',
      format: 'parquet',
      version: '1.3',
    });
    expect(clicked).toEqual(['focus-1.3-2026-10-01-2026-10-31.parquet']);
    click.mockRestore();
  });

  it("shows the server's message beside the field it names", async () => {
    stubExport(() =>
      jsonResponse(422, {
        message: 'end must not be before start',
        details: { end: ['end must not be before start'] },
      }),
    );
    const onClose = vi.fn();
    const { user } = renderWithProviders(<FocusExportDialog onClose={onClose} now={NOW} />);
    const to = screen.getByLabelText('To');
    await user.clear(to);
    await user.type(to, '2026-09-01');
    await user.click(screen.getByRole('button', { name: 'Export' }));

    expect(await screen.findByText('end must not be before start')).toBeInTheDocument();
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('opens from the Export FOCUS button and closes on Cancel', async () => {
    stubExport(() => jsonResponse(500, {}));
    const { user } = renderWithProviders(<FocusExportButton />);
    await user.click(screen.getByRole('button', { name: 'Export FOCUS' }));
    expect(screen.getByRole('dialog', { name: 'Export FOCUS' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('computes the previous month in UTC and falls back to a built file name', () => {
    expect(previousMonth(new Date('2026-01-15T00:00:00Z'))).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(previousMonth(new Date('2024-03-01T00:30:00Z'))).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(exportFileName(null, { start: '2026-01-01', end: '2026-01-31', format: 'csv', version: '1.2' })).toBe(
      'focus-1.2-2026-01-01-2026-01-31.csv',
    );
  });
});
