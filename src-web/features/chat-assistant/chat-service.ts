import { makeAutoObservable, observableRef } from 'mobx';
import type { ChatServiceEvent } from '@contract/api/booking-requests';
import type { ChatServiceConfig } from '@contract/api/config';
import { CHAT_OPEN_DELAY_MS } from './chat-constants';
import type { ChatRequestContext } from './chat-context';
import { ChatUploadQueue, type QueuedFile } from './chat-upload-queue';

/**
 * The bridge between the portal and the provider's chat service (docs/rules/chat.md#the-bridge):
 * events on `window`, so any messenger (its own script or the provider's glue around it) can take
 * part without the portal knowing its API.
 */
export const CHAT_SERVICE_EVENTS = {
  /** Portal → service: show the messenger (the patient pressed "Chat with us"). */
  open: 'portal-chat:open',
  /** Portal → service: begin the conversation now (detail: `{ bookingRequestKey }`), CHAT_OPEN_DELAY_MS after `open`. */
  start: 'portal-chat:start',
  /** Service → portal: a conversation began. */
  conversationStarted: 'portal-chat:conversation-started',
  /** Service → portal: the bot's booking-complete message arrived. */
  bookingComplete: 'portal-chat:booking-complete',
  /** Service → portal: the bot disconnected; the conversation is over. */
  disconnected: 'portal-chat:disconnected',
  /** Service → portal: files the patient gave the messenger (detail: `{ files: File[] }`), for the request's referral. */
  upload: 'portal-chat:upload',
  /** Portal → service: how each batch went (detail: `{ files: ChatServiceUploadResult[] }`). */
  uploadResult: 'portal-chat:upload-result',
} as const;

/** One file of a batch, as the messenger may tell the patient. */
export interface ChatServiceUploadResult {
  name: string;
  status: 'sent' | 'failed';
  /** The refusal in the server's words (type, size, virus, too many), or why nothing could be sent. */
  problem: string | null;
}

/** Files given away from a booking request's page have nowhere to go. */
export const CHAT_SERVICE_NO_REQUEST = 'Open the chat from your booking request to send documents for it.';

/** What the service's script finds on `window.portalChatService` before it runs. */
export interface ChatServiceWindowSettings {
  environment: string;
  deploymentId: string;
  locale: string;
  /** The booking request the conversation is about, or null on other pages. */
  bookingRequestKey: string | null;
}

declare global {
  interface Window {
    portalChatService?: ChatServiceWindowSettings;
  }
}

/** A script that has neither loaded nor failed by then counts as failed: the built-in assistant answers instead. */
export const CHAT_SERVICE_LOAD_TIMEOUT_MS = 15_000;

export interface ChatServiceDeps {
  config: ChatServiceConfig;
  window: Window;
  locale(): string;
  /** POST /api/booking-requests/{key}/chat-service. */
  report(bookingKey: string, event: ChatServiceEvent): Promise<unknown>;
  /** Uploads one file as the request's referral; rejects with the server's words. */
  uploadReferral(bookingKey: string, file: File, onProgress: (percent: number) => void): Promise<void>;
}

export type ChatServiceState = 'idle' | 'loading' | 'loaded' | 'failed';

/** The provider's chat service on this page (spec: chat state bookingCompleteMessageSent and the loaded flag). */
export class ChatService {
  state: ChatServiceState = 'idle';
  bookingCompleteMessageSent = false;
  /** The request a conversation in progress is about (the page's when it began). */
  conversationRequest: ChatRequestContext | null = null;
  /** The page's request when the patient last opened the chat. */
  private context: ChatRequestContext | null = null;
  private loading: Promise<boolean> | null = null;
  private readonly listening = new AbortController();
  private startTimer: number | null = null;
  /** Between the service's conversation-started and its disconnect, on any page. */
  private conversationGoing = false;
  /** The spec's uploadQueue and uploadCounter: files from the messenger go in debounced batches (3000 / 1000 ms). */
  readonly uploads: ChatUploadQueue;

  constructor(private readonly deps: ChatServiceDeps) {
    this.uploads = new ChatUploadQueue({
      send: (file, onProgress) => this.sendFile(file, onProgress),
      onBatchDone: (files) => this.uploadsDone(files),
    });
    makeAutoObservable<this, 'deps' | 'loading' | 'context' | 'listening' | 'startTimer' | 'conversationGoing'>(this, {
      deps: false,
      conversationGoing: false,
      startTimer: false,
      loading: false,
      context: false,
      listening: false,
      uploads: false,
      conversationRequest: observableRef,
    });
    const win = deps.window;
    const { signal } = this.listening;
    win.addEventListener(CHAT_SERVICE_EVENTS.conversationStarted, () => void this.conversationStarted(), { signal });
    win.addEventListener(CHAT_SERVICE_EVENTS.bookingComplete, () => this.setBookingComplete(), { signal });
    win.addEventListener(CHAT_SERVICE_EVENTS.disconnected, () => void this.disconnected(), { signal });
    win.addEventListener(CHAT_SERVICE_EVENTS.upload, (event) => this.filesGiven(event), { signal });
  }

