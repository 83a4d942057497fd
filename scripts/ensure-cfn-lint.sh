#!/usr/bin/env bash
# Installs cfn-lint (PyPI), AWS's CloudFormation template linter, into a virtualenv at
# $COSTSCOPE_CFN_LINT_VENV (default ~/.cache/costscope-cfn-lint-venv). The core test
# crates/core/tests/onboarding_template.rs lints the AWS onboarding template with it (and
# fails, naming this script, when it is missing).
set -euo pipefail

VENV="${COSTSCOPE_CFN_LINT_VENV:-$HOME/.cache/costscope-cfn-lint-venv}"
PACKAGES=("cfn-lint==1.58.0")
source "$(dirname "${BASH_SOURCE[0]}")/lib-python-venv.sh"
if ensure_python_tool ensure-cfn-lint "$VENV" cfn-lint "${PACKAGES[@]}"; then
  "$VENV/bin/cfn-lint" --version >/dev/null
  echo "ensure-cfn-lint: installed $("$VENV/bin/cfn-lint" --version)"
  python_tool_installed "$VENV" cfn-lint "${PACKAGES[@]}"
fi
