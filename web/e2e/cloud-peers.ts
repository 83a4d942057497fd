// The local cloud peers the cloud-accounts specs connect to, started by global-setup.ts before the
// server, each on a free port, each stopped by the returned stop():
//   moto (PyPI moto[server], scripts/ensure-moto.sh)         AWS: S3, STS, IAM, Organizations
//   Azurite (npm azurite, scripts/ensure-azurite.sh)        Azure Blob Storage
//   bigquery_standin (costscope-connectors example)          BigQuery REST + the OAuth token endpoint
//   teams_standin (costscope-connectors example)             Microsoft identity platform + Graph (Teams)
// A missing peer fails the run with the command that installs or builds it (never a skip).
// Exported to the test workers:
//   COSTSCOPE_E2E_MOTO_URL          http://127.0.0.1:<port>
//   COSTSCOPE_E2E_AZURITE_URL       http://127.0.0.1:<port>/devstoreaccount1 (the blob endpoint)
//   COSTSCOPE_E2E_GCP_KEY_FILE      the service-account key file the stand-in accepts
//   COSTSCOPE_E2E_GCP_TABLE         the billing export table it holds (project.dataset.table)
//   COSTSCOPE_E2E_TEAMS_AUTHORITY   the Teams stand-in's identity platform (…/common)
//   COSTSCOPE_E2E_TEAMS_CONTROL_URL the Teams stand-in's GET /messages (what was posted to channels)
// The server gets AWS_ENDPOINT_URL and test credentials in its environment and a config file with
// [cloud] bigquery_url / aws_endpoint_url / aws_trusted_principal, and [discovery] (us-east-1 only,
// no scheduled runs: the inventory spec triggers each run).
// It also gets [teams] (client id and secret, authority, graph_url) pointing at the Teams stand-in.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PEER_READY_TIMEOUT_MS = 60_000;
/** moto's default account: buckets and roles created with the test credentials live there. */
export const MOTO_ACCOUNT_ID = '123456789012';
/** The rows the BigQuery stand-in's export table holds (3 rows, October 2026, $75.50). */
export const GCP_ROWS = fileURLToPath(new URL('./fixtures-data/cloud-accounts-gcp-rows.json', import.meta.url));
/** The team the Teams stand-in's signed-in user is a member of, with its channels (teams.spec.ts). */
export const TEAMS_TEAM = {
  id: 'e2e-team-costscope',
  name: 'Costscope E2E',
  channels: [
    { id: '19:e2e-alerts@thread.tacv2', name: 'Alerts' },
    { id: '19:e2e-general@thread.tacv2', name: 'General' },
  ],
} as const;

export interface CloudPeers {
  configFile: string;
  serverEnv: Record<string, string>;
  stop: () => Promise<void>;
}

/** The Teams stand-in's announcement (crates/connectors/examples/teams_standin.rs). */
interface TeamsStandInLine {
  authority: string;
  graph_url: string;
  client_id: string;
  client_secret: string;
  control_url: string;
}

function targetDir(): string {
  return process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'costscope-target');
}

