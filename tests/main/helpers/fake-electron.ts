import { EventEmitter } from 'node:events';
import type {
  BeforeSendHeadersListener,
  BrowserWindowConstructorOptions,
  CompletedListener,
  Cookie,
  DevicePermissionHandler,
  ElectronSurface,
  HandlerDetails,
  Input,
  KioskApp,
  KioskBrowserWindow,
  KioskInvokeEvent,
  KioskIpcMain,
  KioskPowerMonitor,
  KioskSafeStorage,
  KioskSession,
  KioskWebContents,
  PermissionCheckHandler,
  PermissionRequestHandler,
  RenderProcessGoneDetails,
  WindowOpenHandlerResponse,
} from '../../../src-main/electron-surface';
import type { Timers } from '../../../src-main/crash-recovery';
import type { KioskIpcDeps } from '../../../src-main/ipc';
import type { KioskUpdater } from '../../../src-main/updater';
import type { KioskLog } from '../../../src-main/kiosk-log';

/**
 * An in-memory Electron for the main-process tests: event emitters where Electron has events,
 * and a record of every call the kiosk makes. Each `emit…` helper builds the event object the way
 * Electron does and reports whether the kiosk called preventDefault.
 */

/** A cancellable event as Electron passes it. */
export function preventableEvent<T extends object>(fields: T): T & { preventDefault(): void; readonly defaultPrevented: boolean } {
  let prevented = false;
  return {
    ...fields,
    preventDefault: () => {
      prevented = true;
    },
    get defaultPrevented() {
      return prevented;
    },
  };
}

/** session.webRequest: keeps the listeners so a test can play requests through them. */
export class FakeWebRequest {
  beforeSendHeaders: BeforeSendHeadersListener | null = null;
  completed: CompletedListener | null = null;
  onBeforeSendHeaders(listener: BeforeSendHeadersListener | null): void {
    this.beforeSendHeaders = listener;
  }
  onCompleted(listener: CompletedListener | null): void {
    this.completed = listener;
  }
  /** The headers a request to `url` leaves with, after the kiosk's listener. */
  send(url: string, requestHeaders: Record<string, string> = {}): Record<string, string | string[]> {
    let sent: Record<string, string | string[]> = requestHeaders;
    this.beforeSendHeaders?.({ url, requestHeaders: { ...requestHeaders } }, (response) => {
      if (response.cancel) throw new Error('request cancelled');
      sent = response.requestHeaders ?? requestHeaders;
    });
    return sent;
  }
  complete(url: string, statusCode: number): void {
    this.completed?.({ url, statusCode });
  }
}

/** session.cookies over an in-memory jar. */
export class FakeCookies {
  jar: Cookie[] = [];
  get(): Promise<Cookie[]> {
    return Promise.resolve([...this.jar]);
  }
  remove(url: string, name: string): Promise<void> {
    const host = new URL(url).hostname;
    this.jar = this.jar.filter((cookie) => !(cookie.name === name && (cookie.domain ?? '').replace(/^\./, '') === host));
    return Promise.resolve();
  }
}

export class FakeSession implements KioskSession {
  readonly webRequest = new FakeWebRequest();
  readonly cookies = new FakeCookies();
  /** Every clear* call, in order, with its options. */
  readonly clears: { call: string; options?: unknown }[] = [];
  clearStorageData(options?: unknown): Promise<void> {
    this.clears.push({ call: 'clearStorageData', options });
    return Promise.resolve();
  }
  clearAuthCache(): Promise<void> {
    this.clears.push({ call: 'clearAuthCache' });
    return Promise.resolve();
  }
  clearCache(): Promise<void> {
    this.clears.push({ call: 'clearCache' });
    return Promise.resolve();
  }
  requestHandler: PermissionRequestHandler | null = null;
  checkHandler: PermissionCheckHandler | null = null;
  deviceHandler: DevicePermissionHandler | null = null;

  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void {
    this.checkHandler = handler;
  }
  setDevicePermissionHandler(handler: DevicePermissionHandler | null): void {
    this.deviceHandler = handler;
  }
}

/** One entry per page the kiosk asked the window to show. */
export type LoadRecord = { kind: 'url'; target: string } | { kind: 'file'; target: string; query?: Record<string, string> };

