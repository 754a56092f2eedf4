// The compiled half of plan/sweep.hpp: its body (sweep-inl.hpp), once, in the llmcost_plan library.
// CMake builds it unless LLMCOST_PLAN_HEADER_ONLY is ON (then every user compiles the body).
#ifdef LLMCOST_HEADER_ONLY
#error "llmcost: sweep.cpp is the compiled mode; with LLMCOST_HEADER_ONLY the headers hold the bodies"
#endif

#include <llmcost/plan/sweep-inl.hpp>
