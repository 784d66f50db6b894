import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatServiceEvent } from '@contract/api/booking-requests';
import { setChatBookingRequest, chatBookingRequest } from '../../../../src-web/features/chat-assistant/chat-context';
import {
  CHAT_SERVICE_EVENTS,
  CHAT_SERVICE_LOAD_TIMEOUT_MS,
  CHAT_SERVICE_NO_REQUEST,
  ChatService,
  type ChatServiceUploadResult,
} from '../../../../src-web/features/chat-assistant/chat-service';
import {
  CHAT_OPEN_DELAY_MS,
  UPLOAD_FIRST_DEBOUNCE_MS,
  UPLOAD_NEXT_DEBOUNCE_MS,
} from '../../../../src-web/features/chat-assistant/chat-constants';

// The bridge to the provider's chat service (docs/rules/chat.md#the-bridge): the script loads once
// from the settings' address with the environment and deployment id on window.portalChatService;
// the service's events report the conversation about the page's booking request (spec: a bot
// disconnect marks it BOOKED after the booking-complete message, else sets its type PATIENT).

const CONFIG = { scriptUrl: 'https://chat.example-provider.test/messenger.js', environment: 'prod-apse2', deploymentId: 'dep-42' };
const KEY = 'pVC8vuYWYJuWi6jKwcf5Cg';

function setUp(
  report: (key: string, event: ChatServiceEvent) => Promise<unknown> = () => Promise.resolve({}),
  upload: (file: File) => Promise<void> = () => Promise.resolve(),
) {
  const reports: [string, ChatServiceEvent][] = [];
  const uploads: [string, string][] = [];
  const service = track(
    new ChatService({
      config: CONFIG,
      window,
      locale: () => 'en-AU',
      report: (key, event) => {
        reports.push([key, event]);
        return report(key, event);
      },
      uploadReferral: (key, file, onProgress) => {
        uploads.push([key, file.name]);
        onProgress(100);
        return upload(file);
      },
    }),
  );
  return { service, reports, uploads };
}

const services: ChatService[] = [];
const track = (service: ChatService): ChatService => {
  services.push(service);
  return service;
};

const scripts = () => [...document.head.querySelectorAll<HTMLScriptElement>('script')].filter((script) => script.src === CONFIG.scriptUrl);
/** Every upload-result batch the portal answers from now until the test ends. */
function uploadResults(): ChatServiceUploadResult[][] {
  const results: ChatServiceUploadResult[][] = [];
  const stop = new AbortController();
  window.addEventListener(
    CHAT_SERVICE_EVENTS.uploadResult,
    (event) => results.push((event as CustomEvent<{ files: ChatServiceUploadResult[] }>).detail.files),
    { signal: stop.signal },
  );
  listeners.push(stop);
  return results;
}
const listeners: AbortController[] = [];

const fire = (name: string) => window.dispatchEvent(new Event(name));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  for (const listener of listeners.splice(0)) listener.abort();
  for (const service of services.splice(0)) service.dispose();
  for (const script of scripts()) script.remove();
  delete window.portalChatService;
  setChatBookingRequest(null);
  vi.useRealTimers();
});

