// A quantity kept in gigabytes converts to bytes only when asked: bytes_t{gb}.
// expect: conversion from .*to non-scalar type|no viable conversion
#include <llmcost/units.hpp>

int main() {
    constexpr llmcost::gigabytes_t gb = llmcost::gigabytes_t::from_value(40.0);
#ifdef LLMCOST_COMPILE_FAIL_CONTROL
    llmcost::bytes_t b{gb};
#else
    llmcost::bytes_t b = gb;
#endif
    return b.value() > 0 ? 0 : 1;
}
