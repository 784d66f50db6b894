import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DemoStudy } from '@contract/api/image-viewer';
import { json, type RouteHandler } from '../../helpers/api-server';

/** A signed demo viewer link as the server would give one (its shape only: the fake server checks equality). */
export const TOKEN = 'v1.hkdf1.eyJ2IjoxfQ.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
export const EXPIRED_TOKEN = 'v1.hkdf1.ZXhwaXJlZA.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

export const STUDY: DemoStudy = {
  studyInstanceUid: '2.25.38584323566160511800902969745502384716',
  description: 'Synthetic MRI demo images (not a real patient)',
  images: [
    { index: 0, title: 'Sagittal T1 — slice 22', width: 512, height: 512 },
    { index: 1, title: 'Sagittal PD fat sat — slice 16', width: 512, height: 512 },
    { index: 2, title: 'Coronal PD fat sat — slice 23', width: 512, height: 512 },
    { index: 3, title: 'Axial T2 — slice 21', width: 512, height: 512 },
  ],
};

/** A 1×1 grey PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==', 'base64');

export interface DemoViewerServer {
  routes: Record<string, RouteHandler>;
  /** The study call's answer: the study, a refusal, or a failure. */
  answer: 'study' | 'expired' | 'unavailable';
  studyCalls: number;
  /** When set, the next study answer waits until this is called. */
  hold: ((proceed: () => void) => void) | null;
}

const tokenOf = (request: IncomingMessage): string | null => new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');

/** The demo viewer API as the server answers it: the study and images for TOKEN, 403 for anything else. */
export function demoViewerServer(): DemoViewerServer {
  const server: DemoViewerServer = {
    answer: 'study',
    studyCalls: 0,
    hold: null,
    routes: {
      'GET /api/demo-viewer/study': (request: IncomingMessage, response: ServerResponse) => {
        server.studyCalls += 1;
        const send = () => {
          if (server.answer === 'unavailable')
            return json(response, 503, { code: 'service_unavailable', message: 'The service is unavailable right now.' });
          if (server.answer === 'expired' || tokenOf(request) !== TOKEN)
            return json(response, 403, { code: 'forbidden', message: 'This image link has expired.' });
          json(response, 200, STUDY);
        };
        const hold = server.hold;
        server.hold = null;
        if (hold) hold(send);
        else send();
      },
      ...Object.fromEntries(
        STUDY.images.map((image): [string, RouteHandler] => [
          `GET /api/demo-viewer/images/${image.index}`,
          (request, response) => {
            if (tokenOf(request) !== TOKEN) return json(response, 403, { code: 'forbidden', message: 'This image link is not valid.' });
            response.writeHead(200, { 'Content-Type': 'image/png' });
            response.end(PNG);
          },
        ]),
      ),
    },
  };
  return server;
}
