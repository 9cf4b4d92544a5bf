/**
 * What a confined command sees of the home folder (SPEC §9): nothing, except these
 * places, shown read-only where they exist. They hold toolchains and package caches that
 * everyday commands (`npm test`, `python3 -m pytest`, `cargo test`, `go test`) start
 * from. A place is on this list only if it holds programs or downloaded packages, never
 * credentials: a folder that mixes both is listed by its safe parts (`.cargo/bin`, not
 * `.cargo`, which holds `credentials.toml`; a Node version's `bin` and `lib`, not its `etc`,
 * where npm keeps a global `npmrc` with tokens). A `*` part stands for every folder there
 * (each installed version). Credential files a tool keeps inside its install folder are
 * hidden by name (credential-files.ts), and secret stores inside one by path
 * (secret-stores.ts).
 *
 * `$HOME` inside the sandbox is a private, writable, empty folder, so a tool that writes
 * a cache or a history file there still works, and what it wrote is gone with the run.
 * The person can add places in Settings (they are shown read-only the same way).
 *
 * Paths are relative to the home folder. A test checks each entry's comment exists, that
 * no entry is a folder Settings would refuse (`.config`, `.local`, `.cache`), and that the
 * card names what is shown.
 */
export interface ShownHomePlace {
  /** Relative to the home folder. */
  path: string;
  /** Why a command needs it: which tool reads it. */
  why: string;
  /**
   * Downloaded packages only, kept read-only by their tool: no one writes config there,
   * so the credential-file search (credential-files.ts) does not spend its bound on it.
   */
  cache?: true;
}

export const SHOWN_HOME_PLACES: readonly ShownHomePlace[] = [
  // Rust
  { path: '.rustup', why: 'rustup toolchains and their settings (rustc, cargo, std)' },
  { path: '.cargo/bin', why: 'cargo and the binaries `cargo install` put there' },
  { path: '.cargo/registry', why: "cargo's crate registry cache, so `cargo test` builds offline", cache: true },
  { path: '.cargo/git', why: "cargo's cache of git dependencies", cache: true },
  // Python
  { path: '.pyenv', why: 'pyenv shims and Python versions' },
  { path: '.local/bin', why: 'programs from `pip install --user` and pipx' },
  { path: '.local/lib', why: 'user site-packages (`pip install --user`)' },
  { path: '.local/pipx', why: "pipx's virtual environments, which ~/.local/bin links into" },
  { path: '.local/share/virtualenvs', why: "pipenv's virtual environments" },
  { path: '.virtualenvs', why: "virtualenvwrapper's virtual environments" },
  { path: '.pixi/bin', why: 'pixi and the tools it installed' },
  { path: 'miniconda3', why: 'a Miniconda install (its python, conda and environments)' },
  { path: 'anaconda3', why: 'an Anaconda install' },
  { path: 'miniforge3', why: 'a Miniforge install' },
  // JavaScript
  // nvm by its parts: each version's etc/npmrc is npm's global config, tokens included.
  { path: '.nvm/nvm.sh', why: 'nvm itself, for scripts that source it' },
  { path: '.nvm/nvm-exec', why: 'nvm exec' },
  { path: '.nvm/alias', why: "nvm's default and named versions" },
  { path: '.nvm/versions/node/*/bin', why: 'node, npm and npx of each Node version nvm installed' },
  { path: '.nvm/versions/node/*/lib', why: "npm itself and the global packages' code" },
  { path: '.nvm/versions/node/*/include', why: 'Node headers, for native addons (node-gyp)' },
  { path: '.volta', why: 'Volta and the Node versions and tools it pinned' },
  { path: '.fnm', why: 'fnm and its Node versions' },
  { path: '.local/share/fnm', why: 'fnm (XDG layout) and its Node versions' },
  { path: '.bun/bin', why: 'bun' },
  { path: '.bun/install/cache', why: "bun's package cache", cache: true },
  { path: '.deno/bin', why: 'deno and `deno install`ed tools' },
  { path: '.cache/deno', why: "deno's module cache", cache: true },
  { path: '.local/share/pnpm', why: 'pnpm and its content-addressed store' },
  { path: '.cache/ms-playwright', why: "Playwright's downloaded browsers", cache: true },
  // Go
  { path: 'go/bin', why: 'binaries from `go install`' },
  {
    path: 'go/pkg/mod',
    why: "Go's module cache (read-only by design), so `go test` builds offline",
    cache: true,
  },
  { path: 'sdk', why: 'Go versions installed with `go install golang.org/dl/...`' },
  // Version managers for several languages
  { path: '.asdf', why: 'asdf shims and installs' },
  { path: '.local/share/mise', why: 'mise installs' },
  { path: '.local/share/rtx', why: 'rtx (mise before its rename) installs' },
  { path: '.rbenv', why: 'rbenv shims and Ruby versions' },
  { path: '.nodenv', why: 'nodenv shims and Node versions' },
  { path: '.sdkman/candidates', why: 'SDKMAN! JDKs, Gradle, Maven and Kotlin' },
  { path: '.jdks', why: 'JDKs downloaded by IntelliJ' },
  {
    path: '.m2/repository',
    why: "Maven's artifact cache (not settings.xml, which holds server passwords)",
    cache: true,
  },
  // .NET by its parts: .dotnet/corefx is its certificate store, with private keys.
  { path: '.dotnet/dotnet', why: 'the dotnet host of the SDK installed per user' },
  { path: '.dotnet/host', why: "the host's resolver (hostfxr)" },
  { path: '.dotnet/sdk', why: 'the SDK versions' },
  { path: '.dotnet/shared', why: 'the runtimes' },
  { path: '.dotnet/packs', why: 'targeting packs, for builds' },
  { path: '.dotnet/sdk-manifests', why: 'workload manifests' },
  { path: '.dotnet/templates', why: '`dotnet new` templates' },
  { path: '.dotnet/metadata', why: 'workload metadata' },
  { path: '.dotnet/tools', why: '`dotnet tool install -g` tools' },
  { path: '.ghcup/bin', why: 'GHC and cabal from ghcup' },
  { path: '.elan', why: 'Lean toolchains' },
  { path: '.opam', why: 'OCaml switches' },
  { path: '.nix-profile', why: 'the per-user Nix profile (links into /nix)' },
];
