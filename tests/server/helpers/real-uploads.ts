import { randomBytes } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { expect } from 'vitest';
import { PATIENT_SESSION_COOKIE } from '@contract/api/patient-access';
import { appointmentBase, LIAM } from '../modules/attachments/attachments-kit';
import { freePort, startServer, waitFor, type RunningServer } from './spawned-server';

/**
 * Uploads over real HTTP to a spawned server (helpers/spawned-server.ts), as a browser sends them:
 * the demo patient Liam signs in with his date of birth (the test turned one-time codes off), and
 * a multipart body is sent in two parts so a test can stop it mid-body.
 */

/** A valid PDF of `bytes` bytes: a minimal document padded with comment lines the checks read through. */
export function pdfOf(bytes: number): Buffer {
  const head = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n';
  const tail = 'trailer<</Root 1 0 R>>\n%%EOF\n';
  const padding = Buffer.alloc(bytes - head.length - tail.length, '%'.charCodeAt(0));
  for (let index = 80; index < padding.length; index += 81) padding[index] = 0x0a;
  return Buffer.concat([Buffer.from(head), padding, Buffer.from(tail)]);
}

export async function signIn(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/patient-access/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ bookingKey: LIAM.bookingKey, type: 'APPOINTMENT', dateOfBirth: LIAM.dateOfBirth }),
  });
  const token = new RegExp(`${PATIENT_SESSION_COOKIE}=([^;]+)`).exec(response.headers.get('set-cookie') ?? '')?.[1];
  const body = await response.text();
  expect(response.status, body).toBe(200);
  expect(JSON.parse(body)).toMatchObject({ otpRequired: false });
  expect(token).toBeDefined();
  return `${PATIENT_SESSION_COOKIE}=${token}`;
}

export interface Upload {
  request: ClientRequest;
  /** The answer's status; 0 when the connection was cut. */
  done: Promise<number>;
}

/** A multipart upload over real HTTP; `share` of the file is sent now, the rest by `finish`. */
export function startUpload(port: number, cookie: string, file: Buffer, share: number): Upload & { finish: () => void } {
  const boundary = `crash${randomBytes(8).toString('hex')}`;
  const before = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="referral.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const after = Buffer.from(`\r\n--${boundary}--\r\n`);
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: appointmentBase(LIAM.bookingKey),
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(before.length + file.length + after.length),
      cookie,
      'x-requested-with': 'XMLHttpRequest',
    },
  });
  const done = new Promise<number>((resolve) => {
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
  const cut = Math.floor(file.length * share);
  request.write(before);
  request.write(file.subarray(0, cut));
  return {
    request,
    done,
    finish: () => {
      request.write(file.subarray(cut));
      request.end(after);
    },
  };
}

/** Starts the real server on `dataDir` (PGlite, folder storage) and waits until it is ready; `running` collects it for the test's clean-up. */
export async function startedOn(
  dataDir: string,
  webRootDir: string,
  running: RunningServer[],
): Promise<{ server: RunningServer; port: number }> {
  const port = await freePort();
  const server = startServer({ DATA_DIR: dataDir, PORT: String(port), WEB_ROOT: webRootDir });
  running.push(server);
  await waitFor(server, /Portal server ready at/);
  return { server, port };
}