  /** Stops listening to the service and drops files not yet sent. */
  dispose(): void {
    this.listening.abort();
    this.uploads.cancel();
    if (this.startTimer !== null) this.deps.window.clearTimeout(this.startTimer);
  }

  /** Loads the script once and shows the messenger; false when it cannot load. */
  async open(context: ChatRequestContext | null): Promise<boolean> {
    this.context = context;
    const loaded = await this.load();
    if (!loaded) return false;
    const win = this.deps.window;
    if (win.portalChatService) win.portalChatService.bookingRequestKey = context?.bookingKey ?? null;
    win.dispatchEvent(new Event(CHAT_SERVICE_EVENTS.open));
    // Spec: the conversation opens CHAT_OPEN_DELAY_MS after the chat opens (none already going or about to).
    if (!this.conversationGoing && this.startTimer === null) {
      this.startTimer = win.setTimeout(() => {
        this.startTimer = null;
        win.dispatchEvent(new CustomEvent(CHAT_SERVICE_EVENTS.start, { detail: { bookingRequestKey: this.context?.bookingKey ?? null } }));
      }, CHAT_OPEN_DELAY_MS);
    }
    return true;
  }

  private load(): Promise<boolean> {
    if (this.state === 'loaded') return Promise.resolve(true);
    if (this.loading !== null) return this.loading;
    const { window: win, config } = this.deps;
    win.portalChatService = {
      environment: config.environment,
      deploymentId: config.deploymentId,
      locale: this.deps.locale(),
      bookingRequestKey: this.context?.bookingKey ?? null,
    };
    this.setState('loading');
    this.loading = new Promise<boolean>((resolve) => {
      const script = win.document.createElement('script');
      const timer = win.setTimeout(() => finish(false), CHAT_SERVICE_LOAD_TIMEOUT_MS);
      const finish = (loaded: boolean): void => {
        win.clearTimeout(timer);
        this.setState(loaded ? 'loaded' : 'failed');
        // A failed script may be tried again at the next press (the network came back).
        if (!loaded) script.remove();
        this.loading = null;
        resolve(loaded);
      };
      script.src = config.scriptUrl;
      script.async = true;
      script.onload = () => finish(true);
      script.onerror = () => finish(false);
      win.document.head.append(script);
    });
    return this.loading;
  }

  private setState(state: ChatServiceState): void {
    this.state = state;
  }

  private setBookingComplete(): void {
    this.bookingCompleteMessageSent = true;
  }

  private async conversationStarted(): Promise<void> {
    this.conversationGoing = true;
    const request = this.context;
    if (request === null || this.conversationRequest !== null) return;
    this.conversationRequest = request;
    await this.send(request, { event: 'started' });
  }

  /** Spec: a bot disconnect marks the request BOOKED when the booking-complete message came, else sets its type PATIENT. */
  private async disconnected(): Promise<void> {
    const request = this.conversationRequest;
    const bookingComplete = this.bookingCompleteMessageSent;
    this.conversationGoing = false;
    this.conversationRequest = null;
    this.bookingCompleteMessageSent = false;
    if (request !== null) await this.send(request, { event: 'ended', bookingComplete });
  }

  /** The request files go to: the conversation's, else the page's. */
  private get uploadRequest(): ChatRequestContext | null {
    return this.conversationRequest ?? this.context;
  }

  private filesGiven(event: Event): void {
    const detail: unknown = event instanceof CustomEvent ? event.detail : null;
    const given = detail !== null && typeof detail === 'object' && 'files' in detail ? (detail as { files: unknown }).files : null;
    const files = Array.isArray(given) ? given.filter((file): file is File => file instanceof File) : [];
    if (files.length > 0) this.uploads.add(files);
  }

  private async sendFile(file: File, onProgress: (percent: number) => void): Promise<void> {
    const request = this.uploadRequest;
    if (request === null) throw new Error(CHAT_SERVICE_NO_REQUEST);
    await this.deps.uploadReferral(request.bookingKey, file, onProgress);
  }

  private uploadsDone(files: readonly QueuedFile[]): void {
    const results: ChatServiceUploadResult[] = files.map((item) => ({
      name: item.file.name,
      status: item.status === 'sent' ? 'sent' : 'failed',
      problem: item.problem,
    }));
    this.deps.window.dispatchEvent(new CustomEvent(CHAT_SERVICE_EVENTS.uploadResult, { detail: { files: results } }));
    if (results.some((result) => result.status === 'sent')) this.uploadRequest?.onChanged();
  }

  private async send(request: ChatRequestContext, event: ChatServiceEvent): Promise<void> {
    try {
      await this.deps.report(request.bookingKey, event);
      request.onChanged();
    } catch {
      // The conversation goes on; the request stays with the booking team, who see it in their queue.
    }
  }
}
