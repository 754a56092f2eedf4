// The compiled half of sim/simulate.hpp: its bodies (simulate-inl.hpp), once, in the llmcost_plan library.
// CMake builds it unless LLMCOST_PLAN_HEADER_ONLY is ON (then every user compiles the bodies).
#ifdef LLMCOST_HEADER_ONLY
#error "llmcost: simulate.cpp is the compiled mode; with LLMCOST_HEADER_ONLY the headers hold the bodies"
#endif

#include <llmcost/sim/simulate-inl.hpp>
