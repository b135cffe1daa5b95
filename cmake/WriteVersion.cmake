# SPDX-License-Identifier: GPL-3.0-or-later
# Writes tickscope_version.h: the project version and, when built from a git checkout, the revision
# (`git describe --always --dirty`). Runs on every build; configure_file rewrites the header only when
# its text changes, so an unchanged revision rebuilds nothing.
# Inputs: SRC (source dir), OUT (header path), VERSION (project version).
execute_process(COMMAND git -C "${SRC}" describe --always --dirty --abbrev=10
                OUTPUT_VARIABLE TICKSCOPE_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  set(TICKSCOPE_REVISION "")
endif()
set(TICKSCOPE_VERSION "${VERSION}")
if(TICKSCOPE_REVISION)
  set(TICKSCOPE_REVISION_SUFFIX " (git ${TICKSCOPE_REVISION})")
else()
  set(TICKSCOPE_REVISION_SUFFIX "")
endif()
configure_file("${SRC}/cmake/tickscope_version.h.in" "${OUT}" @ONLY)
