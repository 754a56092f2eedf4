// The compiled half of plan/frontier.hpp: its bodies (frontier-inl.hpp), once, in the llmcost_plan library.
// CMake builds it unless LLMCOST_PLAN_HEADER_ONLY is ON (then every user compiles the bodies).
#ifdef LLMCOST_HEADER_ONLY
#error "llmcost: frontier.cpp is the compiled mode; with LLMCOST_HEADER_ONLY the headers hold the bodies"
#endif

#include <llmcost/plan/frontier-inl.hpp>
