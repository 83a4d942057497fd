# Sourced by the scripts that install a Debian package when something is missing
# (ensure-postgres.sh, ensure-clickhouse.sh); the caller defines `say`.
#
# apt_install PACKAGE...: apt-get install, after one apt-get update per script run; through
# `sudo -n` when not root.
SUDO=
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; fi
apt_install() {
  say "apt-get install $*"
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "${APT_UPDATED:-}" ]; then $SUDO apt-get update -q; APT_UPDATED=1; fi
  $SUDO apt-get install -y -q "$@"
}
