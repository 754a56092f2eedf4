# Fails when README.md does not show SNIPPET verbatim from its first #include on, so the README's
# "your first estimate" program is the one that is compiled, run and golden-tested.
#   cmake -DREADME=README.md -DSNIPPET=examples/first_estimate.cpp -P check_readme_snippet.cmake
file(READ "${SNIPPET}" code)
string(FIND "${code}" "#include" start)
if(start EQUAL -1)
  message(FATAL_ERROR "${SNIPPET}: no #include line to start the snippet at")
endif()
string(SUBSTRING "${code}" ${start} -1 code)
file(READ "${README}" readme)
string(FIND "${readme}" "${code}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README} does not show ${SNIPPET} verbatim (from its first #include on): "
                      "copy the file's body into the README's code block")
endif()
message(STATUS "${README} shows ${SNIPPET} verbatim")
