#!/usr/bin/env bash
# The suite's PostgreSQL at 127.0.0.1:5432 (trust authentication, as Debian's
# packages set it up on these machines): started when installed and down,
# installed from Debian's packages when missing. Safe to run again: it does
# nothing when PostgreSQL answers.
set -euo pipefail
ready() {
  if command -v pg_isready >/dev/null; then pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null
  else (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; fi
}
if ready; then exit 0; fi
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
version="$(ls /etc/postgresql | head -n 1)"
echo "Starting PostgreSQL $version..."
# The package's own start may have run before pg_hba.conf was changed: reload it if the cluster is up, else start it.
if $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main status >/dev/null 2>&1; then
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
else
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
fi
# Polling is the way to wait for a server process to accept connections; 30 s at most.
for _ in $(seq 1 60); do ready && exit 0; sleep 0.5; done
echo "PostgreSQL did not start on 127.0.0.1:5432" >&2
exit 1
