# Run at build time (cmake -P): write the source tree's commit into OUT, touching the file only
# when it changes, so results name the commit a binary was built from, not the one it was
# configured at.
execute_process(COMMAND git -C ${SRC} describe --always --dirty --abbrev=12
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
endif()
set(content "// Generated at build time by cmake/GitCommit.cmake.\n#pragma once\nnamespace awave {\ninline constexpr const char* kGitCommit = \"${commit}\";\n}\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE ${OUT} "${content}")
endif()
