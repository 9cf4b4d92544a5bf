/**
 * Where credentials live below the home folder (SPEC §9). The home folder is empty inside
 * the sandbox, so these matter where something shown holds one: a toolchain folder that
 * also keeps a secret (`.dotnet/corefx`), or a place the person added in Settings before
 * broad folders were refused. Inside any shown place they stay hidden, and Settings
 * refuses to add a place that is one, holds one or lies inside one (shown-places.ts).
 *
 * Data, one entry a line with what it holds; paths are relative to the home folder. Each
 * was read where the tool really keeps it (Linux, XDG defaults).
 */
export interface SecretStore {
  /** Relative to the home folder. */
  path: string;
  /** What secret it holds, and for which tool. */
  why: string;
}

export const SECRET_STORES: readonly SecretStore[] = [
  // Keys and agents
  { path: '.ssh', why: 'SSH private keys' },
  { path: '.gnupg', why: 'GnuPG private keys' },
  { path: '.password-store', why: "pass's encrypted passwords" },
  { path: '.pki', why: "NSS's certificate and key database (Chromium's client certificates)" },
  { path: '.local/share/keyrings', why: "GNOME Keyring's stored passwords" },
  { path: '.local/share/kwalletd', why: "KWallet's stored passwords" },
  { path: '.dotnet/corefx', why: ".NET's X509 certificate store, with private keys (*.pfx)" },
  { path: '.config/sops', why: "sops' age private keys (sops/age/keys.txt)" },
  { path: '.config/op', why: "1Password CLI's session and account data" },
  { path: '.op', why: "1Password CLI's older config folder" },
  { path: '.config/Bitwarden CLI', why: "Bitwarden CLI's vault and session (data.json)" },
  // Cloud accounts
  { path: '.aws', why: 'AWS access keys (credentials, config, SSO cache)' },
  { path: '.azure', why: 'Azure CLI tokens' },
  { path: '.config/gcloud', why: 'Google Cloud SDK credentials' },
  { path: '.oci', why: 'Oracle Cloud API keys' },
  { path: '.kube', why: 'Kubernetes cluster credentials' },
  { path: '.docker', why: 'Docker registry logins (config.json auths)' },
  { path: '.config/rclone', why: "rclone's remotes, with their tokens and passwords (rclone.conf)" },
  { path: '.config/containers/auth.json', why: 'podman and buildah registry logins' },
  { path: '.config/doctl', why: 'DigitalOcean API token' },
  { path: '.config/hcloud', why: 'Hetzner Cloud API tokens (cli.toml)' },
  { path: '.fly', why: 'Fly.io access token (config.yml)' },
  { path: '.config/netlify', why: 'Netlify CLI access token (config.json)' },
  { path: '.local/share/com.vercel.cli', why: 'Vercel CLI token (auth.json)' },
  { path: '.vercel', why: "Vercel CLI's older token folder" },
  { path: '.now', why: 'Vercel CLI (when it was Now) token folder' },
  { path: '.config/configstore', why: 'tokens of npm CLIs built on configstore (firebase-tools.json, …)' },
  { path: '.config/stripe', why: 'Stripe CLI API keys (config.toml)' },
  { path: '.config/ngrok', why: 'ngrok authtoken' },
  { path: '.terraform.d/credentials.tfrc.json', why: 'Terraform Cloud API token' },
  { path: '.vault-token', why: 'HashiCorp Vault token' },
  { path: '.s3cfg', why: 's3cmd access keys' },
  { path: '.boto', why: 'gsutil and boto credentials' },
  { path: '.databrickscfg', why: 'Databricks tokens' },
  { path: '.cache/huggingface/token', why: 'Hugging Face access token' },
  // Git hosts
  { path: '.config/gh', why: 'GitHub CLI token (hosts.yml)' },
  { path: '.config/hub', why: 'hub GitHub token' },
  { path: '.config/glab-cli', why: 'GitLab CLI token' },
  { path: '.config/git/credentials', why: "git's credential store (XDG path)" },
  { path: '.git-credentials', why: "git's credential store" },
  { path: '.netrc', why: 'logins for curl, git, pip and heroku' },
  { path: '.config/github-copilot', why: 'GitHub Copilot tokens' },
  // Package registries
  { path: '.npmrc', why: 'npm registry tokens' },
  { path: '.yarnrc', why: 'yarn 1 registry tokens' },
  { path: '.yarnrc.yml', why: 'yarn 2+ npmAuthToken' },
  { path: '.config/pnpm/rc', why: "pnpm's global config, registry tokens included" },
  { path: '.pypirc', why: 'PyPI upload tokens' },
  { path: '.config/pip/pip.conf', why: 'pip index URLs with their passwords' },
  { path: '.pip', why: "pip's older config folder (pip.conf)" },
  { path: '.condarc', why: 'conda channel tokens' },
  { path: '.config/conda', why: "conda's XDG config (.condarc), channel tokens" },
  { path: '.cargo/credentials.toml', why: 'crates.io token' },
  { path: '.cargo/credentials', why: 'crates.io token (older name)' },
  { path: '.m2/settings.xml', why: 'Maven server passwords' },
  { path: '.gradle/gradle.properties', why: 'Gradle publishing and signing passwords' },
  { path: '.gem/credentials', why: 'RubyGems API key' },
  // Databases
  { path: '.pgpass', why: 'PostgreSQL passwords' },
  { path: '.my.cnf', why: 'MySQL passwords' },
  // Browsers, mail and chat: cookies, saved passwords, session tokens
  { path: '.mozilla', why: 'Firefox profiles' },
  { path: 'snap/firefox', why: 'Firefox (snap) profiles' },
  { path: '.thunderbird', why: 'Thunderbird profiles and mail' },
  { path: '.config/google-chrome', why: 'Chrome profiles' },
  { path: '.config/chromium', why: 'Chromium profiles' },
  { path: '.config/BraveSoftware', why: 'Brave profiles' },
  { path: '.config/microsoft-edge', why: 'Edge profiles' },
  { path: '.config/Code/User/globalStorage', why: "VS Code extensions' stored tokens" },
  { path: '.config/Slack', why: 'Slack session cookies' },
  { path: '.config/discord', why: 'Discord session token' },
  // Agents
  { path: '.claude', why: 'Claude Code credentials' },
  { path: '.codex', why: 'Codex CLI credentials' },
];
