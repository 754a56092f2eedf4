#pragma once
/// \file
/// The planning layer's two build modes, as {fmt}'s `FMT_HEADER_ONLY`:
/// - compiled (the default of the CMake target `llmcost::plan`): the heavy bodies — calibration's
///   Levenberg–Marquardt fit, covariance and Student-t intervals, the capacity planner, the
///   frontier — are compiled once, into the `llmcost_plan` library; the public headers declare them;
/// - header-only (`LLMCOST_HEADER_ONLY` defined; CMake: `-DLLMCOST_PLAN_HEADER_ONLY=ON`, or no
///   CMake at all): each public header also includes its `…-inl.hpp`, whose definitions are `inline`.
/// Every translation unit of a program must agree on the mode (the CMake target sees to it).

#ifdef LLMCOST_HEADER_ONLY
#define LLMCOST_FUNC inline
#else
#define LLMCOST_FUNC
#endif
