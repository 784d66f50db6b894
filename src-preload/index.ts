import { contextBridge, ipcRenderer } from 'electron';
import { exposeKioskApi } from './kiosk-api';

// The whole preload: expose the named kiosk functions, nothing else. It runs sandboxed, so it is
// bundled into one CommonJS file (electron.vite.config.ts).
exposeKioskApi(contextBridge, ipcRenderer);
