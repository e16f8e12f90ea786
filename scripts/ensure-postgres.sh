#!/usr/bin/env bash
# The suite's PostgreSQL at 127.0.0.1:5432 (trust authentication, as Debian's
# packages set it up on these machines): started when installed and down,
# installed from Debian's packages when missing.
set -euo pipefail
ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
if command -v pg_isready >/dev/null && ready; then exit 0; fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  echo "Installing PostgreSQL from Debian's packages for the tests..."
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
  version="$(ls /etc/postgresql | head -n 1)"
  # Local connections without a password, as on the machines the suite was written on.
  $SUDO sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/; s/^(local\s+all\s+all\s+)\S+/\1trust/' "/etc/postgresql/$version/main/pg_hba.conf"
fi
echo "Starting PostgreSQL..."
$SUDO pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
for _ in $(seq 1 30); do ready && exit 0; sleep 1; done
echo "PostgreSQL did not start on 127.0.0.1:5432" >&2
exit 1
