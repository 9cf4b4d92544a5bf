/**
 * The environment a confined command, a Stop hook or a workspace's MCP server gets
 * (SPEC §9): only the variables named here, and never one whose name looks like a
 * secret, even when it is named here. An app's environment carries tokens under every
 * name imaginable (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DATABASE_URL); a deny-list of
 * names always misses one, so this is an allow-list.
 *
 * Data, one entry a line with why it is there; a test checks the comments and that each
 * secret pattern drops what it names. A value keeps no URL credentials
 * (`withoutUrlCredentials`).
 */

/** Exact names a command may see. */
export const ALLOWED_ENV_NAMES: readonly { name: string; why: string }[] = [
  { name: 'PATH', why: 'where programs are found' },
  { name: 'HOME', why: 'set to the private home inside (never the real one)' },
  { name: 'USER', why: 'who runs it; tools print it and some need it' },
  { name: 'LOGNAME', why: 'the same as USER, for older tools' },
  { name: 'SHELL', why: 'the shell a tool starts when it needs one' },
  { name: 'LANG', why: 'the locale: how text is encoded and sorted' },
  { name: 'LANGUAGE', why: 'message language preference' },
  { name: 'TZ', why: 'the time zone' },
  { name: 'TERM', why: 'what the output may assume of a terminal' },
  { name: 'COLORTERM', why: 'whether colours are wanted' },
  { name: 'NO_COLOR', why: 'the person asked for no colours' },
  { name: 'FORCE_COLOR', why: 'the person asked for colours' },
  { name: 'CI', why: 'non-interactive mode for test runners' },
  { name: 'EDITOR', why: 'the editor a tool would open (it gets no terminal, but tools read it)' },
  { name: 'PAGER', why: 'the pager tools pipe long output to' },
  { name: 'TMPDIR', why: 'set to the private /tmp inside' },
  { name: 'SSL_CERT_FILE', why: 'a custom CA bundle, e.g. behind a company proxy' },
  { name: 'SSL_CERT_DIR', why: 'a custom CA folder' },
  { name: 'NODE_EXTRA_CA_CERTS', why: "extra CAs for Node's TLS" },
  { name: 'REQUESTS_CA_BUNDLE', why: "a CA bundle for Python's requests" },
  // Toolchains: where they live, which version, how they build.
  { name: 'CARGO_HOME', why: "where cargo's registry and binaries are" },
  { name: 'RUSTUP_HOME', why: "where rustup's toolchains are" },
  { name: 'RUSTUP_TOOLCHAIN', why: 'which Rust toolchain to use' },
  { name: 'RUST_BACKTRACE', why: 'backtraces in Rust test failures' },
  { name: 'GOPATH', why: "where Go's module cache and binaries are" },
  { name: 'GOROOT', why: 'which Go installation' },
  { name: 'GOFLAGS', why: 'default flags for the go command' },
  { name: 'GOPROXY', why: 'where Go fetches modules (through the proxy, when allowed)' },
  { name: 'GO111MODULE', why: 'Go module mode' },
  { name: 'PYENV_ROOT', why: "where pyenv's Python versions are" },
  { name: 'PYENV_VERSION', why: 'which Python pyenv picks' },
  { name: 'VIRTUAL_ENV', why: 'the active Python virtual environment' },
  { name: 'CONDA_PREFIX', why: 'the active conda environment' },
  { name: 'CONDA_DEFAULT_ENV', why: 'the active conda environment name' },
  { name: 'PYTHONPATH', why: 'extra Python import folders' },
  { name: 'PYTHONDONTWRITEBYTECODE', why: 'no .pyc files' },
  { name: 'PYTHONUNBUFFERED', why: 'unbuffered Python output' },
  { name: 'NVM_DIR', why: 'where nvm is' },
  { name: 'NVM_BIN', why: "nvm's active Node" },
  { name: 'VOLTA_HOME', why: 'where Volta is' },
  { name: 'FNM_DIR', why: 'where fnm is' },
  { name: 'BUN_INSTALL', why: 'where bun is' },
  { name: 'DENO_DIR', why: "deno's cache" },
  { name: 'DENO_INSTALL', why: 'where deno is' },
  { name: 'PNPM_HOME', why: 'where pnpm is' },
  { name: 'NODE_ENV', why: 'development or production mode' },
  { name: 'NODE_OPTIONS', why: 'flags for every node process (memory limits, loaders)' },
  { name: 'JAVA_HOME', why: 'which JDK' },
  { name: 'MAVEN_HOME', why: 'which Maven' },
  { name: 'GRADLE_HOME', why: 'which Gradle' },
  { name: 'SDKMAN_DIR', why: 'where SDKMAN! is' },
  { name: 'DOTNET_ROOT', why: 'which .NET SDK' },
  { name: 'GEM_HOME', why: 'where Ruby gems are' },
  { name: 'GEM_PATH', why: 'where Ruby gems are' },
  { name: 'RBENV_ROOT', why: 'where rbenv is' },
  { name: 'ASDF_DIR', why: 'where asdf is' },
  { name: 'ASDF_DATA_DIR', why: "where asdf's installs are" },
  { name: 'MISE_DATA_DIR', why: "where mise's installs are" },
  { name: 'CC', why: 'the C compiler for native builds' },
  { name: 'CXX', why: 'the C++ compiler for native builds' },
  { name: 'CFLAGS', why: 'C compiler flags' },
  { name: 'CXXFLAGS', why: 'C++ compiler flags' },
  { name: 'LDFLAGS', why: 'linker flags' },
  { name: 'PKG_CONFIG_PATH', why: 'where pkg-config finds libraries' },
  { name: 'LD_LIBRARY_PATH', why: 'where shared libraries are found' },
  { name: 'MAKEFLAGS', why: 'default flags for make (e.g. -j)' },
];