function need(path: string, hint: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: ${hint}`);
  return path;
}

interface Started {
  child: ChildProcess;
  exited: () => string | null;
}

function start(name: string, bin: string, args: string[], logFile: string): Started {
  const log = createWriteStream(logFile);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let reason: string | null = null;
  child.on('exit', (code, signal) => {
    reason = signal ? `signal ${signal}` : `exit code ${code}`;
  });
  child.on('error', (err) => {
    reason = `could not start ${name}: ${err.message}`;
  });
  process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));
  return { child, exited: () => reason };
}

async function waitFor(name: string, peer: Started, logFile: string, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + PEER_READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const why = peer.exited();
    if (why !== null) {
      throw new Error(`${name} exited before it was ready (${why}); log ${logFile}:\n${readLog(logFile)}`);
    }
    try {
      if (await probe()) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  peer.child.kill('SIGKILL');
  throw new Error(`${name} was not ready after ${PEER_READY_TIMEOUT_MS / 1000}s; log ${logFile}:\n${readLog(logFile)}`);
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-40).join('\n');
  } catch {
    return '(no log)';
  }
}

async function stopPeer(peer: Started): Promise<void> {
  if (peer.child.exitCode !== null || peer.child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => peer.child.once('exit', () => resolve()));
  peer.child.kill('SIGTERM');
  const timer = setTimeout(() => peer.child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

export async function startCloudPeers(root: string, freePort: () => Promise<number>): Promise<CloudPeers> {
  const started: Started[] = [];
  const stop = async () => {
    await Promise.all(started.map(stopPeer));
  };
  try {
    // moto
    const motoVenv = process.env.COSTSCOPE_MOTO_VENV ?? join(homedir(), '.cache', 'costscope-moto-venv');
    const motoBin = need(join(motoVenv, 'bin', 'moto_server'), 'run scripts/ensure-moto.sh (make ensure-cloud-peers)');
    const motoPort = await freePort();
    const motoUrl = `http://127.0.0.1:${motoPort}`;
    const motoLog = join(root, 'moto.log');
    const moto = start('moto', motoBin, ['-H', '127.0.0.1', '-p', String(motoPort)], motoLog);
    started.push(moto);
    await waitFor('moto', moto, motoLog, async () => (await fetch(`${motoUrl}/moto-api/`)).status < 500);

    // Azurite (blob service only)
    const azuriteDir = process.env.COSTSCOPE_AZURITE_DIR ?? join(homedir(), '.cache', 'costscope-azurite');
    const azuriteBin = need(
      join(azuriteDir, 'node_modules', '.bin', 'azurite-blob'),
      'run scripts/ensure-azurite.sh (make ensure-cloud-peers)',
    );
    const azuritePort = await freePort();
    const azuriteData = join(root, 'azurite');
    mkdirSync(azuriteData, { recursive: true });
    const azuriteLog = join(root, 'azurite.log');
    const azurite = start(
      'Azurite',
      azuriteBin,
      ['--blobHost', '127.0.0.1', '--blobPort', String(azuritePort), '--location', azuriteData, '--skipApiVersionCheck', '--loose'],
      azuriteLog,
    );
    started.push(azurite);
    const azuriteUrl = `http://127.0.0.1:${azuritePort}/devstoreaccount1`;
    await waitFor('Azurite', azurite, azuriteLog, async () => (await fetch(`${azuriteUrl}?comp=list`)).status > 0);

    // The BigQuery stand-in: prints one line of JSON {url, token_uri, table, project_id, key_file}.
    const standinBin = need(
      join(targetDir(), 'debug', 'examples', 'bigquery_standin'),
      'build it with `cargo build -p costscope-connectors --features test-support --example bigquery_standin`',
    );
    const keyFile = join(root, 'gcp-service-account-key.json');
    const standinLog = join(root, 'bigquery-standin.log');
    const standin = start('the BigQuery stand-in', standinBin, ['--rows', GCP_ROWS, '--key-out', keyFile], standinLog);
    started.push(standin);
    let announced: { url: string; table: string } | null = null;
    await waitFor('the BigQuery stand-in', standin, standinLog, async () => {
      const line = readFileSync(standinLog, 'utf8').split('\n').find((l) => l.trim().startsWith('{'));
      if (!line) return false;
      announced = JSON.parse(line) as { url: string; table: string };
      return existsSync(keyFile);
    });
    const bigquery = announced as unknown as { url: string; table: string };

    // The Microsoft identity platform and Graph stand-in: prints one line of JSON {authority,
    // graph_url, client_id, client_secret, control_url, teams}; its /authorize approves at once.
    const teamsBin = need(
      join(targetDir(), 'debug', 'examples', 'teams_standin'),
      'build it with `cargo build -p costscope-connectors --features test-support --example teams_standin`',
    );
    const teamsLog = join(root, 'teams-standin.log');
    const teamsPeer = start('the Teams stand-in', teamsBin, ['--teams', JSON.stringify([TEAMS_TEAM])], teamsLog);
    started.push(teamsPeer);
    let teamsAnnounced: TeamsStandInLine | null = null;
    await waitFor('the Teams stand-in', teamsPeer, teamsLog, async () => {
      const line = readFileSync(teamsLog, 'utf8').split('\n').find((l) => l.trim().startsWith('{'));
      if (!line) return false;
      teamsAnnounced = JSON.parse(line) as TeamsStandInLine;
      return (await fetch(`${teamsAnnounced.control_url}/messages`)).ok;
    });
    const teams = teamsAnnounced as unknown as TeamsStandInLine;

    const configFile = join(root, 'costscope-e2e.toml');
    writeFileSync(
      configFile,
      [
        '[cloud]',
        `bigquery_url = ${JSON.stringify(bigquery.url)}`,
        `aws_endpoint_url = ${JSON.stringify(motoUrl)}`,
        `aws_trusted_principal = "arn:aws:iam::${MOTO_ACCOUNT_ID}:root"`,
        // The stand-in's token endpoint and Azurite's blob endpoint are on loopback.
        'allow_custom_endpoints = true',
        // Discovery (inventory.spec.ts): moto serves every region, so scan one; only on demand.
        '[discovery]',
        'interval_hours = 0',
        'regions = ["us-east-1"]',
        // Microsoft Teams through the stand-in (teams.spec.ts).
        '[teams]',
        `client_id = ${JSON.stringify(teams.client_id)}`,
        `client_secret = ${JSON.stringify(teams.client_secret)}`,
        `authority = ${JSON.stringify(teams.authority)}`,
        `graph_url = ${JSON.stringify(teams.graph_url)}`,
        // Every spec signs in from 127.0.0.1: the default budget of 30 attempts per address in
        // 15 minutes is less than one run of the suite needs (the limiter is tested in the API
        // tests, crates/server/tests/api/sign_in_abuse.rs).
        '[login_rate_limit]',
        'max_attempts_per_address = 300',
        '',
      ].join('\n'),
    );

    process.env.COSTSCOPE_E2E_MOTO_URL = motoUrl;
    process.env.COSTSCOPE_E2E_AZURITE_URL = azuriteUrl;
    process.env.COSTSCOPE_E2E_GCP_KEY_FILE = keyFile;
    process.env.COSTSCOPE_E2E_GCP_TABLE = bigquery.table;
    process.env.COSTSCOPE_E2E_TEAMS_AUTHORITY = teams.authority;
    process.env.COSTSCOPE_E2E_TEAMS_CONTROL_URL = teams.control_url;
    console.log(`[e2e] cloud peers: moto ${motoUrl}, Azurite ${azuriteUrl}, BigQuery stand-in ${bigquery.url}, Teams stand-in ${teams.authority}`);

    return {
      configFile,
      serverEnv: {
        AWS_ENDPOINT_URL: motoUrl,
        AWS_ACCESS_KEY_ID: 'testing',
        AWS_SECRET_ACCESS_KEY: 'testing',
        AWS_REGION: 'us-east-1',
        AWS_EC2_METADATA_DISABLED: 'true',
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
