/**
 * The window's preload. It runs sandboxed, so it is bundled into one CommonJS file whose
 * only runtime require is 'electron' (electron.vite.config.ts).
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { buildGatehouseApi } from './gatehouse-api.js';

contextBridge.exposeInMainWorld('gatehouse', buildGatehouseApi(ipcRenderer, webUtils));
