/**
 * A stand-in for the `electron` module, so the built main bundle can start in plain Node.
 * When the window loads its page, it fetches the page and its script through the app
 * scheme, makes a few contract calls over the registered IPC handlers, and quits. Every
 * observation is printed as one JSON line prefixed with "stub:" for the test to read.
 */
import { EventEmitter } from 'node:events';

const report = (what, data) => console.log(`stub:${JSON.stringify({ what, data })}`);
const handlers = new Map();
let protocolHandler = null;
const appEvents = new EventEmitter();
let userData = process.env.GATEHOUSE_HOME;

const app = {
  isPackaged: false,
  getPath: (name) => (name === 'home' ? process.env.HOME : userData),
  setPath: (_name, value) => {
    userData = value;
  },
  getAppPath: () => process.cwd(),
  requestSingleInstanceLock: () => true,
  quit: () => {
    let held = false;
    appEvents.emit('before-quit', {
      preventDefault: () => {
        held = true;
      },
    });
    report('quit', { held });
  },
  exit: (code) => process.exit(code),
  whenReady: async () => undefined,
  setBadgeCount: () => true,
  on: (event, listener) => appEvents.on(event, listener),
};

const defaultSession = {
  setPermissionRequestHandler() {},
  setPermissionCheckHandler() {},
  webRequest: { onHeadersReceived() {} },
};

class WebContents extends EventEmitter {
  session = defaultSession;
  send() {}
  isDestroyed() {
    return false;
  }
  setWindowOpenHandler() {}
  sendInputEvent() {}
}

async function call(name, payload, url) {
  return handlers.get(`gatehouse:${name}`)({ senderFrame: { url, parent: null } }, payload);
}

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.webContents = new WebContents();
    report('window', options.webPreferences);
  }
  async loadURL(url) {
    const page = await protocolHandler(new Request(url));
    const html = await page.text();
    const src = /<script type="module"[^>]*src="\.\/([^"]+)"/.exec(html)?.[1];
    const script = src ? await protocolHandler(new Request(new URL(src, url).href)) : null;
    report('page', {
      url,
      status: page.status,
      csp: page.headers.get('content-security-policy'),
      script: script && { status: script.status, type: script.headers.get('content-type') },
    });
    report('channels', [...handlers.keys()]);
    report('sessions.open', await call('sessions.open', { workspace: process.env.STUB_WORKSPACE }, url));
    report('refused', await call('sessions.list', {}, 'https://elsewhere.example/'));
    setTimeout(() => app.quit(), 50);
  }
  show() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  isFocused() {
    return false;
  }
  isVisible() {
    return true;
  }
  isDestroyed() {
    return false;
  }
  maximize() {}
  getNormalBounds() {
    return { x: 0, y: 0, width: 1280, height: 820 };
  }
}

const electron = {
  app,
  BrowserWindow,
  ipcMain: { handle: (channel, listener) => handlers.set(channel, listener) },
  Menu: { buildFromTemplate: (template) => ({ items: template }), setApplicationMenu() {} },
  Tray: class {
    constructor(icon) {
      report('tray', icon);
    }
    setToolTip() {}
    setContextMenu() {}
    on() {}
    destroy() {}
  },
  Notification: class {
    static isSupported() {
      return false;
    }
  },
  safeStorage: {
    isEncryptionAvailable: () => true,
    encryptString: (text) => Buffer.from(text),
    decryptString: (sealed) => sealed.toString(),
    getSelectedStorageBackend: () => 'gnome_libsecret',
  },
  dialog: {
    showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
    showMessageBox: async () => ({ response: 0 }),
  },
  shell: { openExternal: async () => undefined },
  protocol: {
    registerSchemesAsPrivileged: (schemes) => report('schemes', schemes),
    handle: (_scheme, handler) => {
      protocolHandler = handler;
    },
  },
  screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
  session: { defaultSession },
};

export default electron;
