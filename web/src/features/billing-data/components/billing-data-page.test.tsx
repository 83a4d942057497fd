import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getSession } from '@/api/session';
import type { User } from '@/api/types';
import { appRoutes, makeConfig, makeUser } from '@/test/fixtures';
import { mockApi, type MockReply } from '@/test/mock-api';
import { renderApp, signInAs } from '@/test/render';
import { installFakeXhr } from '../testing/fake-xhr';
import { makeJob, makeProgress } from '../testing/jobs';
import type { IngestJob } from '../types';

const owner = makeUser({ id: 1, name: 'Olivia Owner', role: 'owner' });
const admin = makeUser({ id: 2, name: 'Adam Admin', email: 'adam@example.com', role: 'admin' });
const plain = makeUser({ id: 3, name: 'Uma User', email: 'uma@example.com', role: 'user' });

const BAD_NUMBER = 'bad.csv: row 2, column "BilledCost": "12,5x" is not a number';

function csv(name: string, bytes = 1536) {
  return new File(['x'.repeat(bytes)], name, { type: 'text/csv' });
}

function setup(me: User, extra: Record<string, MockReply> = {}, jobs: IngestJob[] = []) {
  signInAs(me);
  const xhr = installFakeXhr();
  const api = mockApi({ ...appRoutes({ me }), 'GET /v1/ingest': { body: jobs }, ...extra });
  const rendered = renderApp('/settings/billing-data');
  return { ...api, ...rendered, xhr };
}

/** Answers GET /v1/ingest/{id} with these jobs in turn, the last one from then on. */
function inTurn(...jobs: IngestJob[]): MockReply {
  let call = 0;
  return () => ({ body: jobs[Math.min(call++, jobs.length - 1)] });
}

async function chooseFiles(user: ReturnType<typeof setup>['user'], files: File[]) {
  await user.upload(await screen.findByLabelText('Choose files'), files);
}

async function sentUpload(xhr: ReturnType<typeof setup>['xhr']) {
  await waitFor(() => expect(xhr.sent).toHaveLength(1));
  return xhr.sent[0];
}