export class FakeWebContents extends EventEmitter implements KioskWebContents {
  readonly session = new FakeSession();
  readonly loads: LoadRecord[] = [];
  windowOpenHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  zoomLimits: [number, number] | null = null;
  crashRendererCalls = 0;
  destroyed = false;
  /** What getURL() answers: the last loaded URL unless a test sets it. */
  currentUrl = '';
  /** When set, loadURL rejects with this error (Electron rejects on a failed load). */
  failNextLoads: Error | null = null;

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler;
  }
  setVisualZoomLevelLimits(minimumLevel: number, maximumLevel: number): Promise<void> {
    this.zoomLimits = [minimumLevel, maximumLevel];
    return Promise.resolve();
  }
  loadURL(url: string): Promise<void> {
    this.loads.push({ kind: 'url', target: url });
    this.currentUrl = url;
    return this.failNextLoads ? Promise.reject(this.failNextLoads) : Promise.resolve();
  }
  /** What the kiosk pushed to the preload, in order. */
  readonly sent: { channel: string; args: unknown[] }[] = [];
  readonly scripts: string[] = [];
  historyCleared = 0;
  readonly navigationHistory = {
    clear: () => {
      this.historyCleared += 1;
    },
  };
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  executeJavaScript(code: string): Promise<unknown> {
    this.scripts.push(code);
    return Promise.resolve(undefined);
  }
  loadFile(filePath: string, options?: { query?: Record<string, string> }): Promise<void> {
    this.loads.push(options?.query ? { kind: 'file', target: filePath, query: options.query } : { kind: 'file', target: filePath });
    this.currentUrl = `file://${filePath}`;
    return Promise.resolve();
  }
  getURL(): string {
    return this.currentUrl;
  }
  forcefullyCrashRenderer(): void {
    this.crashRendererCalls += 1;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }

  /** will-navigate / will-frame-navigate; returns true when the kiosk cancelled it. */
  emitNavigation(event: 'will-navigate' | 'will-frame-navigate', url: string, isMainFrame = true): boolean {
    const details = preventableEvent({ url, isMainFrame, isSameDocument: false });
    this.emit(event, details, url);
    return details.defaultPrevented;
  }
  /** A key press; returns true when the kiosk swallowed it. */
  emitKey(input: Partial<Input> & Pick<Input, 'key'>): boolean {
    const event = preventableEvent({});
    const full: Input = {
      type: 'keyDown',
      code: '',
      isAutoRepeat: false,
      isComposing: false,
      shift: false,
      control: false,
      alt: false,
      meta: false,
      location: 0,
      modifiers: [],
      ...input,
    };
    this.emit('before-input-event', event, full);
    return event.defaultPrevented;
  }
  /** What window.open / target=_blank would get. */
  requestWindowOpen(url: string): WindowOpenHandlerResponse | null {
    if (!this.windowOpenHandler) return null;
    return this.windowOpenHandler({
      url,
      frameName: '',
      features: '',
      disposition: 'new-window',
      referrer: { url: '', policy: 'default' },
    });
  }
  emitRenderProcessGone(reason: RenderProcessGoneDetails['reason']): void {
    this.emit('render-process-gone', preventableEvent({}), { reason, exitCode: 1 });
  }
  emitUnresponsive(): void {
    this.emit('unresponsive');
  }
  emitDidFailLoad(errorCode: number, url: string, isMainFrame = true): void {
    this.emit('did-fail-load', preventableEvent({}), errorCode, 'failed', url, isMainFrame, 1, 1);
  }
  emitDidFinishLoad(): void {
    this.emit('did-finish-load');
  }
  emitPreloadError(preloadPath: string, error: Error): void {
    this.emit('preload-error', preventableEvent({}), preloadPath, error);
  }
}

export class FakeBrowserWindow extends EventEmitter implements KioskBrowserWindow {
  readonly webContents = new FakeWebContents();
  shown = false;
  focusCount = 0;

  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focusCount += 1;
  }
  isDestroyed(): boolean {
    return this.webContents.destroyed;
  }
}

/** Who calls: the sender frame of an invoke, as main sees it. */
export interface FakeSender {
  url: string;
  isMainFrame: boolean;
}

export function invokeEvent(sender: FakeSender | null): KioskInvokeEvent {
  if (!sender) return { senderFrame: null };
  const mainFrame = { url: sender.url, parent: null };
  return { senderFrame: sender.isMainFrame ? mainFrame : { url: sender.url, parent: mainFrame } };
}

export class FakeIpcMain implements KioskIpcMain {
  readonly handlers = new Map<string, (event: KioskInvokeEvent, ...args: unknown[]) => Promise<unknown>>();

