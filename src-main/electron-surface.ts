// The surface is typed from Electron's own declarations; `import type` loads nothing at runtime,
// so the modules built on it still run in plain Node (tests) where require('electron') throws.
// eslint-disable-next-line no-restricted-imports -- types only, see above
import type {
  BeforeSendResponse,
  BrowserWindowConstructorOptions,
  ClearStorageDataOptions,
  Cookie,
  CookiesGetFilter,
  Details as ChildProcessGoneDetails,
  DevicePermissionHandlerHandlerDetails,
  HandlerDetails,
  Input,
  OnBeforeSendHeadersListenerDetails,
  OnCompletedListenerDetails,
  RenderProcessGoneDetails,
  Session,
  WindowOpenHandlerResponse,
} from 'electron';

/**
 * The narrow part of Electron the kiosk main process uses. Every main-process module takes
 * (parts of) this as an argument; only src-main/main.ts passes the real objects, and the
 * compiler checks there that the real `app`, `BrowserWindow` and `webContents` satisfy it.
 * Tests pass tests/main/helpers/fake-electron.ts instead.
 *
 * Listener parameters are narrowed to the fields we read, so a fake can build them without a
 * real WebFrameMain; Electron's richer objects are assignable to them.
 */

export type { BrowserWindowConstructorOptions, HandlerDetails, Input, RenderProcessGoneDetails, WindowOpenHandlerResponse };

/** An event whose default action the listener may cancel (Electron's `Event`). */
export interface PreventableEvent {
  preventDefault(): void;
}

/** `will-navigate` / `will-frame-navigate` details (Electron's `Event<WebContentsWill…NavigateEventParams>`). */
export interface NavigationEvent extends PreventableEvent {
  readonly url: string;
  readonly isMainFrame: boolean;
}

/** Permission names Electron passes to the request handler, straight from its declarations. */
export type RequestPermission = Parameters<NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>>[1];
/** Permission names Electron passes to the check handler. */
export type CheckPermission = Parameters<NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>>[1];

export type PermissionRequestHandler = (
  webContents: unknown,
  permission: RequestPermission,
  callback: (permissionGranted: boolean) => void,
  /** mediaTypes: what a 'media' request wants ('video' is the camera, 'audio' the microphone). */
  details: { requestingUrl?: string; mediaTypes?: readonly string[] },
) => void;
export type PermissionCheckHandler = (
  webContents: unknown,
  permission: CheckPermission,
  requestingOrigin: string,
  /** mediaType: what a 'media' check asks about ('video', 'audio' or 'unknown'). */
  details: { requestingUrl?: string; mediaType?: string },
) => boolean;
export type DevicePermissionHandler = (details: Pick<DevicePermissionHandlerHandlerDetails, 'deviceType' | 'origin'>) => boolean;

export type BeforeSendHeadersListener = (
  details: Pick<OnBeforeSendHeadersListenerDetails, 'url' | 'requestHeaders'>,
  callback: (response: BeforeSendResponse) => void,
) => void;
export type CompletedListener = (details: Pick<OnCompletedListenerDetails, 'url' | 'statusCode'>) => void;

/** session.webRequest: where main adds the kiosk token and notices a refused one. */
export interface KioskWebRequest {
  onBeforeSendHeaders(listener: BeforeSendHeadersListener | null): void;
  onCompleted(listener: CompletedListener | null): void;
}

/** session.cookies, for the patient-session wipe that keeps the kiosk's own cookies. */
export interface KioskCookies {
  get(filter: CookiesGetFilter): Promise<Cookie[]>;
  remove(url: string, name: string): Promise<void>;
}

export type { Cookie };

/** The session a kiosk window runs in. */
export interface KioskSession {
  setPermissionRequestHandler(handler: PermissionRequestHandler | null): void;
  setPermissionCheckHandler(handler: PermissionCheckHandler | null): void;
  setDevicePermissionHandler(handler: DevicePermissionHandler | null): void;
  readonly webRequest: KioskWebRequest;
  readonly cookies: KioskCookies;
  clearStorageData(options?: ClearStorageDataOptions): Promise<void>;
  clearAuthCache(): Promise<void>;
  clearCache(): Promise<void>;
}