/** Name prefixes a command may see: the locale's categories and the XDG base folders' names. */
export const ALLOWED_ENV_PREFIXES: readonly { prefix: string; why: string }[] = [
  { prefix: 'LC_', why: 'locale categories (LC_ALL, LC_CTYPE, …)' },
];

/**
 * Names that look like a secret. A variable whose name matches is dropped even when the
 * allow-list (or the person, in Settings) names it: a token under an allowed name is
 * still a token.
 */
export const SECRET_NAME_PATTERNS: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /TOKEN/i, why: 'GITHUB_TOKEN, NPM_TOKEN, HF_TOKEN, …' },
  { pattern: /SECRET/i, why: 'AWS_SECRET_ACCESS_KEY, CLIENT_SECRET, …' },
  { pattern: /PASSWORD|PASSWD|PASS$/i, why: 'PGPASSWORD, MYSQL_PWD-like passwords' },
  { pattern: /_KEY$|^KEY$|APIKEY|API_KEY|PRIVATE_KEY|ACCESS_KEY/i, why: 'OPENAI_API_KEY, STRIPE_KEY, …' },
  { pattern: /CREDENTIAL/i, why: 'GOOGLE_APPLICATION_CREDENTIALS and the like' },
  { pattern: /AUTH/i, why: 'ANTHROPIC_AUTH_TOKEN, NPM_CONFIG__AUTH, XAUTHORITY, …' },
  { pattern: /COOKIE|SESSION/i, why: 'session cookies and ids' },
  { pattern: /^AWS_|^AZURE_|^GCP_|^GOOGLE_|^CLOUDSDK_|^DO_|^DIGITALOCEAN_/i, why: 'cloud accounts' },
  { pattern: /DATABASE_URL|_DSN$|^DSN$|_URI$|CONNECTION_STRING/i, why: 'connection strings carry passwords' },
  { pattern: /^PG|^MYSQL|^MONGO|^REDIS/i, why: 'database clients read passwords from these' },
  {
    pattern: /SSH_AUTH_SOCK|GPG_AGENT|DBUS_SESSION|XDG_RUNTIME_DIR|DISPLAY|WAYLAND/i,
    why: "sockets to the person's agents and desktop",
  },
];

export function looksSecret(name: string): boolean {
  return SECRET_NAME_PATTERNS.some(({ pattern }) => pattern.test(name));
}

export function isAllowedName(name: string, extra: readonly string[] = []): boolean {
  if (looksSecret(name)) return false;
  return (
    ALLOWED_ENV_NAMES.some((e) => e.name === name) ||
    ALLOWED_ENV_PREFIXES.some((e) => name.startsWith(e.prefix)) ||
    extra.includes(name)
  );
}

/**
 * The allowed part of an environment, in its order, each value without the credentials a
 * URL in it carries. `extra` adds names (never secret-looking ones).
 */
export function allowedEnv(env: NodeJS.ProcessEnv, extra: readonly string[] = []): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && isAllowedName(name, extra)) result[name] = withoutUrlCredentials(value);
  }
  return result;
}

/**
 * A URL's user and password (`scheme://user:token@host`), in any allowed variable: an
 * allowed name can still carry a token in its value (GOPROXY=https://user:token@proxy,
 * or a list of such URLs split by , or |). Up to the last @ before the host, so a
 * password with an @ in it goes whole.
 */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s,|]*@/gi;

/** The value with each URL's credentials taken out (`https://host`); the rest as it was. */
export function withoutUrlCredentials(value: string): string {
  return value.replace(URL_CREDENTIALS, '$1');
}