describe('the chat service bridge', () => {
  it('loads the script once, with the settings and the request on window, and opens the messenger each time', async () => {
    const { service } = setUp();
    const opened = vi.fn();
    window.addEventListener(CHAT_SERVICE_EVENTS.open, opened);
    const first = service.open({ bookingKey: KEY, onChanged: () => undefined });
    expect(service.state).toBe('loading');
    expect(window.portalChatService).toEqual({
      environment: 'prod-apse2',
      deploymentId: 'dep-42',
      locale: 'en-AU',
      bookingRequestKey: KEY,
    });
    expect(scripts()).toHaveLength(1);
    expect(scripts()[0]?.async).toBe(true);
    scripts()[0]?.dispatchEvent(new Event('load'));
    expect(await first).toBe(true);
    expect(service.state).toBe('loaded');
    expect(await service.open(null)).toBe(true);
    expect(scripts()).toHaveLength(1);
    expect(opened).toHaveBeenCalledTimes(2);
    window.removeEventListener(CHAT_SERVICE_EVENTS.open, opened);
  });

  it('asks the service to begin the conversation CHAT_OPEN_DELAY_MS after it opens, once per conversation', async () => {
    const { service } = setUp();
    const starts: unknown[] = [];
    const listener = (event: Event) => starts.push((event as CustomEvent).detail);
    window.addEventListener(CHAT_SERVICE_EVENTS.start, listener);
    vi.useFakeTimers();
    const opening = service.open({ bookingKey: KEY, onChanged: () => undefined });
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    await vi.advanceTimersByTimeAsync(CHAT_OPEN_DELAY_MS - 1);
    expect(starts).toEqual([]);
    await service.open({ bookingKey: KEY, onChanged: () => undefined }); // pressed again meanwhile: still one start
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([{ bookingRequestKey: KEY }]);
    fire(CHAT_SERVICE_EVENTS.conversationStarted);
    await vi.advanceTimersByTimeAsync(0);
    await service.open(null); // the conversation goes on, on another page: no new start
    await vi.advanceTimersByTimeAsync(CHAT_OPEN_DELAY_MS);
    expect(starts).toHaveLength(1);
    expect(window.portalChatService?.bookingRequestKey).toBeNull();
    fire(CHAT_SERVICE_EVENTS.disconnected);
    await vi.advanceTimersByTimeAsync(0);
    await service.open(null); // a new conversation
    await vi.advanceTimersByTimeAsync(CHAT_OPEN_DELAY_MS);
    expect(starts).toEqual([{ bookingRequestKey: KEY }, { bookingRequestKey: null }]);
    window.removeEventListener(CHAT_SERVICE_EVENTS.start, listener);
  });

  it('reports a conversation that ends after the booking-complete message as booked, and reloads the page', async () => {
    const { service, reports } = setUp();
    const onChanged = vi.fn();
    const opening = service.open({ bookingKey: KEY, onChanged });
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    fire(CHAT_SERVICE_EVENTS.conversationStarted);
    fire(CHAT_SERVICE_EVENTS.conversationStarted); // one conversation, one report
    await settle();
    expect(service.conversationRequest?.bookingKey).toBe(KEY);
    fire(CHAT_SERVICE_EVENTS.bookingComplete);
    expect(service.bookingCompleteMessageSent).toBe(true);
    fire(CHAT_SERVICE_EVENTS.disconnected);
    await settle();
    expect(reports).toEqual([
      [KEY, { event: 'started' }],
      [KEY, { event: 'ended', bookingComplete: true }],
    ]);
    expect(onChanged).toHaveBeenCalledTimes(2);
    expect(service.bookingCompleteMessageSent).toBe(false);
    expect(service.conversationRequest).toBeNull();
  });

  it('reports a conversation that ends without it as not complete (the booking team takes it back)', async () => {
    const { service, reports } = setUp();
    const opening = service.open({ bookingKey: KEY, onChanged: () => undefined });
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    fire(CHAT_SERVICE_EVENTS.conversationStarted);
    fire(CHAT_SERVICE_EVENTS.disconnected);
    await settle();
    expect(reports).toEqual([
      [KEY, { event: 'started' }],
      [KEY, { event: 'ended', bookingComplete: false }],
    ]);
  });

  it('reports nothing for a conversation opened away from a booking request', async () => {
    const { service, reports } = setUp();
    const opening = service.open(null);
    expect(window.portalChatService?.bookingRequestKey).toBeNull();
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    fire(CHAT_SERVICE_EVENTS.conversationStarted);
    fire(CHAT_SERVICE_EVENTS.bookingComplete);
    fire(CHAT_SERVICE_EVENTS.disconnected);
    await settle();
    expect(reports).toEqual([]);
  });

  it('keeps the conversation going when a report fails', async () => {
    const { service, reports } = setUp(() => Promise.reject(new Error('offline')));
    const onChanged = vi.fn();
    const opening = service.open({ bookingKey: KEY, onChanged });
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    fire(CHAT_SERVICE_EVENTS.conversationStarted);
    await settle();
    expect(reports).toHaveLength(1);
    expect(onChanged).not.toHaveBeenCalled();
    expect(service.conversationRequest?.bookingKey).toBe(KEY);
  });

  it('answers false when the script fails or never loads, and tries again at the next press', async () => {
    const { service } = setUp();
    const failing = service.open(null);
    scripts()[0]?.dispatchEvent(new Event('error'));
    expect(await failing).toBe(false);
    expect(service.state).toBe('failed');
    expect(scripts()).toHaveLength(0);

    vi.useFakeTimers();
    const hanging = service.open(null);
    expect(scripts()).toHaveLength(1);
    vi.advanceTimersByTime(CHAT_SERVICE_LOAD_TIMEOUT_MS);
    expect(await hanging).toBe(false);
    expect(scripts()).toHaveLength(0);
  });

  it("sends the messenger's files as the request's referral in debounced batches, and answers how each went", async () => {
    const { service, uploads } = setUp(undefined, (file) =>
      file.name === 'virus.pdf' ? Promise.reject(new Error('This file did not pass the virus check.')) : Promise.resolve(),
    );
    const onChanged = vi.fn();
    const opening = service.open({ bookingKey: KEY, onChanged });
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    const results = uploadResults();
    vi.useFakeTimers();
    const give = (...names: string[]) =>
      window.dispatchEvent(
        new CustomEvent(CHAT_SERVICE_EVENTS.upload, { detail: { files: names.map((name) => new File(['%PDF-1.4'], name)) } }),
      );
    give('page-1.pdf');
    await vi.advanceTimersByTimeAsync(UPLOAD_FIRST_DEBOUNCE_MS - 500);
    give('page-2.pdf', 'virus.pdf');
    // The first pick's wait still holds; a later pick adds its own shorter one.
    await vi.advanceTimersByTimeAsync(500);
    expect(uploads).toEqual([]);
    expect(service.uploads.uploadCounter).toBe(3);
    await vi.advanceTimersByTimeAsync(UPLOAD_NEXT_DEBOUNCE_MS);
    expect(uploads).toEqual([
      [KEY, 'page-1.pdf'],
      [KEY, 'page-2.pdf'],
      [KEY, 'virus.pdf'],
    ]);
    expect(results).toEqual([
      [
        { name: 'page-1.pdf', status: 'sent', problem: null },
        { name: 'page-2.pdf', status: 'sent', problem: null },
        { name: 'virus.pdf', status: 'failed', problem: 'This file did not pass the virus check.' },
      ],
    ]);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('sends nothing given away from a booking request, and says why', async () => {
    const { service, uploads } = setUp();
    const opening = service.open(null);
    scripts()[0]?.dispatchEvent(new Event('load'));
    await opening;
    const results = uploadResults();
    vi.useFakeTimers();
    window.dispatchEvent(
      new CustomEvent(CHAT_SERVICE_EVENTS.upload, { detail: { files: [new File(['x'], 'referral.pdf'), 'not a file'] } }),
    );
    window.dispatchEvent(new CustomEvent(CHAT_SERVICE_EVENTS.upload, { detail: 'nonsense' }));
    await vi.advanceTimersByTimeAsync(UPLOAD_FIRST_DEBOUNCE_MS);
    expect(uploads).toEqual([]);
    expect(results).toEqual([[{ name: 'referral.pdf', status: 'failed', problem: CHAT_SERVICE_NO_REQUEST }]]);
  });

  it('keeps the page request in the context the booking-request page sets', () => {
    const context = { bookingKey: KEY, onChanged: () => undefined };
    setChatBookingRequest(context);
    expect(chatBookingRequest()).toBe(context);
    setChatBookingRequest(null);
    expect(chatBookingRequest()).toBeNull();
  });
});
