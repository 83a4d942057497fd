// Starts the real Costscope binary once for the whole e2e run:
//   $COSTSCOPE_BIN serve --demo --addr 127.0.0.1:<free port> --data-dir <fresh temp dir>
// waits for GET /readyz, and exports to the test workers:
//   COSTSCOPE_E2E_BASE_URL   http://127.0.0.1:<port>
//   COSTSCOPE_E2E_SERVER_LOG the file holding the server's stdout and stderr
// Before the server it starts the cloud peers the cloud-accounts specs connect to (e2e/cloud-peers.ts):
// moto (AWS), Azurite (Azure Blob Storage) and the BigQuery stand-in, and gives the server their
// addresses (AWS_ENDPOINT_URL, test credentials, a config file with [cloud] bigquery_url), and the
// Microsoft Teams stand-in, given to the server as [teams] in that same config file.
// The returned function (Playwright's teardown) stops the server and removes the temp dir
// (kept when COSTSCOPE_E2E_KEEP=1).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCloudPeers } from './cloud-peers';

const READY_TIMEOUT_MS = 120_000;

export function costscopeBinary(): string {
  if (process.env.COSTSCOPE_BIN) return process.env.COSTSCOPE_BIN;
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(homedir(), '.cache', 'costscope-target');
  return join(targetDir, 'debug', 'costscope');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      if (address === null || typeof address === 'string') {
        srv.close();
        reject(new Error('could not read the port of a probe socket'));
        return;
      }
      srv.close(() => resolve(address.port));
    });
  });
}

function tail(file: string, lines = 60): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

async function waitForReady(
  url: string,
  child: ChildProcess,
  log: string,
  exited: () => string | null,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    const why = exited();
    if (why !== null) {
      throw new Error(`costscope exited before it was ready (${why}). Server log ${log}:\n${tail(log)}`);
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `GET /readyz answered ${res.status}`;
    } catch (err) {
      last = String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(
    `costscope was not ready after ${READY_TIMEOUT_MS / 1000}s (${last}). Server log ${log}:\n${tail(log)}`,
  );
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const bin = costscopeBinary();
  if (!existsSync(bin)) {
    throw new Error(
      `The costscope binary is not at ${bin}. Build it with 'make build' (or set COSTSCOPE_BIN).`,
    );
  }
  const root = mkdtempSync(join(tmpdir(), 'costscope-e2e-'));
  const dataDir = join(root, 'data');
  const log = join(root, 'server.log');
  const peers = await startCloudPeers(root, freePort);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const args = ['serve', '--demo', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, '--config', peers.configFile];

  const out = createWriteStream(log);
  const child = spawn(bin, args, {
    cwd: root,
    env: { ...process.env, ...peers.serverEnv, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  let exitReason: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exitReason = signal ? `signal ${signal}` : `exit code ${code}`;
      resolve();
    });
    child.on('error', (err) => {
      exitReason = `could not start: ${err.message}`;
      resolve();
    });
  });
  // Never leave a server behind, even if the runner dies.
  const killOnExit = () => child.exitCode === null && child.kill('SIGKILL');
  process.on('exit', killOnExit);

  console.log(`[e2e] starting ${bin} ${args.join(' ')}`);
  try {
    await waitForReady(baseURL, child, log, () => exitReason);
  } catch (err) {
    await peers.stop();
    throw err;
  }
  console.log(`[e2e] costscope is ready at ${baseURL} (log: ${log})`);

  process.env.COSTSCOPE_E2E_BASE_URL = baseURL;
  process.env.COSTSCOPE_E2E_SERVER_LOG = log;

  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', killOnExit);
    await peers.stop();
    out.end();
    console.log(`[e2e] costscope stopped (${exitReason ?? 'already gone'})`);
    if (process.env.COSTSCOPE_E2E_KEEP === '1') {
      console.log(`[e2e] kept ${root}`);
    } else {
      rmSync(root, { recursive: true, force: true });
    }
  };
}
