# Sourced by the scripts that install a Python tool from PyPI into a virtualenv of its own
# (ensure-focus-validator.sh, ensure-schemathesis.sh).
#
# ensure_python_tool NAME VENV TOOL PACKAGE...: installs PACKAGE... into VENV unless VENV/bin/TOOL
# exists and the stamp names the same packages; creates VENV (installing Debian's python3-venv
# as root when it is missing). Answers 0 when it installed (the caller checks the tool, then
# calls `python_tool_installed`), 1 when already there. NAME prefixes the messages.
ensure_python_tool() {
  local name=$1 venv=$2 tool=$3
  shift 3
  local packages=("$@")
  local stamp="$venv/.costscope-$tool" wanted="${packages[*]}"

  if [[ -x "$venv/bin/$tool" && -f "$stamp" && "$(cat "$stamp")" == "$wanted" ]]; then
    echo "$name: $venv/bin/$tool is installed"
    return 1
  fi

  local python="" candidate
  for candidate in python3 python; do
    if command -v "$candidate" >/dev/null 2>&1; then python="$candidate"; break; fi
  done
  if [[ -z "$python" ]]; then
    echo "$name: no python3 found; install python3 and python3-venv" >&2
    exit 1
  fi

  if [[ ! -x "$venv/bin/python" ]] && ! "$python" -m venv "$venv"; then
    rm -rf "$venv"
    if command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
      echo "$name: installing python3-venv (apt-get)"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -q
      apt-get install -y -q --no-install-recommends python3-venv python3-pip
      python3 -m venv "$venv"
    else
      echo "$name: cannot create a virtualenv at $venv (install python3-venv)" >&2
      exit 1
    fi
  fi

  echo "$name: installing ${packages[*]} into $venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${packages[@]}"
  return 0
}

# python_tool_installed VENV TOOL PACKAGE...: records that PACKAGE... work in VENV.
python_tool_installed() {
  local venv=$1 tool=$2
  shift 2
  echo "$*" > "$venv/.costscope-$tool"
}
