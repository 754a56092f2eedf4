# Shared steps of the scripts that keep generated files in the source tree current
# (examples/tools/*/check_*.cmake): run a generator into a scratch directory, compare what it wrote
# with the checked-in copies, and copy it over them. Include it from a script run with cmake -P.

# Runs `generator output_dir` into an emptied `output_dir`; it must succeed and write at least one
# file matching `pattern` (a glob such as "*" or "*.svg").
function(llmcost_run_generator generator output_dir pattern)
  get_filename_component(name ${generator} NAME)
  file(REMOVE_RECURSE ${output_dir})
  file(MAKE_DIRECTORY ${output_dir})
  execute_process(COMMAND ${generator} ${output_dir} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} exited with ${rc}:\n${err}")
  endif()
  file(GLOB written ${output_dir}/${pattern})
  if(NOT written)
    message(FATAL_ERROR "${name} wrote no ${pattern} into ${output_dir}")
  endif()
endfunction()

# `diff -u old new`, cut to `limit` characters, in `out_var`.
function(llmcost_diff_excerpt old new limit out_var)
  execute_process(COMMAND diff -u ${old} ${new} OUTPUT_VARIABLE delta)
  string(LENGTH "${delta}" length)
  if(length GREATER limit)
    string(SUBSTRING "${delta}" 0 ${limit} delta)
    string(APPEND delta "\n  …")
  endif()
  set(${out_var} "${delta}" PARENT_SCOPE)
endfunction()

# Every file matching `pattern` in `generated` must equal its copy in `checked_in`, and
# `checked_in` must hold no other; otherwise a fatal error lists each difference and says to
# rebuild `target` (`label` names the checked-in directory in the messages).
function(llmcost_compare_generated generated checked_in pattern label target)
  file(GLOB now RELATIVE ${generated} ${generated}/${pattern})
  file(GLOB then RELATIVE ${checked_in} ${checked_in}/${pattern})
  set(problems "")
  foreach(name IN LISTS now)
    if(NOT EXISTS ${checked_in}/${name})
      string(APPEND problems "\n  ${name}: generated but not in ${label}")
      continue()
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${generated}/${name} ${checked_in}/${name}
                    RESULT_VARIABLE differs)
    if(differs)
      llmcost_diff_excerpt(${checked_in}/${name} ${generated}/${name} 3000 delta)
      string(REPLACE "\n" "\n    " delta "    ${delta}")  # indented lines are printed as they are
      string(APPEND problems "\n  ${name}: differs from ${label}/${name}:\n${delta}")
    endif()
  endforeach()
  foreach(name IN LISTS then)
    if(NOT name IN_LIST now)
      string(APPEND problems "\n  ${name}: in ${label} but no longer generated")
    endif()
  endforeach()
  if(problems)
    message(FATAL_ERROR "${label} is stale: regenerate it with `cmake --build <build dir> --target ${target}` "
                        "and commit the result:${problems}")
  endif()
  list(LENGTH now n)
  message(STATUS "${label}: all ${n} files are current")
endfunction()

# Copies every file matching `pattern` from `generated` into `checked_in` (when different) and
# removes the checked-in files of that pattern that are no longer generated.
function(llmcost_sync_generated generated checked_in pattern label)
  file(MAKE_DIRECTORY ${checked_in})
  file(GLOB now RELATIVE ${generated} ${generated}/${pattern})
  file(GLOB old RELATIVE ${checked_in} ${checked_in}/${pattern})
  foreach(name IN LISTS old)
    if(NOT name IN_LIST now)
      file(REMOVE ${checked_in}/${name})
      message(STATUS "removed ${label}/${name} (no longer generated)")
    endif()
  endforeach()
  foreach(name IN LISTS now)
    file(COPY_FILE ${generated}/${name} ${checked_in}/${name} ONLY_IF_DIFFERENT)
  endforeach()
endfunction()