describe('billing data page', () => {
  it('uploads the chosen files with progress, follows the load and summarises what was loaded', async () => {
    const done = makeJob({
      id: 7,
      files: [
        { name: 'focus-aws.csv', bytes: 1536, format: 'focus', rows: 1200 },
        { name: 'focus-gcp.csv.gz', bytes: 512, format: 'focus', rows: 34 },
      ],
      rows: 1234,
      replaced_rows: 100,
      billing_periods: [
        { provider: 'aws', billing_account_id: '123456789012', billing_period_start: '2026-10-01T00:00:00Z' },
        { provider: 'gcp', billing_account_id: '01A2B3-C4D5E6-F7A8B9', billing_period_start: '2026-10-01' },
      ],
      totals: [
        { provider: 'aws', rows: 1200, billed_cost: 1000.5, effective_cost: 990.25, list_cost: 1100, currency: 'USD' },
        { provider: 'gcp', rows: 34, billed_cost: 23.45, effective_cost: 20, list_cost: 30, currency: 'USD' },
      ],
    });
    let listed: IngestJob[] = [];
    const { user, xhr, callsTo } = setup(owner, {
      'GET /v1/ingest': () => ({ body: listed }),
      'GET /v1/ingest/7': inTurn(
        {
          ...done,
          status: 'running',
          rows: 0,
          totals: [],
          billing_periods: [],
          progress: makeProgress({
            phase: 'reading',
            file_index: 1,
            files: 2,
            file_name: 'focus-gcp.csv.gz',
            rows_read: 1200,
            bytes_read: 1792,
            bytes_total: 2048,
          }),
        },
        done,
      ),
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Billing Data' })).toBeInTheDocument();
    expect(await screen.findByText(/No billing data loaded yet/)).toBeInTheDocument();
    const uploadButton = screen.getByRole('button', { name: 'Upload' });
    expect(uploadButton).toBeDisabled();

    await chooseFiles(user, [csv('focus-aws.csv', 1536), csv('focus-gcp.csv.gz', 512)]);
    const chosen = screen.getByRole('list', { name: 'Chosen files' });
    expect(within(chosen).getByText('focus-aws.csv')).toBeInTheDocument();
    expect(within(chosen).getByText('1.5 KB')).toBeInTheDocument();
    expect(within(chosen).getByText('512 B')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Format' })).toHaveTextContent('Auto-detect');

    await user.click(uploadButton);
    const request = await sentUpload(xhr);
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/v1/ingest');
    expect(request.headers.authorization).toBe('Bearer access-1');
    expect((request.form.getAll('file') as File[]).map((f) => f.name)).toEqual(['focus-aws.csv', 'focus-gcp.csv.gz']);
    expect(request.form.has('format')).toBe(false);

    act(() => request.progress(1024, 2048));
    const progress = await screen.findByRole('progressbar', { name: 'Upload progress' });
    expect(progress).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByText('50%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();

    listed = [{ ...done, status: 'queued', rows: 0, totals: [], billing_periods: [] }];
    act(() => request.respond(202, { id: 7, status: 'queued' }));
    expect(await screen.findByText('Queued…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Loading billing data' })).not.toHaveAttribute('aria-valuenow');
    // The running load: its phase, the share of the bytes read, the file, MB and rows so far.
    expect(await screen.findByText('Reading files…')).toBeInTheDocument();
    const loading = screen.getByRole('group', { name: 'Load progress' });
    expect(within(loading).getByRole('progressbar', { name: 'Loading billing data' })).toHaveAttribute('aria-valuenow', '88');
    expect(loading).toHaveTextContent('88%');
    expect(loading).toHaveTextContent('focus-gcp.csv.gz (2 of 2) · 1.8 KB of 2.0 KB read · 1,200 rows so far');

    listed = [done];
    const summary = await screen.findByRole('status', { name: 'Upload result' });
    expect(summary).toHaveTextContent('Billing data loaded');
    expect(summary).toHaveTextContent(
      '1,234 rows loaded from 2 files, replacing 100 rows loaded before for the same billing periods.',
    );
    const periods = within(summary).getByRole('list', { name: 'Billing periods' });
    expect(within(periods).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'AWS · 123456789012 · 2026-10',
      'GCP · 01A2B3-C4D5E6-F7A8B9 · 2026-10',
    ]);
    const totals = within(summary).getByRole('list', { name: 'Totals' });
    expect(within(totals).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'AWS: billed $1,000.50 · effective $990.25 · list $1,100.00 (1,200 rows)',
      'GCP: billed $23.45 · effective $20.00 · list $30.00 (34 rows)',
    ]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Chosen files' })).not.toBeInTheDocument());
    expect(callsTo('GET', '/v1/ingest/7').length).toBeGreaterThanOrEqual(2);

    // The history is read again once the load has finished.
    const table = await screen.findByRole('table', { name: 'Load history' });
    await waitFor(() => expect(within(table).getByText('Succeeded')).toBeInTheDocument());
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('$1,023.95');
  });

  it('shows the reason of a failed load exactly as the server wrote it', async () => {
    const failed = makeJob({
      id: 8,
      status: 'failed',
      files: [{ name: 'bad.csv', bytes: 100 }],
      rows: 0,
      totals: [],
      billing_periods: [],
      error: BAD_NUMBER,
    });
    const { user, xhr } = setup(admin, { 'GET /v1/ingest/8': { body: failed } });
    await chooseFiles(user, [csv('bad.csv', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await sentUpload(xhr);
    act(() => request.respond(202, { id: 8, status: 'queued' }));

    const result = await screen.findByRole('alert', { name: 'Upload result' });
    expect(result).toHaveTextContent('The billing data was not loaded');
    expect(within(result).getByText(BAD_NUMBER)).toBeInTheDocument();
    // The file stays chosen so that it can be fixed and uploaded again.
    expect(within(screen.getByRole('list', { name: 'Chosen files' })).getByText('bad.csv')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it.each([
    [413, 'Upload too large'],
    [429, 'Daily upload limit reached: at most 500 uploads per UTC day; it resets at 00:00 UTC, in 3 h 12 min'],
    [429, 'Daily upload volume reached: at most 100 GiB uploaded per UTC day; it resets at 00:00 UTC, in 10 min'],
  ])('shows the message of a refused upload request (%i: %s)', async (status, message) => {
    const { user, xhr } = setup(owner);
    await chooseFiles(user, [csv('cur.csv')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await sentUpload(xhr);
    act(() => request.respond(status, { message }));
    const result = await screen.findByRole('alert', { name: 'Upload result' });
    expect(within(result).getByText(message)).toBeInTheDocument();
  });

  it('sends the chosen format', async () => {
    const { user, xhr } = setup(owner, { 'GET /v1/ingest/9': { body: makeJob({ id: 9 }) } });
    await chooseFiles(user, [csv('export.csv')]);
    await user.click(screen.getByRole('combobox', { name: 'Format' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Auto-detect',
      'FOCUS 1.0–1.2',
      'AWS CUR (legacy)',
      'AWS CUR 2.0 / Data Exports',
      'GCP billing export',
      'Azure cost details',
    ]);
    await user.click(screen.getByRole('option', { name: 'AWS CUR 2.0 / Data Exports' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await sentUpload(xhr);
    expect(request.form.get('format')).toBe('aws-cur2');
    act(() => request.respond(202, { id: 9, status: 'queued' }));
    expect(await screen.findByRole('status', { name: 'Upload result' })).toHaveTextContent('Billing data loaded');
  });

  it.each([
    ['FOCUS 1.0–1.2', 'focus'],
    ['AWS CUR (legacy)', 'aws-cur'],
    ['GCP billing export', 'gcp-billing'],
    ['Azure cost details', 'azure-cost-details'],
  ])('sends format %s as %s', async (label, value) => {
    const { user, xhr } = setup(owner);
    await chooseFiles(user, [csv('export.csv')]);
    await user.click(screen.getByRole('combobox', { name: 'Format' }));
    await user.click(await screen.findByRole('option', { name: label }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect((await sentUpload(xhr)).form.get('format')).toBe(value);
  });

  it('takes dropped files, refuses unsupported ones and removes a chosen file', async () => {
    const { user } = setup(owner);
    const zone = await screen.findByRole('region', { name: 'Drop billing files here' });
    const files = [csv('a.csv'), csv('b.parquet'), csv('notes.txt'), csv('c.ndjson'), csv('export.zip')];
    fireEvent.drop(zone, { dataTransfer: { files, types: ['Files'] } });
    const chosen = screen.getByRole('list', { name: 'Chosen files' });
    expect(within(chosen).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'a.csv1.5 KB',
      'b.parquet1.5 KB',
      'c.ndjson1.5 KB',
    ]);
    expect(screen.getByText(/Not added \(not a CSV.*: notes\.txt$/)).toBeInTheDocument();
    expect(
      screen.getByText(
        'Not added (archives are not supported; extract the export and upload the CSV, gzipped CSV, Parquet or NDJSON files inside): export.zip',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove b.parquet' }));
    expect(within(chosen).queryByText('b.parquet')).not.toBeInTheDocument();
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(2);
  });

  it("holds uploads to the server's configured limit and says what it is", async () => {
    signInAs(owner);
    installFakeXhr();
    const config = makeConfig({ max_upload_bytes: 2048 });
    mockApi({ ...appRoutes({ me: owner, config }), 'GET /v1/ingest': { body: [] } });
    const { user } = renderApp('/settings/billing-data');
    expect(await screen.findByText(/up to 2\.0 KB per upload/)).toBeInTheDocument();

    await chooseFiles(user, [csv('a.csv'), csv('b.csv')]);

    expect(screen.getByText(/These files add up to 3\.0 KB; one upload can hold at most 2\.0 KB/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('signs the user out when the upload answers 401', async () => {
    const { user, xhr } = setup(owner);
    await chooseFiles(user, [csv('cur.csv')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await sentUpload(xhr);
    act(() => request.respond(401, { message: 'Authentication required' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(getSession()).toBeNull();
  });

  it('tells plain users that only owners and admins can load billing data, and shows the history', async () => {
    setup(plain, {}, [makeJob()]);
    expect(await screen.findByText('Only owners and admins can load billing data.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Choose files')).not.toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Load history' })).toBeInTheDocument();
  });

  it('links to the ingestion guide on the documentation site', async () => {
    setup(owner);
    expect(await screen.findByRole('link', { name: 'Read the ingestion guide' })).toHaveAttribute(
      'href',
      'https://docs.costscope.test/INGESTION.md',
    );
  });
});

describe('load history', () => {
  it('lists the loads with their status, rows, billed cost and author; a failed load shows why', async () => {
    const jobs = [
      makeJob({
        id: 3,
        status: 'running',
        files: [{ name: 'cur-2026-11.csv.gz', bytes: 10 }],
        format: 'aws-cur',
        rows: 0,
        totals: [],
        started_at: '2026-11-03T08:00:00Z',
        progress: makeProgress({ phase: 'checking', file_name: 'cur-2026-11.csv.gz', rows_read: 4321, bytes_read: 10, bytes_total: 10 }),
      }),
      makeJob({
        id: 2,
        status: 'failed',
        files: [{ name: 'bad.csv', bytes: 10 }],
        format: null,
        rows: 0,
        totals: [],
        error: BAD_NUMBER,
        created_by: 'Adam Admin',
        started_at: '2026-11-02T12:15:00Z',
      }),
      makeJob({
        id: 1,
        files: [
          { name: 'aws.csv', bytes: 10, format: 'focus' },
          { name: 'gcp.parquet', bytes: 10, format: 'focus' },
        ],
        format: null,
        rows: 12345,
        totals: [
          { provider: 'aws', rows: 10000, billed_cost: 100, effective_cost: 0, list_cost: 0, currency: 'USD' },
          { provider: 'gcp', rows: 2345, billed_cost: 23.45, effective_cost: 0, list_cost: 0, currency: 'USD' },
        ],
        started_at: '2026-11-01T09:05:00Z',
      }),
      makeJob({ id: 0, status: 'queued', files: [{ name: 'q.csv', bytes: 1 }], format: 'gcp-billing', totals: [], started_at: null, created_at: '2026-11-04T10:00:00Z' }),
    ];
    setup(owner, {}, jobs);
    const table = await screen.findByRole('table', { name: 'Load history' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'Started',
      'Source',
      'Files',
      'Format',
      'Status',
      'Rows',
      'Billed cost',
      'By',
    ]);
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(cells(rows[1])).toEqual([
      '3 Nov 2026, 08:00 UTC',
      'Upload',
      'cur-2026-11.csv.gz',
      'AWS CUR (legacy)',
      'RunningChecking rows… 100%',
      '4,321 read',
      '—',
      'Olivia Owner',
    ]);
    expect(cells(rows[2])).toEqual([
      '2 Nov 2026, 12:15 UTC',
      'Upload',
      `bad.csv${BAD_NUMBER}`,
      'Auto-detect',
      'Failed',
      '—',
      '—',
      'Adam Admin',
    ]);
    expect(within(rows[2]).getByText(BAD_NUMBER)).toBeInTheDocument();
    expect(cells(rows[3])).toEqual(['1 Nov 2026, 09:05 UTC', 'Upload', 'aws.csv, gcp.parquet', 'FOCUS 1.0–1.2', 'Succeeded', '12,345', '$123.45', 'Olivia Owner']);
    expect(cells(rows[4])).toEqual(['4 Nov 2026, 10:00 UTC', 'Upload', 'q.csv', 'GCP billing export', 'Queued', '—', '—', 'Olivia Owner']);
  });

  it("names each load's source: the cloud sync that made it, else Upload", async () => {
    const synced = {
      ...makeJob({ id: 9, files: [{ name: 'costscope-focus-00001.snappy.parquet', bytes: 4096, format: 'focus', rows: 10 }] }),
      source: 'AWS sync · 123456789012 · s3://costscope-exports-123456789012/costscope/costscope-focus · 2026-10',
      cloud_account_id: 12,
    };
    const uploaded = { ...makeJob({ id: 8 }), source: null, cloud_account_id: null };
    setup(owner, {}, [synced, uploaded]);
    const table = await screen.findByRole('table', { name: 'Load history' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]).getAllByRole('cell')[1]).toHaveTextContent(
      'AWS sync · 123456789012 · s3://costscope-exports-123456789012/costscope/costscope-focus · 2026-10',
    );
    expect(within(rows[2]).getAllByRole('cell')[1]).toHaveTextContent(/^Upload$/);
  });

  it('shows the empty state when nothing was loaded yet', async () => {
    setup(owner);
    expect(
      await screen.findByText('No billing data loaded yet. Upload a FOCUS, AWS CUR, GCP or Azure export to get started.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Load history' })).not.toBeInTheDocument();
  });

  it('shows a loading state, then an error with Retry when the history cannot be read', async () => {
    let fail = true;
    const { user } = setup(owner, {
      'GET /v1/ingest': async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return fail ? { status: 500, body: { message: 'Internal server error' } } : { body: [makeJob()] };
      },
    });
    expect(await screen.findByLabelText('Loading the load history')).toBeInTheDocument();
    expect(await screen.findByText('Failed to fetch the load history: Internal server error', {}, { timeout: 8_000 })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: 'Load history' })).toBeInTheDocument();
  });
});