  handle(channel: string, listener: (event: KioskInvokeEvent, ...args: unknown[]) => Promise<unknown>): void {
    // Electron throws on a second handler for the same channel; so does the fake.
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  /** Calls a channel the way ipcRenderer.invoke would reach it from `sender`. */
  invoke(channel: string, sender: FakeSender | null, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return handler(invokeEvent(sender), ...args);
  }
}

export class FakeApp extends EventEmitter implements KioskApp {
  isPackaged = false;
  gotLock = true;
  relaunchCalls = 0;
  quitCalls = 0;
  exitCodes: (number | undefined)[] = [];
  /** Relaunch and exit in the order they happened. */
  readonly lifecycle: string[] = [];

  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getVersion(): string {
    return '1.2.3';
  }
  getAppPath(): string {
    return '/opt/kiosk/resources/app.asar';
  }
  /** Tests that write files point this at a temporary folder. */
  userData = '/home/kiosk/.config/Patient Portal Kiosk';
  getPath(_name: 'userData'): string {
    return this.userData;
  }
  relaunch(): void {
    this.relaunchCalls += 1;
    this.lifecycle.push('relaunch');
  }
  exit(exitCode?: number): void {
    this.exitCodes.push(exitCode);
    this.lifecycle.push(`exit(${exitCode})`);
  }
  quit(): void {
    this.quitCalls += 1;
    this.lifecycle.push('quit');
  }
}

/**
 * safeStorage with a reversible stand-in cipher (byte-wise XOR), so a test can check the file
 * holds no plaintext; `backend` and `available` select what the OS offers.
 */
export class FakeSafeStorage implements KioskSafeStorage {
  available = true;
  backend = 'gnome_libsecret';
  isEncryptionAvailable(): boolean {
    return this.available;
  }
  getSelectedStorageBackend(): string {
    return this.backend;
  }
  encryptString(plainText: string): Buffer {
    if (!this.available) throw new Error('Encryption is not available.');
    return Buffer.from(Buffer.from(plainText, 'utf8').map((byte) => byte ^ 0x5a));
  }
  decryptString(encrypted: Buffer): string {
    return Buffer.from(encrypted.map((byte) => byte ^ 0x5a)).toString('utf8');
  }
}

export class FakePowerMonitor extends EventEmitter implements KioskPowerMonitor {
  idleSeconds = 0;
  getSystemIdleTime(): number {
    return this.idleSeconds;
  }
}

export class FakeElectron implements ElectronSurface {
  readonly app = new FakeApp();
  readonly safeStorage = new FakeSafeStorage();
  readonly powerMonitor = new FakePowerMonitor();
  readonly ipcMain = new FakeIpcMain();
  readonly windows: FakeBrowserWindow[] = [];
  menuRemoved = false;
  readonly errorBoxes: { title: string; content: string }[] = [];

  createWindow(options: BrowserWindowConstructorOptions): FakeBrowserWindow {
    const window = new FakeBrowserWindow(options);
    this.windows.push(window);
    return window;
  }
  removeApplicationMenu(): void {
    this.menuRemoved = true;
  }
  showErrorBox(title: string, content: string): void {
    this.errorBoxes.push({ title, content });
  }
}

/** A log that keeps its lines for assertions. */
export class MemoryLog implements KioskLog {
  readonly lines: { level: 'info' | 'warn' | 'error'; message: string; error?: unknown }[] = [];
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string, error?: unknown): void {
    this.lines.push({ level: 'error', message, error });
  }
  text(): string {
    return this.lines.map((line) => line.message).join('\n');
  }
}

/** A manual clock and timer queue: time moves only when the test calls advance(). */
export class FakeTimers implements Timers<number> {
  private time = 1_700_000_000_000;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): number {
    const id = this.nextId++;
    this.pending.set(id, { at: this.time + ms, callback });
    return id;
  }
  clearTimeout(handle: number): void {
    this.pending.delete(handle);
  }
  /** Delays of the timers still waiting, in ms from now. */
  pendingDelays(): number[] {
    return [...this.pending.values()].map((timer) => timer.at - this.time);
  }
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, timer] = due;
      this.pending.delete(id);
      this.time = timer.at;
      timer.callback();
    }
    this.time = until;
  }
}

/** Bridge dependencies with harmless answers; a test overrides the ones it checks. */
export function testIpcDeps(overrides: Partial<KioskIpcDeps> & Pick<KioskIpcDeps, 'allowedOrigin' | 'log'>): KioskIpcDeps {
  return {
    appInfo: () => ({ version: '1.2.3', platform: 'linux' }),
    identity: () => ({ name: 'Lobby 1', clinicSlug: 'parramatta', clinicName: 'Parramatta', enrolled: true }),
    systemIdleSeconds: () => 0,
    endPatientSession: () => Promise.resolve(),
    reportPatientActivity: () => undefined,
    ...overrides,
  };
}

/** electron-updater's autoUpdater as the kiosk sees it: records checks and installs. */
export class FakeUpdater extends EventEmitter implements KioskUpdater {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  feed: unknown = null;
  checks = 0;
  installs: [boolean | undefined, boolean | undefined][] = [];
  failChecks = false;
  setFeedURL(options: unknown): void {
    this.feed = options;
  }
  checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    return this.failChecks ? Promise.reject(new Error('net::ERR_NAME_NOT_RESOLVED')) : Promise.resolve(null);
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}
