# Checks that docs/sources.md defines every ledger or reference id the project cites.
#   cmake -DROOT=<source dir> -P check_sources.cmake
# An id is a whole word (no letter, digit or _ on either side) in the grammar below, the one
# docs/sources.md states at its top; it is defined by a table row of docs/sources.md that starts
# with "| ID |". Scanned: include/**/*.hpp|cpp, examples/**/*.cpp|hpp, tests/**/*.cpp|hpp, README.md,
# docs/*.md (but sources.md), tables/*.csv and tables/*.md.
cmake_minimum_required(VERSION 3.25)  # script mode: IN_LIST, GREATER_EQUAL
if(NOT ROOT)
  get_filename_component(ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)  # a relative ROOT would glob nothing
set(id_grammar "^(S[1-9][0-9]?[0-9]?|T[1-9][0-9]?[0-9]?|B[0-9][0-9]|B10[1-9]|B1[1-9][0-9]|E[0-9][0-9][0-9]?|[LNPST]0[0-9])$")
set(doc ${ROOT}/docs/sources.md)
if(NOT EXISTS ${doc})
  message(FATAL_ERROR "${doc} is missing: it defines the ids (S16, T7, B01, …) the sources cite")
endif()

# The definitions: "| ID |" at the start of a line.
file(READ ${doc} text)
string(REGEX MATCHALL "\n\\| [A-Z][0-9]+ \\|" rows "\n${text}")
set(defined "")
foreach(row IN LISTS rows)
  string(REGEX REPLACE "^\n\\| ([A-Z][0-9]+) \\|$" "\\1" id "${row}")
  if(NOT id MATCHES "${id_grammar}")
    message(FATAL_ERROR "docs/sources.md defines '${id}', which is not in its id grammar: "
                        "correct the row, or widen the grammar here and in docs/sources.md")
  endif()
  list(APPEND defined ${id})
endforeach()
list(REMOVE_DUPLICATES defined)

file(GLOB_RECURSE files RELATIVE ${ROOT}
  ${ROOT}/include/*.hpp ${ROOT}/include/*.cpp ${ROOT}/examples/*.cpp ${ROOT}/examples/*.hpp
  ${ROOT}/tests/*.cpp ${ROOT}/tests/*.hpp)
file(GLOB more RELATIVE ${ROOT} ${ROOT}/README.md ${ROOT}/docs/*.md ${ROOT}/tables/*.csv ${ROOT}/tables/*.md)
list(APPEND files ${more})
list(REMOVE_ITEM files docs/sources.md)
list(SORT files)

set(problems "")
set(count 0)
foreach(f IN LISTS files)
  file(READ ${ROOT}/${f} content)
  # Whole words that hold a family letter followed by digits; the grammar then keeps the ids
  # (B200, SXM5, FP8, L31, P90, E1 are words too, but not ids).
  string(REGEX MATCHALL "[A-Za-z0-9_]*[BELNPST][0-9]+[A-Za-z0-9_]*" words "${content}")
  list(REMOVE_DUPLICATES words)
  foreach(w IN LISTS words)
    if(NOT w MATCHES "${id_grammar}")
      continue()
    endif()
    math(EXPR count "${count} + 1")
    if(w IN_LIST defined)
      continue()
    endif()
    # The line of its first whole-word occurrence, for the message.
    string(LENGTH "${w}" wlen)
    string(LENGTH "${content}" clen)
    set(from 0)
    set(line "?")
    while(from LESS clen)
      string(SUBSTRING "${content}" ${from} -1 rest)
      string(FIND "${rest}" "${w}" at)
      if(at EQUAL -1)
        break()
      endif()
      math(EXPR at "${from} + ${at}")
      math(EXPR before "${at} - 1")
      math(EXPR after "${at} + ${wlen}")
      set(ok TRUE)
      if(before GREATER_EQUAL 0)
        string(SUBSTRING "${content}" ${before} 1 c)
        if(c MATCHES "[A-Za-z0-9_]")
          set(ok FALSE)
        endif()
      endif()
      if(after LESS clen)
        string(SUBSTRING "${content}" ${after} 1 c)
        if(c MATCHES "[A-Za-z0-9_]")
          set(ok FALSE)
        endif()
      endif()
      if(ok)
        string(SUBSTRING "${content}" 0 ${at} head)
        string(REGEX REPLACE "[^\n]" "" newlines "${head}")
        string(LENGTH "${newlines}" line)
        math(EXPR line "${line} + 1")
        break()
      endif()
      math(EXPR from "${at} + 1")
    endwhile()
    string(APPEND problems "\n  ${f}:${line}: cites ${w}, which docs/sources.md does not define")
  endforeach()
endforeach()

if(NOT problems STREQUAL "")
  message(FATAL_ERROR "ids cited but not defined in docs/sources.md:${problems}\n"
    "Add a row '| ID | claim | figure with unit | source |' to the family's table in docs/sources.md "
    "(S*/T* rows from ../shared/seeds/LEDGER.md, B/L/N/P/S0/T0 rows from "
    "../shared/reference/calibration.csv or tables/*.csv), in your own words with the source; or, "
    "if the word is not a ledger or reference id, rename it so it is no whole word of the grammar "
    "at the top of docs/sources.md.")
endif()
list(LENGTH files nfiles)
list(LENGTH defined ndefined)
message(STATUS "docs/sources.md defines ${ndefined} ids; ${count} distinct (file, id) citations in ${nfiles} files, all defined")