/** The webContents events and calls the kiosk uses. */
export interface KioskWebContents {
  readonly session: KioskSession;
  on(event: 'will-navigate', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-frame-navigate', listener: (event: NavigationEvent) => void): unknown;
  on(event: 'before-input-event', listener: (event: PreventableEvent, input: Input) => void): unknown;
  on(event: 'render-process-gone', listener: (event: unknown, details: RenderProcessGoneDetails) => void): unknown;
  on(event: 'unresponsive', listener: () => void): unknown;
  on(event: 'did-finish-load', listener: () => void): unknown;
  on(
    event: 'did-fail-load',
    listener: (event: unknown, errorCode: number, errorDescription: string, validatedURL: string, isMainFrame: boolean) => void,
  ): unknown;
  on(event: 'preload-error', listener: (event: unknown, preloadPath: string, error: Error) => void): unknown;
  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void;
  /** Pinch-zoom on a touch screen would leave the next patient a zoomed page; (1, 1) turns it off. */
  setVisualZoomLevelLimits(minimumLevel: number, maximumLevel: number): Promise<void>;
  loadURL(url: string): Promise<void>;
  /** `query` carries the local screen's reason and the kiosk name (resources/kiosk/enrollment.html). */
  loadFile(filePath: string, options?: { query?: Record<string, string> }): Promise<void>;
  getURL(): string;
  forcefullyCrashRenderer(): void;
  isDestroyed(): boolean;
  /** Pushes an event to the preload (the idle ticks); main checks the page's origin first. */
  send(channel: string, ...args: unknown[]): void;
  /** Used once, to clear the tab's sessionStorage, which no session API reaches. */
  executeJavaScript(code: string): Promise<unknown>;
  readonly navigationHistory: { clear(): void };
}

/** A kiosk BrowserWindow. */
export interface KioskBrowserWindow {
  readonly webContents: KioskWebContents;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
  focus(): void;
  isDestroyed(): boolean;
}

/** The sender of an `ipcMain.handle` call (Electron's IpcMainInvokeEvent, narrowed). */
export interface KioskInvokeEvent {
  /** Null when the frame navigated away or was destroyed before the handler ran. */
  readonly senderFrame: { readonly url: string; readonly parent: unknown } | null;
}

export interface KioskIpcMain {
  handle(channel: string, listener: (event: KioskInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
}

/** The `app` calls and events the kiosk uses. */
export interface KioskApp {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<void>;
  getVersion(): string;
  getAppPath(): string;
  getPath(name: 'userData'): string;
  readonly isPackaged: boolean;
  relaunch(): void;
  exit(exitCode?: number): void;
  quit(): void;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'child-process-gone', listener: (event: unknown, details: ChildProcessGoneDetails) => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
}

/** Electron's safeStorage: OS-backed encryption for the kiosk token. */
export interface KioskSafeStorage {
  isEncryptionAvailable(): boolean;
  /** Linux only: which secret store backs the encryption; `basic_text` means none. */
  getSelectedStorageBackend(): string;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** Electron's powerMonitor: the hardware idle time and the events that end a patient's visit. */
export interface KioskPowerMonitor {
  getSystemIdleTime(): number;
  on(event: 'lock-screen', listener: () => void): unknown;
  on(event: 'unlock-screen', listener: () => void): unknown;
  on(event: 'suspend', listener: () => void): unknown;
  on(event: 'resume', listener: () => void): unknown;
}

/** Everything main.ts hands to the modules: the real Electron in the app, fakes in tests. */
export interface ElectronSurface {
  readonly app: KioskApp;
  createWindow(options: BrowserWindowConstructorOptions): KioskBrowserWindow;
  readonly ipcMain: KioskIpcMain;
  /** Menu.setApplicationMenu(null): no menu means no built-in reload/devtools/zoom accelerators. */
  removeApplicationMenu(): void;
  /** dialog.showErrorBox: the one way to tell clinic IT that the provisioning file is wrong. */
  showErrorBox(title: string, content: string): void;
  readonly safeStorage: KioskSafeStorage;
  readonly powerMonitor: KioskPowerMonitor;
}
