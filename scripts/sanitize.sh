#!/usr/bin/env bash
# Builds the core, the CLI and the tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (CMake preset "asan", folder build-asan/) and runs the `unit` tests under them. Any report
# stops the test that made it (halt_on_error=1), so a pass means zero reports.
#
#   scripts/sanitize.sh                 build everything, run ctest -L unit
#   scripts/sanitize.sh -R gguf         extra arguments go to ctest
#   LMSCOPE_SANITIZE_TARGETS="test_gguf_reader test_gguf_writer" scripts/sanitize.sh -R gguf
#                                       build only those targets (pair with a matching -R)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake --preset asan
if [[ -n "${LMSCOPE_SANITIZE_TARGETS:-}" ]]; then
  # shellcheck disable=SC2086
  cmake --build --preset asan --parallel "$(nproc)" --target ${LMSCOPE_SANITIZE_TARGETS}
else
  cmake --build --preset asan --parallel "$(nproc)"
fi

export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
log="build-asan/sanitize-ctest.log"
set +e
ctest --test-dir build-asan -L unit --output-on-failure --output-log "$log" "$@"
status=$?
set -e
# A report that did not fail its test (should not happen with halt_on_error) still counts.
if grep -Eq "runtime error:|ERROR: (Address|Leak)Sanitizer" "$log"; then
  echo "sanitize.sh: sanitizer reports found, see $log" >&2
  exit 1
fi
if [[ $status -eq 0 ]]; then
  echo "sanitize.sh: all unit tests passed under ASan + UBSan with zero reports"
fi
exit $status
