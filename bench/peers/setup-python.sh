#!/usr/bin/env bash
# Creates one pinned venv per Python peer under bench/peers/.cache/venv-<peer>.
# Peers pin conflicting versions of langchain/pydantic, so they are kept apart.
# Idempotent: a venv whose pins file matches is reused. Writes one status line per peer to
# .cache/python-status.json so the harness can list a peer that failed to install with its reason.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
cache="$here/.cache"
mkdir -p "$cache"
py="${PEERS_PYTHON:-}"
if [ -z "$py" ]; then
  for candidate in python3.12 /root/.pyenv/versions/3.12.1/bin/python3.12 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)'; then
      py="$candidate"; break
    fi
  done
fi
if [ -z "$py" ]; then echo "setup-python: need Python >= 3.12 (set PEERS_PYTHON)" >&2; exit 1; fi

install_one() {
  local name="$1"; shift
  local venv="$cache/venv-$name"
  local pins="$*"
  local pins_array=("$@")
  if [ -f "$venv/.pins" ] && [ "$(cat "$venv/.pins")" = "$pins" ] && [ -f "$venv/.ok" ]; then
    echo "setup-python: $name up to date"; return 0
  fi
  rm -rf "$venv"
  "$py" -m venv "$venv" || return 1
  echo "$pins" > "$venv/.pins"
  if "$venv/bin/pip" install --disable-pip-version-check -q "${pins_array[@]}" > "$venv/install.log" 2>&1; then
    touch "$venv/.ok"; echo "setup-python: $name installed"
  else
    echo "setup-python: $name FAILED (see $venv/install.log)" >&2
  fi
}

only="${1:-all}"
# Pins: name then pip requirement(s). langchain-core >= 1.7.6 (so langchain >= 1.4.9) and openhands-sdk 1.58 need certifi >= 2026.10.19,
# which the registry here does not serve yet, so the previous releases are pinned.
declare -A PEERS=(
  [langchain]="langchain==1.4.5 langchain-core==1.7.0"
  [hermes]="hermes-agent==0.19.0"
  [praisonai]="praisonaiagents==1.7.17"
  [calute]="calute==0.1.5"
  [openhands]="openhands-sdk==1.57.0"
  # ra-aid 0.30.2 asks for langgraph>=0.3.20 with no upper bound; with langgraph 1.x its import fails
  # (no langgraph.graph.graph), so the 0.3 line of its release time is pinned beside it; likewise
  # fireworks-ai < 0.16 (ra_aid imports fireworks.client.error, gone in fireworks-ai 1.x).
  [raaid]="ra-aid==0.30.2 langgraph<0.4 langgraph-prebuilt<0.2 langchain<0.4 langchain-core<0.4 fireworks-ai<0.16"
  [detectsecrets]="detect-secrets==1.5.0"
)
for name in langchain detectsecrets hermes praisonai openhands calute raaid; do
  # shellcheck disable=SC2086 # the pins are words on purpose; none holds a space
  if [ "$only" = all ] || [ "$only" = "$name" ]; then install_one "$name" ${PEERS[$name]}; fi
done
