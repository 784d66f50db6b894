// The attachments benchmark's browsers, on their own thread (a worker), so that sending 5 MB
// bodies does not take the server's event loop: batches of `concurrency` multipart uploads of one
// PDF over real HTTP; each batch's answers are posted back with their times, and the next batch
// waits for the main thread's 'next'.
import { request as httpRequest } from 'node:http';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

export interface UploadJob {
  port: number;
  path: string;
  cookie: string;
  file: Uint8Array;
  count: number;
  concurrency: number;
}

export type UploadMessage = { kind: 'batch'; results: Array<{ status: number; ms: number }> } | { kind: 'done' };

const BOUNDARY = 'benchboundary7d3e';
const BEFORE = Buffer.from(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="referral.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
);
const AFTER = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

function upload(job: UploadJob): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: job.port,
        method: 'POST',
        path: job.path,
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(BEFORE.length + job.file.length + AFTER.length),
          cookie: job.cookie,
          'x-requested-with': 'XMLHttpRequest',
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    request.on('error', reject);
    // Three writes: the client holds one copy of the file.
    request.write(BEFORE);
    request.write(job.file);
    request.end(AFTER);
  });
}

/** The next batch starts when the main thread says 'next' (it may clear rows in between, with no upload in flight). */
function nextBatch(port: MessagePort): Promise<void> {
  return new Promise((resolve) => port.once('message', () => resolve()));
}

async function run(port: MessagePort, job: UploadJob): Promise<void> {
  for (let done = 0; done < job.count; done += job.concurrency) {
    const results = await Promise.all(Array.from({ length: Math.min(job.concurrency, job.count - done) }, () => upload(job)));
    port.postMessage({ kind: 'batch', results } satisfies UploadMessage);
    await nextBatch(port);
  }
  port.postMessage({ kind: 'done' } satisfies UploadMessage);
}

if (parentPort !== null) void run(parentPort, workerData as UploadJob);
